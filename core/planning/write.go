package planning

import (
	"context"
	"errors"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Cell is one quantity to write: a product, a month ("2026-12-01") and a
// quantity already checked for the product's unit.
type Cell struct {
	ProductID string
	Month     string
	Quantity  decimal.Dec
}

// Refused is a cell that was not written, with why.
type Refused struct {
	Cell
	// Reserved is what the need's commitments and pending proposals hold.
	Reserved decimal.Dec
	Message  string
}

// Result is what Write did.
type Result struct {
	// Needs are the needs written (created or updated), in cell order.
	Needs   []View
	Created int
	Updated int
	// Unchanged counts cells equal to the stored quantity, and zero
	// quantities where no need exists.
	Unchanged int
	Refused   []Refused
}

// batchRows bounds the rows of one multi-row INSERT (7 parameters each,
// well under SQLite's and PostgreSQL's parameter limits).
const batchRows = 500

// Write sets the quantities of cells for a distributor inside tx: it creates
// missing needs and updates existing ones, except where the new quantity
// would go under what producers have committed and proposed, or the month is
// past: those cells are refused and change nothing. Zero quantities create
// nothing. Cells must name distinct (product, month) pairs. Write reads the
// distributor's needs for the cells' months and their proposals in two
// queries, locking them, then writes the changed needs in one statement
// (batches on SQLite) and inserts the new ones in bulk (COPY on
// PostgreSQL, batches on SQLite), so that an import of thousands of cells
// stays fast. On PostgreSQL the writers of one shop's needs take turns (a
// transaction-scoped advisory lock on the shop): a need another writer
// creates meanwhile is read as existing, never inserted twice.
func Write(ctx context.Context, q store.Q, distributorID string, cells []Cell, now time.Time) (Result, error) {
	res, _, err := write(ctx, q, distributorID, cells, now, false, nil)
	return res, err
}

// WriteAll is Write, all or nothing: if any cell would be refused, nothing
// is written and the first refusal is returned as a core.Refusal.
func WriteAll(ctx context.Context, q store.Q, distributorID string, cells []Cell, now time.Time) (Result, error) {
	res, _, err := write(ctx, q, distributorID, cells, now, true, nil)
	return res, err
}

// write is Write, all or nothing when strict. It also returns the needs of
// the cells' months as they were before. sending, when
// set, hears of the new needs as they go to the database, in cell order:
// it is called with the month of each new need whose month differs from the
// previous one's (the updates are written before).
func write(ctx context.Context, q store.Q, distributorID string, cells []Cell, now time.Time, strict bool, sending func(month string)) (Result, map[needKey]Need, error) {
	var res Result
	if len(cells) == 0 {
		return res, nil, nil
	}
	months, seen := map[string]bool{}, make(map[needKey]bool, len(cells))
	for _, c := range cells {
		key := needKey{c.ProductID, c.Month}
		if seen[key] {
			return res, nil, fmt.Errorf("planning: %s|%s appears twice in one write", c.ProductID, c.Month)
		}
		seen[key] = true
		months[c.Month] = true
	}
	monthList := make([]string, 0, len(months))
	for m := range months {
		monthList = append(monthList, m)
	}
	if err := takeTurn(ctx, q, distributorID); err != nil {
		return res, nil, err
	}
	existing, err := lockNeeds(ctx, q, distributorID, monthList)
	if err != nil {
		return res, nil, err
	}
	reserved, err := reservedOf(ctx, q, distributorID, monthList)
	if err != nil {
		return res, nil, err
	}

	ms := now.UnixMilli()
	var retired map[string]bool // read at the first new need
	writes := make([]Need, 0, len(cells))
	var created []int32 // indexes in writes
	var updated []Need
	for _, c := range cells {
		n, found := existing[needKey{c.ProductID, c.Month}]
		switch {
		case isPast(c.Month, now):
			res.Refused = append(res.Refused, Refused{Cell: c, Reserved: reserved[n.ID], Message: MsgPastMonth})
			continue
		case found && c.Quantity < reserved[n.ID]:
			res.Refused = append(res.Refused, Refused{Cell: c, Reserved: reserved[n.ID], Message: MsgBelowReserved})
			continue
		case found && c.Quantity == n.Quantity, !found && c.Quantity == 0:
			res.Unchanged++
			continue
		case found:
			res.Updated++
		default:
			if retired == nil {
				if retired, err = retiredProducts(ctx, q); err != nil {
					return res, nil, err
				}
			}
			if retired[c.ProductID] {
				res.Refused = append(res.Refused, Refused{Cell: c, Message: MsgRetired})
				continue
			}
			n = Need{ID: core.NewID(), DistributorID: distributorID, ProductID: c.ProductID, Month: c.Month, CreatedAt: ms}
			res.Created++
		}
		n.Quantity, n.UpdatedAt = c.Quantity, ms
		if found {
			updated = append(updated, n)
		} else {
			created = append(created, int32(len(writes)))
		}
		writes = append(writes, n)
	}
	if strict && len(res.Refused) > 0 {
		return Result{}, nil, core.Refuse(core.ErrConflict, res.Refused[0].Message)
	}
	if err := upsert(ctx, q, updated); err != nil {
		return Result{}, nil, err
	}
	if err := insertNew(ctx, q, writes, created, sending); err != nil {
		return Result{}, nil, err
	}
	if len(writes) > 0 {
		views, err := viewsOf(ctx, q, writes, existing)
		if err != nil {
			return Result{}, nil, err
		}
		res.Needs = views
	}
	return res, existing, nil
}

// retiredProducts are the product types retired from the catalogue: they
// keep their needs and take no new one.
func retiredProducts(ctx context.Context, q store.Q) (map[string]bool, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM products WHERE retired_at IS NOT NULL`); err != nil {
		return nil, fmt.Errorf("planning: retired products: %w", err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// takeTurn makes the writers of a shop's needs take turns on PostgreSQL,
// for the rest of the transaction: Write inserts the needs it did not
// find, and two writers inserting the same new need would otherwise clash
// on the unique (shop, product, month). SQLite's writers already take
// turns (one write transaction at a time).
func takeTurn(ctx context.Context, q store.Q, distributorID string) error {
	if q.DriverName() != "postgres" {
		return nil
	}
	if _, err := q.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('planning.needs ' || $1, 0))`, distributorID); err != nil {
		return fmt.Errorf("planning: wait for the shop's other writes: %w", err)
	}
	return nil
}

