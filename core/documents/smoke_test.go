package documents_test

import (
	"context"
	"os"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/delivery/deliverytest"
	"primeur/core/documents"
	"primeur/core/store/storetest"
)

func TestSmoke(t *testing.T) {
	db := storetest.SQLite(t)
	w := deliverytest.New(t, db)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	d1 := w.Delivery(o, "2026-11-05", "done", deliverytest.L{Product: "tomate", Price: 250, Expected: 12050}, deliverytest.L{Product: "laitue", Price: 90, Expected: 4000})
	w.Delivery(o, "2026-11-12", "done", deliverytest.L{Product: "tomate", Price: 250, Expected: 123456})
	ctx := context.Background()
	r := delivery.DefaultRules()
	n, err := delivery.LoadNote(ctx, db, o, d1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := documents.Note(n, r)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/pdfsmoke/note.pdf", b, 0o644)
	var inv *billing.Invoice
	db.Tx(ctx, func(tx *sqlx.Tx) error {
		inv, err = billing.Issue(ctx, tx, o, deliverytest.At(2026, 12, 1, 6, 0), r.Location)
		return err
	})
	if err != nil || inv == nil {
		t.Fatal(err, inv)
	}
	got, _ := billing.ForOrder(ctx, db, o)
	b, err = documents.Invoice(got)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/pdfsmoke/invoice.pdf", b, 0o644)
}
