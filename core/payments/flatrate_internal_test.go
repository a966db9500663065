package payments

import (
	"maps"
	"testing"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/vat"
)

// TestSplitByRate: a payment's base shared between the refund's rates in
// proportion to the products' amounts, to the cent, the shares adding up
// to the amount; the cents left to the largest remainders, the higher
// rate first on a tie; what no product weighs at the rate of the other
// products.
func TestSplitByRate(t *testing.T) {
	const hi, lo = vat.FlatRateLivestock, vat.FlatRateOther
	for _, c := range []struct {
		name    string
		amount  decimal.Dec
		weights map[int64]decimal.Dec
		want    map[int64]decimal.Dec
	}{
		{"one rate", 1000, map[int64]decimal.Dec{lo: 5000}, map[int64]decimal.Dec{lo: 1000}},
		{"a third and two", 1000, map[int64]decimal.Dec{hi: 100, lo: 200}, map[int64]decimal.Dec{hi: 333, lo: 667}},
		{"a tie", 1001, map[int64]decimal.Dec{hi: 100, lo: 100}, map[int64]decimal.Dec{hi: 501, lo: 500}},
		{"no product", 1234, map[int64]decimal.Dec{}, map[int64]decimal.Dec{lo: 1234}},
		{"credited away", 900, map[int64]decimal.Dec{hi: -100, lo: 300}, map[int64]decimal.Dec{lo: 900}},
		{"all credited", 900, map[int64]decimal.Dec{hi: 0, lo: -5}, map[int64]decimal.Dec{lo: 900}},
		{"large", 1_000_000_000, map[int64]decimal.Dec{hi: 3_000_000_000_000, lo: 1_000_000_000_000},
			map[int64]decimal.Dec{hi: 750_000_000, lo: 250_000_000}},
	} {
		got := split(c.amount, c.weights)
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFlatPart: what of a payment is the refund's base — its allocations
// to documents issued under the refund, and what it left on account when
// its reference document (the latest it pays, else the pair's latest
// issued by its date, else the first) was.
func TestFlatPart(t *testing.T) {
	docs := []flatDoc{
		{ID: "n1", Kind: billing.KindInvoice, Number: "FA-2026-000001", IssueDate: "2026-10-31", VATRegime: vat.Normal},
		{ID: "f1", Kind: billing.KindInvoice, Number: "FA-2026-000002", IssueDate: "2026-11-30", VATRegime: vat.Flat},
		{ID: "c1", InvoiceID: "f1", Kind: billing.KindCredit, Number: "AV-2026-000001", IssueDate: "2026-11-30", VATRegime: vat.Flat},
		{ID: "f2", Kind: billing.KindComplement, Number: "FA-2026-000003", IssueDate: "2026-12-31", VATRegime: vat.Flat},
		{ID: "e1", Kind: billing.KindInvoice, Number: "FA-2026-000004", IssueDate: "2026-12-31", VATExempt: true},
	}
	b := newBook(docs)
	pay := func(amount decimal.Dec, paidOn string, allocs ...Allocation) Payment {
		return Payment{Amount: amount, PaidOn: paidOn, Allocations: allocs}
	}
	for _, c := range []struct {
		name      string
		p         Payment
		base      decimal.Dec
		onAccount decimal.Dec
		ref       string
	}{
		{"a flat invoice", pay(3000, "2026-12-05", Allocation{DocumentID: "f1", Amount: 3000}), 3000, 0, "f1"},
		{"and on account", pay(5000, "2026-12-05", Allocation{DocumentID: "f1", Amount: 3000}), 5000, 2000, "f1"},
		{"a VAT invoice and on account", pay(5000, "2026-12-05", Allocation{DocumentID: "n1", Amount: 3000}), 0, 2000, "n1"},
		{"both, the flat one latest", pay(4000, "2027-01-05", Allocation{DocumentID: "n1", Amount: 1000},
			Allocation{DocumentID: "f2", Amount: 2000}), 3000, 1000, "f2"},
		{"a franchise invoice", pay(1000, "2027-01-05", Allocation{DocumentID: "e1", Amount: 1000}), 0, 0, "e1"},
		{"all on account in December", pay(1500, "2026-12-15"), 1500, 1500, "f1"},
		{"all on account in November", pay(1500, "2026-11-15"), 0, 1500, "n1"},
		{"all on account before any", pay(1500, "2026-01-01"), 0, 1500, "n1"},
		{"a document of another pair", pay(1500, "2026-12-15", Allocation{DocumentID: "nope", Amount: 500}), 1000, 1000, "f1"},
	} {
		f := b.part(c.p)
		ref := ""
		if f.ref != nil {
			ref = f.ref.ID
		}
		if f.base() != c.base || f.onAccount != c.onAccount || ref != c.ref {
			t.Errorf("%s: base %v on account %v ref %s, want %v %v %s", c.name, f.base(), f.onAccount, ref, c.base, c.onAccount, c.ref)
		}
	}
	if f := newBook(nil).part(pay(1000, "2026-12-01")); f.base() != 0 || f.ref != nil {
		t.Errorf("a pair without documents: %+v", f)
	}
}

func TestSlipNumber(t *testing.T) {
	for _, c := range []struct{ id, paidOn, want string }{
		{"0190f2a3-b4c5-7d6e-8f90-3f9a1c2b7d4e", "2026-12-15", "BA-20261215-3F9A1C2B7D4E"},
		{"abc", "2027-01-05", "BA-20270105-ABC"},
	} {
		if got := SlipNumber(Payment{ID: c.id, PaidOn: c.paidOn}); got != c.want {
			t.Errorf("%s: %s, want %s", c.id, got, c.want)
		}
	}
}