// insertNew inserts the needs Write found missing, needs[i] for each i of
// created (store.Insert: COPY on PostgreSQL inside a transaction), telling
// sending of each change of month as the rows go.
func insertNew(ctx context.Context, q store.Q, needs []Need, created []int32, sending func(month string)) error {
	if err := store.Insert(ctx, q, "needs", []string{"id", "distributor_id", "product_id", "month", "quantity", "created_at", "updated_at"},
		len(created), func(i int, v []any) {
			n := &needs[created[i]]
			if sending != nil && (i == 0 || n.Month != needs[created[i-1]].Month) {
				sending(n.Month)
			}
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = n.ID, n.DistributorID, n.ProductID, n.Month, int64(n.Quantity), n.CreatedAt, n.UpdatedAt
		}); err != nil {
		return fmt.Errorf("planning: insert needs: %w", err)
	}
	return nil
}

func lockNeeds(ctx context.Context, q store.Q, distributorID string, months []string) (map[needKey]Need, error) {
	var needs []Need
	if err := store.SelectIn(ctx, q, &needs, `SELECT `+needColumnsSimple+` FROM needs
		WHERE distributor_id = ? AND month IN (?)`+store.ForUpdate(q), distributorID, months); err != nil {
		return nil, fmt.Errorf("planning: read needs: %w", err)
	}
	out := make(map[needKey]Need, len(needs))
	for _, n := range needs {
		out[needKey{n.ProductID, n.Month}] = n
	}
	return out, nil
}

