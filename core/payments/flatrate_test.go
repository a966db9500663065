package payments_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/core/vat"
)

// flatWorld: Ferme du Coteau, a farmer under the flat-rate refund, sells
// to Épicerie du Lac (a VAT number: liable to VAT) and to Boutique sans
// TVA (none). November: 20 kg of tomatoes and 10 lettuces to the shop,
// 4 kg of tomatoes claimed down (FA-2026-000001 59,00 € less AV 10,00 €);
// December: 10 kg of carrots (FA-2027-000001 12,00 €, issued on
// 1 January). Ferme des Aravis (VAT) sells to the shop too.
type flatWorld struct {
	db                        *store.DB
	w                         *tradetest.World
	farm, bare                accounts.User
	nov, dec, vatInv, bareInv billing.Invoice
	stranger, rival           accounts.User
}

func newFlatWorld(t *testing.T, db *store.DB) flatWorld {
	w := tradetest.New(t, db)
	f := flatWorld{db: db, w: w}
	f.farm = w.User(accounts.User{Type: accounts.Producer, Email: "ferme@coteau.fr", Name: "Ferme du Coteau",
		Legal: "Exploitant agricole", SIRET: "73282932000074", VATRegime: vat.Flat, DeliveryDays: "1111111",
		AddressLine1: "Chemin du Coteau", AddressLine2: "74150 Rumilly"})
	f.bare = w.User(accounts.User{Type: accounts.Distributor, Email: "boutique@sanstva.fr", Name: "Boutique sans TVA",
		AddressLine1: "1 place du Marché", AddressLine2: "74000 Annecy"})
	f.stranger = w.User(accounts.User{Type: accounts.Distributor, Email: "autre@magasin.fr", Name: "Autre magasin",
		TVAIntracom: "FR40303265045"})
	f.rival = w.User(accounts.User{Type: accounts.Producer, Email: "autre@ferme.fr", Name: "Autre ferme", VATRegime: vat.Flat})
	tomato := tradetest.L{Product: "tomate", Price: 250, Expected: 2000, Sent: tradetest.Dec(2000)}
	lettuce := tradetest.L{Product: "laitue", Price: 90, Expected: 1000, Sent: tradetest.Dec(1000)}
	nov := w.Order(f.farm, w.Shop, "2026-11-01")
	claimed := w.Delivery(nov, "2026-11-05", orders.Done, tomato, lettuce)
	w.Exec(`UPDATE delivery_lines SET quantity_claimed = -400, claim_type = 'quality' WHERE delivery_id = ? AND product_id = 'tomate'`, claimed)
	w.Exec(`UPDATE deliveries SET claim_status = 'accepted' WHERE id = ?`, claimed)
	dec := w.Order(f.farm, w.Shop, "2026-12-01")
	w.Delivery(dec, "2026-12-03", orders.Done, tradetest.L{Product: "carotte", Price: 120, Expected: 1000, Sent: tradetest.Dec(1000)})
	bare := w.Order(f.farm, f.bare, "2026-11-01")
	w.Delivery(bare, "2026-11-06", orders.Done, tomato)
	vatOrder := w.Order(w.Farm, w.Shop, "2026-11-01")
	w.Delivery(vatOrder, "2026-11-06", orders.Done, tomato)
	for _, c := range []struct {
		order string
		when  time.Time
		inv   *billing.Invoice
	}{{nov, at(2026, 12, 1, 6, 0), &f.nov}, {dec, at(2027, 1, 1, 6, 0), &f.dec}, {bare, at(2026, 12, 1, 6, 0), &f.bareInv},
		{vatOrder, at(2026, 12, 1, 6, 0), &f.vatInv}} {
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			inv, err := billing.Issue(ctx, tx, c.order, c.when, paris)
			if inv != nil {
				*c.inv = *inv
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if f.nov.TotalTTC != 5900 || f.nov.Regime() != vat.Flat || f.dec.TotalTTC != 1200 || f.vatInv.Regime() != vat.Normal {
		t.Fatalf("flat world: %v %s %v %s", f.nov.TotalTTC, f.nov.Regime(), f.dec.TotalTTC, f.vatInv.Regime())
	}
	return f
}

// pay runs a payment operation at now, today its date.
func (f flatWorld) pay(t *testing.T, now time.Time, op func(tx *sqlx.Tx, today string) (payments.Payment, error)) payments.Payment {
	t.Helper()
	var p payments.Payment
	if err := f.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		p, err = op(tx, now.In(paris).Format(time.DateOnly))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f flatWorld) record(t *testing.T, farm accounts.User, shop string, amount decimal.Dec, paidOn string, now time.Time, docs ...string) payments.Payment {
	t.Helper()
	return f.pay(t, now, func(tx *sqlx.Tx, today string) (payments.Payment, error) {
		return payments.Record(ctx, tx, farm, payments.Input{PartnerID: shop, Amount: amount, PaidOn: paidOn,
			Method: payments.Transfer, Reference: "VIR " + paidOn, Documents: docs}, now, today)
	})
}

func (f flatWorld) declare(t *testing.T, amount decimal.Dec, paidOn string, now time.Time) payments.Payment {
	t.Helper()
	return f.pay(t, now, func(tx *sqlx.Tx, today string) (payments.Payment, error) {
		return payments.Declare(ctx, tx, f.w.Shop, payments.Input{PartnerID: f.farm.ID, Amount: amount, PaidOn: paidOn,
			Method: payments.Cheque}, now, today)
	})
}

// TestFlatRateDocuments: the purchase slips and the yearly certificates
// of the shop's payments to the farmer — each slip's figures those of the
// payment's allocations, what it left on account an instalment; the
// certificate of each calendar year by the payments' dates (31 December
// in 2026, 5 January in 2027), undone, refused and declared payments
// left out; both parties may read them, nobody else; none for a shop
// without a VAT number nor for a producer under VAT.
func TestFlatRateDocuments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFlatWorld(t, db)
		shop := f.w.Shop
		// 30,00 € of November's 49,00 € recorded on 15 December; the shop
		// declares the 19,00 € left on 31 December, confirmed on
		// 2 January; 20,00 € on 5 January pay December's 12,00 € and leave
		// 8,00 € on account.
		a := f.record(t, f.farm, shop.ID, 3000, "2026-12-15", at(2026, 12, 15, 10, 0))
		b := f.declare(t, 1900, "2026-12-31", at(2026, 12, 31, 18, 0))
		f.pay(t, at(2027, 1, 2, 9, 0), func(tx *sqlx.Tx, today string) (payments.Payment, error) {
			return payments.Confirm(ctx, tx, f.farm, b.ID, true, at(2027, 1, 2, 9, 0), today)
		})
		c := f.record(t, f.farm, shop.ID, 2000, "2027-01-05", at(2027, 1, 5, 10, 0))
		// Left out: an undone payment, a refused and a pending declaration.
		undone := f.record(t, f.farm, shop.ID, 500, "2026-12-20", at(2026, 12, 20, 10, 0))
		f.pay(t, at(2026, 12, 20, 11, 0), func(tx *sqlx.Tx, _ string) (payments.Payment, error) {
			return payments.Undo(ctx, tx, f.farm, undone.ID, at(2026, 12, 20, 11, 0))
		})
		refused := f.declare(t, 700, "2026-12-22", at(2026, 12, 22, 10, 0))
		f.pay(t, at(2026, 12, 23, 10, 0), func(tx *sqlx.Tx, today string) (payments.Payment, error) {
			return payments.Confirm(ctx, tx, f.farm, refused.ID, false, at(2026, 12, 23, 10, 0), today)
		})
		pending := f.declare(t, 300, "2027-01-06", at(2027, 1, 6, 10, 0))

		slip := func(u accounts.User, id string) payments.Slip {
			t.Helper()
			s, err := payments.LoadSlip(ctx, db, u, id)
			if err != nil {
				t.Fatalf("slip %s for %s: %v", id, u.Name, err)
			}
			return s
		}
		sa := slip(shop, a.ID)
		if sa.Number != payments.SlipNumber(a) || sa.Base != 3000 || sa.OnAccount != 0 || sa.Payment.PaidOn != "2026-12-15" ||
			len(sa.Documents) != 1 || sa.Documents[0].Number != "FA-2026-000001" || sa.Documents[0].Paid != 3000 ||
			!sa.Documents[0].Flat || sa.Documents[0].Total != 5900 ||
			!slices.Equal(sa.Rates, []payments.RatePart{{Rate: vat.FlatRateOther, Base: 3000, Refund: 133}}) {
			t.Fatalf("slip of the 15 December payment: %+v", sa)
		}
		// The nature: the invoice's products less the credit note's.
		if want := []payments.SlipProduct{{Product: "Laitue", Unit: "un", Quantity: 1000, Amount: 900, Rate: vat.FlatRateOther},
			{Product: "Tomate", Unit: "kg", Quantity: 1600, Amount: 4000, Rate: vat.FlatRateOther}}; !slices.Equal(sa.Products, want) {
			t.Fatalf("products %+v, want %+v", sa.Products, want)
		}
		// The parties as the invoice stored them; the same for the producer.
		if sa.Shop.Name != "Épicerie du Lac" || sa.Shop.TVA != "FR14987654324" || sa.Producer.Name != "Ferme du Coteau" ||
			sa.Producer.SIRET != "73282932000074" {
			t.Fatalf("parties %+v / %+v", sa.Shop, sa.Producer)
		}
		if sp := slip(f.farm, a.ID); sp.Number != sa.Number || sp.Base != sa.Base {
			t.Fatalf("the producer's slip differs: %+v", sp)
		}
		sc := slip(shop, c.ID)
		if sc.Base != 2000 || sc.OnAccount != 800 || len(sc.Documents) != 1 || sc.Documents[0].Number != "FA-2027-000001" ||
			sc.Documents[0].Paid != 1200 || sc.Rates[0].Base != 2000 {
			t.Fatalf("slip of the 5 January payment: %+v", sc)
		}

		// Certificates by the payments' dates.
		for _, want := range []struct {
			year   int
			base   decimal.Dec
			refund decimal.Dec
			slips  []string
		}{
			{2026, 4900, 217, []string{a.ID, b.ID}}, // 49,00 € × 4,43 % = 2,1707 €
			{2027, 2000, 89, []string{c.ID}},        // 20,00 € × 4,43 % = 0,886 €
		} {
			for _, u := range []struct {
				who     accounts.User
				partner string
			}{{shop, f.farm.ID}, {f.farm, shop.ID}} {
				cert, err := payments.LoadCertificate(ctx, db, u.who, u.partner, want.year)
				if err != nil {
					t.Fatalf("%d for %s: %v", want.year, u.who.Name, err)
				}
				var ids []string
				for _, s := range cert.Slips {
					ids = append(ids, s.Payment.ID)
				}
				rates := []payments.RatePart{{Rate: vat.FlatRateLivestock}, {Rate: vat.FlatRateOther, Base: want.base, Refund: want.refund}}
				if cert.Year != want.year || cert.Base != want.base || !slices.Equal(cert.Rates, rates) || !slices.Equal(ids, want.slips) ||
					cert.Shop.Name != "Épicerie du Lac" || cert.Producer.Name != "Ferme du Coteau" {
					t.Fatalf("%d for %s: %+v", want.year, u.who.Name, cert)
				}
			}
		}

		// The list, for either side: the slips newest first, the years.
		for _, side := range []struct{ producer, shop string }{{f.farm.ID, ""}, {"", shop.ID}} {
			accs, err := payments.Accounts(ctx, db, side.producer, side.shop, "2027-01-06")
			if err != nil {
				t.Fatal(err)
			}
			flat, err := payments.FlatRates(ctx, db, side.producer, side.shop, accs)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := flat[payments.Pair{Producer: f.farm.ID, Shop: shop.ID}]
			wantSlips := []payments.SlipHead{{PaymentID: c.ID, Number: payments.SlipNumber(c), PaidOn: "2027-01-05", Base: 2000},
				{PaymentID: b.ID, Number: payments.SlipNumber(b), PaidOn: "2026-12-31", Base: 1900},
				{PaymentID: a.ID, Number: payments.SlipNumber(a), PaidOn: "2026-12-15", Base: 3000}}
			if !ok || !got.Liable || !slices.Equal(got.Slips, wantSlips) ||
				!slices.Equal(got.Years, []payments.YearHead{{Year: 2027, Base: 2000}, {Year: 2026, Base: 4900}}) {
				t.Fatalf("list %+v", got)
			}
			if _, ok := flat[payments.Pair{Producer: f.w.Farm.ID, Shop: shop.ID}]; ok {
				t.Fatal("a producer under VAT listed")
			}
			if side.producer != "" {
				if got := flat[payments.Pair{Producer: f.farm.ID, Shop: f.bare.ID}]; got.Liable || len(got.Slips) != 0 || len(got.Years) != 0 {
					t.Fatalf("a shop without VAT number: %+v", got)
				}
			}
		}

		// Nothing for anyone else, for a payment that does not count, for
		// a shop without a VAT number, for a producer under VAT, for a year
		// without payment.
		bare := f.record(t, f.farm, f.bare.ID, 1000, "2026-12-15", at(2026, 12, 15, 11, 0))
		vatPaid := f.record(t, f.w.Farm, shop.ID, 1000, "2026-12-15", at(2026, 12, 15, 12, 0))
		for _, c := range []struct {
			name string
			who  accounts.User
			id   string
		}{
			{"another shop", f.stranger, a.ID}, {"another producer", f.rival, a.ID}, {"an undone payment", shop, undone.ID},
			{"a refused payment", f.farm, refused.ID}, {"a pending declaration", shop, pending.ID},
			{"a shop without VAT number", f.bare, bare.ID}, {"its producer", f.farm, bare.ID},
			{"a producer under VAT", shop, vatPaid.ID}, {"no such payment", shop, "nope"},
		} {
			if _, err := payments.LoadSlip(ctx, db, c.who, c.id); !errors.Is(err, core.ErrNotFound) {
				t.Errorf("slip, %s: %v", c.name, err)
			}
		}
		for _, c := range []struct {
			name    string
			who     accounts.User
			partner string
			year    int
		}{
			{"another shop", f.stranger, f.farm.ID, 2026}, {"another producer", f.rival, shop.ID, 2026},
			{"a producer as partner of a producer", f.farm, f.rival.ID, 2026}, {"a year without payment", shop, f.farm.ID, 2025},
			{"a shop without VAT number", f.bare, f.farm.ID, 2026}, {"its producer", f.farm, f.bare.ID, 2026},
			{"a producer under VAT", shop, f.w.Farm.ID, 2026}, {"year zero", shop, f.farm.ID, 0},
		} {
			if _, err := payments.LoadCertificate(ctx, db, c.who, c.partner, c.year); !errors.Is(err, core.ErrNotFound) {
				t.Errorf("certificate, %s: %v", c.name, err)
			}
		}
	})
}
