// Package orders reads orders, their deliveries and delivery lines (PRODUCT
// §6, §7) and shapes them as the UI receives them (PRODUCT §3), from either
// side. Writing them belongs to core/trade (planning deliveries from
// commitments) and core/delivery (the shop's changes, the lock, claims).
package orders

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Delivery statuses and claim statuses (PRODUCT §4).
const (
	Planned   = "planned"
	Done      = "done"
	Cancelled = "cancelled"

	ClaimVoid     = "void"
	ClaimSent     = "sent"
	ClaimAccepted = "accepted"
	ClaimRejected = "rejected"

	ClaimQuality  = "quality"
	ClaimQuantity = "quantity"

	// Who sent a claim (PRODUCT §16 "Claims"): the producer, answered by
	// the shop, or the shop at its reception, answered by the producer.
	ByProducer = "producer"
	ByShop     = "shop"
)

// Order is a stored order: one producer supplying one shop for a month.
type Order struct {
	ID            string `db:"id"`
	ProducerID    string `db:"producer_id"`
	DistributorID string `db:"distributor_id"`
	Month         string `db:"month"`
	CreatedAt     int64  `db:"created_at"`
	UpdatedAt     int64  `db:"updated_at"`
}

// Delivery is a stored delivery.
type Delivery struct {
	ID              string `db:"id"`
	OrderID         string `db:"order_id"`
	ProducerID      string `db:"producer_id"`
	Status          string `db:"status"`
	Date            string `db:"date"`
	Chrono          int64  `db:"chrono"`
	ClaimStatus     string `db:"claim_status"`
	ClaimBy         string `db:"claim_by"` // ByProducer or ByShop
	ClaimSentAt     *int64 `db:"claim_sent_at"`
	ClaimReviewedAt *int64 `db:"claim_reviewed_at"`
	NoteSentAt      *int64 `db:"note_sent_at"`
	// The shop's reception (table receptions), nil before it.
	ReceivedAt  *int64  `db:"received_at"`
	ReceivedBy  *string `db:"received_by"`
	SignatureID *string `db:"signature_id"`
	CreatedAt   int64   `db:"created_at"`
	UpdatedAt   int64   `db:"updated_at"`
}

// Line is a stored delivery line.
type Line struct {
	ID               string       `db:"id"`
	DeliveryID       string       `db:"delivery_id"`
	NeedID           string       `db:"need_id"`
	ProductID        string       `db:"product_id"`
	Price            decimal.Dec  `db:"price"`
	QuantityExpected decimal.Dec  `db:"quantity_expected"`
	QuantitySent     *decimal.Dec `db:"quantity_sent"`
	QuantityClaimed  decimal.Dec  `db:"quantity_claimed"`
	ClaimType        string       `db:"claim_type"`
	ClaimComment     string       `db:"claim_comment"`
	// What the shop's reception said of the line (table reception_lines),
	// nil before it.
	Received         *decimal.Dec `db:"received"`
	ReceptionReason  *string      `db:"reception_reason"`
	ReceptionComment *string      `db:"reception_comment"`
	PhotoID          *string      `db:"photo_id"`
}

// Sent is what was (or, while planned, will be) delivered: the quantity the
// shop set, else the expected one.
func (l Line) Sent() decimal.Dec {
	if l.QuantitySent != nil {
		return *l.QuantitySent
	}
	return l.QuantityExpected
}

// LineView is a delivery line as the UI receives it.
type LineView struct {
	ID               string      `json:"_id"`
	Product          string      `json:"product" doc:"Product id"`
	Price            decimal.Dec `json:"price" doc:"Unit price HT in EUR"`
	QuantityExpected decimal.Dec `json:"quantityExpected"`
	QuantitySent     decimal.Dec `json:"quantitySent" doc:"Set by the shop; the expected quantity until then"`
	QuantityClaimed  decimal.Dec `json:"quantityClaimed" doc:"Signed adjustment claimed by the producer"`
	ClaimType        string      `json:"claimType,omitempty" enum:"quality,quantity"`
	ClaimComment     string      `json:"claimComment,omitempty"`
	// The shop's reception of the line (PRODUCT §16 "Reception").
	QuantityReceived *decimal.Dec `json:"quantityReceived,omitempty" doc:"What the shop's reception counted, once received"`
	ReceptionReason  string       `json:"receptionReason,omitempty" enum:"quality,quantity" doc:"Why the quantity received differs from the note: quality (refused) or quantity (missing)"`
	ReceptionComment string       `json:"receptionComment,omitempty"`
	PhotoID          string       `json:"photoId,omitempty" doc:"The photo of the problem: GET /api/images/{id}"`
}

