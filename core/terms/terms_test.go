package terms_test

import (
	"errors"
	"testing"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/terms"
)

func TestDue(t *testing.T) {
	for _, c := range []struct {
		terms terms.Terms
		first string
		want  string
	}{
		// The legal maximum: 30 days after the end of the décade.
		{terms.Default(), "2026-11-01", "2026-12-10"},
		{terms.Default(), "2026-11-10", "2026-12-10"},
		{terms.Default(), "2026-11-11", "2026-12-20"},
		{terms.Default(), "2026-11-20", "2026-12-20"},
		{terms.Default(), "2026-11-21", "2026-12-30"},
		{terms.Default(), "2026-11-30", "2026-12-30"},
		{terms.Default(), "2027-02-28", "2027-03-30"},
		{terms.Default(), "2026-12-31", "2027-01-30"},
		{terms.Default(), "2026-02-21", "2026-03-30"},
		{terms.Default(), "2028-02-29", "2028-03-30"},
		// A first-décade delivery at the shortest décade term: due on the
		// last day of a 31-day month, the 1st after a 30-day one — never
		// before the invoice of the month's last day.
		{terms.Terms{Basis: terms.Decade, Days: terms.MinDecadeDays}, "2026-12-01", "2026-12-31"},
		{terms.Terms{Basis: terms.Decade, Days: terms.MinDecadeDays}, "2026-11-01", "2026-12-01"},
		// The days clocks change in Paris.
		{terms.Default(), "2026-03-29", "2026-04-30"},
		{terms.Default(), "2026-10-25", "2026-11-30"},
		// Terms set before the décade's minimum (15 days, 0 days): never
		// due before the issue on the month's last day.
		{terms.Terms{Basis: terms.Decade, Days: 15}, "2026-11-05", "2026-11-30"},
		{terms.Terms{Basis: terms.Decade, Days: 15}, "2026-11-15", "2026-12-05"},
		{terms.Terms{Basis: terms.Decade, Days: 0}, "2026-11-21", "2026-11-30"},
		// Month + 0: due on the issue.
		{terms.Terms{Basis: terms.Month, Days: 0}, "2026-11-02", "2026-11-30"},
		// After the end of the month: 5 days, except where the law's date
		// comes first.
		{terms.Terms{Basis: terms.Month, Days: 5}, "2026-11-21", "2026-12-05"},
		{terms.Terms{Basis: terms.Month, Days: 9}, "2026-01-02", "2026-02-09"},
		{terms.Terms{Basis: terms.Month, Days: 9}, "2026-03-02", "2026-04-09"},
		// A month basis past the law is brought back to it (Days out of
		// bounds, as terms set before a change of the law would be).
		{terms.Terms{Basis: terms.Month, Days: 30}, "2026-11-03", "2026-12-10"},
	} {
		// Issued on the last day of the month of the delivery, as the
		// invoices job does.
		d, _ := calendar.ParseDate(c.first)
		issue := d.Month().Last().String()
		if got := c.terms.Due(c.first, issue); got != c.want {
			t.Errorf("%+v from %s: %s, want %s", c.terms, c.first, got, c.want)
		}
		if got := c.terms.Due(c.first, issue); got < issue {
			t.Errorf("%+v from %s: due %s before the issue %s", c.terms, c.first, got, issue)
		}
	}
	// Issued late (a run after a stop), past the legal date: due at once.
	if got := terms.Default().Due("2026-11-02", "2027-01-15"); got != "2027-01-15" {
		t.Errorf("issued late: %s", got)
	}
}

// TestNoValidTermsFallDueBeforeTheMonthlyInvoice: whatever terms Validate
// accepts and whatever the delivery's day, the monthly invoice issued on
// the last day of the month of its deliveries is due on or after its
// issue, and by the legal date, without the floor of Due.
func TestNoValidTermsFallDueBeforeTheMonthlyInvoice(t *testing.T) {
	first, _ := calendar.ParseDate("2026-01-01")
	for _, basis := range []string{terms.Decade, terms.Month} {
		for days := -1; days <= 31; days++ {
			pt := terms.Terms{Basis: basis, Days: days}
			if pt.Validate() != nil {
				continue
			}
			for d := first; d < first.AddDays(3*366); d = d.AddDays(1) {
				issue := d.Month().Last()
				legal := d.DecadeEnd().AddDays(terms.LegalDays)
				raw := d.DecadeEnd().AddDays(days)
				if basis == terms.Month {
					raw = d.Month().Last().AddDays(days)
				}
				if min(raw, legal) < issue {
					t.Fatalf("%+v accepted, but a delivery of %s falls due on %s, before the invoice of %s", pt, d, min(raw, legal), issue)
				}
			}
		}
	}
}

