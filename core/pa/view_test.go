package pa_test

import (
	"strings"
	"testing"

	"primeur/core/pa"
)

// TestWarning: the dashboard's warning (PRODUCT §16) says nothing before
// 1 June 2027 or to a connected producer; from then, the count of
// documents issued outside a PA and what to do, in the future tense until
// 1 September 2027 and as a breach of the law from that day.
func TestWarning(t *testing.T) {
	for _, tc := range []struct {
		connected bool
		outside   int
		today     string
		want      string // "" for none; else a part of it
	}{
		{false, 12, "2027-05-31", ""},
		{true, 12, "2027-06-01", ""},
		{false, 12, "2027-06-01", "À partir du 1er septembre 2027, vos factures devront passer par une plateforme agréée (PA) : 12 factures ou avoirs émis hors plateforme cette année."},
		{false, 1, "2027-08-31", ": 1 facture ou avoir émis hors plateforme cette année."},
		{false, 0, "2027-07-01", "aucune facture émise hors plateforme pour l'instant"},
		{false, 3, "2027-09-01", "Depuis le 1er septembre 2027, vos factures doivent passer par une plateforme agréée (PA) : 3 factures ou avoirs émis hors plateforme depuis cette date, hors de la loi"},
		{true, 3, "2028-01-01", ""},
	} {
		got := pa.Warning(tc.connected, tc.outside, tc.today)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("Warning(%v, %d, %s) = %q, want %q", tc.connected, tc.outside, tc.today, got, tc.want)
		}
	}
}
