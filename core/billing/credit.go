package billing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/supplied"
	"primeur/core/terms"
)

// Kinds of document: the monthly invoice, and the two that settle a claim
// accepted on one of its deliveries.
const (
	KindInvoice = "invoice"
	// KindCredit is a credit note (avoir): quantities claimed down.
	KindCredit = "credit"
	// KindComplement is a complementary invoice: quantities claimed up.
	KindComplement = "complement"
	// KindDiscount is a credit note of the early-payment discount
	// (escompte) a shop took by paying within its window: it refers to
	// the invoice, not to a delivery, and brings its VAT down with it.
	KindDiscount = "discount"
)

// Reference is the invoice a credit note or a complementary invoice
// corrects: its number and issue date ("YYYY-MM-DD").
type Reference struct {
	InvoiceID string
	Number    string
	Date      string
}

// CreditNumber formats a credit note number: AV-2026-000001.
func CreditNumber(year int, seq int64) string { return fmt.Sprintf("AV-%d-%06d", year, seq) }

func creditKey(producerID string, year int) string {
	return fmt.Sprintf("credit:%s:%d", producerID, year)
}

// Reason is why a line of a credit note or complementary invoice corrects
// the invoice: the type of the claim it settles (orders.ClaimQuality or
// ClaimQuantity) and the producer's comment, copied from the delivery line
// when the document is issued and stored with it (migration 36), so that
// the document states its reason as it was when issued. Empty on an
// invoice's lines, and on the documents issued before reasons were stored.
type Reason struct {
	ClaimType    string `db:"claim_type"`
	ClaimComment string `db:"claim_comment"`
}

// Text is the reason as a document of kind (KindCredit or KindComplement)
// states it, without the comment. Fresh produce is sold without rebates
// (art. L443-2 of the Code de commerce): what a credit note takes off is a
// réfaction for a product that does not conform to the order in quality,
// or a correction of the quantity delivered, never a price rebate; the
// words say which. Empty for a line without reason.
func (r Reason) Text(kind string) string {
	switch {
	case r.ClaimType == orders.ClaimQuality && kind == KindCredit:
		return "réfaction pour défaut de qualité"
	case r.ClaimType == orders.ClaimQuality:
		return "correction de qualité"
	case r.ClaimType == orders.ClaimQuantity && kind == KindCredit:
		return "correction de quantité : quantité livrée inférieure au bon de livraison"
	case r.ClaimType == orders.ClaimQuantity:
		return "correction de quantité : quantité livrée supérieure au bon de livraison"
	}
	return ""
}

// SettleDue settles, each order in a transaction of its own
// (SettleOrder), every accepted claim on an invoiced order that no
// document settles yet, and returns the documents issued. The claims and
// invoices jobs call it after accepting the claims past their delay.
func SettleDue(ctx context.Context, db *store.DB, now time.Time, loc *time.Location) ([]Invoice, error) {
	var ids []string
	if err := store.Select(ctx, db, &ids, `SELECT DISTINCT d.order_id FROM deliveries d
		JOIN documents i ON i.order_id = d.order_id AND i.kind = 'invoice'
		WHERE d.claim_status = ? AND NOT EXISTS (SELECT 1 FROM documents c WHERE c.delivery_id = d.id)
		ORDER BY d.order_id`, orders.ClaimAccepted); err != nil {
		return nil, fmt.Errorf("billing: claims to settle: %w", err)
	}
	var out []Invoice
	for _, id := range ids {
		var docs []Invoice
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var err error
			docs, err = SettleOrder(ctx, tx, id, now, loc)
			return err
		})
		if err != nil && !store.IsUniqueViolation(err) {
			return out, fmt.Errorf("billing: settle order %s: %w", id, err)
		}
		out = append(out, docs...)
	}
	return out, nil
}

// claimedLine is a line of an accepted claim that SettleOrder settles.
type claimedLine struct {
	DeliveryID string       `db:"id"`
	Status     string       `db:"status"`
	Chrono     int64        `db:"chrono"`
	Date       string       `db:"date"`
	ProductID  string       `db:"product_id"`
	NeedID     string       `db:"need_id"`
	Product    string       `db:"name"`
	Unit       string       `db:"unit"`
	VATRate    int64        `db:"vat_rate"`
	Price      decimal.Dec  `db:"price"`
	Claimed    decimal.Dec  `db:"quantity_claimed"`
	Sent       *decimal.Dec `db:"quantity_sent"`
	Reason
}

