package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/accounting/fectest"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/demo"
	"primeur/core/documents"
	"primeur/core/facturx/facturxtest"
	"primeur/core/store"
)

// TestAScriptedMonth runs the demo world from 10 November 2026 to 6
// January 2027 as the daemon would — each day the reminders at 09:00, the
// deliveries at 12:30, the claims at 13:00 and the invoices at 21:00, by
// `primeur jobs run … --at` — and reads what it made as an accountant
// would (issue 32): every monthly invoice dated within the month of its
// deliveries, every document due on or after its issue, no identifier
// that is not one, reminders only on French working days, a FEC for each
// month and producer that parses and balances, and every invoice and
// credit note valid Factur-X.
func TestAScriptedMonth(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	ctx := context.Background()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	db := openMigrated(t, "", filepath.Join(dir, "primeur.db"))
	if _, err := demo.Seed(ctx, db, time.Date(2026, 11, 10, 8, 0, 0, 0, paris)); err != nil {
		t.Fatal(err)
	}
	for day := time.Date(2026, 11, 10, 0, 0, 0, 0, paris); day.Before(time.Date(2027, 1, 7, 0, 0, 0, 0, paris)); day = day.AddDate(0, 0, 1) {
		for _, j := range []struct {
			name         string
			hour, minute int
		}{{"reminders", 9, 0}, {"deliveries", 12, 30}, {"claims", 13, 0}, {"invoices", 21, 0}} {
			at := time.Date(day.Year(), day.Month(), day.Day(), j.hour, j.minute, 0, 0, paris).Format(time.RFC3339)
			if code, _, errOut := run(t, "", "jobs", "run", j.name, "--at", at, "--force", "--log-level", "warn"); code != 0 {
				t.Fatalf("%s at %s: %s", j.name, at, errOut)
			}
		}
	}

	invoices, err := billing.List(ctx, db, "", "")
	if err != nil || len(invoices) == 0 {
		t.Fatalf("%d invoices, %v", len(invoices), err)
	}
	credits, err := billing.Credits(ctx, db, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	months := map[string]bool{}
	docs := map[string][]byte{}
	for _, d := range append(invoices, credits...) {
		if d.Kind == billing.KindInvoice && d.IssueDate[:7] != d.Month[:7] {
			t.Errorf("invoice %s of %s dated %s", d.Number, d.Month[:7], d.IssueDate)
		}
		full, err := billing.Document(ctx, db, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.DueDate != "" && d.DueDate < d.IssueDate {
			t.Errorf("%s issued %s, due %s", d.Number, d.IssueDate, d.DueDate)
		}
		for _, p := range []billing.Party{full.Seller, full.Buyer} {
			if p.SIRET != "" && !accounts.ValidSIRET(p.SIRET) || p.TVA != "" && !accounts.ValidVAT(p.TVA, p.SIRET) {
				t.Errorf("%s names %s with SIRET %q and VAT number %q", d.Number, p.Name, p.SIRET, p.TVA)
			}
		}
		pdf, err := documents.Invoice(full)
		if err != nil {
			t.Fatal(err)
		}
		name := accounts.EmailKey(full.Seller.Name) + "-" + documents.InvoiceFileName(full.Number)
		name = strings.NewReplacer(" ", "-", "'", "", "’", "").Replace(name)
		docs[name] = pdf
		months[d.IssueDate[:7]] = true
	}
	// November's and December's invoices were issued on their last day.
	lastDay := map[string]int{}
	for _, d := range invoices {
		if m, ok := calendar.ParseMonth(d.Month); ok && d.IssueDate == m.Last().String() {
			lastDay[d.Month[:7]]++
		}
	}
	if lastDay["2026-11"] == 0 || lastDay["2026-12"] == 0 {
		t.Errorf("invoices issued on their month's last day: %v", lastDay)
	}

	// Reminders went out on working days only.
	var reminded []int64
	if err := store.Select(ctx, db, &reminded, `SELECT created_at FROM reminders`); err != nil {
		t.Fatal(err)
	}
	for _, ms := range reminded {
		if d := calendar.DateOf(time.UnixMilli(ms).In(paris)); !d.FrenchBusinessDay() {
			t.Errorf("a reminder made on %s, not a working day", d)
		}
	}

	// A FEC for each month and producer, as the CLI writes it.
	fecs := 0
	for m := range months {
		out := filepath.Join(t.TempDir(), m)
		if code, _, errOut := run(t, "", "invoices", "export", "--month", m, "--out", out); code != 0 {
			t.Fatalf("export %s: %s", m, errOut)
		}
		month, _ := calendar.ParseMonth(m + "-01")
		err := filepath.WalkDir(out, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Ext(path) != ".txt" {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if lines := fectest.Parse(t, e.Name(), data, month); len(lines) == 0 {
				return fmt.Errorf("%s: an empty FEC", path)
			}
			fecs++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if fecs < 2 {
		t.Fatalf("%d FEC files", fecs)
	}
	t.Logf("%d invoices, %d credit notes and complementary invoices, %d reminders, %d FEC files", len(invoices), len(credits), len(reminded), fecs)
	facturxtest.ValidateBytes(t, docs)
}
