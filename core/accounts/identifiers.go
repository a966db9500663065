package accounts

import (
	"strconv"
	"strings"

	"primeur/core"
)

// Identifiers of a French business (PRODUCT §5 "Profile form",
// "Identifiers"), checked wherever one is typed or printed:
//
//   - the SIREN names the company: 9 digits, the last a Luhn check digit
//     (INSEE, "Numéro SIREN"; the Luhn formula, ISO/IEC 7812-1 annex B);
//   - the SIRET names one of its establishments: the SIREN, then the 5
//     digits of the NIC, the whole 14 digits again under the Luhn rule.
//     La Poste is the documented exception: its establishments, too many
//     for the rule, all share SIREN 356 000 000, and a SIRET of La Poste is
//     valid when the sum of its 14 digits is a multiple of 5 (only its head
//     office, 356 000 000 00048, passes the Luhn rule). Source: CNRS, CIO,
//     "Normalisation des codes SIREN - SIRET" (22 March 2001), cited by
//     https://fr.wikipedia.org/wiki/Système_d'identification_du_répertoire_des_établissements
//     § "Exceptions pour le groupe La Poste";
//   - the French intra-community VAT number (art. 286 ter CGI) is FR, a
//     key of two digits, then the SIREN, the key being (12 + 3 × (SIREN
//     mod 97)) mod 97: the tax office's computation, published in no legal
//     text but followed by every number it derives from a SIREN. The letter
//     keys it gives businesses without a SIREN (foreign companies) have no
//     public rule: they are refused here, where every account has or will
//     have a SIRET. Another country's number keeps the format rule of
//     ValidTVA (2 to 4 letters, digits …), its national keys not checked.
//
// Each function takes the identifier as stored (upper case, no spaces) and
// is lenient on spaces and case, so that core/billing may check what it
// prints with the same functions. ui/src/validation/identifiers.ts has the
// same rules.

// LaPosteSIREN is the SIREN of La Poste, whose SIRETs follow their own key.
const LaPosteSIREN = "356000000"

// Lengths of the identifiers.
const (
	sirenLength = 9
	siretLength = 14
	frVATLength = 13 // FR, 2 key digits, 9 SIREN digits
)