// DeliveryView is a delivery as the UI receives it.
type DeliveryView struct {
	ID              string     `json:"_id"`
	OrderID         string     `json:"orderId"`
	Status          string     `json:"status" enum:"planned,done,cancelled"`
	Date            string     `json:"date" doc:"YYYY-MM-DD"`
	Chrono          int64      `json:"chrono" doc:"The producer's delivery-note number"`
	ClaimStatus     string     `json:"claimStatus" enum:"void,sent,accepted,rejected"`
	ClaimBy         string     `json:"claimBy" enum:"producer,shop" doc:"Who sent the claim: the producer (answered by the shop) or the shop at its reception (answered by the producer); producer while there is none"`
	ClaimSentAt     string     `json:"claimSentAt,omitempty" doc:"RFC 3339"`
	ClaimReviewedAt string     `json:"claimReviewedAt,omitempty" doc:"RFC 3339"`
	ReceivedAt      string     `json:"receivedAt,omitempty" doc:"RFC 3339: when the shop received the delivery (its reception)"`
	ReceivedBy      string     `json:"receivedBy,omitempty" doc:"Who signed for it, as typed"`
	SignatureID     string     `json:"signatureId,omitempty" doc:"The drawn signature: GET /api/images/{id}"`
	DeliveryLines   []LineView `json:"deliveryLines"`
}

// InvoiceRef is the invoice of an order, once issued, with the credit
// notes and complementary invoices that settle claims on its deliveries.
type InvoiceRef struct {
	ID       string      `json:"_id"`
	Number   string      `json:"number" example:"FA-2026-000001"`
	IssuedAt string      `json:"issuedAt" doc:"RFC 3339"`
	Credits  []CreditRef `json:"credits,omitempty" doc:"Credit notes and complementary invoices, by issue"`
	PA       *PAState    `json:"pa,omitempty" doc:"Where it stands on the producer's approved platform; absent until deposited"`
}

// PAState is where a document stands on its producer's approved platform
// (core/pa), as the deliveries screens show it beside the document's link.
// The daemon fills it: this package does not read the platform's tables.
type PAState struct {
	Status string `json:"status" doc:"The latest status: submitted, irrecevable, or a lifecycle code 200-213, 220"`
	Label  string `json:"label" doc:"In French: Transmise, Déposée, Rejetée, Refusée, Encaissée…"`
}

// CreditRef is a credit note (kind credit) or a complementary invoice
// (kind complement) settling the claim on one delivery of an invoiced
// order.
type CreditRef struct {
	ID         string   `json:"_id" db:"id"`
	Number     string   `json:"number" example:"AV-2026-000001" db:"number"`
	Kind       string   `json:"kind" enum:"credit,complement,discount" doc:"credit: a claim's credit note; complement: a complementary invoice; discount: an escompte's credit note (no delivery)" db:"kind"`
	DeliveryID string   `json:"deliveryId" doc:"the delivery whose claim it settles; empty for an escompte's credit note" db:"delivery_id"`
	IssuedAt   string   `json:"issuedAt" doc:"RFC 3339" db:"-"`
	OrderID    string   `json:"-" db:"order_id"`
	Issued     int64    `json:"-" db:"issued_at"`
	PA         *PAState `json:"pa,omitempty" doc:"Where it stands on the producer's approved platform; absent until deposited" db:"-"`
}

// View is an order as one side sees it: Distributor is set for the
// producer, Producer for the shop.
type View struct {
	ID          string         `json:"_id"`
	Date        string         `json:"date" doc:"The month, YYYY-MM-01"`
	Distributor string         `json:"distributor,omitempty" doc:"Shop id (in a producer's orders)"`
	Producer    string         `json:"producer,omitempty" doc:"Producer id (in a shop's orders)"`
	Deliveries  []DeliveryView `json:"deliveries"`
	Invoice     *InvoiceRef    `json:"invoice,omitempty"`
}

// Filter selects orders. Zero values mean no restriction.
type Filter struct {
	ProducerID    string
	DistributorID string
	// IDs restricts to these orders.
	IDs []string
	// From keeps orders of this month or later ("2026-01-01").
	From string
	// To keeps orders of this month or earlier ("2026-12-01").
	To string
}

// where is f as the condition on orders o, with its arguments.
func (f Filter) where() (string, []any) {
	var w store.Where
	w.And(f.ProducerID != "", "o.producer_id = ?", f.ProducerID).
		And(f.DistributorID != "", "o.distributor_id = ?", f.DistributorID).
		And(f.From != "", "o.month >= ?", f.From).
		And(f.To != "", "o.month <= ?", f.To).
		And(f.IDs != nil, "o.id IN (?)", f.IDs)
	return w.SQL(), w.Args()
}

