package pa

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The Directory Service (XP Z12-013 annex B, testdata/pa) tells where a
// company receives its invoices: its directory lines (lignes d'annuaire),
// each an addressing identifier for a SIREN — or one of its SIRETs, or a
// routing code — and the platform that receives for it. The pa job reads it
// before depositing a document, once per buyer and run, to warn (never to
// block) when the buyer has no line (core/jobs, pa.DirectoryNote).

// DirectoryLine is a directory line as Primeur reads it.
type DirectoryLine struct {
	AddressingIdentifier string `json:"addressingIdentifier"`
	SIREN                string `json:"siren"`
	SIRET                string `json:"siret,omitempty"`
	Suffix               string `json:"addressingSuffix,omitempty"`
	Routing              *struct {
		Identifier string `json:"routingIdentifier,omitempty"`
	} `json:"routingCode,omitempty"`
	Platform *struct {
		Type   string `json:"platformType,omitempty"`
		Status string `json:"platformStatus,omitempty"`
	} `json:"platform,omitempty"`
	LegalUnit *struct {
		BusinessName         string `json:"businessName,omitempty"`
		AdministrativeStatus string `json:"administrativeStatus,omitempty"`
	} `json:"legalUnit,omitempty"`
}

// Enabled says the line's platform receives (its status is not Disabled).
func (l DirectoryLine) Enabled() bool {
	return l.Platform == nil || l.Platform.Status != "Disabled"
}

// Directory calls a PA's Directory Service with the client's token.
type Directory struct {
	c    *Client
	base string
}

// Directory is the Directory Service at url (its base URL, before /v1),
// called with this client's token and limits.
func (c *Client) Directory(url string) (*Directory, error) {
	if err := CheckURL("directory-url", url); err != nil {
		return nil, err
	}
	return &Directory{c: c, base: strings.TrimRight(strings.TrimSpace(url), "/")}, nil
}

// Lines returns the directory lines of a SIREN (9 digits), those of the
// SIREN itself only (the search's "contains" also finds longer ones).
func (d *Directory) Lines(ctx context.Context, siren string) ([]DirectoryLine, error) {
	if len(siren) != 9 || strings.Trim(siren, "0123456789") != "" {
		return nil, &Error{Op: "directory", Code: ReasonOtherTechnicalError, err: fmt.Errorf("SIREN %q: 9 digits expected", siren)}
	}
	type filter struct {
		Op    string `json:"op"`
		Value string `json:"value"`
	}
	q, err := json.Marshal(map[string]any{"filters": map[string]any{"siren": filter{"contains", siren}}, "limit": 100})
	if err != nil {
		return nil, fmt.Errorf("pa: directory: %w", err)
	}
	var out struct {
		Results []DirectoryLine `json:"results"`
	}
	if err := d.c.call(ctx, "directory", http.MethodPost, d.base+"/v1/directory-line/search", "application/json", bytes.NewReader(q), &out, MaxJSON); err != nil {
		return nil, err
	}
	lines := make([]DirectoryLine, 0, len(out.Results))
	for _, l := range out.Results {
		if l.SIREN == siren {
			lines = append(lines, l)
		}
	}
	return lines, nil
}
