package pa

import (
	"context"
	"fmt"
	"time"

	"primeur/core/store"
)

// DocStatus is where a document stands on its producer's PA, as the
// invoice lists of both parties show it (PRODUCT §16 "Electronic invoicing
// through an approved platform").
type DocStatus struct {
	// Status is the latest status's code ("submitted", "200", "213"…; ""
	// while not deposited yet), Label its French ("Déposée").
	Status string
	Label  string
	// At is when the latest status was set (zero while not deposited).
	At time.Time
	// ReasonCode and Reason are the motive of the latest status that had
	// one (a rejection, a refusal).
	ReasonCode, Reason string
	// Error is the last failure of its deposit in French, while it is not
	// deposited ("" for none): the producer's only.
	Error string
	// History is every status, oldest first.
	History []Status
	// ReplacedBy is, for a rejected invoice re-issued (Reissue), the
	// number of the invoice replacing it; "" otherwise.
	ReplacedBy string
	// CancelledBy is the number of the internal credit note cancelling
	// the invoice (a replaced one, or one the buyer refused: Reissue,
	// CancelRefused); "" otherwise.
	CancelledBy string
	// Directory is what the producer's Directory Service said of the
	// buyer before the deposit: DirectoryFound, DirectoryAbsent, or ""
	// (not asked, or no answer).
	Directory string
}

// What a Directory Service said of a document's buyer (pa_deposits'
// directory, migration 66).
const (
	DirectoryFound  = "found"
	DirectoryAbsent = "absent"
)

// DirectoryNote is what each party reads of a buyer the directory does
// not know ("" otherwise): the producer learns why the invoice may not
// arrive, the shop what to do so that it does.
func DirectoryNote(directory string, producer bool) string {
	switch {
	case directory != DirectoryAbsent:
		return ""
	case producer:
		return "Le client n'a pas de ligne dans l'annuaire de la facturation électronique : sa plateforme pourrait ne pas recevoir la facture."
	default:
		return "Votre entreprise n'a pas de ligne dans l'annuaire de la facturation électronique : choisissez une plateforme agréée pour recevoir vos factures."
	}
}

// StatusesOf reads the deposits and statuses of the documents ids: only
// the documents with a row of pa_deposits (taken up by the pa job) are in
// the map.
func StatusesOf(ctx context.Context, q store.Q, ids []string) (map[string]DocStatus, error) {
	out := map[string]DocStatus{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID       string `db:"document_id"`
		Status   string `db:"status"`
		StatusAt *int64 `db:"status_at"`
		Flow     string `db:"flow_id"`
		Error    string `db:"error"`
		Dir      string `db:"directory"`
		Replaced string `db:"replaced_by"`
		Cancel   string `db:"cancelled_by"`
	}
	if err := store.SelectIn(ctx, q, &rows, `SELECT p.document_id, p.status, p.status_at, COALESCE(p.flow_id, '') AS flow_id, p.error,
		p.directory, COALESCE(r.number, '') AS replaced_by,
		COALESCE((SELECT MIN(c.number) FROM documents c WHERE c.invoice_id = d.id AND c.internal), '') AS cancelled_by
		FROM pa_deposits p JOIN documents d ON d.id = p.document_id LEFT JOIN documents r ON r.id = d.replaced_by
		WHERE p.document_id IN (?)`, ids); err != nil {
		return nil, fmt.Errorf("pa: statuses of documents: %w", err)
	}
	if len(rows) == 0 {
		return out, nil
	}
	var hist []struct {
		ID         string `db:"document_id"`
		Status     string `db:"status"`
		ReasonCode string `db:"reason_code"`
		Reason     string `db:"reason"`
		At         int64  `db:"at"`
	}
	if err := store.SelectIn(ctx, q, &hist, `SELECT document_id, status, reason_code, reason, at FROM pa_statuses
		WHERE document_id IN (?) ORDER BY at, recorded_at, source`, ids); err != nil {
		return nil, fmt.Errorf("pa: histories of documents: %w", err)
	}
	for _, r := range rows {
		s := DocStatus{Status: r.Status, History: []Status{}, Directory: r.Dir, ReplacedBy: r.Replaced, CancelledBy: r.Cancel}
		if r.Status != "" {
			s.Label = StatusLabel(r.Status)
		}
		if r.StatusAt != nil {
			s.At = time.UnixMilli(*r.StatusAt)
		}
		if r.Flow == "" {
			s.Error = r.Error
		}
		out[r.ID] = s
	}
	for _, h := range hist {
		s, ok := out[h.ID]
		if !ok {
			continue
		}
		s.History = append(s.History, Status{Status: h.Status, Label: StatusLabel(h.Status), ReasonCode: h.ReasonCode,
			Reason: h.Reason, At: time.UnixMilli(h.At)})
		if h.Status == s.Status && (h.Reason != "" || h.ReasonCode != "") {
			s.ReasonCode, s.Reason = h.ReasonCode, h.Reason
		}
		out[h.ID] = s
	}
	return out, nil
}

