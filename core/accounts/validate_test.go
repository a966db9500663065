package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"primeur/core"
)

func ptr(s string) *string { return &s }

// fieldMessages flattens a validation error into field → message.
func fieldMessages(t *testing.T, err error) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err == nil {
		return out
	}
	var v *core.ValidationError
	if !errors.As(err, &v) {
		t.Fatalf("error %v is not a validation error", err)
	}
	for _, f := range v.Fields {
		out[f.Field] = f.Message
	}
	return out
}

func TestRegistrationRules(t *testing.T) {
	valid := Registration{Email: "a@b.fr", Email2: ptr("A@b.fr"), Password: "abcdefg1", Password2: ptr("abcdefg1"), Name: "Ferme"}
	tests := []struct {
		name   string
		mutate func(*Registration)
		field  string
		msg    string
	}{
		{"valid", func(*Registration) {}, "", ""},
		{"email required", func(r *Registration) { r.Email = "  " }, "email", MsgEmailRequired},
		{"email invalid", func(r *Registration) { r.Email = "a@b" }, "email", MsgEmailInvalid},
		{"email with space", func(r *Registration) { r.Email = "a b@c.fr" }, "email", MsgEmailInvalid},
		{"email with NUL", func(r *Registration) { r.Email = "a\x00b@c.fr" }, "email", MsgEmailInvalid},
		{"email ending in NUL", func(r *Registration) { r.Email, r.Email2 = "ab@c.fr\x00", ptr("ab@c.fr\x00") }, "email", MsgEmailInvalid},
		{"email with a line break inside", func(r *Registration) { r.Email = "ab@c.fr\r\nBcc: x@y.fr" }, "email", MsgEmailInvalid},
		{"email with a tab", func(r *Registration) { r.Email = "a\tb@c.fr" }, "email", MsgEmailInvalid},
		{"email with a vertical tab", func(r *Registration) { r.Email = "a\vb@c.fr" }, "email", MsgEmailInvalid},
		{"email with an escape", func(r *Registration) { r.Email = "a\x1b[31mb@c.fr" }, "email", MsgEmailInvalid},
		{"email with DEL", func(r *Registration) { r.Email = "a\x7fb@c.fr" }, "email", MsgEmailInvalid},
		{"email with a C1 control", func(r *Registration) { r.Email = "a\u0085b@c.fr" }, "email", MsgEmailInvalid},
		{"email with a zero-width space", func(r *Registration) { r.Email = "a\u200bb@c.fr" }, "email", MsgEmailInvalid},
		{"email with a bidi override", func(r *Registration) { r.Email = "a\u202eb@c.fr" }, "email", MsgEmailInvalid},
		{"email with a no-break space", func(r *Registration) { r.Email = "a\u00a0b@c.fr" }, "email", MsgEmailInvalid},
		{"email with a line separator", func(r *Registration) { r.Email = "a\u2028b@c.fr" }, "email", MsgEmailInvalid},
		{"email not UTF-8", func(r *Registration) { r.Email = "a\xffb@c.fr" }, "email", MsgEmailInvalid},
		{"email with accents", func(r *Registration) { r.Email, r.Email2 = "épicerie@café.fr", ptr("épicerie@café.fr") }, "", ""},
		{"email2 with a control", func(r *Registration) { r.Email2 = ptr("a@b.fr\x00") }, "email2", MsgEmailInvalid},
		{"email2 required", func(r *Registration) { r.Email2 = ptr("") }, "email2", MsgEmail2Required},
		{"email2 invalid", func(r *Registration) { r.Email2 = ptr("nope") }, "email2", MsgEmailInvalid},
		{"email2 differs", func(r *Registration) { r.Email2 = ptr("c@d.fr") }, "email2", MsgEmailsDiffer},
		{"email2 absent is fine", func(r *Registration) { r.Email2 = nil }, "", ""},
		{"password short", func(r *Registration) { r.Password, r.Password2 = "abc1", ptr("abc1") }, "password", MsgPasswordInvalid},
		{"password no digit", func(r *Registration) { r.Password, r.Password2 = "abcdefgh", ptr("abcdefgh") }, "password", MsgPasswordInvalid},
		{"password no letter", func(r *Registration) { r.Password, r.Password2 = "12345678", ptr("12345678") }, "password", MsgPasswordInvalid},
		{"password accented letters", func(r *Registration) { r.Password, r.Password2 = "éèàçùôî1", ptr("éèàçùôî1") }, "", ""},
		{"password2 differs", func(r *Registration) { r.Password2 = ptr("abcdefg2") }, "password2", MsgPasswordsDiffer},
		{"name required", func(r *Registration) { r.Name = " \t" }, "name", MsgNameRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := valid
			tt.mutate(&r)
			got := fieldMessages(t, r.Validate())
			if tt.field == "" {
				if len(got) != 0 {
					t.Fatalf("unexpected errors %v", got)
				}
				return
			}
			if got[tt.field] != tt.msg {
				t.Fatalf("errors = %v, want %s: %q", got, tt.field, tt.msg)
			}
		})
	}
}

