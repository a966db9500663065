package planning

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

// Proposal statuses and origins (PRODUCT §3).
const (
	StatusProposed    = "proposed"
	StatusAccepted    = "accepted"
	StatusRejected    = "rejected"
	FromProducer      = "producer"
	FromDistributor   = "distributor"
	proposalColumns   = `p.id, p.need_id, p.producer_id, p.status, p.origin, p.quantity, p.price, p.previous_origin, p.previous_quantity, p.previous_price, p.supplied_product_id, p.created_at, p.updated_at`
	needColumns       = `n.id, n.distributor_id, n.product_id, n.month, n.quantity, n.created_at, n.updated_at`
	needColumnsSimple = `id, distributor_id, product_id, month, quantity, created_at, updated_at`
)

// Need is a stored need.
type Need struct {
	ID            string      `db:"id"`
	DistributorID string      `db:"distributor_id"`
	ProductID     string      `db:"product_id"`
	Month         string      `db:"month"`
	Quantity      decimal.Dec `db:"quantity"`
	CreatedAt     int64       `db:"created_at"`
	UpdatedAt     int64       `db:"updated_at"`
}

// Proposal is a proposal or commitment on a need, as the UI shows it.
type Proposal struct {
	ID       string      `db:"id" json:"_id"`
	NeedID   string      `db:"need_id" json:"-"`
	Producer string      `db:"producer_id" json:"producer" doc:"Producer id"`
	Status   string      `db:"status" json:"status" enum:"proposed,accepted,rejected"`
	From     string      `db:"origin" json:"from" enum:"producer,distributor" doc:"Side that made it"`
	Quantity decimal.Dec `db:"quantity" json:"quantity"`
	Price    decimal.Dec `db:"price" json:"price" doc:"Unit price HT in EUR"`
	// The values a counter-proposal answers (issue 37): set on an open
	// proposal made over the other side's, from that proposal; nil on a
	// first proposal or correction and on a commitment.
	PreviousFrom     *string      `db:"previous_origin" json:"previousFrom,omitempty" enum:"producer,distributor" doc:"On a counter-proposal: the side whose proposal it replaced (absent otherwise)"`
	PreviousQuantity *decimal.Dec `db:"previous_quantity" json:"previousQuantity,omitempty" doc:"On a counter-proposal: the quantity of the proposal it replaced"`
	PreviousPrice    *decimal.Dec `db:"previous_price" json:"previousPrice,omitempty" doc:"On a counter-proposal: the unit price HT in EUR of the proposal it replaced"`
	// SuppliedProduct is the producer's own product it names (issue 39,
	// core/supplied), nil when it names the need's product type only.
	SuppliedProduct *string `db:"supplied_product_id" json:"suppliedProduct,omitempty" doc:"The producer's own product it names (GET /api/producers/{producerId}/supplied-products); absent: the need's product type only"`
	// CreatedAt and ID order a need's proposals (CompareProposals).
	CreatedAt int64 `db:"created_at" json:"-"`
	UpdatedAt int64 `db:"updated_at" json:"-"`
}

// CompareProposals orders the proposals of a need as every read gives
// them: by creation, then id.
func CompareProposals(a, b *Proposal) int {
	if a.CreatedAt != b.CreatedAt {
		return cmp.Compare(a.CreatedAt, b.CreatedAt)
	}
	return strings.Compare(a.ID, b.ID)
}

// View is a need as the UI receives it (PRODUCT §3).
type View struct {
	ID                string      `json:"_id"`
	Product           string      `json:"product" doc:"Product id"`
	Distributor       string      `json:"distributor" doc:"Shop id"`
	Date              string      `json:"date" doc:"First day of the month" example:"2026-12-01"`
	Quantity          decimal.Dec `json:"quantity"`
	QuantityAccepted  decimal.Dec `json:"quantityAccepted" doc:"Sum of commitments"`
	QuantityProposed  decimal.Dec `json:"quantityProposed" doc:"Sum of pending proposals beyond commitments"`
	QuantityAvailable decimal.Dec `json:"quantityAvailable" doc:"quantity − accepted − proposed"`
	UpdatedAt         string      `json:"updatedAt" doc:"RFC 3339"`
	Proposals         []Proposal  `json:"proposals"`
}

