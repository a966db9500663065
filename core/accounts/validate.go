package accounts

import (
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/terms"
	"primeur/core/vat"
)

// French messages of PRODUCT §5, exactly as the user reads them.
const (
	MsgEmailRequired    = "Saisissez votre adresse email"
	MsgEmailInvalid     = "Adresse email invalide"
	MsgEmail2Required   = "Confirmez votre adresse email"
	MsgEmailsDiffer     = "Les deux adresses ne correspondent pas"
	MsgPasswordInvalid  = "Mot de passe invalide (8 caractères min., parmi lesquels des lettres et des chiffres)"
	MsgPasswordsDiffer  = "Les deux mots de passe ne correspondent pas"
	MsgPasswordRequired = "Saisissez votre mot de passe"
	MsgNameRequired     = "Le nom de votre entreprise est requis."
	MsgDeliveryDays     = "Vous devez choisir au moins un jour de livraison (vous pourrez corriger votre choix à tout moment si nécessaire)."
	// MsgAccountingEmailGone answers a client of before the teams that
	// sets a shop's accounting email (issue 41): the accountant is a
	// member of the team now.
	MsgAccountingEmailGone = "L'email de la comptabilité n'existe plus : invitez votre comptable dans l'équipe (menu « Équipe », rôle Comptabilité). Les factures et les relances lui parviendront à sa propre adresse."
	MsgCapital             = "Le capital saisi doit être un nombre."
	MsgBIC                 = "Veuillez saisir un code BIC valide (LLLLLLXXXXX, L : lettre - X : chiffre ou lettre)."
	MsgAPE                 = "Veuillez saisir un code APE valide (CCCCL, C : Chiffre - L : lettre)."
	MsgIBAN                = "Veuillez saisir un code IBAN valide."
	MsgSIRET               = "Veuillez saisir un code SIRET valide."
	MsgTel                 = "Veuillez saisir un n° de téléphone valide (10 chiffres)."
	MsgLatitude            = "Veuillez saisir une latitude valide"
	MsgLongitude           = "Veuillez saisir une longitude valide"
	MsgTVA                 = "Veuillez saisir un n° de TVA intra-communautaire valide ou laisser ce champ vide si vous êtes exempté de TVA."
	MsgPostcode            = "Veuillez saisir un code postal valide (5 chiffres)."
	MsgTown                = "Veuillez saisir la ville."
	MsgEmailTaken          = "Un compte existe déjà avec cette adresse email."
	MsgTooLong             = "Ce champ est trop long (500 caractères au plus)."
	MsgNotForRole          = "Ce champ ne concerne pas votre type de compte."
	// MsgVATRegime refuses a VAT regime that is none of core/vat's.
	MsgVATRegime = "Choisissez votre régime de TVA : régime normal, franchise en base (art. 293 B du CGI) ou remboursement forfaitaire agricole."
	// MsgVATRegimeNumber asks a producer under the normal regime for the
	// VAT number its invoices must carry.
	MsgVATRegimeNumber   = "Au régime normal de TVA, vos factures portent votre n° de TVA intracommunautaire : renseignez-le, ou choisissez un régime sans TVA."
	MsgBadCredentials    = "L'adresse email ou le mot de passe saisis sont incorrects."
	MsgThrottled         = "Trop de tentatives de connexion échouées. Veuillez réessayer dans quelques minutes."
	maxEmailLength       = 254
	maxPasswordLength    = 256
	maxTextLength        = 500
	minPasswordLength    = 8
	deliveryDaysPerWeek  = 7
	maxTVALength         = 20
	minTVALength         = 4
	maxTVAFurtherLetters = 2
)

