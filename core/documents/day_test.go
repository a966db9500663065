package documents_test

import (
	"bytes"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/orders"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

func TestDaySheets(t *testing.T) {
	db := storetest.SQLite(t)
	w := tradetest.New(t, db)
	thones := w.User(accounts.User{Type: accounts.Distributor, Email: "biocoop@thones.fr", Name: "Biocoop Thônes 🥕",
		AddressLine1: "2 place Avet", AddressLine2: "74230 Thônes", Tel: "0450111111"})
	w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-24", orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 123456}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
	w.Deliver(w.Farm.ID, thones.ID, "2026-11-24", orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 500, Sent: tradetest.Dec(450)},
		tradetest.L{Product: "laitue", Price: 90, Expected: 100})
	day, err := dayplan.Load(ctx, db, w.Farm.ID, "2026-11-24")
	if err != nil {
		t.Fatal(err)
	}
	created := at(2026, 11, 23, 18, 0)
	pdf, err := documents.DaySheets(day, created)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := documents.DaySheets(day, created); !bytes.Equal(pdf, again) {
		t.Fatal("rendering the same day twice gave different bytes")
	}
	text := pdftest.Lines(t, pdf)
	mustContain(t, text,
		"Cueillette", "24 novembre 2026", "Ferme des Aravis",
		"Laitue", "21 pièces", "Épicerie du Lac", "20 pièces", "1 pièce",
		"Tomate", "1 239,06 kg", "1 234,56 kg", "4,50 kg",
		"Tournée : 2 arrêts", "Retour à la ferme", "multipliées par 1,3", "Biocoop Thônes � — 2 place Avet, 74230 Thônes",
		"Colisage", "arrêt 1/2", "arrêt 2/2", "Tél. : 0450111111",
		"Bon de livraison : BL-000001 — 24 novembre 2026", "Bon de livraison : BL-000002 — 24 novembre 2026",
		"Produit", "Quantité", "☐")
	// The pick sheet, then one page per shop.
	if !strings.Contains(text, "page 3/3") {
		t.Errorf("want 3 pages, the pick sheet and a page per shop:\n%s", text)
	}

	empty, err := dayplan.Load(ctx, db, w.Farm.ID, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	pdf, err = documents.DaySheets(empty, created)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, pdftest.Lines(t, pdf), "Aucune livraison ce jour-là.")
}