func TestProfileRules(t *testing.T) {
	week := func(days ...int) []bool {
		d := make([]bool, 7)
		for _, i := range days {
			d[i] = true
		}
		return d
	}
	tests := []struct {
		name  string
		role  string
		in    ProfileUpdate
		field string
		msg   string
	}{
		{"empty update", Producer, ProfileUpdate{}, "", ""},
		{"empty values accepted", Distributor, ProfileUpdate{Capital: ptr(""), BIC: ptr(""), IBAN: ptr(""), EmailAccounting: ptr("")}, "", ""},
		{"delivery days none", Producer, ProfileUpdate{DefaultDeliveryDays: week()}, "defaultDeliveryDays", MsgDeliveryDays},
		{"delivery days wrong length", Producer, ProfileUpdate{DefaultDeliveryDays: []bool{true}}, "defaultDeliveryDays", MsgDeliveryDays},
		{"delivery days ok", Producer, ProfileUpdate{DefaultDeliveryDays: week(0, 3)}, "", ""},
		{"delivery days for a shop", Distributor, ProfileUpdate{DefaultDeliveryDays: week(0)}, "defaultDeliveryDays", MsgNotForRole},
		// The accounting email is retired (issue 41): set, refused with
		// where the accountant goes now; cleared, ignored (above).
		{"emailAccounting set", Distributor, ProfileUpdate{EmailAccounting: ptr("compta@shop.fr")}, "emailAccounting", MsgAccountingEmailGone},
		{"emailAccounting invalid", Distributor, ProfileUpdate{EmailAccounting: ptr("compta@")}, "emailAccounting", MsgAccountingEmailGone},
		{"emailAccounting for a producer", Producer, ProfileUpdate{EmailAccounting: ptr("compta@shop.fr")}, "emailAccounting", MsgAccountingEmailGone},
		{"capital letters", Producer, ProfileUpdate{Capital: ptr("10k")}, "capital", MsgCapital},
		{"capital decimal", Producer, ProfileUpdate{Capital: ptr("10.5")}, "capital", MsgCapital},
		{"capital ok", Producer, ProfileUpdate{Capital: ptr("15000")}, "", ""},
		{"bic short", Producer, ProfileUpdate{BIC: ptr("AGRIFRPP")}, "bic", MsgBIC},
		{"bic digit in country", Producer, ProfileUpdate{BIC: ptr("AGRIF1PP882")}, "bic", MsgBIC},
		{"bic ok", Producer, ProfileUpdate{BIC: ptr("agrifrpp882")}, "", ""},
		{"ape digits only", Producer, ProfileUpdate{APE: ptr("01130")}, "ape", MsgAPE},
		{"ape ok", Producer, ProfileUpdate{APE: ptr("0113Z")}, "", ""},
		{"iban bad checksum", Producer, ProfileUpdate{IBAN: ptr("FR7630006000011234567890188")}, "iban", MsgIBAN},
		{"iban bad shape", Producer, ProfileUpdate{IBAN: ptr("FR76ABC")}, "iban", MsgIBAN},
		{"iban ok with spaces", Producer, ProfileUpdate{IBAN: ptr("FR76 3000 6000 0112 3456 7890 189")}, "", ""},
		{"siret 13 digits", Producer, ProfileUpdate{SIRET: ptr("1234567890123")}, "siret", MsgSIRET},
		{"siret letters", Producer, ProfileUpdate{SIRET: ptr("1234567890123A")}, "siret", MsgSIRET},
		{"siret ok with spaces", Producer, ProfileUpdate{SIRET: ptr("732 829 320 00074")}, "", ""},
		{"siret key wrong", Producer, ProfileUpdate{SIRET: ptr("73282932000075")}, "siret", MsgSIRET},
		{"siret all ones (issue 32)", Producer, ProfileUpdate{SIRET: ptr("11111111111111")}, "siret", MsgSIRET},
		{"siret on an invalid siren", Producer, ProfileUpdate{SIRET: ptr("12345678900015")}, "siret", MsgSIRET},
		{"siret of La Poste", Distributor, ProfileUpdate{SIRET: ptr("35600000049837")}, "", ""},
		{"tel 9 digits", Producer, ProfileUpdate{Tel: ptr("061234567")}, "tel", MsgTel},
		{"tel international", Producer, ProfileUpdate{Tel: ptr("+33612345678")}, "tel", MsgTel},
		{"tel ok with spaces", Producer, ProfileUpdate{Tel: ptr("06 12 34 56 78")}, "", ""},
		{"latitude letters", Producer, ProfileUpdate{Latitude: ptr("45,9")}, "latitude", MsgLatitude},
		{"latitude two dots", Producer, ProfileUpdate{Latitude: ptr("45.9.1")}, "latitude", MsgLatitude},
		{"latitude out of range", Producer, ProfileUpdate{Latitude: ptr("95")}, "latitude", MsgLatitude},
		{"latitude ok", Producer, ProfileUpdate{Latitude: ptr("45.9016")}, "", ""},
		{"longitude letters", Producer, ProfileUpdate{Longitude: ptr("6.1E")}, "longitude", MsgLongitude},
		{"longitude negative ok", Producer, ProfileUpdate{Longitude: ptr("-4.486")}, "", ""},
		{"tva too short", Producer, ProfileUpdate{TVAIntracom: ptr("FR1")}, "tvaintracom", MsgTVA},
		{"tva no prefix", Producer, ProfileUpdate{TVAIntracom: ptr("12345678901")}, "tvaintracom", MsgTVA},
		{"tva too many letters", Producer, ProfileUpdate{TVAIntracom: ptr("FR12ABC345678")}, "tvaintracom", MsgTVA},
		{"tva too long", Producer, ProfileUpdate{TVAIntracom: ptr("FR123456789012345678901")}, "tvaintracom", MsgTVA},
		{"tva ok", Producer, ProfileUpdate{TVAIntracom: ptr("FR 44 732 829 320")}, "", ""},
		{"tva french key wrong (issue 32)", Producer, ProfileUpdate{TVAIntracom: ptr("FR00487231556")}, "tvaintracom", MsgTVA},
		{"tva french on an invalid siren (issue 32)", Producer, ProfileUpdate{TVAIntracom: ptr("FR31111111111")}, "tvaintracom", MsgTVA},
		{"tva french with key letters", Producer, ProfileUpdate{TVAIntracom: ptr("FRXA732829320")}, "tvaintracom", MsgTVA},
		{"tva of another country, format only", Producer, ProfileUpdate{TVAIntracom: ptr("DE123456789")}, "", ""},
		{"tva and siret of two companies: Normalize alone does not compare them, UpdateProfile does", Producer,
			ProfileUpdate{SIRET: ptr("84261530400016"), TVAIntracom: ptr("FR44732829320")}, "", ""},
		{"name emptied", Producer, ProfileUpdate{Name: ptr(" ")}, "name", MsgNameRequired},
		{"postal line ok", Distributor, ProfileUpdate{AddressLine3: ptr(" 74230 Thônes ")}, "", ""},
		{"postal line town alone", Distributor, ProfileUpdate{AddressLine3: ptr("Annecy")}, "", ""},
		{"postal line emptied", Distributor, ProfileUpdate{AddressLine3: ptr("")}, "", ""},
		{"postal line 4 digits", Producer, ProfileUpdate{AddressLine3: ptr("7400 Annecy")}, "addressLine3", MsgPostcode},
		{"postal line glued", Producer, ProfileUpdate{AddressLine3: ptr("74000Annecy")}, "addressLine3", MsgPostcode},
		{"postal line under 01000", Producer, ProfileUpdate{AddressLine3: ptr("00999 Nulle part")}, "addressLine3", MsgPostcode},
		{"postal line without town", Distributor, ProfileUpdate{AddressLine3: ptr("74000 ")}, "addressLine3", MsgTown},
		{"other lines free", Distributor, ProfileUpdate{AddressLine2: ptr("7400"), BillingAddressLine3: ptr("7400 Annecy")}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.Normalize(tt.role)
			got := fieldMessages(t, err)
			if tt.field == "" {
				if len(got) != 0 {
					t.Fatalf("unexpected errors %v", got)
				}
				return
			}
			if got[tt.field] != tt.msg {
				t.Fatalf("errors = %v, want %s: %q", got, tt.field, tt.msg)
			}
		})
	}
}

