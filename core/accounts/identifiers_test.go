package accounts_test

import (
	"reflect"
	"testing"

	"primeur/core/accounts"
)

// TestSIRENAndSIRET: the Luhn rule on both, the SIRET beginning with a
// valid SIREN, La Poste's SIRETs by the sum of their digits — and only
// hers. The numbers of issue 32 are refused.
func TestSIRENAndSIRET(t *testing.T) {
	sirens := []struct {
		siren string
		want  bool
	}{
		{"732829320", true},
		{"732 829 320", true},
		{"356000000", true}, // La Poste
		{"732829321", false},
		{"123456789", false},
		{"111111111", false},
		{"73282932", false},
		{"7328293200", false},
		{"73282932A", false},
		{"", false},
	}
	for _, tt := range sirens {
		if got := accounts.ValidSIREN(tt.siren); got != tt.want {
			t.Errorf("ValidSIREN(%q) = %v, want %v", tt.siren, got, tt.want)
		}
	}
	sirets := []struct {
		name, siret string
		want        bool
	}{
		{"a valid SIRET", "73282932000074", true},
		{"with spaces", "732 829 320 00074", true},
		{"its key wrong", "73282932000075", false},
		{"issue 32's", "11111111111111", false},
		{"Luhn-valid, on an invalid SIREN", "12345678900015", false},
		{"13 digits", "7328293200007", false},
		{"15 digits", "732829320000740", false},
		{"a letter", "7328293200007A", false},
		{"empty", "", false},
		{"La Poste's head office, by Luhn", "35600000000048", true},
		{"La Poste, digits summing to a multiple of 5", "35600000049837", true},
		{"La Poste, neither rule", "35600000000011", false},
		{"not La Poste, digits summing to a multiple of 5", "73282932000077", false},
	}
	for _, tt := range sirets {
		if got := accounts.ValidSIRET(tt.siret); got != tt.want {
			t.Errorf("%s: ValidSIRET(%q) = %v, want %v", tt.name, tt.siret, got, tt.want)
		}
	}
	if got := accounts.SIRENOf("732 829 320 00074"); got != "732829320" {
		t.Errorf("SIRENOf = %q", got)
	}
	if got := accounts.SIRENOf("11111111111111"); got != "" {
		t.Errorf("SIRENOf of an invalid SIRET = %q", got)
	}
}

// TestVATNumbers: a French number is FR, the key of its SIREN, the SIREN;
// given a SIRET it must carry the SIRET's SIREN. Another country's keeps
// the format rule and is never matched against the SIRET.
func TestVATNumbers(t *testing.T) {
	if got := accounts.FrenchVATKey("732829320"); got != "44" {
		t.Fatalf("FrenchVATKey = %q, want 44", got)
	}
	// A key under 10 keeps its leading zero.
	if got := accounts.FrenchVAT("753218643"); got != "FR07753218643" {
		t.Fatalf("FrenchVAT = %q", got)
	}
	if got := accounts.FrenchVAT("123456789"); got != "" {
		t.Fatalf("FrenchVAT of an invalid SIREN = %q", got)
	}
	tests := []struct {
		name, vat, siret string
		want             bool
	}{
		{"French, alone", "FR44732829320", "", true},
		{"French, spaces and lower case", "fr 44 732 829 320", "", true},
		{"French, with its SIRET", "FR44732829320", "73282932000074", true},
		{"French, another company's SIRET", "FR44732829320", "84261530400016", false},
		{"French, with an invalid SIRET (not compared)", "FR44732829320", "11111111111111", true},
		{"French, wrong key (issue 32)", "FR00732829320", "", false},
		{"French, wrong key on an invalid SIREN (issue 32)", "FR00487231556", "", false},
		{"French, key right but SIREN invalid (issue 32)", "FR31111111111", "", false},
		{"French, letter key", "FRXA732829320", "", false},
		{"French, too short", "FR4473282932", "", false},
		{"French, too long", "FR447328293201", "", false},
		{"La Poste", "FR39356000000", "35600000049837", true},
		{"German, format only", "DE123456789", "73282932000074", true},
		{"Belgian, format only", "BE0123456789", "", true},
		{"no country", "12345678901", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		if got := accounts.ValidVAT(tt.vat, tt.siret); got != tt.want {
			t.Errorf("%s: ValidVAT(%q, %q) = %v, want %v", tt.name, tt.vat, tt.siret, got, tt.want)
		}
	}
}

// TestIdentifierIssues: what the notice tells an account whose stored
// identifiers are wrong, field by field, in the form's order.
func TestIdentifierIssues(t *testing.T) {
	tests := []struct {
		name       string
		siret, vat string
		want       []accounts.IdentifierIssue
	}{
		{"none given", "", "", []accounts.IdentifierIssue{}},
		{"both right", "73282932000074", "FR44732829320", []accounts.IdentifierIssue{}},
		{"a foreign number", "73282932000074", "DE123456789", []accounts.IdentifierIssue{}},
		{"SIRET wrong", "11111111111111", "", []accounts.IdentifierIssue{{Field: "siret", Message: accounts.MsgStoredSIRET}}},
		{"VAT key wrong", "73282932000074", "FR00732829320", []accounts.IdentifierIssue{{Field: "tvaintracom", Message: accounts.MsgStoredTVA}}},
		{"another company's SIREN", "84261530400016", "FR44732829320", []accounts.IdentifierIssue{{Field: "tvaintracom", Message: accounts.MsgStoredMismatch}}},
		{"both wrong", "12345678900012", "FR32123456789", []accounts.IdentifierIssue{
			{Field: "siret", Message: accounts.MsgStoredSIRET}, {Field: "tvaintracom", Message: accounts.MsgStoredTVA}}},
	}
	for _, tt := range tests {
		u := accounts.User{SIRET: tt.siret, TVAIntracom: tt.vat}
		if got := u.IdentifierIssues(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestMaskIBAN(t *testing.T) {
	tests := []struct{ iban, want string }{
		{"FR7630006000011234567890189", "**** **** **** **** **** ***0 189"},
		{"fr76 3000 6000 0112 3456 7890 189", "**** **** **** **** **** ***0 189"},
		{"DE89370400440532013000", "**** **** **** **** **30 00"},
		{"", ""},
		{"FR7", "***"},
	}
	for _, tt := range tests {
		if got := accounts.MaskIBAN(tt.iban); got != tt.want {
			t.Errorf("MaskIBAN(%q) = %q, want %q", tt.iban, got, tt.want)
		}
	}
}

func TestLuhnComplete(t *testing.T) {
	for _, digits := range []string{"73282932", "00000000", "99999999", "12345678", "8426153040001"} {
		got := accounts.LuhnComplete(digits)
		if len(got) != len(digits)+1 || got[:len(digits)] != digits {
			t.Fatalf("%s: %s", digits, got)
		}
		if len(got) == 9 && !accounts.ValidSIREN(got) || len(got) == 14 && !accounts.ValidSIRET(got) {
			t.Fatalf("%s completed to %s, invalid", digits, got)
		}
	}
	if accounts.LuhnComplete("73282932") != "732829320" || accounts.LuhnComplete("8426153040001") != "84261530400016" {
		t.Fatal("the check digits of known SIRENs and SIRETs")
	}
}