func TestDiscountUntil(t *testing.T) {
	for _, c := range []struct {
		terms      terms.Terms
		issue, due string
		want       string
	}{
		{terms.Terms{Discount: 200, DiscountDays: 10}, "2026-11-30", "2026-12-10", "2026-12-10"},
		// The window ends on the due date at the latest.
		{terms.Terms{Discount: 200, DiscountDays: 11}, "2026-11-30", "2026-12-10", "2026-12-10"},
		{terms.Terms{Discount: 200, DiscountDays: 5}, "2026-11-30", "2026-12-10", "2026-12-05"},
		{terms.Terms{Discount: 200, DiscountDays: 30}, "2026-11-30", "2026-11-30", "2026-11-30"},
		{terms.Terms{}, "2026-11-30", "2026-12-10", ""},
		{terms.Terms{Discount: 200}, "2026-11-30", "2026-12-10", ""},
	} {
		if got := c.terms.DiscountUntil(c.issue, c.due); got != c.want {
			t.Errorf("%+v issued %s due %s: %q, want %q", c.terms, c.issue, c.due, got, c.want)
		}
	}
	// 2 % of 100,25 € is 2,005 €: 2,01 €; 2,5 % of 0,10 € is 0,0025 €: 0.
	if terms.Discount(10025, 200) != 201 || terms.Discount(10, 250) != 0 || terms.Discount(10000, 250) != 250 {
		t.Error("discount rounding")
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		terms terms.Terms
		field string
	}{
		{terms.Default(), ""},
		{terms.Terms{Basis: terms.Month, Days: 9, Discount: 200, DiscountDays: 10}, ""},
		{terms.Terms{Basis: "week", Days: 3}, "paymentTerms.basis"},
		{terms.Terms{Basis: terms.Decade, Days: 31}, "paymentTerms.days"},
		{terms.Terms{Basis: terms.Decade, Days: -1}, "paymentTerms.days"},
		{terms.Terms{Basis: terms.Decade, Days: 20}, "paymentTerms.days"},
		{terms.Terms{Basis: terms.Decade, Days: 0}, "paymentTerms.days"},
		{terms.Terms{Basis: terms.Decade, Days: 21}, ""},
		{terms.Terms{Basis: terms.Month, Days: 0}, ""},
		{terms.Terms{Basis: terms.Month, Days: 10}, "paymentTerms.days"},
		{terms.Terms{Basis: terms.Decade, Days: 30, Discount: 1001, DiscountDays: 8}, "paymentTerms.discount"},
		{terms.Terms{Basis: terms.Decade, Days: 30, Discount: 200}, "paymentTerms.discount"},
		{terms.Terms{Basis: terms.Decade, Days: 30, Discount: 200, DiscountDays: 31}, "paymentTerms.discount"},
	} {
		err := c.terms.Validate()
		var v *core.ValidationError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v refused: %v", c.terms, err)
		case c.field != "" && (!errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Field != c.field):
			t.Errorf("%+v: %v, want a refusal of %s", c.terms, err, c.field)
		}
	}
}

func TestMentions(t *testing.T) {
	d := terms.Default()
	if d.Mention() != "Paiement par virement au plus tard à la date d'échéance : 30 jours après la fin de la décade de la première livraison facturée (art. L441-11 du Code de commerce, denrées périssables)." {
		t.Fatalf("%q", d.Mention())
	}
	m := terms.Terms{Basis: terms.Month, Days: 5, Discount: 250, DiscountDays: 8}
	if m.Mention() != "Paiement par virement au plus tard à la date d'échéance : 5 jours après la fin du mois de la première livraison facturée, sans dépasser 30 jours après la fin de sa décade (art. L441-11 du Code de commerce, denrées périssables)." {
		t.Fatalf("%q", m.Mention())
	}
	for _, c := range []struct {
		rate  int64
		until string
		want  string
	}{
		{0, "", "Pas d'escompte pour paiement anticipé."},
		{200, "", "Pas d'escompte pour paiement anticipé."},
		{0, "2026-12-10", "Pas d'escompte pour paiement anticipé."},
		{250, "2026-12-01", "Escompte de 2,5 % pour un paiement reçu au plus tard le 1er décembre 2026 : il est accordé par un avoir d'escompte qui réduit d'autant le montant HT et la TVA de la facture (art. 267 II-1° et 272-1 du CGI)."},
		{200, "2026-12-10", "Escompte de 2 % pour un paiement reçu au plus tard le 10 décembre 2026 : il est accordé par un avoir d'escompte qui réduit d'autant le montant HT et la TVA de la facture (art. 267 II-1° et 272-1 du CGI)."},
	} {
		if got := terms.DiscountMention(c.rate, c.until); got != c.want {
			t.Errorf("%d until %q: %q", c.rate, c.until, got)
		}
	}
}