func reservedOf(ctx context.Context, q store.Q, distributorID string, months []string) (map[string]decimal.Dec, error) {
	var ps []Proposal
	if err := store.SelectIn(ctx, q, &ps, `SELECT `+proposalColumns+` FROM proposals p JOIN needs n ON n.id = p.need_id
		WHERE n.distributor_id = ? AND n.month IN (?)`, distributorID, months); err != nil {
		return nil, fmt.Errorf("planning: read proposals: %w", err)
	}
	byNeed := map[string][]Proposal{}
	for _, p := range ps {
		byNeed[p.NeedID] = append(byNeed[p.NeedID], p)
	}
	out := make(map[string]decimal.Dec, len(byNeed))
	for id, list := range byNeed {
		out[id] = Reserved(list)
	}
	return out, nil
}

// needWrites are the columns a write of needs sets, with their types.
var needWrites = []store.Column{{Name: "id", Type: "text"}, {Name: "distributor_id", Type: "text"},
	{Name: "product_id", Type: "text"}, {Name: "month", Type: "text"}, {Name: "quantity", Type: "bigint"},
	{Name: "created_at", Type: "bigint"}, {Name: "updated_at", Type: "bigint"}}

// upsert writes needs, new or changed, in one statement on PostgreSQL
// (store.Upsert): an existing need of the same shop, product and month
// takes the new quantity and update time. Write gives it the needs it
// changes.
func upsert(ctx context.Context, q store.Q, needs []Need) error {
	if err := store.Upsert(ctx, q, "needs", needWrites, []string{"distributor_id", "product_id", "month"},
		[]string{"quantity", "updated_at"}, len(needs), func(i int, v []any) {
			n := needs[i]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = n.ID, n.DistributorID, n.ProductID, n.Month, int64(n.Quantity), n.CreatedAt, n.UpdatedAt
		}); err != nil {
		return fmt.Errorf("planning: write needs: %w", err)
	}
	return nil
}

// viewsOf returns the views of needs just written, with their proposals.
// Only needs that existed before the write can have proposals: those just
// created are not looked up.
func viewsOf(ctx context.Context, q store.Q, needs []Need, existing map[needKey]Need) ([]View, error) {
	ids := make([]string, 0, len(existing))
	for _, n := range needs {
		if _, found := existing[needKey{n.ProductID, n.Month}]; found {
			ids = append(ids, n.ID)
		}
	}
	byNeed := map[string][]Proposal{}
	for start := 0; start < len(ids); start += batchRows {
		var ps []Proposal
		if err := store.SelectIn(ctx, q, &ps, `SELECT `+proposalColumns+` FROM proposals p WHERE p.need_id IN (?)
			ORDER BY p.created_at, p.id`, ids[start:min(start+batchRows, len(ids))]); err != nil {
			return nil, fmt.Errorf("planning: read proposals: %w", err)
		}
		for _, p := range ps {
			byNeed[p.NeedID] = append(byNeed[p.NeedID], p)
		}
	}
	out := make([]View, len(needs))
	var stamp string // the needs of a write share their instant
	for i, n := range needs {
		if i == 0 || n.UpdatedAt != needs[i-1].UpdatedAt {
			stamp = time.UnixMilli(n.UpdatedAt).UTC().Format(time.RFC3339)
		}
		out[i] = n.viewStamped(byNeed[n.ID], stamp)
	}
	return out, nil
}

// NeedInput is a need as the planner's single add sends it.
type NeedInput struct {
	ProductID string
	Date      string
	Quantity  float64
}

