package billing

import (
	"context"
	"fmt"

	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/store"
	"primeur/core/terms"
)

// FeeLine names a delivery fee's line on an invoice.
const FeeLine = "Frais de livraison"

// addFees adds to an invoice being composed the delivery fee of each
// delivery it bills (PRODUCT §16 "Minimum order and delivery fees"): the
// fee fixed at the delivery's lock (deliveries.fee, core/delivery
// fixFees), so that a change of terms in the month applies only to the
// deliveries locked after it; for a delivery locked before fees were
// fixed (NULL), the fee of the (producer, shop) pair as its terms stand
// when the invoice is issued (fees.For: the shop's own fee, else the band
// of its distance, else the flat fee), none from the free threshold, on
// the amount HT of the delivery's goods as billed. A fee is an accessory of the goods it
// delivers (art. 267 I-2° CGI): taxed at their rate, split in proportion
// of their amounts when they carry several (fees.Split), one line per
// rate, each naming the delivery note it goes with; on a document without
// VAT, one line. The lines come after the goods', in delivery-note order.
func addFees(ctx context.Context, q store.Q, inv *Invoice) error {
	type delivery struct {
		chrono int64
		date   string
		goods  []fees.Part
		total  decimal.Dec
	}
	var ds []*delivery
	at := map[int64]*delivery{}
	for _, l := range inv.Lines {
		d := at[l.Chrono]
		if d == nil {
			d = &delivery{chrono: l.Chrono, date: l.Date}
			at[l.Chrono] = d
			ds = append(ds, d)
		}
		rate := l.VATRate
		if inv.VATExempt {
			rate = 0 // no VAT (Total): one fee line, without rate
		}
		d.goods = append(d.goods, fees.Part{Rate: rate, Amount: l.Amount})
		d.total += l.Amount
	}
	if len(ds) == 0 {
		return nil
	}
	var fixed []struct {
		Chrono int64        `db:"chrono"`
		Fee    *decimal.Dec `db:"fee"`
	}
	if err := store.Select(ctx, q, &fixed, `SELECT chrono, fee FROM deliveries WHERE order_id = ? AND status = 'done'`,
		inv.OrderID); err != nil {
		return fmt.Errorf("billing: fees of %s: %w", inv.OrderID, err)
	}
	feeOf := map[int64]*decimal.Dec{}
	for _, f := range fixed {
		feeOf[f.Chrono] = f.Fee
	}
	var a *fees.Applied // today's terms, read once if a delivery has no fixed fee
	for _, d := range ds {
		fee := feeOf[d.chrono]
		if fee == nil {
			if a == nil {
				today, err := fees.For(ctx, q, inv.ProducerID, inv.DistributorID)
				if err != nil {
					return fmt.Errorf("billing: %w", err)
				}
				a = &today
			}
			f := a.FeeFor(d.total)
			fee = &f
		}
		parts := fees.Split(*fee, d.goods)
		for _, p := range parts {
			name := FeeLine
			if len(parts) > 1 {
				name += " — TVA " + terms.Percent(p.Rate) + " %"
			}
			inv.Lines = append(inv.Lines, Line{Position: len(inv.Lines) + 1, Chrono: d.chrono, Date: d.date, Product: name,
				Unit: "un", Quantity: 100, Price: p.Amount, Amount: p.Amount, VATRate: p.Rate})
		}
	}
	return nil
}