func TestNormalizeStoresCompactUpperCodes(t *testing.T) {
	p, err := ProfileUpdate{IBAN: ptr(" fr76 3000 6000 0112 3456 7890 189 "), Tel: ptr("06.12.34.56.78"), BIC: ptr("agrifrpp882")}.Normalize(Producer)
	if err != nil {
		t.Fatal(err)
	}
	if *p.IBAN != "FR7630006000011234567890189" || *p.Tel != "0612345678" || *p.BIC != "AGRIFRPP882" {
		t.Fatalf("got %q %q %q", *p.IBAN, *p.Tel, *p.BIC)
	}
}

func TestPasswordHash(t *testing.T) {
	RealHashingForTest(t) // the subject: the real parameters, the dummy's among them
	ctx := context.Background()
	h, err := HashPassword(ctx, "secret123")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		hash, password string
		want           bool
	}{
		{h, "secret123", true},
		{h, "secret124", false},
		{"garbage", "secret123", false},
		{dummyHash, "secret123", false},
		{dummyHash, "not a real password 0", false},
	}
	for _, tt := range tests {
		if got, err := CheckPassword(ctx, tt.hash, tt.password); got != tt.want || err != nil {
			t.Errorf("CheckPassword(%.20q, %q) = %v, %v; want %v", tt.hash, tt.password, got, err, tt.want)
		}
	}
	h2, _ := HashPassword(ctx, "secret123")
	if h == h2 {
		t.Fatal("hashes must be salted")
	}
	// The dummy hash has the real parameters, so checking it costs the same.
	if strings.Join(strings.Split(dummyHash, "$")[:4], "$") != strings.Join(strings.Split(h, "$")[:4], "$") {
		t.Fatalf("dummy hash %q has other parameters than %q", dummyHash, h)
	}
}