// SettleOrder issues, in the caller's transaction, the documents that
// settle the accepted claims of an invoiced order not settled yet: for
// each such delivery, a credit note of the lines claimed down and a
// complementary invoice of the lines claimed up, at the invoice's prices
// and VAT, between the invoice's parties, referring to it. It returns
// them; none while the order has no invoice. The order row is locked
// first, as Issue does, so that two processes do not settle the same
// claim; UNIQUE(delivery_id, kind) of documents backs it up.
func SettleOrder(ctx context.Context, q store.Q, orderID string, now time.Time, loc *time.Location) ([]Invoice, error) {
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		return nil, fmt.Errorf("billing: lock order %s: %w", orderID, err)
	}
	inv, err := ForOrder(ctx, q, orderID)
	if errors.Is(err, core.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ls []claimedLine
	// The deliveries are found by their order; their status is checked
	// below, not in the WHERE: given d.status = ?, SQLite (which plans
	// without statistics) walked the index deliveries (status, date) over
	// every done delivery of the platform to spare the sort by date — a
	// settlement then cost a scan of the platform's history (issue 20).
	if err := store.Select(ctx, q, &ls, `SELECT d.id, d.status, d.chrono, d.date, l.product_id, l.need_id, p.name, p.unit, p.vat_rate, l.price,
			l.quantity_claimed, l.quantity_sent, l.claim_type, l.claim_comment
		FROM deliveries d JOIN delivery_lines l ON l.delivery_id = d.id JOIN products p ON p.id = l.product_id
		WHERE d.order_id = ? AND d.claim_status = ? AND l.quantity_claimed <> 0
		AND NOT EXISTS (SELECT 1 FROM documents c WHERE c.delivery_id = d.id)
		ORDER BY d.date, d.chrono, p.name`, orderID, orders.ClaimAccepted); err != nil {
		return nil, fmt.Errorf("billing: claims of %s: %w", orderID, err)
	}
	ls = slices.DeleteFunc(ls, func(l claimedLine) bool { return l.Status != orders.Done })
	// Named as the invoice names them (issue 39).
	own, err := supplied.DocumentNames(ctx, q, orderID)
	if err != nil {
		return nil, err
	}
	for i := range ls {
		if name, ok := own[ls[i].NeedID]; ok {
			ls[i].Product = name
		}
	}
	producer, err := accounts.ByID(ctx, q, inv.ProducerID)
	if err != nil {
		return nil, err
	}
	pt := producer.Terms()
	var out []Invoice
	var doc *Invoice
	flush := func() error {
		if doc == nil || len(doc.Lines) == 0 {
			return nil
		}
		if err := issueCredit(ctx, q, doc); err != nil {
			return err
		}
		out = append(out, *doc)
		return nil
	}
	local := now.In(loc)
	var credit, complement *Invoice
	last := ""
	for _, l := range ls {
		if l.DeliveryID != last {
			for _, d := range []*Invoice{credit, complement} {
				doc = d
				if err := flush(); err != nil {
					return out, err
				}
			}
			credit = settlement(inv, pt, KindCredit, l.DeliveryID, l.Chrono, l.Date, now, local)
			complement = settlement(inv, pt, KindComplement, l.DeliveryID, l.Chrono, l.Date, now, local)
			last = l.DeliveryID
		}
		d, qty := complement, l.Claimed
		if l.Claimed < 0 {
			d, qty = credit, -l.Claimed
		}
		line := Line{Position: len(d.Lines) + 1, Chrono: l.Chrono, Date: l.Date, ProductID: l.ProductID, Product: l.Product,
			Unit: l.Unit, Quantity: qty, Price: l.Price, Amount: Amount(qty, l.Price), Reason: l.Reason,
			VATRate: rateOf(inv, l.ProductID, l.VATRate)}
		d.Lines = append(d.Lines, line)
	}
	for _, d := range []*Invoice{credit, complement} {
		doc = d
		if err := flush(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// settlement starts the document of a kind settling the claim on one
// delivery of inv, under the producer's payment terms pt.
func settlement(inv Invoice, pt terms.Terms, kind, deliveryID string, chrono int64, date string, now, local time.Time) *Invoice {
	d := &Invoice{
		ID: core.NewID(), Kind: kind, DeliveryID: deliveryID, OrderID: inv.OrderID, ProducerID: inv.ProducerID,
		DistributorID: inv.DistributorID, Month: inv.Month, Year: local.Year(), IssuedAt: now,
		IssueDate: calendar.DateOf(local).String(), Seller: inv.Seller, Buyer: inv.Buyer,
		Notes: []Note{{Chrono: chrono, Date: date}}, VATRate: inv.VATRate, VATExempt: inv.VATExempt,
		VATRegime: inv.Regime(), Refers: &Reference{InvoiceID: inv.ID, Number: inv.Number, Date: inv.IssueDate},
	}
	if kind != KindCredit {
		// A complementary invoice bills quantities agreed only when the
		// claim was accepted, at its issue: it falls due as a delivery of
		// its issue date would, never before it.
		// No escompte: its credit note refers to a monthly invoice.
		d.DueDate = pt.Due(d.IssueDate, d.IssueDate)
	}
	d.Terms = Terms(*d, pt)
	return d
}

// issueCredit numbers a settling document and stores it: a credit note in
// the producer's credit series, a complementary invoice in its invoice
// sequence.
func issueCredit(ctx context.Context, q store.Q, d *Invoice) error {
	d.Total()
	var err error
	if d.Kind == KindCredit {
		d.Seq, err = store.Next(ctx, q, creditKey(d.ProducerID, d.Year))
		d.Number = CreditNumber(d.Year, d.Seq)
	} else {
		d.Seq, err = store.Next(ctx, q, counterKey(d.ProducerID, d.Year))
		d.Number = Number(d.Year, d.Seq)
	}
	if err != nil {
		return fmt.Errorf("billing: credit number: %w", err)
	}
	return insert(ctx, q, *d)
}

// rateOf is the VAT rate a claim's line of a product corrects: that of the
// invoice's line of the product, else (a product the invoice did not
// bill, its quantity claimed up from nothing) the product's own.
func rateOf(inv Invoice, productID string, product int64) int64 {
	for _, l := range inv.Lines {
		if l.ProductID == productID {
			return l.VATRate
		}
	}
	return product
}
