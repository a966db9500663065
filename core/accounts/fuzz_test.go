package accounts

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzProfileNormalize: validation never panics, and what it accepts is
// stable: normalising an accepted profile again changes nothing and is
// accepted again.
func FuzzProfileNormalize(f *testing.F) {
	f.Add("FR76 3000 6000 0112 3456 7890 189", "AGRIFRPP882", "123 456 789 00012", "06 12 34 56 78", "FR32123456789", "45.9", "-1.5", "0113Z", "15000", "a@b.fr")
	f.Add("", "", "", "", "", "", "", "", "", "")
	f.Add("x", "é", "\x00", "0", "FR", "--1", "1..2", "ZZZZZ", "1e3", "@")
	f.Fuzz(func(t *testing.T, iban, bic, siret, tel, tva, lat, lon, ape, capital, email string) {
		in := ProfileUpdate{IBAN: &iban, BIC: &bic, SIRET: &siret, Tel: &tel, TVAIntracom: &tva,
			Latitude: &lat, Longitude: &lon, APE: &ape, Capital: &capital, Certification: &email}
		out, err := in.Normalize(Distributor)
		if err != nil {
			return
		}
		again, err := out.Normalize(Distributor)
		if err != nil {
			t.Fatalf("accepted profile refused on second pass: %v", err)
		}
		for _, pair := range [][2]*string{{out.IBAN, again.IBAN}, {out.BIC, again.BIC}, {out.SIRET, again.SIRET},
			{out.Tel, again.Tel}, {out.TVAIntracom, again.TVAIntracom}, {out.Latitude, again.Latitude}} {
			if *pair[0] != *pair[1] {
				t.Fatalf("normalisation not stable: %q then %q", *pair[0], *pair[1])
			}
		}
	})
}

// FuzzRegistration: validation never panics and accepts only what the rules
// say.
func FuzzRegistration(f *testing.F) {
	f.Add("a@b.fr", "abcdefg1", "Ferme")
	f.Add("", "", "")
	f.Add("a@b", "12345678", " ")
	f.Add("a\x00b@c.fr", "abcdefg1", "Ferme")
	f.Fuzz(func(t *testing.T, email, password, name string) {
		err := Registration{Email: email, Password: password, Name: name}.Validate()
		if err != nil {
			return
		}
		if !ValidEmail(strings.TrimSpace(email)) || !ValidPassword(password) || strings.TrimSpace(name) == "" {
			t.Fatalf("accepted %q %q %q", email, password, name)
		}
		// An accepted email is printable text: no control or format
		// character, no space, valid UTF-8.
		trimmed := strings.TrimSpace(email)
		if !utf8.ValidString(trimmed) || strings.IndexFunc(trimmed, func(r rune) bool {
			return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || unicode.Is(unicode.Z, r)
		}) >= 0 {
			t.Fatalf("accepted email %q", email)
		}
	})
}
