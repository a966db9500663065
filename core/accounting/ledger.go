package accounting

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Purposes of the accounts an export posts to, as stored
// (ledger_accounts.purpose) and named in the API's fields.
const (
	Customers         = "customers"
	Sales             = "sales"
	VATCollected      = "vatCollected"
	DiscountsGiven    = "discountsGiven"
	Suppliers         = "suppliers"
	Purchases         = "purchases"
	VATDeductible     = "vatDeductible"
	DiscountsReceived = "discountsReceived"
	Bank              = "bank"
	Cash              = "cash"
)

// Purpose is what an account records: its default number (Plan comptable
// général), the prefix any number the user sets must start with, and its
// label in the FEC (CompteLib) and in French refusals.
type Purpose struct {
	Key     string
	Default string
	Prefix  string
	// Label is the account's label in the FEC; Name names it in a
	// sentence ("le compte clients").
	Label, Name string
}

// Purposes lists every purpose: a producer's sales side, a shop's purchase
// side, and the treasury of both.
//
// A farm sells its own produce: 701 "Ventes de produits finis" is the
// account of the PCG (and of the agricultural list of accounts, ANC
// regulation 2020-03) for what the business produced, where 707 is goods
// bought for resale and 706 services. A shop buys goods for resale: 607
// "Achats de marchandises", its VAT on 44566 "TVA sur autres biens et
// services". An early-payment discount is a financial charge of the seller
// (665 "Escomptes accordés") and a financial income of the buyer (765
// "Escomptes obtenus"). Payments go to the bank (512), or to the till (530)
// when paid in cash.
var Purposes = []Purpose{
	{Customers, "411", "411", "Clients", "le compte clients"},
	{Sales, "701", "70", "Ventes de produits finis", "le compte de ventes"},
	{VATCollected, "44571", "4457", "TVA collectée", "le compte de TVA collectée"},
	{DiscountsGiven, "665", "665", "Escomptes accordés", "le compte d'escomptes accordés"},
	{Suppliers, "401", "401", "Fournisseurs", "le compte fournisseurs"},
	{Purchases, "607", "60", "Achats de marchandises", "le compte d'achats"},
	{VATDeductible, "44566", "4456", "TVA déductible sur autres biens et services", "le compte de TVA déductible"},
	{DiscountsReceived, "765", "765", "Escomptes obtenus", "le compte d'escomptes obtenus"},
	{Bank, "512", "51", "Banque", "le compte de banque"},
	{Cash, "530", "53", "Caisse", "le compte de caisse"},
}

// purposeOf returns a purpose by its key.
func purposeOf(key string) (Purpose, bool) {
	for _, p := range Purposes {
		if p.Key == key {
			return p, true
		}
	}
	return Purpose{}, false
}

// Account numbers are 3 to MaxDigits digits.
const (
	MinDigits = 3
	MaxDigits = 10
)

// AccountMessage is the refusal of a number that is not an account of
// purpose p: "Le compte clients doit être un numéro de 3 à 10 chiffres
// commençant par 411."
func AccountMessage(p Purpose) string {
	return fmt.Sprintf("%s doit être un numéro de %d à %d chiffres commençant par %s.",
		strings.ToUpper(p.Name[:1])+p.Name[1:], MinDigits, MaxDigits, p.Prefix)
}

// Ledger is the number of each purpose's account: the defaults, with what
// the user set over them.
type Ledger map[string]string

// Defaults is the ledger of a user who set nothing.
func Defaults() Ledger {
	l := Ledger{}
	for _, p := range Purposes {
		l[p.Key] = p.Default
	}
	return l
}

// Number is the account of a purpose.
func (l Ledger) Number(purpose string) string {
	if n := l[purpose]; n != "" {
		return n
	}
	p, _ := purposeOf(purpose)
	return p.Default
}

// validNumber reports whether n is an account number of purpose p.
func validNumber(p Purpose, n string) bool {
	if len(n) < MinDigits || len(n) > MaxDigits || !strings.HasPrefix(n, p.Prefix) {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Check validates the numbers sent (purpose → number; a purpose not sent,
// or sent empty, is its default) and returns the full ledger, or a
// core.ValidationError with each wrong field's French refusal: digits only,
// MinDigits to MaxDigits of them, starting with the purpose's prefix
// (411 for customers, 70 for sales…). Spaces around a number are ignored.
func Check(sent map[string]string) (Ledger, error) {
	v := &core.ValidationError{}
	l := Defaults()
	for _, p := range Purposes {
		n := strings.TrimSpace(sent[p.Key])
		if n == "" {
			continue
		}
		if !validNumber(p, n) {
			v.Add(p.Key, AccountMessage(p))
			continue
		}
		l[p.Key] = n
	}
	return l, v.Err()
}

// LoadLedger reads the accounts a user set, over the defaults.
func LoadLedger(ctx context.Context, q store.Q, userID string) (Ledger, error) {
	var rows []struct {
		Purpose string `db:"purpose"`
		Number  string `db:"number"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT purpose, number FROM ledger_accounts WHERE user_id = ?`, userID); err != nil {
		return nil, fmt.Errorf("accounting: ledger of %s: %w", userID, err)
	}
	l := Defaults()
	for _, r := range rows {
		if p, ok := purposeOf(r.Purpose); ok && validNumber(p, r.Number) {
			l[r.Purpose] = r.Number
		}
	}
	return l, nil
}

// SaveLedger stores a user's accounts, checked (Check), in the caller's
// transaction: a row for each purpose whose number is not the default,
// none for the others. A refusal changes nothing.
func SaveLedger(ctx context.Context, tx *sqlx.Tx, userID string, sent map[string]string) (Ledger, error) {
	l, err := Check(sent)
	if err != nil {
		return nil, err
	}
	if _, err := store.Exec(ctx, tx, `DELETE FROM ledger_accounts WHERE user_id = ?`, userID); err != nil {
		return nil, fmt.Errorf("accounting: save ledger: %w", err)
	}
	for _, p := range Purposes {
		if n := l[p.Key]; n != p.Default {
			if _, err := store.Exec(ctx, tx, `INSERT INTO ledger_accounts (user_id, purpose, number) VALUES (?, ?, ?)`,
				userID, p.Key, n); err != nil {
				return nil, fmt.Errorf("accounting: save ledger: %w", err)
			}
		}
	}
	return l, nil
}
