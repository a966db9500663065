package accounting

import (
	"fmt"
	"slices"
	"strings"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/payments"
)

// Side is whose books an export keeps: the producer's, who sells, or the
// shop's, who buys.
type Side string

// Sides.
const (
	Seller Side = "seller"
	Buyer  Side = "buyer"
)

// Partner is the other party of the books' entries: the auxiliary account
// (CompAuxNum, CompAuxLib) of its lines on 411 or 401 — its SIREN, else its
// Primeur id, and its name.
type Partner struct {
	Num, Label string
}

// PartnerOf is the auxiliary account of a party as its latest document
// names it; id, the party's Primeur id, when it has no SIREN.
func PartnerOf(p billing.Party, id string) Partner {
	num := p.SIREN()
	if num == "" {
		num = id
	}
	return Partner{Num: num, Label: p.Name}
}

// kindLabels name each kind of document in an entry's label.
var kindLabels = map[string]string{
	billing.KindInvoice:    "Facture",
	"":                     "Facture",
	billing.KindComplement: "Facture complémentaire",
	billing.KindCredit:     "Avoir",
	billing.KindDiscount:   "Avoir d'escompte",
}

// DocumentEntry is a document's entry in side's books (PRODUCT §16 "Export
// for the platform and the accountant"), dated its day of issue, validated
// on valid ("YYYY-MM-DD"):
//
//   - the seller's sales journal: an invoice or complementary invoice debits
//     the customer (411, the partner) with its amount TTC and credits sales
//     (701) with its amount HT and VAT collected (44571) with its VAT; a
//     credit note the reverse; an early-payment discount's credit note
//     debits discounts given (665) and the VAT, and credits the customer;
//   - the buyer's purchases journal, the mirror: an invoice debits purchases
//     (607) and VAT deductible (44566) and credits the supplier (401, the
//     partner); a credit note the reverse; a discount's credit note credits
//     discounts received (765) and the VAT, and debits the supplier.
//
// A document without VAT (franchise, flat-rate refund: VATExempt, or a
// zero VAT) has no VAT line, and a line of zero is left out. Its amounts
// must add up (HT + VAT = TTC): anything else is an error, never an
// unbalanced entry.
func DocumentEntry(side Side, l Ledger, d billing.Invoice, partner Partner, valid string) (Entry, error) {
	if d.TotalHT+d.TotalVAT != d.TotalTTC || d.TotalHT < 0 || d.TotalVAT < 0 {
		return Entry{}, fmt.Errorf("accounting: %s: HT %d + TVA %d ≠ TTC %d", d.Number, d.TotalHT, d.TotalVAT, d.TotalTTC)
	}
	kind := d.Kind
	if kind == "" {
		kind = billing.KindInvoice
	}
	label, ok := kindLabels[kind]
	if !ok {
		return Entry{}, fmt.Errorf("accounting: %s: unknown kind %q", d.Number, kind)
	}
	label += " " + d.Number
	if d.Refers != nil && d.Refers.Number != "" {
		label += " (facture " + d.Refers.Number + ")"
	}
	party := d.Buyer
	if side == Buyer {
		party = d.Seller
	}
	label += " " + party.Name
	// charge: the document adds to what the buyer owes (an invoice) or
	// takes from it (a credit note).
	charge := kind == billing.KindInvoice || kind == billing.KindComplement
	partnerPurpose, goodsPurpose, vatPurpose, journal := Customers, Sales, VATCollected, JournalSales
	if kind == billing.KindDiscount {
		goodsPurpose = DiscountsGiven
	}
	if side == Buyer {
		partnerPurpose, goodsPurpose, vatPurpose, journal = Suppliers, Purchases, VATDeductible, JournalPurchases
		if kind == billing.KindDiscount {
			goodsPurpose = DiscountsReceived
		}
	}
	// For the seller, a charge debits the partner; for the buyer, it
	// credits it.
	partnerDebit := charge == (side == Seller)
	e := Entry{Journal: journal, Date: d.IssueDate, PieceRef: d.Number, PieceDate: d.IssueDate, Label: label,
		ValidDate: max(valid, d.IssueDate), Source: d.ID}
	e.add(l, partnerPurpose, partner, d.TotalTTC, partnerDebit)
	e.add(l, goodsPurpose, Partner{}, d.TotalHT, !partnerDebit)
	if !d.VATExempt {
		e.add(l, vatPurpose, Partner{}, d.TotalVAT, !partnerDebit)
	}
	return e, nil
}

// add appends a line of amount on purpose's account, debit or credit;
// nothing for zero. The partner names the auxiliary account.
func (e *Entry) add(l Ledger, purpose string, partner Partner, amount decimal.Dec, debit bool) {
	if amount == 0 {
		return
	}
	p, _ := purposeOf(purpose)
	line := Posting{Account: l.Number(purpose), AccountLabel: p.Label, AuxNum: partner.Num, AuxLabel: partner.Label}
	if debit {
		line.Debit = amount
	} else {
		line.Credit = amount
	}
	e.Postings = append(e.Postings, line)
}

// methodLabels name a payment's method in its entry's label.
var methodLabels = map[string]string{
	payments.Transfer:    "virement",
	payments.Cheque:      "chèque",
	payments.Cash:        "espèces",
	payments.DirectDebit: "prélèvement",
}

