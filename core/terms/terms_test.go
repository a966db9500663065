package terms_test

import (
	"errors"
	"testing"

	"primeur/core"
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
		// The days clocks change in Paris.
		{terms.Default(), "2026-03-29", "2026-04-30"},
		{terms.Default(), "2026-10-25", "2026-11-30"},
		// Shorter: 15 days after the décade.
		{terms.Terms{Basis: terms.Decade, Days: 15}, "2026-11-05", "2026-11-25"},
		{terms.Terms{Basis: terms.Decade, Days: 0}, "2026-11-21", "2026-11-30"},
		// After the end of the month: 5 days, except where the law's date
		// comes first.
		{terms.Terms{Basis: terms.Month, Days: 5}, "2026-11-21", "2026-12-05"},
		{terms.Terms{Basis: terms.Month, Days: 9}, "2026-01-02", "2026-02-09"},
		{terms.Terms{Basis: terms.Month, Days: 9}, "2026-03-02", "2026-04-09"},
		// A month basis past the law is brought back to it (Days out of
		// bounds, as terms set before a change of the law would be).
		{terms.Terms{Basis: terms.Month, Days: 30}, "2026-11-03", "2026-12-10"},
	} {
		if got := c.terms.Due(c.first); got != c.want {
			t.Errorf("%+v from %s: %s, want %s", c.terms, c.first, got, c.want)
		}
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
	if d.Mention() != "Paiement par virement au plus tard à la date d'échéance : 30 jours après la fin de la décade de la première livraison facturée (art. L441-11 du Code de commerce, denrées périssables)." ||
		d.DiscountMention() != "Pas d'escompte pour paiement anticipé." {
		t.Fatalf("%q %q", d.Mention(), d.DiscountMention())
	}
	m := terms.Terms{Basis: terms.Month, Days: 5, Discount: 250, DiscountDays: 8}
	if m.Mention() != "Paiement par virement au plus tard à la date d'échéance : 5 jours après la fin du mois de la première livraison facturée, sans dépasser 30 jours après la fin de sa décade (art. L441-11 du Code de commerce, denrées périssables)." ||
		m.DiscountMention() != "Escompte de 2,5 % pour un paiement dans les 8 jours suivant la date d'émission." {
		t.Fatalf("%q %q", m.Mention(), m.DiscountMention())
	}
	if (terms.Terms{Discount: 200, DiscountDays: 10}).DiscountMention() != "Escompte de 2 % pour un paiement dans les 10 jours suivant la date d'émission." {
		t.Fatal("2 %")
	}
}