var (
	// emailRe is PRODUCT §5's "looks like an email": something, @, something,
	// a dot, something, none of which holds an @, a control or format
	// character (NUL, line breaks, zero-width and bidi marks) or a space of
	// any kind. ui/src/validation/common.ts has the same pattern.
	emailRe = regexp.MustCompile(`^[^@\p{Cc}\p{Cf}\p{Z}]+@[^@\p{Cc}\p{Cf}\p{Z}]+\.[^@\p{Cc}\p{Cf}\p{Z}]+$`)
	digitRe = regexp.MustCompile(`^\d+$`)
	bicRe   = regexp.MustCompile(`^[A-Za-z]{4}[A-Za-z]{2}[A-Za-z0-9]{2}[A-Za-z0-9]{3}$`)
	apeRe   = regexp.MustCompile(`^\d{4}[A-Za-z]$`)
	ibanRe  = regexp.MustCompile(`^[A-Za-z]{2}\d{2}[A-Za-z0-9]{4}\d{7}[A-Za-z0-9]{0,16}$`)
	telRe   = regexp.MustCompile(`^\d{10}$`)
	coordRe = regexp.MustCompile(`^-?[0-9.]+$`)
	tvaRe   = regexp.MustCompile(`^([A-Za-z]{2,4})([0-9A-Za-z_-]*)$`)
	// postalRe splits a line starting with digits into them and the rest.
	postalRe = regexp.MustCompile(`^([0-9]+)(.*)$`)
)

// ValidEmail reports whether s looks like an email address: valid UTF-8 of
// at most 254 bytes matching emailRe.
func ValidEmail(s string) bool {
	return len(s) <= maxEmailLength && utf8.ValidString(s) && emailRe.MatchString(s)
}

// ValidPassword applies the PRODUCT §5 rule: at least 8 characters among which
// letters and digits.
func ValidPassword(s string) bool {
	if utf8.RuneCountInString(s) < minPasswordLength || len(s) > maxPasswordLength {
		return false
	}
	var letter, digit bool
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return letter && digit
}

// Registration is what a visitor submits to create an account. Email2 and
// Password2 are the confirmations of the form; they are checked when sent.
type Registration struct {
	Email       string
	Email2      *string
	Password    string
	Password2   *string
	Name        string
	Distributor bool
}

// Validate checks a registration with the PRODUCT §5 rules and messages.
func (r Registration) Validate() error {
	var v core.ValidationError
	email := strings.TrimSpace(r.Email)
	switch {
	case email == "":
		v.Add("email", MsgEmailRequired)
	case !ValidEmail(email):
		v.Add("email", MsgEmailInvalid)
	}
	if r.Email2 != nil {
		email2 := strings.TrimSpace(*r.Email2)
		switch {
		case email2 == "":
			v.Add("email2", MsgEmail2Required)
		case !ValidEmail(email2):
			v.Add("email2", MsgEmailInvalid)
		case !strings.EqualFold(email, email2):
			v.Add("email2", MsgEmailsDiffer)
		}
	}
	if !ValidPassword(r.Password) {
		v.Add("password", MsgPasswordInvalid)
	}
	if r.Password2 != nil && *r.Password2 != r.Password {
		v.Add("password2", MsgPasswordsDiffer)
	}
	name := strings.TrimSpace(r.Name)
	switch {
	case name == "":
		v.Add("name", MsgNameRequired)
	case utf8.RuneCountInString(name) > maxTextLength:
		v.Add("name", MsgTooLong)
	}
	return v.Err()
}

// ProfileUpdate holds the profile fields a user changes; nil leaves a field
// as it is, "" clears it.
type ProfileUpdate struct {
	Name                *string
	Capital             *string
	BIC                 *string
	APE                 *string
	IBAN                *string
	SIRET               *string
	Tel                 *string
	TVAIntracom         *string
	AddressLine1        *string
	AddressLine2        *string
	AddressLine3        *string
	Latitude            *string
	Longitude           *string
	Certification       *string
	Legal               *string
	DefaultDeliveryDays []bool // producers only; nil leaves them unchanged
	// EmailAccounting is the shops' accounting email, retired (migrations
	// 72 and 74 made it an accountant member): a client of before that
	// sets one is refused with MsgAccountingEmailGone, so that nobody
	// believes invoices will go there; an empty one — that client
	// clearing it — is no change, and ignored.
	EmailAccounting     *string
	BillingAddressLine1 *string
	BillingAddressLine2 *string
	BillingAddressLine3 *string
	// A shop's delivery instructions and opening hours (free text, 500
	// characters each, multi-line); nil leaves them.
	DeliveryInstructions *string
	OpeningHours         *string
	// PaymentTerms are a producer's payment terms; nil leaves them.
	PaymentTerms *terms.Terms
	// VATRegime is a producer's VAT regime (core/vat); nil leaves it, or,
	// when the VAT number changes, sets vat.Of of the new one
	// (UpdateProfile).
	VATRegime *string
	// CutoffReminder turns a producer's reminder of the 25th on or off;
	// nil leaves it.
	CutoffReminder *bool

	// bankVerified is set by CheckBankChange once the current password
	// came with a change of IBAN or BIC (bank.go).
	bankVerified bool
}

