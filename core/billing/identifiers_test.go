package billing_test

import (
	"testing"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestNoDocumentStatesAnInvalidIdentifier: a SIRET or VAT number stored
// before the checks — a wrong Luhn key, a VAT key that is not the SIREN's,
// another company's SIREN — is left out of the invoice issued, which is
// issued all the same; valid ones are copied.
func TestNoDocumentStatesAnInvalidIdentifier(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, siret, vat   string
		wantSIRET, wantVAT string
	}{
		{"valid", "73282932000074", "FR44732829320", "73282932000074", "FR44732829320"},
		{"SIRET of a wrong key", "11111111111111", "FR44732829320", "", "FR44732829320"},
		{"VAT number of a wrong key", "73282932000074", "FR00732829320", "73282932000074", ""},
		{"VAT number of another company", "73282932000074", "FR31111111111", "73282932000074", ""},
		{"a foreign VAT number", "73282932000074", "DE123456789", "73282932000074", "DE123456789"},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				w := tradetest.New(t, db)
				w.Exec(`UPDATE users SET siret = ?, tvaintracom = ? WHERE id = ?`, c.siret, c.vat, w.Farm.ID)
				o := w.Order(w.Farm, w.Shop, "2026-11-01")
				w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
				if _, err := issueDue(db, at(2026, 11, 30, 21, 0)); err != nil {
					t.Fatal(err)
				}
				inv, err := billing.ForOrder(ctx, db, o)
				if err != nil {
					t.Fatal(err)
				}
				if inv.Seller.SIRET != c.wantSIRET || inv.Seller.TVA != c.wantVAT || inv.IssueDate != "2026-11-30" {
					t.Fatalf("seller SIRET %q VAT %q, want %q %q", inv.Seller.SIRET, inv.Seller.TVA, c.wantSIRET, c.wantVAT)
				}
				if p := billing.PartyOf(accounts.User{SIRET: c.siret, TVAIntracom: c.vat}); p.SIRET != c.wantSIRET || p.TVA != c.wantVAT {
					t.Fatalf("PartyOf %+v", p)
				}
			})
		})
	}
}