// Create adds one need for the distributor and records need:create. A need
// for the same product and month is a conflict.
func Create(ctx context.Context, q store.Q, distributorID string, in NeedInput, now time.Time) (View, error) {
	p, month, qty, err := checkCell(ctx, q, in.ProductID, in.Date, in.Quantity)
	if err != nil {
		return View{}, err
	}
	if qty == 0 {
		return View{}, core.Invalid("quantity", MsgNegative)
	}
	var exists int
	if err := store.Get(ctx, q, &exists, `SELECT COUNT(*) FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		distributorID, p.ID, month); err != nil {
		return View{}, fmt.Errorf("planning: %w", err)
	}
	if exists > 0 {
		return View{}, core.Refuse(core.ErrConflict, MsgNeedExists)
	}
	res, err := writeOne(ctx, q, distributorID, Cell{ProductID: p.ID, Month: month, Quantity: qty}, now)
	if err != nil {
		return View{}, err
	}
	return res, record(ctx, q, activity.Event{Type: activity.NeedCreate, OriginID: distributorID, CreatedAt: now,
		Data: activity.Data{Product: productRef(p), Date: month, Quantity: &qty}})
}

// Update sets the quantity of one of the distributor's needs and records
// need:update with the size and direction of the change.
func Update(ctx context.Context, q store.Q, distributorID, needID string, quantity float64, now time.Time) (View, error) {
	n, ps, err := own(ctx, q, distributorID, needID)
	if err != nil {
		return View{}, err
	}
	p, err := catalog.ByID(ctx, q, n.ProductID)
	if err != nil {
		return View{}, err
	}
	qty, err := ParseQuantity("quantity", p.Unit, quantity)
	if err != nil {
		return View{}, err
	}
	if isPast(n.Month, now) {
		return View{}, core.Refuse(core.ErrConflict, MsgPastMonth)
	}
	if qty < Reserved(ps) {
		return View{}, core.Refuse(core.ErrConflict, MsgBelowReserved)
	}
	if qty == n.Quantity {
		return n.view(ps), nil
	}
	old := n.Quantity
	n.Quantity, n.UpdatedAt = qty, now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE needs SET quantity = ?, updated_at = ? WHERE id = ?`, n.Quantity, n.UpdatedAt, n.ID); err != nil {
		return View{}, fmt.Errorf("planning: update need: %w", err)
	}
	delta, up := qty-old, qty > old
	if delta < 0 {
		delta = -delta
	}
	return n.view(ps), record(ctx, q, activity.Event{Type: activity.NeedUpdate, OriginID: distributorID, CreatedAt: now,
		Data: activity.Data{Product: productRef(p), Date: n.Month, Quantity: &qty, Delta: &delta, Vector: &up}})
}