// Normalize validates the update for a user of the given type with the PRODUCT
// §5 profile rules and returns it with values in their stored form (trimmed,
// spaces removed from codes, codes upper-cased).
func (p ProfileUpdate) Normalize(userType string) (ProfileUpdate, error) {
	var v core.ValidationError
	text := func(field string, s *string) *string {
		if s == nil {
			return nil
		}
		t := strings.TrimSpace(*s)
		if utf8.RuneCountInString(t) > maxTextLength {
			v.Add(field, MsgTooLong)
		}
		return &t
	}
	code := func(field string, s *string, strip string, ok func(string) bool, msg string) *string {
		if s == nil {
			return nil
		}
		t := strings.TrimSpace(*s)
		for _, c := range strip {
			t = strings.ReplaceAll(t, string(c), "")
		}
		t = strings.ToUpper(t)
		if t != "" && !ok(t) {
			v.Add(field, msg)
		}
		return &t
	}
	onlyFor := func(field string, set bool, role string) {
		if set && userType != role {
			v.Add(field, MsgNotForRole)
		}
	}

	out := ProfileUpdate{
		Name:          text("name", p.Name),
		Capital:       code("capital", p.Capital, " ", digitRe.MatchString, MsgCapital),
		BIC:           code("bic", p.BIC, " ", ValidBIC, MsgBIC),
		APE:           code("ape", p.APE, " ", apeRe.MatchString, MsgAPE),
		IBAN:          code("iban", p.IBAN, " ", ValidIBAN, MsgIBAN),
		SIRET:         code("siret", p.SIRET, " ", ValidSIRET, MsgSIRET),
		Tel:           code("tel", p.Tel, " .", telRe.MatchString, MsgTel),
		TVAIntracom:   code("tvaintracom", p.TVAIntracom, " ", validVATAlone, MsgTVA),
		AddressLine1:  text("addressLine1", p.AddressLine1),
		AddressLine2:  text("addressLine2", p.AddressLine2),
		AddressLine3:  text("addressLine3", p.AddressLine3),
		Latitude:      code("latitude", p.Latitude, " ", coordinate(90), MsgLatitude),
		Longitude:     code("longitude", p.Longitude, " ", coordinate(180), MsgLongitude),
		Certification: text("certification", p.Certification),
		Legal:         text("legal", p.Legal),

		BillingAddressLine1: text("billingAddressLine1", p.BillingAddressLine1),
		BillingAddressLine2: text("billingAddressLine2", p.BillingAddressLine2),
		BillingAddressLine3: text("billingAddressLine3", p.BillingAddressLine3),

		DeliveryInstructions: text("deliveryInstructions", p.DeliveryInstructions),
		OpeningHours:         text("openingHours", p.OpeningHours),
	}
	if out.Name != nil && *out.Name == "" {
		v.Add("name", MsgNameRequired)
	}
	if out.AddressLine3 != nil {
		if msg := PostalLineMessage(*out.AddressLine3); msg != "" {
			v.Add("addressLine3", msg)
		}
	}
	if p.EmailAccounting != nil && strings.TrimSpace(*p.EmailAccounting) != "" {
		v.Add("emailAccounting", MsgAccountingEmailGone)
	}
	if p.DefaultDeliveryDays != nil {
		n := 0
		for _, d := range p.DefaultDeliveryDays {
			if d {
				n++
			}
		}
		if len(p.DefaultDeliveryDays) != deliveryDaysPerWeek || n == 0 {
			v.Add("defaultDeliveryDays", MsgDeliveryDays)
		}
		out.DefaultDeliveryDays = append([]bool(nil), p.DefaultDeliveryDays...)
	}
	if p.PaymentTerms != nil {
		var tv *core.ValidationError
		if err := p.PaymentTerms.Validate(); errors.As(err, &tv) {
			v.Fields = append(v.Fields, tv.Fields...)
		}
		t := *p.PaymentTerms
		out.PaymentTerms = &t
	}
	if p.CutoffReminder != nil {
		on := *p.CutoffReminder
		out.CutoffReminder = &on
	}
	if p.VATRegime != nil {
		r := strings.TrimSpace(*p.VATRegime)
		if !vat.Valid(r) {
			v.Add("vatRegime", MsgVATRegime)
		}
		out.VATRegime = &r
	}
	onlyFor("vatRegime", p.VATRegime != nil, Producer)
	onlyFor("paymentTerms", p.PaymentTerms != nil, Producer)
	onlyFor("cutoffReminder", p.CutoffReminder != nil, Producer)
	onlyFor("defaultDeliveryDays", p.DefaultDeliveryDays != nil, Producer)
	onlyFor("billingAddressLine1", p.BillingAddressLine1 != nil, Distributor)
	onlyFor("billingAddressLine2", p.BillingAddressLine2 != nil, Distributor)
	onlyFor("billingAddressLine3", p.BillingAddressLine3 != nil, Distributor)
	onlyFor("deliveryInstructions", p.DeliveryInstructions != nil, Distributor)
	onlyFor("openingHours", p.OpeningHours != nil, Distributor)
	return out, v.Err()
}