// Full is an order with its deliveries and their lines, and its invoice
// once issued.
type Full struct {
	Order
	Deliveries []FullDelivery
	Invoice    *InvoiceRef
}

type invoiceRow struct {
	ID       string `db:"id"`
	OrderID  string `db:"order_id"`
	Number   string `db:"number"`
	IssuedAt int64  `db:"issued_at"`
}

// FullDelivery is a delivery with its lines.
type FullDelivery struct {
	Delivery
	Lines []Line
}

// Load returns the orders matching f with their deliveries (by date, then
// chrono) and lines (by product), in four queries.
func Load(ctx context.Context, q store.Q, f Filter) ([]Full, error) {
	return load(ctx, q, f, allColumns)
}

// columns are the columns a load reads of each table.
type columns struct{ orders, deliveries, lines string }

var (
	// allColumns: every column, for the code that works on orders.
	allColumns = columns{
		orders: "o.id, o.producer_id, o.distributor_id, o.month, o.created_at, o.updated_at",
		deliveries: `d.id, d.order_id, d.producer_id, d.status, d.date, d.chrono,
			d.claim_status, d.claim_by, d.claim_sent_at, d.claim_reviewed_at,
			(SELECT s.sent_at FROM sends s WHERE s.message_key = 'note-' || d.id) AS note_sent_at, d.created_at, d.updated_at,
			r.received_at, r.received_by, r.signature_id`,
		lines: `l.id, l.delivery_id, l.need_id, l.product_id, l.price,
			l.quantity_expected, l.quantity_sent, l.quantity_claimed, l.claim_type, l.claim_comment,
			rl.received, rl.reason AS reception_reason, rl.comment AS reception_comment, rl.photo_id`,
	}
	// viewColumns: those the views show (LoadViews).
	viewColumns = columns{
		orders: "o.id, o.producer_id, o.distributor_id, o.month",
		deliveries: `d.id, d.order_id, d.status, d.date, d.chrono,
			d.claim_status, d.claim_by, d.claim_sent_at, d.claim_reviewed_at, r.received_at, r.received_by, r.signature_id`,
		lines: `l.id, l.delivery_id, l.product_id, l.price,
			l.quantity_expected, l.quantity_sent, l.quantity_claimed, l.claim_type, l.claim_comment,
			rl.received, rl.reason AS reception_reason, rl.comment AS reception_comment, rl.photo_id`,
	}
)

// load reads the orders matching f with cols. Deliveries and lines are
// ordered in Go, per order and per delivery, rather than by sorting every
// row in the database: a shop's year of deliveries is the largest part of
// its user load (docs/BENCHMARKS.md, issue 9).
func load(ctx context.Context, q store.Q, f Filter, cols columns) ([]Full, error) {
	if f.IDs != nil && len(f.IDs) == 0 {
		return []Full{}, nil
	}
	where, args := f.where()
	var os []Order
	if err := store.SelectIn(ctx, q, &os, `SELECT `+cols.orders+`
		FROM orders o WHERE `+where+` ORDER BY o.month, o.id`, args...); err != nil {
		return nil, fmt.Errorf("orders: load: %w", err)
	}
	var ds []Delivery
	if err := store.SelectIn(ctx, q, &ds, `SELECT `+cols.deliveries+`
		FROM deliveries d JOIN orders o ON o.id = d.order_id LEFT JOIN receptions r ON r.delivery_id = d.id
		WHERE `+where, args...); err != nil {
		return nil, fmt.Errorf("orders: load deliveries: %w", err)
	}
	var ls []Line
	if err := store.SelectIn(ctx, q, &ls, `SELECT `+cols.lines+`
		FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id JOIN orders o ON o.id = d.order_id
		LEFT JOIN reception_lines rl ON rl.line_id = l.id
		WHERE `+where, args...); err != nil {
		return nil, fmt.Errorf("orders: load lines: %w", err)
	}
	var is []invoiceRow
	if err := store.SelectIn(ctx, q, &is, `SELECT i.id, i.order_id, i.number, i.issued_at
		FROM documents i JOIN orders o ON o.id = i.order_id WHERE i.kind = 'invoice' AND i.replaced_by IS NULL AND (`+where+`)`, args...); err != nil {
		return nil, fmt.Errorf("orders: load invoices: %w", err)
	}
	invoices := make(map[string]*InvoiceRef, len(is))
	for _, i := range is {
		at := i.IssuedAt
		invoices[i.OrderID] = &InvoiceRef{ID: i.ID, Number: i.Number, IssuedAt: stamp(&at)}
	}
	if len(is) > 0 {
		var cs []CreditRef
		if err := store.SelectIn(ctx, q, &cs, `SELECT c.id, c.order_id, c.number, c.kind, COALESCE(c.delivery_id, '') AS delivery_id, c.issued_at
			FROM documents c JOIN orders o ON o.id = c.order_id WHERE c.kind <> 'invoice' AND (`+where+`)
			ORDER BY c.issued_at, c.number`, args...); err != nil {
			return nil, fmt.Errorf("orders: load credit notes: %w", err)
		}
		for _, c := range cs {
			if inv := invoices[c.OrderID]; inv != nil {
				c.IssuedAt = stamp(&c.Issued)
				inv.Credits = append(inv.Credits, c)
			}
		}
	}
	lines := make(map[string][]Line, len(ds))
	for _, l := range ls {
		lines[l.DeliveryID] = append(lines[l.DeliveryID], l)
	}
	dels := make(map[string][]FullDelivery, len(os))
	for _, d := range ds {
		dl := lines[d.ID]
		// One line per product and delivery: the product orders them.
		slices.SortFunc(dl, func(a, b Line) int { return strings.Compare(a.ProductID, b.ProductID) })
		dels[d.OrderID] = append(dels[d.OrderID], FullDelivery{Delivery: d, Lines: dl})
	}
	out := make([]Full, len(os))
	for i, o := range os {
		fd := dels[o.ID]
		// Chronos are unique per producer, and an order has one producer.
		slices.SortFunc(fd, func(a, b FullDelivery) int {
			if c := strings.Compare(a.Date, b.Date); c != 0 {
				return c
			}
			return cmp.Compare(a.Chrono, b.Chrono)
		})
		out[i] = Full{Order: o, Deliveries: fd, Invoice: invoices[o.ID]}
	}
	return out, nil
}