// Totals computes what is committed and what is pending on a need from its
// proposals. Per producer, a pending proposal next to a commitment is a
// correction: only what it adds beyond the commitment counts as proposed.
// So accepted + proposed = Σ max(committed, pending) per producer, the
// quantity the need must keep covering.
func Totals(ps []Proposal) (accepted, proposed decimal.Dec) {
	switch len(ps) {
	case 0:
		return 0, 0
	case 1: // the common case, without the map
		switch ps[0].Status {
		case StatusAccepted:
			return ps[0].Quantity, 0
		case StatusProposed:
			return 0, ps[0].Quantity
		}
		return 0, 0
	}
	type pair struct{ committed, pending decimal.Dec }
	by := map[string]*pair{}
	for _, p := range ps {
		x := by[p.Producer]
		if x == nil {
			x = &pair{}
			by[p.Producer] = x
		}
		switch p.Status {
		case StatusAccepted:
			x.committed = p.Quantity
		case StatusProposed:
			x.pending = p.Quantity
		}
	}
	for _, x := range by {
		accepted += x.committed
		if x.pending > x.committed {
			proposed += x.pending - x.committed
		}
	}
	return accepted, proposed
}

// Reserved is what a need's quantity may not go under.
func Reserved(ps []Proposal) decimal.Dec {
	a, p := Totals(ps)
	return a + p
}

func (n Need) view(ps []Proposal) View {
	return n.viewStamped(ps, time.UnixMilli(n.UpdatedAt).UTC().Format(time.RFC3339))
}

// viewStamped is view with the need's date of change already formatted.
func (n Need) viewStamped(ps []Proposal, updatedAt string) View {
	if ps == nil {
		ps = []Proposal{}
	}
	accepted, proposed := Totals(ps)
	return View{
		ID:                n.ID,
		Product:           n.ProductID,
		Distributor:       n.DistributorID,
		Date:              n.Month,
		Quantity:          n.Quantity,
		QuantityAccepted:  accepted,
		QuantityProposed:  proposed,
		QuantityAvailable: n.Quantity - accepted - proposed,
		UpdatedAt:         updatedAt,
		Proposals:         ps,
	}
}

// Filter selects needs to read. Zero values mean no restriction.
type Filter struct {
	// ID restricts to one need (GET /api/needs/{id}).
	ID string
	// DistributorID restricts to one shop's needs.
	DistributorID string
	// From and To bound the months, inclusive ("2026-12-01").
	From, To string
	// TradedBy restricts to needs the producer has a proposal or
	// commitment on.
	TradedBy string
	// OnlyProposalsOf keeps, in each need's proposals, only those of this
	// producer (a producer does not see its competitors' offers); the totals
	// still count every proposal.
	OnlyProposalsOf string
}

// List returns the needs matching f with their proposals, by month, then
// product, then id (the order of a producer's needs of several shops), each
// need's proposals by creation, then id.
//
// It is the read behind GET /api/needs and the user load's needs, the
// largest answers of the API (a shop planning 150 products over 24 months
// has 3,600 needs), so it is written for speed (issue 20,
// docs/BENCHMARKS.md): two queries scanned by hand into the views (no
// reflection), only the columns the views show, the proposals sorted and
// grouped in Go (SQLite would sort them in a temporary b-tree) into one
// array shared by the views, each need's date of change formatted once per
// distinct instant.
func List(ctx context.Context, q store.Q, f Filter) ([]View, error) {
	var w store.Where
	w.And(f.ID != "", "n.id = ?", f.ID).
		And(f.DistributorID != "", "n.distributor_id = ?", f.DistributorID).
		And(f.From != "", "n.month >= ?", f.From).
		And(f.To != "", "n.month <= ?", f.To).
		And(f.TradedBy != "", "n.id IN (SELECT need_id FROM proposals WHERE producer_id = ?)", f.TradedBy)
	where, args := w.SQL(), w.Args()
	out, err := listNeeds(ctx, q, where, args, f.DistributorID)
	if err != nil || len(out) == 0 {
		return out, err
	}
	ps, err := listProposals(ctx, q, where, args, len(out))
	if err != nil {
		return nil, err
	}
	attach(out, ps, f.OnlyProposalsOf)
	return out, nil
}

