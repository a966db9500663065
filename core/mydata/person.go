package mydata

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"primeur/core/accounts"
	"primeur/core/store"
)

// PersonReadme is the first file of the export of a member who is no
// owner: their own data, not the organisation's.
const PersonReadme = `Vos données sur Primeur

personne.json     vous : nom, adresse de connexion, les organisations dont vous êtes membre et votre rôle,
                  ce que vous y avez fait (le fil d'activité) et les paiements que vous avez enregistrés

Les données de l'organisation (compte, commandes, factures) sont dans l'export de ses propriétaires.
Dates au format RFC 3339, montants en euros.
`

// maxPersonRows bounds what personne.json lists of each kind, the
// latest first.
const maxPersonRows = 10000

// personExport is personne.json.
type personExport struct {
	Person        accounts.PersonView   `json:"personne"`
	Organisations []accounts.Membership `json:"organisations"`
	Actions       []personAction        `json:"actions"`
	Payments      []personPayment       `json:"paiements"`
}

type personAction struct {
	At           string          `json:"date"`
	Type         string          `json:"type"`
	Organisation string          `json:"organisation"`
	Data         json.RawMessage `json:"donnees"`
}

type personPayment struct {
	ID           string  `json:"_id"`
	Organisation string  `json:"organisation"`
	Amount       float64 `json:"montant"`
	PaidOn       string  `json:"date"`
	Method       string  `json:"moyen"`
}

// WritePerson writes into z what Primeur holds of a person (teams, issue
// 41): personne.json, their login, their organisations, the events they
// made and the payments they recorded, in any organisation. It does not
// close z.
func WritePerson(ctx context.Context, q store.Q, z *zip.Writer, personID string, now time.Time) error {
	p, err := accounts.PersonByID(ctx, q, personID)
	if err != nil {
		return err
	}
	out := personExport{Person: accounts.PersonView{ID: p.ID, Name: p.Name, Email: p.Email}, Actions: []personAction{}, Payments: []personPayment{}}
	if out.Organisations, err = accounts.Memberships(ctx, q, personID); err != nil {
		return err
	}
	var events []struct {
		CreatedAt int64  `db:"created_at"`
		Type      string `db:"type"`
		Org       string `db:"org"`
		Data      string `db:"data"`
	}
	if err := store.Select(ctx, q, &events, `SELECT e.created_at, e.type, u.name AS org, e.data FROM events e
		JOIN users u ON u.id = e.origin_id WHERE e.person_id = ? ORDER BY e.created_at DESC, e.id DESC LIMIT ?`, personID, maxPersonRows); err != nil {
		return fmt.Errorf("mydata: person's events: %w", err)
	}
	for _, e := range events {
		out.Actions = append(out.Actions, personAction{time.UnixMilli(e.CreatedAt).UTC().Format(time.RFC3339), e.Type, e.Org, json.RawMessage(e.Data)})
	}
	var pays []struct {
		ID     string `db:"id"`
		Org    string `db:"org"`
		Amount int64  `db:"amount"`
		PaidOn string `db:"paid_on"`
		Method string `db:"method"`
	}
	if err := store.Select(ctx, q, &pays, `SELECT p.id, u.name AS org, p.amount, p.paid_on, p.method FROM payments p
		JOIN users u ON u.id = p.created_by WHERE p.person_id = ? ORDER BY p.paid_on DESC, p.id DESC LIMIT ?`, personID, maxPersonRows); err != nil {
		return fmt.Errorf("mydata: person's payments: %w", err)
	}
	for _, p := range pays {
		out.Payments = append(out.Payments, personPayment{p.ID, p.Org, float64(p.Amount) / 100, p.PaidOn, p.Method})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	f, err := z.CreateHeader(&zip.FileHeader{Name: "personne.json", Method: zip.Deflate, Modified: now})
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return err
}

// WritePersonReadme writes the person's LISEZMOI.txt, for an export of their
// own data alone.
func WritePersonReadme(z *zip.Writer, now time.Time) error {
	f, err := z.CreateHeader(&zip.FileHeader{Name: "LISEZMOI.txt", Method: zip.Deflate, Modified: now})
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(PersonReadme))
	return err
}
