package daemon

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/limit"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/planning"
)

// exporting bounds the personal data exports running at once: each reads a
// user's whole history and renders its documents.
var exporting = limit.NewGate("personal data export", 1, 10*time.Second, limit.MsgBusy)

// MyDataReadme is the first file of a personal data export.
const MyDataReadme = `Vos données sur Primeur

compte.json       votre compte : identité, adresses, coordonnées bancaires, jours de livraison, conditions de paiement
besoins.json      les besoins (magasin : les vôtres ; producteur : ceux sur lesquels vous avez proposé), avec vos propositions et engagements
commandes.json    vos commandes et leurs livraisons (quantités, prix, réclamations)
activite.json     le fil d'activité : ce que vous avez fait, et ce qu'on vous a adressé
paiements.json    par partenaire, les factures et avoirs avec ce qu'il reste à payer, et les paiements
documents/        les factures, avoirs et factures complémentaires (PDF Factur-X) où vous êtes partie

Montants en euros, dates au format AAAA-MM-JJ ou RFC 3339.
`

// printMyData serves GET /print/mydata: the user's personal data as a zip
// (RGPD art. 15 and 20): its account, needs with proposals, orders with
// deliveries, activity, payments as JSON, and its invoices and credit notes
// as PDF. The zip is written as it is made, so that memory stays bounded
// whatever the history; one export runs at a time.
func (d *Daemon) printMyData(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	err = exporting.Do(r.Context(), func() error {
		h := w.Header()
		h.Set("Content-Type", "application/zip")
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "primeur-mes-donnees-"+d.today()+".zip"))
		h.Set("Cache-Control", "private, no-store")
		z := zip.NewWriter(w)
		if err := d.writeMyData(r.Context(), z, u); err != nil {
			// Headers are gone: the truncated zip tells the client.
			d.log.ErrorContext(r.Context(), "personal data export failed", "user", u.ID, "err", err)
			return nil
		}
		return z.Close()
	})
	if errors.Is(err, core.ErrBusy) {
		w.Header().Set("Retry-After", retryAfterSeconds(10*time.Second))
		writeJSONProblem(w, http.StatusServiceUnavailable, limit.MsgBusy)
	}
}

// writeMyData writes the export's files into z.
func (d *Daemon) writeMyData(ctx context.Context, z *zip.Writer, u accounts.User) error {
	file := func(name string, data []byte) error {
		f, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: d.now()})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	jsonFile := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return file(name, data)
	}
	if err := file("LISEZMOI.txt", []byte(MyDataReadme)); err != nil {
		return err
	}
	if err := jsonFile("compte.json", u.Profile()); err != nil {
		return err
	}
	needs := planning.Filter{DistributorID: u.ID}
	of := orders.Filter{DistributorID: u.ID}
	producer, shop := "", u.ID
	if u.IsProducer() {
		needs = planning.Filter{TradedBy: u.ID, OnlyProposalsOf: u.ID}
		of = orders.Filter{ProducerID: u.ID}
		producer, shop = u.ID, ""
	}
	ns, err := planning.List(ctx, d.db, needs)
	if err != nil {
		return err
	}
	if err := jsonFile("besoins.json", ns); err != nil {
		return err
	}
	ords, err := orders.LoadViews(ctx, d.db, of, u.ID)
	if err != nil {
		return err
	}
	if err := jsonFile("commandes.json", ords); err != nil {
		return err
	}
	var feed []activity.View
	for before := ""; ; {
		page, err := activity.Feed(ctx, d.db, u.ID, before, 200)
		if err != nil {
			return err
		}
		feed = append(feed, page...)
		if len(page) < 200 {
			break
		}
		before = page[len(page)-1].ID
	}
	if err := jsonFile("activite.json", feed); err != nil {
		return err
	}
	accs, err := payments.Accounts(ctx, d.db, producer, shop, d.today())
	if err != nil {
		return err
	}
	if err := jsonFile("paiements.json", accs); err != nil {
		return err
	}
	for _, o := range ords {
		docs, err := billing.Credits(ctx, d.db, o.ID, "", "")
		if err != nil {
			return err
		}
		inv, err := billing.ForOrder(ctx, d.db, o.ID)
		switch {
		case errors.Is(err, core.ErrNotFound):
		case err != nil:
			return err
		default:
			docs = append([]billing.Invoice{inv}, docs...)
		}
		for _, doc := range docs {
			pdf, err := documents.Invoice(doc)
			if err != nil {
				return err
			}
			if err := file("documents/"+documents.InvoiceFileName(doc.Number), pdf); err != nil {
				return err
			}
		}
	}
	return nil
}