// Get returns one order with its deliveries, or core.ErrNotFound.
func Get(ctx context.Context, q store.Q, id string) (Full, error) {
	fs, err := Load(ctx, q, Filter{IDs: []string{id}})
	if err != nil {
		return Full{}, err
	}
	if len(fs) == 0 {
		return Full{}, fmt.Errorf("orders: order %s: %w", id, core.ErrNotFound)
	}
	return fs[0], nil
}

// ViewFor shapes the order for a viewer (a party of the order): the
// counterpart is the shop for a producer and the producer for a shop.
func (f Full) ViewFor(viewerID string) View {
	v := View{ID: f.ID, Date: f.Month, Deliveries: make([]DeliveryView, len(f.Deliveries)), Invoice: f.Invoice}
	if viewerID == f.ProducerID {
		v.Distributor = f.DistributorID
	} else {
		v.Producer = f.ProducerID
	}
	for i, d := range f.Deliveries {
		v.Deliveries[i] = d.View()
	}
	return v
}

// View shapes a delivery for the UI.
func (d FullDelivery) View() DeliveryView {
	v := DeliveryView{
		ID: d.ID, OrderID: d.OrderID, Status: d.Status, Date: d.Date, Chrono: d.Chrono,
		ClaimStatus: d.ClaimStatus, ClaimBy: d.ClaimBy, ClaimSentAt: stamp(d.ClaimSentAt), ClaimReviewedAt: stamp(d.ClaimReviewedAt),
		ReceivedAt: stamp(d.ReceivedAt), ReceivedBy: deref(d.ReceivedBy), SignatureID: deref(d.SignatureID),
		DeliveryLines: make([]LineView, len(d.Lines)),
	}
	for i, l := range d.Lines {
		v.DeliveryLines[i] = LineView{
			ID: l.ID, Product: l.ProductID, Price: l.Price, QuantityExpected: l.QuantityExpected,
			QuantitySent: l.Sent(), QuantityClaimed: l.QuantityClaimed, ClaimType: l.ClaimType, ClaimComment: l.ClaimComment,
			QuantityReceived: l.Received, ReceptionReason: deref(l.ReceptionReason), ReceptionComment: deref(l.ReceptionComment),
			PhotoID: deref(l.PhotoID),
		}
	}
	return v
}

// Views shapes orders for a viewer.
func Views(fs []Full, viewerID string) []View {
	out := make([]View, len(fs))
	for i, f := range fs {
		out[i] = f.ViewFor(viewerID)
	}
	return out
}

func stamp(ms *int64) string {
	if ms == nil {
		return ""
	}
	return time.UnixMilli(*ms).UTC().Format(time.RFC3339)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