// listNeeds reads the needs of where, without their proposals; shop, when
// the filter names it, is every need's shop (not read again per row).
func listNeeds(ctx context.Context, q store.Q, where string, args []any, shop string) ([]View, error) {
	cols := `n.id, n.product_id, n.month, n.quantity, n.updated_at`
	if shop == "" {
		cols += `, n.distributor_id`
	}
	out := make([]View, 0, 64)
	stamps := map[int64]string{} // a plan's needs share a few instants
	var (
		id, product, month string
		quantity           decimal.Dec
		updated            store.Int64
		distributor        = shop
	)
	dest := []any{&id, &product, &month, &quantity, &updated, &distributor}
	if shop != "" {
		dest = dest[:5]
	}
	err := store.Each(ctx, q, `SELECT `+cols+` FROM needs n WHERE `+where+` ORDER BY n.month, n.product_id, n.id`, args, dest, func() {
		stamp, ok := stamps[int64(updated)]
		if !ok {
			stamp = time.UnixMilli(int64(updated)).UTC().Format(time.RFC3339)
			stamps[int64(updated)] = stamp
		}
		out = append(out, View{ID: id, Product: product, Distributor: distributor, Date: month,
			Quantity: quantity, UpdatedAt: stamp})
	})
	if err != nil {
		return nil, fmt.Errorf("planning: list needs: %w", err)
	}
	return out, nil
}

// listProposals reads the proposals on the needs of where, in no order.
func listProposals(ctx context.Context, q store.Q, where string, args []any, needs int) ([]Proposal, error) {
	ps := make([]Proposal, 0, needs/2)
	var p Proposal
	err := store.Each(ctx, q, `SELECT `+proposalColumns+`
		FROM proposals p JOIN needs n ON n.id = p.need_id WHERE `+where, args,
		[]any{&p.ID, &p.NeedID, &p.Producer, &p.Status, &p.From, &p.Quantity, &p.Price,
			nullString{&p.PreviousFrom}, nullDec{&p.PreviousQuantity}, nullDec{&p.PreviousPrice}, nullString{&p.SuppliedProduct},
			(*store.Int64)(&p.CreatedAt), (*store.Int64)(&p.UpdatedAt)},
		func() { ps = append(ps, p) })
	if err != nil {
		return nil, fmt.Errorf("planning: list proposals: %w", err)
	}
	return ps, nil
}

