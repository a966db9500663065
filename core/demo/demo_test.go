package demo

import (
	"context"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/facturx/facturxtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestSeed seeds the demo world once per engine, through SeedIfEmpty on an
// empty database, as of Friday 20 November 2026 at 10:00 in Paris, and
// reads each of its stories in a subtest: the trade (seededTrade), the
// payments (seededPayments), the supply screen (seededSupply), the fees,
// the products, the documents and the logins; then a second SeedIfEmpty
// changes nothing. The readings write nothing, so one seed serves them all:
// a seed is the demo's whole year of trade through the real operations,
// seconds under -race (issue 35: tests no slower).
func TestSeed(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, paris)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		res, err := SeedIfEmpty(ctx, db, now)
		if err != nil || !res.Created || len(res.Logins) != len(shops)+len(producers)+len(makers) {
			t.Fatalf("first seed: %+v %v", res, err)
		}
		t.Run("trade", func(t *testing.T) { seededTrade(t, db) })
		t.Run("payments", func(t *testing.T) { seededPayments(t, db) })
		t.Run("supply", func(t *testing.T) { seededSupply(t, db, now) })
		t.Run("fees", func(t *testing.T) { seededFees(t, db, now) })
		t.Run("products", func(t *testing.T) { seededProducts(t, db) })
		t.Run("documents and logins", func(t *testing.T) { seededAccounts(t, db, res, now) })
	})
}

// keepDocument renders an issued document and keeps its Factur-X PDF for
// the validation of make test.
func keepDocument(t *testing.T, inv billing.Invoice) {
	t.Helper()
	pdf, err := documents.Invoice(inv)
	if err != nil {
		t.Fatalf("%s: %v", inv.Number, err)
	}
	if _, err := documents.InvoiceXML(inv); err != nil {
		t.Fatalf("%s has no Factur-X XML: %v", inv.Number, err)
	}
	facturxtest.Keep(t, documents.InvoiceFileName(inv.Number), pdf)
}

// seededAccounts: every shop has a year of needs, every document is kept
// for the Factur-X validation, a second SeedIfEmpty creates nothing, and
// every demo login signs in with a profile that passes the profile rules.
func seededAccounts(t *testing.T, db *store.DB, res Result, now time.Time) {
	ctx := context.Background()
	var perShop []int
	if err := db.Select(&perShop, `SELECT COUNT(*) FROM needs GROUP BY distributor_id`); err != nil || len(perShop) != len(shops) {
		t.Fatalf("needs per shop = %v (%v)", perShop, err)
	}
	for _, n := range perShop {
		if n < 12*30 {
			t.Fatalf("a demo shop has only %d needs", n)
		}
	}
	// Every document of the demo world is Factur-X (make test validates
	// what Keep collects).
	invoices, err := billing.List(ctx, db, "", "")
	if err != nil || len(invoices) == 0 {
		t.Fatalf("demo invoices: %d, %v", len(invoices), err)
	}
	credits, err := billing.Credits(ctx, db, "", "", "")
	if err != nil || len(credits) == 0 {
		t.Fatalf("demo credit notes: %d, %v", len(credits), err)
	}
	for _, inv := range invoices {
		full, err := billing.Get(ctx, db, inv.ID)
		if err != nil {
			t.Fatal(err)
		}
		keepDocument(t, full)
	}
	for _, c := range credits {
		full, err := billing.GetCredit(ctx, db, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		keepDocument(t, full)
	}
	again, err := SeedIfEmpty(ctx, db, now)
	if err != nil || again.Created || len(again.Logins) != len(res.Logins) {
		t.Fatalf("second seed: %+v %v", again, err)
	}
	for _, l := range res.Logins {
		u, _, err := accounts.Login(ctx, db, l.Email, Password, "test", now)
		if err != nil {
			t.Fatalf("login %s: %v", l.Email, err)
		}
		// Every demo profile passes the profile rules as stored.
		p := accounts.ProfileUpdate{Capital: &u.Capital, BIC: &u.BIC, APE: &u.APE, IBAN: &u.IBAN,
			SIRET: &u.SIRET, Tel: &u.Tel, TVAIntracom: &u.TVAIntracom, Latitude: &u.Latitude, Longitude: &u.Longitude}
		if u.IsProducer() {
			days := u.Days()
			p.DefaultDeliveryDays = days[:]
			if !u.HasDeliveryDays() {
				t.Errorf("%s has no delivery days", u.Email)
			}
		}
		if _, err := p.Normalize(u.Type); err != nil {
			t.Errorf("%s: demo profile invalid: %v", u.Email, err)
		}
		// Its SIRET passes the Luhn key, its VAT number carries that
		// SIREN and its key (issue 32).
		if issues := u.IdentifierIssues(); len(issues) != 0 || !accounts.ValidSIRET(u.SIRET) ||
			u.TVAIntracom != "" && !accounts.ValidVAT(u.TVAIntracom, u.SIRET) {
			t.Errorf("%s: demo identifiers %q %q: %+v", u.Email, u.SIRET, u.TVAIntracom, issues)
		}
	}
}

func TestSeedIfEmptyLeavesOtherDatabasesAlone(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "a@b.fr", Password: "motdepasse1", Name: "A"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	res, err := SeedIfEmpty(ctx, db, time.Now())
	if err != nil || res.Created || len(res.Logins) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}