// PostalLineMessage checks the line of the postal code and town
// (addressLine3, "74230 Thônes", PRODUCT §5 "Profile form"): a line that
// starts with a digit starts with a 5-digit postal code (01000 at least)
// followed by a space and the town. It returns the message of the fault, ""
// when the line is fine; a line without leading digit is free text (older
// profiles hold a town alone). ui/src/validation/address.ts has the same
// rule.
func PostalLineMessage(line string) string {
	m := postalRe.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return ""
	}
	code, rest := m[1], m[2]
	if len(code) != 5 || code < "01000" || (rest != "" && !unicode.IsSpace([]rune(rest)[0])) {
		return MsgPostcode
	}
	if strings.TrimSpace(rest) == "" {
		return MsgTown
	}
	return ""
}

// coordinate accepts digits and dots with an optional leading minus (western
// France has negative longitudes), one dot at most, within ±limit.
func coordinate(limit float64) func(string) bool {
	return func(s string) bool {
		if !coordRe.MatchString(s) || strings.Count(s, ".") > 1 {
			return false
		}
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && f >= -limit && f <= limit
	}
}

// ValidIBAN checks the PRODUCT §5 shape (spaces already removed) and the ISO
// 13616 mod-97 checksum.
func ValidIBAN(s string) bool {
	if !ibanRe.MatchString(s) {
		return false
	}
	rearranged := strings.ToUpper(s[4:] + s[:4])
	var digits strings.Builder
	for _, r := range rearranged {
		if r >= 'A' && r <= 'Z' {
			digits.WriteString(strconv.Itoa(int(r-'A') + 10))
		} else {
			digits.WriteRune(r)
		}
	}
	n, ok := new(big.Int).SetString(digits.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

// ValidBIC checks a BIC's shape (spaces removed): 4 letters of the bank, 2
// of the country, 2 of the location, an optional branch of 3.
func ValidBIC(s string) bool { return bicRe.MatchString(s) }

// ValidTVA checks the format of an intra-community VAT number (spaces
// removed): 2 to 4 letters, then digits, dashes or underscores with at most
// 2 further letters, at least one digit, 4 to 20 characters in all. It is
// the whole rule for another country's number; a French one (FR) must also
// carry its SIREN and key (ValidVAT, identifiers.go).
func ValidTVA(s string) bool {
	if len(s) < minTVALength || len(s) > maxTVALength {
		return false
	}
	m := tvaRe.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	letters, digits := 0, 0
	for _, r := range m[2] {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	return letters <= maxTVAFurtherLetters && digits > 0
}
