package trade

import (
	"primeur/core/accounts"
	"primeur/core/decimal"
)

// The privacy rule of every price figure a user sees that others' deals
// make (PRODUCT §15 "Price privacy"; docs/SECURITY.md "Price privacy"):
// the need's price comparison. A party sees
// its own deals exactly, in its needs and orders; the figures are for
// everyone, parties or not, so that none of them may isolate one deal.
//
//  1. Who counts: a commitment counts only between two legal entities —
//     each account's login email confirmed and its SIRET valid, the entity
//     being the SIREN (EntityOf) — that are two different companies, and
//     only when it is a real purchase: at least MinCountedQuantity and
//     MinCountedAmount (Counts). Fresh accounts, accounts sharing a SIREN,
//     accounts without SIRET and tiny trades are thereby worth nothing to
//     whoever makes them to surround one real deal.
//  2. How many: a figure is shown only when at least MinPartners distinct
//     entities bought and MinPartners distinct entities sold behind it.
//  3. Dominance: and only when no single entity, buyer or seller, holds
//     more than 1/MaxShareDivisor of its quantity — the average being
//     weighted by quantity, it would otherwise be mostly that entity's
//     price (statistical offices' (n, k) rule; INSEE's business statistics
//     hide a cell whose largest unit exceeds 85 %: here, a half, because
//     the reader may know every other deal of the cell).
//  4. Rounding: a figure shown is rounded half up to PriceStep (10 cents),
//     so that even a reader who knows every other deal behind it learns a
//     partner's price only to within PriceStep × MaxShareDivisor / 2 on
//     either side, never exactly.
const (
	// MinPartners is how many distinct buyers and how many distinct
	// sellers (legal entities, EntityOf) a figure needs behind it.
	MinPartners = 3
	// MinCountedQuantity is the least quantity of a commitment that
	// counts: one kg or one piece (hundredths).
	MinCountedQuantity = decimal.Dec(100)
	// MinCountedAmount is the least amount HT of a commitment that
	// counts, quantity × price: 10 € (in cents).
	MinCountedAmount = decimal.Dec(10_00)
	// MaxShareDivisor: no entity may hold more than 1/MaxShareDivisor of a
	// figure's quantity (a half).
	MaxShareDivisor = 2
	// PriceStep is what a figure is rounded to, in cents: 10 cents.
	PriceStep = 10
)

// EntityOf is the legal entity an account counts as in the price figures:
// the SIREN of its SIRET when its login email is confirmed and its SIRET
// valid (accounts.ValidSIRET), "" when it counts as none — its
// commitments then count nowhere.
func EntityOf(u accounts.User) string {
	if !u.EmailConfirmed() {
		return ""
	}
	return accounts.SIRENOf(u.SIRET)
}

// Counts reports whether a commitment of quantity × price between the
// entities buyer and seller (EntityOf) counts in the price figures: both
// entities known and different, the quantity and the amount at least
// MinCountedQuantity and MinCountedAmount.
func Counts(buyer, seller string, quantity, price decimal.Dec) bool {
	if buyer == "" || seller == "" || buyer == seller || quantity < MinCountedQuantity || price <= 0 {
		return false
	}
	// quantity (hundredths) × price (cents) is in hundredths of cents.
	return int64(quantity)*int64(price) >= int64(MinCountedAmount)*100
}

// cell is the sums behind one figure: a product, a month and an area.
type cell struct {
	Amount        int64 `db:"amount"`         // Σ quantity (hundredths) × price (cents)
	Quantity      int64 `db:"quantity"`       // Σ quantity (hundredths)
	Purchases     int64 `db:"purchases"`      // commitments counted
	Buyers        int64 `db:"buyers"`         // distinct entities that bought
	Sellers       int64 `db:"sellers"`        // distinct entities that sold
	LargestBuyer  int64 `db:"largest_buyer"`  // the quantity of the entity that bought most
	LargestSeller int64 `db:"largest_seller"` // the quantity of the entity that sold most
}

// shown reports whether a figure made of c may be shown: enough distinct
// entities on each side, none of them dominant.
func (c cell) shown() bool {
	return c.Buyers >= MinPartners && c.Sellers >= MinPartners && c.Quantity > 0 && c.Amount > 0 &&
		MaxShareDivisor*c.LargestBuyer <= c.Quantity && MaxShareDivisor*c.LargestSeller <= c.Quantity
}

// average is the quantity-weighted average unit price of amount over
// quantity (both positive), rounded half up to PriceStep cents.
func average(amount, quantity int64) decimal.Dec {
	// amount / quantity is in cents; in steps: amount / (quantity × step).
	steps := (2*amount + PriceStep*quantity) / (2 * PriceStep * quantity)
	return decimal.Dec(steps * PriceStep)
}