// compactID removes the spaces of an identifier and upper-cases it.
func compactID(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// digitsOnly reports whether s is n ASCII digits.
func digitsOnly(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// luhn reports whether the digits of s pass the Luhn check: from the
// right, every second digit doubled (9 taken off past 9), the sum a
// multiple of 10.
func luhn(s string) bool {
	sum := 0
	for i := 0; i < len(s); i++ {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// LuhnComplete is digits followed by the one digit that makes them pass
// the Luhn check: a SIREN of its 8 first digits, a SIRET of its 13 — what
// seeders (the demo, the load benchmarks) number their accounts with.
func LuhnComplete(digits string) string {
	for d := byte('0'); d <= '9'; d++ {
		if s := digits + string(d); luhn(s) {
			return s
		}
	}
	return digits + "0" // not reached: one digit of ten passes
}

// ValidSIREN reports whether s is a SIREN: 9 digits passing the Luhn check.
func ValidSIREN(s string) bool {
	s = compactID(s)
	return digitsOnly(s, sirenLength) && luhn(s)
}

// ValidSIRET reports whether s is a SIRET: 14 digits beginning with a
// valid SIREN, passing the Luhn check — or, for La Poste (LaPosteSIREN),
// whose digits sum to a multiple of 5.
func ValidSIRET(s string) bool {
	s = compactID(s)
	if !digitsOnly(s, siretLength) || !ValidSIREN(s[:sirenLength]) {
		return false
	}
	if luhn(s) {
		return true
	}
	if s[:sirenLength] != LaPosteSIREN {
		return false
	}
	sum := 0
	for i := 0; i < len(s); i++ {
		sum += int(s[i] - '0')
	}
	return sum%5 == 0
}

// SIRENOf returns the SIREN a SIRET begins with, "" when s is no valid
// SIRET.
func SIRENOf(siret string) string {
	siret = compactID(siret)
	if !ValidSIRET(siret) {
		return ""
	}
	return siret[:sirenLength]
}

// FrenchVATKey returns the two digits of the key of the French VAT number
// of a SIREN, (12 + 3 × (SIREN mod 97)) mod 97, "" when siren is no valid
// SIREN.
func FrenchVATKey(siren string) string {
	siren = compactID(siren)
	if !ValidSIREN(siren) {
		return ""
	}
	n, _ := strconv.Atoi(siren)
	key := (12 + 3*(n%97)) % 97
	return string([]byte{byte('0' + key/10), byte('0' + key%10)})
}

// FrenchVAT returns the French VAT number of a SIREN ("FR" + key + SIREN),
// "" when siren is no valid SIREN.
func FrenchVAT(siren string) string {
	key := FrenchVATKey(siren)
	if key == "" {
		return ""
	}
	return "FR" + key + compactID(siren)
}

// isFrenchVAT reports whether a VAT number (compact) is French: it begins
// with FR.
func isFrenchVAT(vat string) bool { return strings.HasPrefix(vat, "FR") }

// validVATAlone checks a VAT number (compact) by itself: a French one is FR,
// its key, a valid SIREN; another country's keeps ValidTVA's format rule.
func validVATAlone(vat string) bool {
	if !isFrenchVAT(vat) {
		return ValidTVA(vat)
	}
	return len(vat) == frVATLength && FrenchVAT(vat[4:]) == vat
}

// ValidVAT reports whether vat is a valid intra-community VAT number for a
// business whose SIRET is siret: a French number (FR) has the key of its
// SIREN, and when siret is given (not empty) that SIREN is the SIRET's
// first 9 digits; another country's number follows ValidTVA's format and
// is not matched against the SIRET. An empty vat is not a number: false.
func ValidVAT(vat, siret string) bool {
	vat = compactID(vat)
	if !validVATAlone(vat) {
		return false
	}
	return VATMatchesSIRET(vat, siret)
}

// VATMatchesSIRET reports whether a VAT number and a SIRET name the same
// company: false only when both are valid, the VAT number is French and
// its SIREN is not the SIRET's. What cannot be compared (an empty or
// invalid identifier, another country's number) matches.
func VATMatchesSIRET(vat, siret string) bool {
	vat, siret = compactID(vat), compactID(siret)
	if !isFrenchVAT(vat) || !validVATAlone(vat) || !ValidSIRET(siret) {
		return true
	}
	return vat[4:] == siret[:sirenLength]
}

// IdentifierIssue is what is wrong with an identifier stored in a
// profile: the field and the French sentence its owner reads.
type IdentifierIssue struct {
	Field   string `json:"field" enum:"siret,tvaintracom" doc:"The profile field to correct"`
	Message string `json:"message" doc:"What is wrong, in French, for the notice of the dashboard and the profile"`
}

// MsgVATSIRET refuses a French VAT number and a SIRET of two companies,
// on the field sent (ProfileUpdate.prepare).
const MsgVATSIRET = "Le n° de TVA intracommunautaire et le SIRET ne désignent pas la même entreprise : le n° de TVA doit se terminer par le SIREN (les 9 premiers chiffres du SIRET)."

// The notices of identifiers stored invalid (PRODUCT §5 "Identifiers"):
// accepted before the checks existed, they stay until their owner corrects
// them, and trade goes on meanwhile.
const (
	MsgStoredSIRET    = "Le SIRET enregistré dans votre profil n'est pas valide : vérifiez-le sur votre avis de situation au répertoire Sirene (INSEE) ou votre extrait Kbis, puis corrigez-le."
	MsgStoredTVA      = "Le n° de TVA intracommunautaire enregistré dans votre profil n'est pas valide : corrigez-le, ou videz ce champ si vous êtes exempté de TVA."
	MsgStoredMismatch = "Le n° de TVA intracommunautaire enregistré dans votre profil ne correspond pas à votre SIRET : il doit se terminer par votre SIREN (les 9 premiers chiffres du SIRET)."
)

// IdentifierIssues lists what is wrong with the identifiers u's profile
// holds — a SIRET or VAT number stored before they were checked —, in the
// order of the form; empty when nothing is. The user load carries it, the
// UI shows it to the owner, and `primeur user check-identifiers` lists it.
func (u User) IdentifierIssues() []IdentifierIssue {
	issues := []IdentifierIssue{}
	if u.SIRET != "" && !ValidSIRET(u.SIRET) {
		issues = append(issues, IdentifierIssue{Field: "siret", Message: MsgStoredSIRET})
	}
	switch {
	case u.TVAIntracom == "":
	case !validVATAlone(compactID(u.TVAIntracom)):
		issues = append(issues, IdentifierIssue{Field: "tvaintracom", Message: MsgStoredTVA})
	case !VATMatchesSIRET(u.TVAIntracom, u.SIRET):
		issues = append(issues, IdentifierIssue{Field: "tvaintracom", Message: MsgStoredMismatch})
	}
	return issues
}

// prepare is p checked against u, the account it updates: a SIRET or VAT
// number sent as stored (once compact) is left out — an identifier stored
// before the checks is not refused again when the form sends it back, the
// notice (IdentifierIssues) tells its owner —, the rest normalized
// (Normalize), then the SIRET and VAT number the account will hold
// compared when either is sent: a French VAT number must carry the SIRET's
// SIREN (MsgVATSIRET, on the VAT number when it was sent, else on the
// SIRET). ui/src/validation/profile.ts applies the same to the fields
// changed.
func (p ProfileUpdate) prepare(u User) (ProfileUpdate, error) {
	if p.SIRET != nil && compactID(*p.SIRET) == u.SIRET {
		p.SIRET = nil
	}
	if p.TVAIntracom != nil && compactID(*p.TVAIntracom) == u.TVAIntracom {
		p.TVAIntracom = nil
	}
	n, err := p.Normalize(u.Type)
	if err != nil {
		return n, err
	}
	n.bankVerified = p.bankVerified
	if n.SIRET == nil && n.TVAIntracom == nil {
		return n, nil
	}
	siret, vat := u.SIRET, u.TVAIntracom
	if n.SIRET != nil {
		siret = *n.SIRET
	}
	if n.TVAIntracom != nil {
		vat = *n.TVAIntracom
	}
	if !VATMatchesSIRET(vat, siret) {
		field := "tvaintracom"
		if n.TVAIntracom == nil {
			field = "siret"
		}
		return n, core.Invalid(field, MsgVATSIRET)
	}
	return n, nil
}
