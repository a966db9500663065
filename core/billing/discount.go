package billing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
	"primeur/core/terms"
)

// DiscountOn is the escompte of a rate (hundredths of a percent) on an
// invoice's VAT breakdown less what its claims' credit notes took off it
// (bases, Remaining): per VAT rate, its amount HT (Basis) and the VAT it
// brings down with it (art. 267 II-1° CGI: an escompte is not part of the
// taxable amount, at the rate of what it discounts); ht and tax are their
// sums. The one computation of both the discount a shop may deduct
// (core/payments) and the credit note that grants it (IssueDiscount).
func DiscountOn(bases []RateTotal, rate int64) (parts []RateTotal, ht, tax decimal.Dec) {
	if rate <= 0 {
		return nil, 0, 0
	}
	for _, b := range bases {
		if b.Basis <= 0 {
			continue
		}
		p := RateTotal{Rate: b.Rate, Basis: terms.Discount(b.Basis, rate)}
		if p.Basis <= 0 {
			continue
		}
		p.VAT = VAT(p.Basis, p.Rate)
		parts = append(parts, p)
		ht += p.Basis
		tax += p.VAT
	}
	return parts, ht, tax
}

// Remaining is an invoice's VAT breakdown less its credit notes' (their
// bases per rate): what an escompte still applies to.
func Remaining(invoice []RateTotal, credits ...[]RateTotal) []RateTotal {
	out := slices.Clone(invoice)
	for _, c := range credits {
		for _, r := range c {
			if i := slices.IndexFunc(out, func(o RateTotal) bool { return o.Rate == r.Rate }); i >= 0 {
				out[i].Basis -= r.Basis
				out[i].VAT -= r.VAT
			}
		}
	}
	return out
}

// DiscountLine names the escompte on its credit note's line: "Escompte
// 2 % — paiement anticipé".
func DiscountLine(rate int64) string {
	return "Escompte " + terms.Percent(rate) + " % — paiement anticipé"
}

// DiscountTerms says how an escompte's credit note settles: it was
// deducted from the payment of the invoice within the discount window.
func DiscountTerms(invoiceNumber string) string {
	return "Montant déduit du règlement de la facture " + invoiceNumber +
		", payée dans le délai de l'escompte pour paiement anticipé."
}

// IssueDiscount issues, in the caller's transaction, the escompte's credit
// note of an invoice that payment paid within its discount window, and
// returns it, issued on today ("YYYY-MM-DD", the business calendar's); nil
// when the invoice has no escompte or already has its credit note. The caller (core/payments) decides that the payment earned
// it; the credit note refers to the invoice and to the payment, carries
// the invoice's parties and VAT, one line of the discount's amount HT
// (DiscountOn of the invoice less its claims' credit notes) and is
// numbered in the producer's credit series. The order row is locked
// first, as Issue and SettleOrder do; the unique index documents_discount
// backs it up.
func IssueDiscount(ctx context.Context, q store.Q, invoiceID, paymentID string, now time.Time, today string) (*Invoice, error) {
	day, ok := calendar.ParseDate(today)
	if !ok {
		return nil, fmt.Errorf("billing: discount of %s: today %q", invoiceID, today)
	}
	var orderID string
	if err := store.Get(ctx, q, &orderID, `SELECT order_id FROM documents WHERE id = ? AND kind = 'invoice'`, invoiceID); err != nil {
		if store.IsNotFound(err) {
			return nil, fmt.Errorf("billing: invoice %s: %w", invoiceID, core.ErrNotFound)
		}
		return nil, fmt.Errorf("billing: invoice %s: %w", invoiceID, err)
	}
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		return nil, fmt.Errorf("billing: lock order %s: %w", orderID, err)
	}
	inv, err := Get(ctx, q, invoiceID)
	if err != nil {
		return nil, err
	}
	var others []struct {
		Kind      string `db:"kind"`
		Breakdown string `db:"vat_breakdown"`
	}
	if err := store.Select(ctx, q, &others, `SELECT kind, vat_breakdown FROM documents WHERE invoice_id = ?`, invoiceID); err != nil {
		return nil, fmt.Errorf("billing: credit notes of %s: %w", invoiceID, err)
	}
	var credited [][]RateTotal
	discounts := 0
	for _, o := range others {
		switch o.Kind {
		case KindDiscount:
			discounts++
		case KindCredit:
			b, err := DecodeBreakdown(o.Breakdown)
			if err != nil {
				return nil, fmt.Errorf("billing: credit notes of %s: %w", invoiceID, err)
			}
			credited = append(credited, b)
		}
	}
	parts, ht, _ := DiscountOn(Remaining(inv.Breakdown, credited...), inv.Discount)
	if discounts > 0 || inv.DiscountUntil == "" || ht <= 0 {
		return nil, nil
	}
	producer, err := accounts.ByID(ctx, q, inv.ProducerID)
	if err != nil {
		return nil, err
	}
	year, _, _ := day.Parts()
	d := &Invoice{
		ID: core.NewID(), Kind: KindDiscount, OrderID: inv.OrderID, ProducerID: inv.ProducerID,
		DistributorID: inv.DistributorID, Month: inv.Month, Year: year, IssuedAt: now,
		IssueDate: day.String(), Seller: inv.Seller, Buyer: inv.Buyer, Notes: inv.Notes,
		VATRate: inv.VATRate, VATExempt: inv.VATExempt, VATRegime: inv.Regime(), Discount: inv.Discount,
		PaymentID: paymentID, Refers: &Reference{InvoiceID: inv.ID, Number: inv.Number, Date: inv.IssueDate},
	}
	// One line per VAT rate of what it discounts, named with its rate
	// when there are several.
	for _, p := range parts {
		name := DiscountLine(inv.Discount)
		if len(parts) > 1 {
			name += " — TVA " + terms.Percent(p.Rate) + " %"
		}
		d.Lines = append(d.Lines, Line{Position: len(d.Lines) + 1, Date: inv.IssueDate, Product: name, Unit: "un",
			Quantity: 100, Price: p.Basis, Amount: p.Basis, VATRate: p.Rate})
	}
	d.Total()
	d.Terms = Terms(*d, producer.Terms())
	if d.Seq, err = store.Next(ctx, q, creditKey(d.ProducerID, d.Year)); err != nil {
		return nil, fmt.Errorf("billing: discount number: %w", err)
	}
	d.Number = CreditNumber(d.Year, d.Seq)
	err = insert(ctx, q, *d)
	if err != nil && store.IsUniqueViolation(err) {
		return nil, errors.Join(core.ErrConflict, err)
	}
	return d, err
}