// PaymentEntry is a recorded payment's entry in side's books, dated the
// day it was paid, validated on valid: the seller debits its bank (512) —
// its till (530) and the cash journal for cash — and credits the customer
// (411); the buyer debits the supplier (401) and credits its bank or till.
// Its piece is the payment's id in Primeur.
func PaymentEntry(side Side, l Ledger, p payments.Payment, partner Partner, valid string) Entry {
	treasury, journal := Bank, JournalBank
	if p.Method == payments.Cash {
		treasury, journal = Cash, JournalCash
	}
	label := "Règlement par " + methodLabels[p.Method] + " " + partner.Label
	if p.Reference != "" {
		label += " réf. " + p.Reference
	}
	e := Entry{Journal: journal, Date: p.PaidOn, PieceRef: p.ID, PieceDate: p.PaidOn, Label: label,
		ValidDate: max(valid, p.PaidOn), Source: p.ID}
	if side == Seller {
		e.add(l, treasury, Partner{}, p.Amount, true)
		e.add(l, Customers, partner, p.Amount, false)
	} else {
		e.add(l, Suppliers, partner, p.Amount, true)
		e.add(l, treasury, Partner{}, p.Amount, false)
	}
	return e
}

// Lettering matches a set of partner lines that balance: its code
// (EcritureLet) and the day the last of them came (DateLet).
type Lettering struct {
	Code, Date string
}

// Item is a document or a payment of a pair as the lettering sees it: a
// document's kind, the invoice a credit note corrects (Refers, an id), its
// number and day of issue and its amount TTC; a payment's amount and day.
type Item struct {
	ID     string      `db:"id"`
	Kind   string      `db:"kind"`
	Refers string      `db:"refers"`
	Number string      `db:"number"`
	Date   string      `db:"date"`
	Amount decimal.Dec `db:"amount"`
	// Partner is the other party's id.
	Partner string `db:"partner"`
}

// Letters letters what settles what (the partner's lines: 411 in the
// seller's books, 401 in the buyer's). Documents and recorded payments are
// joined by the allocations of the payments and by the invoice a credit
// note corrects; a group is lettered when what it charges (invoices and
// complementary invoices) equals what it takes off (credit notes and
// payments) to the cent: its code is the number of its first invoice
// ("FA2026000001", unique in the producer's books and the shop's account of
// it), its day the latest of its pieces'. A payment part of which stays
// on account, or an invoice partly paid, leaves its group unlettered: the
// accountant letters what the books cannot prove.
//
// The lettering is the state of the books when the export is made: the
// invoice of November is lettered, in November's file, once December's
// payment settles it.
func Letters(docs, pays []Item, allocations []payments.Allocation) map[string]Lettering {
	parent := map[string]string{}
	var find func(string) string
	find = func(id string) string {
		if p, ok := parent[id]; ok && p != id {
			root := find(p)
			parent[id] = root
			return root
		}
		return id
	}
	union := func(a, b string) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[ra] = rb
		}
	}
	known := map[string]bool{}
	for _, d := range docs {
		parent[d.ID], known[d.ID] = d.ID, true
	}
	for _, p := range pays {
		parent[p.ID], known[p.ID] = p.ID, true
	}
	for _, d := range docs {
		if d.Refers != "" && known[d.Refers] && (d.Kind == billing.KindCredit || d.Kind == billing.KindDiscount) {
			union(d.ID, d.Refers)
		}
	}
	for _, a := range allocations {
		if known[a.PaymentID] && known[a.DocumentID] {
			union(a.PaymentID, a.DocumentID)
		}
	}
	type group struct {
		charged, taken decimal.Dec
		first          *Item
		date           string
		members        []string
	}
	groups := map[string]*group{}
	visit := func(it *Item, charge bool) {
		root := find(it.ID)
		g := groups[root]
		if g == nil {
			g = &group{}
			groups[root] = g
		}
		g.members = append(g.members, it.ID)
		g.date = max(g.date, it.Date)
		if !charge {
			g.taken += it.Amount
			return
		}
		g.charged += it.Amount
		if g.first == nil || it.Date < g.first.Date || (it.Date == g.first.Date && it.Number < g.first.Number) {
			g.first = it
		}
	}
	for i := range docs {
		d := &docs[i]
		visit(d, d.Kind == billing.KindInvoice || d.Kind == billing.KindComplement || d.Kind == "")
	}
	for i := range pays {
		visit(&pays[i], false)
	}
	out := map[string]Lettering{}
	for _, g := range groups {
		if g.first == nil || g.charged != g.taken || len(g.members) < 2 {
			continue
		}
		l := Lettering{Code: strings.ReplaceAll(g.first.Number, "-", ""), Date: g.date}
		for _, id := range g.members {
			out[id] = l
		}
	}
	return out
}

// letter sets the lettering of each entry's partner lines.
func letter(entries []Entry, letters map[string]Lettering) {
	for i := range entries {
		l, ok := letters[entries[i].Source]
		if !ok {
			continue
		}
		for j := range entries[i].Postings {
			if p := &entries[i].Postings[j]; p.AuxNum != "" {
				p.Let, p.LetDate = l.Code, l.Date
			}
		}
	}
}

// sortDocuments orders documents as the register lists them: by date of
// issue; on one day the invoices first, then what corrects them; by number.
func sortDocuments(docs []billing.Invoice) {
	rank := map[string]int{billing.KindCredit: 1, billing.KindDiscount: 1}
	slices.SortStableFunc(docs, func(a, b billing.Invoice) int {
		if n := strings.Compare(a.IssueDate, b.IssueDate); n != 0 {
			return n
		}
		if n := rank[a.Kind] - rank[b.Kind]; n != 0 {
			return n
		}
		return strings.Compare(a.Number, b.Number)
	})
}