// attach gives each view its proposals, by creation then id, and its
// totals, then keeps only the proposals of onlyOf when it is set. The
// proposals of all the views share one array, each view its own part.
func attach(views []View, ps []Proposal, onlyOf string) {
	at := make(map[string]int32, len(views))
	for i := range views {
		at[views[i].ID] = int32(i)
	}
	// A counting sort by view: view i's part is all[ends[i]:ends[i+1]].
	ends := make([]int32, len(views)+1)
	of := make([]int32, len(ps))
	for k := range ps {
		i := at[ps[k].NeedID]
		of[k] = i
		ends[i+1]++
	}
	for i := 1; i <= len(views); i++ {
		ends[i] += ends[i-1]
	}
	next := slices.Clone(ends[:len(views)])
	order := make([]int32, len(ps)) // indexes into ps, by view
	for k := range ps {
		order[next[of[k]]] = int32(k)
		next[of[k]]++
	}
	all := make([]Proposal, len(ps))
	none := []Proposal{}
	for i := range views {
		v := &views[i]
		start, end := ends[i], ends[i+1]
		if start == end {
			v.Proposals = none
			v.QuantityAvailable = v.Quantity
			continue
		}
		part := order[start:end]
		// Few proposals per need: an insertion sort.
		for a := 1; a < len(part); a++ {
			for b := a; b > 0 && CompareProposals(&ps[part[b]], &ps[part[b-1]]) < 0; b-- {
				part[b], part[b-1] = part[b-1], part[b]
			}
		}
		own := all[start:end:end]
		for k, j := range part {
			own[k] = ps[j]
		}
		accepted, proposed := Totals(own)
		v.QuantityAccepted, v.QuantityProposed = accepted, proposed
		v.QuantityAvailable = v.Quantity - accepted - proposed
		if onlyOf != "" {
			kept := own[:0]
			for _, p := range own {
				if p.Producer == onlyOf {
					kept = append(kept, p)
				}
			}
			own = kept[:len(kept):len(kept)]
		}
		v.Proposals = own
	}
}

// Get returns one need with its proposals, or core.ErrNotFound.
func Get(ctx context.Context, q store.Q, id string) (Need, []Proposal, error) {
	var n Need
	err := store.Get(ctx, q, &n, `SELECT `+needColumnsSimple+` FROM needs WHERE id = ?`, id)
	if store.IsNotFound(err) {
		return Need{}, nil, fmt.Errorf("planning: need %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Need{}, nil, fmt.Errorf("planning: need %s: %w", id, err)
	}
	ps, err := ProposalsOf(ctx, q, id)
	return n, ps, err
}

// ViewOf returns the UI view of a need and its proposals.
func ViewOf(n Need, ps []Proposal) View { return n.view(ps) }

// lock reads a need for update inside a transaction: the row lock on
// PostgreSQL, the database write lock (held since BEGIN) on SQLite, so
// that concurrent changes of it serialise. (core/trade locks the needs it
// trades on with what it reads beside them.)
func lock(ctx context.Context, q store.Q, id string) (Need, []Proposal, error) {
	var n Need
	err := store.Get(ctx, q, &n, `SELECT `+needColumnsSimple+` FROM needs WHERE id = ?`+store.ForUpdate(q), id)
	if store.IsNotFound(err) {
		return Need{}, nil, fmt.Errorf("planning: need %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Need{}, nil, fmt.Errorf("planning: lock need %s: %w", id, err)
	}
	ps, err := ProposalsOf(ctx, q, id)
	return n, ps, err
}

// ProposalsOf reads the proposals of a need, in their order
// (CompareProposals).
func ProposalsOf(ctx context.Context, q store.Q, needID string) ([]Proposal, error) {
	var ps []Proposal
	if err := store.Select(ctx, q, &ps, `SELECT `+proposalColumns+` FROM proposals p
		WHERE p.need_id = ? ORDER BY p.created_at, p.id`, needID); err != nil {
		return nil, fmt.Errorf("planning: proposals of %s: %w", needID, err)
	}
	return ps, nil
}

// nullDec scans a nullable amount or quantity: nil for NULL (without the
// reflection database/sql uses for a **decimal.Dec, on every row).
type nullDec struct{ d **decimal.Dec }

func (n nullDec) Scan(src any) error {
	if src == nil {
		*n.d = nil
		return nil
	}
	var v decimal.Dec
	if err := v.Scan(src); err != nil {
		return err
	}
	*n.d = &v
	return nil
}

// nullString scans a nullable text: nil for NULL.
type nullString struct{ s **string }

func (n nullString) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*n.s = nil
	case string:
		*n.s = &v
	case []byte:
		t := string(v)
		*n.s = &t
	default:
		return fmt.Errorf("planning: text column holds %T", src)
	}
	return nil
}