// Delete removes one of the distributor's needs, refused while it holds
// commitments or pending proposals, and records need:delete.
func Delete(ctx context.Context, q store.Q, distributorID, needID string, now time.Time) (View, error) {
	n, ps, err := own(ctx, q, distributorID, needID)
	if err != nil {
		return View{}, err
	}
	if isPast(n.Month, now) {
		return View{}, core.Refuse(core.ErrConflict, MsgPastMonth)
	}
	for _, p := range ps {
		if p.Status == StatusAccepted || p.Status == StatusProposed {
			return View{}, core.Refuse(core.ErrConflict, MsgBelowReserved)
		}
	}
	// A commitment ended after some of its deliveries leaves their lines
	// naming the need: they are the invoice's history, so the need stays.
	var lines int
	if err := store.Get(ctx, q, &lines, `SELECT COUNT(*) FROM delivery_lines WHERE need_id = ?`, n.ID); err != nil {
		return View{}, fmt.Errorf("planning: delivery lines of need %s: %w", n.ID, err)
	}
	if lines > 0 {
		return View{}, core.Refuse(core.ErrConflict, MsgHasDeliveries)
	}
	p, err := catalog.ByID(ctx, q, n.ProductID)
	if err != nil {
		return View{}, err
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM needs WHERE id = ?`, n.ID); err != nil {
		return View{}, fmt.Errorf("planning: delete need: %w", err)
	}
	qty := n.Quantity
	return n.view(nil), record(ctx, q, activity.Event{Type: activity.NeedDelete, OriginID: distributorID, CreatedAt: now,
		Data: activity.Data{Product: productRef(p), Date: n.Month, Quantity: &qty}})
}

// Bulk sets one product's quantity for several months at once (creating or
// updating each), all or nothing, and records one need:create:bulk event.
func Bulk(ctx context.Context, q store.Q, distributorID, productID string, quantities []float64, dates []string, now time.Time) ([]View, activity.View, error) {
	if len(dates) == 0 || len(dates) != len(quantities) || len(dates) > MaxBulkMonths {
		return nil, activity.View{}, core.Invalid("dates", MsgBulkShape)
	}
	p, err := catalog.ByID(ctx, q, productID)
	if errors.Is(err, core.ErrNotFound) {
		return nil, activity.View{}, core.Invalid("product", MsgUnknownProd)
	}
	if err != nil {
		return nil, activity.View{}, err
	}
	cells := make([]Cell, len(dates))
	seen := map[string]bool{}
	months := make([]string, len(dates))
	var total decimal.Dec
	for i := range dates {
		month, err := ParseMonth(fmt.Sprintf("dates[%d]", i), dates[i])
		if err != nil {
			return nil, activity.View{}, err
		}
		if seen[month] {
			return nil, activity.View{}, core.Invalid(fmt.Sprintf("dates[%d]", i), MsgBulkShape)
		}
		seen[month] = true
		qty, err := ParseQuantity(fmt.Sprintf("quantities[%d]", i), p.Unit, quantities[i])
		if err != nil {
			return nil, activity.View{}, err
		}
		cells[i], months[i] = Cell{ProductID: p.ID, Month: month, Quantity: qty}, month
		total += qty
	}
	res, err := WriteAll(ctx, q, distributorID, cells, now)
	if err != nil {
		return nil, activity.View{}, err
	}
	count := len(res.Needs)
	ev, err := activity.RecordView(ctx, q, activity.Event{Type: activity.NeedCreateBulk, OriginID: distributorID, CreatedAt: now,
		Data: activity.Data{Product: productRef(p), Dates: months, Quantity: &total, Count: &count}})
	if err != nil {
		return nil, activity.View{}, err
	}
	if res.Needs == nil {
		res.Needs = []View{}
	}
	return res.Needs, ev, nil
}

// checkCell validates a product id, a month and a quantity for a need.
func checkCell(ctx context.Context, q store.Q, productID, date string, quantity float64) (catalog.Product, string, decimal.Dec, error) {
	p, err := catalog.ByID(ctx, q, productID)
	if errors.Is(err, core.ErrNotFound) {
		return p, "", 0, core.Invalid("product", MsgUnknownProd)
	}
	if err != nil {
		return p, "", 0, err
	}
	month, err := ParseMonth("date", date)
	if err != nil {
		return p, "", 0, err
	}
	qty, err := ParseQuantity("quantity", p.Unit, quantity)
	return p, month, qty, err
}

func writeOne(ctx context.Context, q store.Q, distributorID string, c Cell, now time.Time) (View, error) {
	res, err := WriteAll(ctx, q, distributorID, []Cell{c}, now)
	if err != nil {
		return View{}, err
	}
	return res.Needs[0], nil
}

// own locks a need and checks that it belongs to the distributor; another
// shop's need reads as missing.
func own(ctx context.Context, q store.Q, distributorID, needID string) (Need, []Proposal, error) {
	n, ps, err := lock(ctx, q, needID)
	if err != nil {
		return Need{}, nil, err
	}
	if n.DistributorID != distributorID {
		return Need{}, nil, fmt.Errorf("planning: need %s: %w", needID, core.ErrNotFound)
	}
	return n, ps, nil
}

func productRef(p catalog.Product) *activity.Product {
	return &activity.Product{Name: p.Name, Unit: p.Unit}
}

func record(ctx context.Context, q store.Q, e activity.Event) error {
	if err := activity.Record(ctx, q, e); err != nil {
		return fmt.Errorf("planning: %w", err)
	}
	return nil
}