// Connected says whether producerID has a connection, and since when its
// documents are deposited.
func Connected(ctx context.Context, q store.Q, producerID string) (bool, time.Time, error) {
	var from []int64
	if err := store.Select(ctx, q, &from, `SELECT deposit_from FROM pa_connections WHERE producer_id = ?`, producerID); err != nil {
		return false, time.Time{}, fmt.Errorf("pa: connected: %w", err)
	}
	if len(from) == 0 {
		return false, time.Time{}, nil
	}
	return true, time.UnixMilli(from[0]), nil
}

// Disconnect removes producerID's connection: its documents are no longer
// deposited; those deposited keep their flows and statuses.
func Disconnect(ctx context.Context, q store.Q, producerID string) error {
	if _, err := store.Exec(ctx, q, `DELETE FROM pa_connections WHERE producer_id = ?`, producerID); err != nil {
		return fmt.Errorf("pa: disconnect: %w", err)
	}
	return nil
}

// One reads producerID's connection, its secret opened with keys (nil:
// not opened, SecretErr says so); ok is false when it has none.
func One(ctx context.Context, q store.Q, keys *Keyring, producerID string) (Connection, bool, error) {
	var rows []connectionRow
	if err := store.Select(ctx, q, &rows, `SELECT producer_id, flow_url, token_url, client_id, client_secret, directory_url,
		connected_at, deposit_from, polled_after FROM pa_connections WHERE producer_id = ?`, producerID); err != nil {
		return Connection{}, false, fmt.Errorf("pa: connection: %w", err)
	}
	if len(rows) == 0 {
		return Connection{}, false, nil
	}
	r := rows[0]
	c := Connection{ProducerID: r.ProducerID, FlowURL: r.FlowURL, TokenURL: r.TokenURL, ClientID: r.ClientID,
		DirectoryURL: r.DirectoryURL, ConnectedAt: time.UnixMilli(r.ConnectedAt), DepositFrom: time.UnixMilli(r.DepositFrom),
		PolledAfter: r.PolledAfter}
	if keys == nil {
		c.SecretErr = ErrNoKey
	} else {
		c.Secret, c.SecretErr = keys.Open(r.Secret, r.ProducerID)
	}
	return c, true, nil
}

// The dates of the mandate (art. 289 bis CGI, as amended by the finance
// law for 2024): small and micro enterprises issue their invoices through
// an approved platform from MandatoryFrom; the dashboard warns a producer
// not connected from WarnFrom (PRODUCT §16).
const (
	WarnFrom      = "2027-06-01"
	MandatoryFrom = "2027-09-01"
)

// Outside counts producerID's documents issued outside a PA and not
// deposited since: from MandatoryFrom once it is past, else from the
// first day of today's year ("YYYY-MM-DD" both).
func Outside(ctx context.Context, q store.Q, producerID, today string) (int, error) {
	from := today[:4] + "-01-01"
	if today >= MandatoryFrom {
		from = MandatoryFrom
	}
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM documents d WHERE d.producer_id = ? AND d.issue_date >= ? AND NOT d.internal
		AND NOT EXISTS (SELECT 1 FROM pa_deposits p WHERE p.document_id = d.id AND p.deposited_at IS NOT NULL)`, producerID, from); err != nil {
		return 0, fmt.Errorf("pa: documents outside: %w", err)
	}
	return n, nil
}

// Warning is the dashboard's warning to a producer not connected to a PA
// ("" for none): nothing before WarnFrom; then how many documents it
// issued outside a PA (Outside) and what to do.
func Warning(connected bool, outside int, today string) string {
	if connected || today < WarnFrom {
		return ""
	}
	docs := fmt.Sprintf("%d facture%s ou avoir%s émis hors plateforme", outside, plural(outside), plural(outside))
	if outside == 0 {
		docs = "aucune facture émise hors plateforme pour l'instant"
	}
	if today < MandatoryFrom {
		return fmt.Sprintf("À partir du 1er septembre 2027, vos factures devront passer par une plateforme agréée (PA) : %s cette année. "+
			"Choisissez votre plateforme et connectez-la dans votre profil, « Facturation électronique ».", docs)
	}
	return fmt.Sprintf("Depuis le 1er septembre 2027, vos factures doivent passer par une plateforme agréée (PA) : %s depuis cette date, "+
		"hors de la loi et passibles d'amende. Connectez votre plateforme dans votre profil, « Facturation électronique », "+
		"et déposez-y ces factures en choisissant une date de reprise.", docs)
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}
