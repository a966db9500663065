package trade

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"primeur/core/accounts"
	"primeur/core/address"
	"primeur/core/decimal"
	"primeur/core/store"

	"github.com/jmoiron/sqlx"
)

// National is the area of the comparison's figure for the whole platform;
// the others are départements ("74", "2A", "971").
const National = "FR"

// Figure is the average price paid on the platform for a product and
// month in one area.
type Figure struct {
	Area      string      `json:"area" doc:"FR for the whole platform, else the département (74, 2A, 971)" example:"74"`
	Average   decimal.Dec `json:"average" doc:"Quantity-weighted average unit price HT in EUR of the commitments counted (PRODUCT §15 \"Price privacy\"), rounded half up to 10 cents"`
	Purchases int64       `json:"purchases" doc:"How many commitments (purchases) counted are behind it" example:"12"`
}

// Comparison is the price comparison of a need: the average price paid for
// its product and month on the whole platform and in the shop's
// département. A figure is nil unless it may be shown (privacy.go: at
// least MinPartners distinct legal entities on each side, none holding
// more than half its quantity), and the local one is nil whenever the
// national one is: it is the one average of a need (issue 37).
type Comparison struct {
	Product  string  `json:"product" doc:"Product id"`
	Month    string  `json:"month" doc:"YYYY-MM-01"`
	Area     string  `json:"area" doc:"The shop's département; empty when its address has no French postcode"`
	National *Figure `json:"national" doc:"The whole platform; null when withheld (fewer than 3 distinct companies, by SIREN, bought or sold the purchases counted, or one of them holds more than half their quantity)"`
	Local    *Figure `json:"local" doc:"The shop's département; null when withheld, as national, or unknown, and whenever national is null (the need shows an average in full or not at all)"`
}

// AreaOf is the comparison area of an account's address lines: the
// département of its postcode, "" when it has none.
func AreaOf(lines ...string) string {
	return address.DepartmentOf(lines...)
}

// Compare reads the price comparison of product in month for a shop of
// area (its département, "" when unknown): two rows of price_cells, so
// its cost does not grow with the platform's trade.
func Compare(ctx context.Context, q store.Q, product, month, area string) (Comparison, error) {
	out := Comparison{Product: product, Month: month, Area: area}
	var rows []struct {
		Area string `db:"area"`
		cell
	}
	local := area
	if local == "" {
		local = National
	}
	if err := store.Select(ctx, q, &rows, `SELECT area, `+cellColumns+` FROM price_cells
		WHERE product_id = ? AND month = ? AND area IN (?, ?)`, product, month, National, local); err != nil {
		return out, fmt.Errorf("trade: compare prices: %w", err)
	}
	for _, r := range rows {
		if !r.shown() {
			continue
		}
		f := &Figure{Area: r.Area, Average: average(r.Amount, r.Quantity), Purchases: r.Purchases}
		if r.Area == National {
			out.National = f
		} else {
			out.Local = f
		}
	}
	// All or none (issue 37): the département's figure refines the
	// platform's; withheld nationally (one company dominant there), the
	// need shows no average at all, not a local one above "pas assez".
	if out.National == nil {
		out.Local = nil
	}
	return out, nil
}

// cellColumns are the columns of price_cells that make a cell.
const cellColumns = `amount, quantity, purchases, buyers, sellers, largest_buyer, largest_seller`

// change is a change of commitment: on the need of shop for product in
// month, the commitment of producer is now quantity × price (0: none).
// area is the shop's département now, buyer and seller the shop's and the
// producer's legal entities now (EntityOf).
type change struct {
	product, month, shop, producer, area string
	buyer, seller                        string
	quantity, price                      decimal.Dec
}

// pairKey is a row of price_commitments: a shop's need of a product for a
// month and one of its producers — there is at most one commitment there.
type pairKey struct{ shop, month, product, producer string }

// share is what one commitment adds to the figures: its amount and
// quantity, for its buyer and seller, in its area and nationally; the
// zero share (quantity 0) when it does not count.
type share struct {
	area, buyer, seller string
	amount, quantity    int64
}

// shareOf is the share of the commitment c leaves, nothing when it does
// not count (Counts).
func shareOf(c change) share {
	if c.quantity == 0 || !Counts(c.buyer, c.seller, c.quantity, c.price) {
		return share{}
	}
	return share{area: c.area, buyer: c.buyer, seller: c.seller,
		amount: int64(c.quantity) * int64(c.price), quantity: int64(c.quantity)}
}

// entityKey is a row of price_entities: a buyer's or a seller's purchases
// in one cell.
type entityKey struct{ product, month, area, side, entity string }

// cellKey is a row of price_cells.
type cellKey struct{ product, month, area string }

// entityDelta and cellDelta are what changes add to their rows.
type entityDelta struct{ purchases, quantity int64 }
type cellDelta struct{ amount, quantity, purchases, buyers, sellers int64 }

// areasOf are the areas a commitment of area counts in: the platform, and
// its département when it has one.
func areasOf(area string) []string {
	if area == "" {
		return []string{National}
	}
	return []string{National, area}
}

// priceSums are changes of commitments being gathered: per pair, the share
// of its commitment after them. Writing them takes off each pair's share
// as price_commitments holds it and adds the new one.
type priceSums struct {
	pairs map[pairKey]share
}

func newPriceSums() priceSums {
	return priceSums{pairs: map[pairKey]share{}}
}

// count records the change c: its pair's commitment is now c's.
func (s priceSums) count(c change) {
	s.pairs[pairKey{c.shop, c.month, c.product, c.producer}] = shareOf(c)
}

// countCommitment keeps the price sums in step when accept makes the
// change c, in its transaction.
func countCommitment(ctx context.Context, q store.Q, c change) error {
	s := newPriceSums()
	s.count(c)
	return s.write(ctx, q)
}

// pairColumns are the columns of price_commitments.
var pairColumns = []store.Column{{Name: "shop_id", Type: "text"}, {Name: "month", Type: "text"}, {Name: "product_id", Type: "text"},
	{Name: "producer_id", Type: "text"}, {Name: "area", Type: "text"}, {Name: "buyer", Type: "text"}, {Name: "seller", Type: "text"},
	{Name: "amount", Type: "bigint"}, {Name: "quantity", Type: "bigint"}}

// cellWriteColumns are the columns of price_cells an upsert writes.
var cellWriteColumns = []store.Column{{Name: "product_id", Type: "text"}, {Name: "month", Type: "text"}, {Name: "area", Type: "text"},
	{Name: "amount", Type: "bigint"}, {Name: "quantity", Type: "bigint"}, {Name: "purchases", Type: "bigint"},
	{Name: "buyers", Type: "bigint"}, {Name: "sellers", Type: "bigint"}, {Name: "largest_buyer", Type: "bigint"}, {Name: "largest_seller", Type: "bigint"}}

// shares reads the shares price_commitments holds for keys. The caller
// holds the needs' locks (a pair is a need and a producer), so they do not
// change under it.
func shares(ctx context.Context, q store.Q, keys []pairKey) (map[pairKey]share, error) {
	out := make(map[pairKey]share, len(keys))
	want := make(map[pairKey]bool, len(keys))
	shops, months, products := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, k := range keys {
		want[k] = true
		shops[k.shop], months[k.month], products[k.product] = true, true, true
	}
	for _, part := range chunks(sortedKeys(shops)) {
		var rows []struct {
			Shop     string `db:"shop_id"`
			Month    string `db:"month"`
			Product  string `db:"product_id"`
			Producer string `db:"producer_id"`
			Area     string `db:"area"`
			Buyer    string `db:"buyer"`
			Seller   string `db:"seller"`
			Amount   int64  `db:"amount"`
			Quantity int64  `db:"quantity"`
		}
		if err := store.SelectIn(ctx, q, &rows, `SELECT shop_id, month, product_id, producer_id, area, buyer, seller, amount, quantity
			FROM price_commitments WHERE shop_id IN (?) AND month IN (?) AND product_id IN (?)`,
			part, sortedKeys(months), sortedKeys(products)); err != nil {
			return nil, err
		}
		for _, r := range rows {
			if k := (pairKey{r.Shop, r.Month, r.Product, r.Producer}); want[k] {
				out[k] = share{area: r.Area, buyer: r.Buyer, seller: r.Seller, amount: r.Amount, quantity: r.Quantity}
			}
		}
	}
	return out, nil
}

// sortedKeys are the keys of a set, sorted.
func sortedKeys(set map[string]bool) []string {
	return slices.Sorted(maps.Keys(set))
}

// write applies the changes: each pair's share as stored taken off and its
// new one added, in price_commitments, price_entities and price_cells —
// each table's rows in ascending key order, so that concurrent acceptances
// lock them in the same order —, then the cells' largest entities.
func (s priceSums) write(ctx context.Context, q store.Q) error {
	fail := func(err error) error { return fmt.Errorf("trade: price sums: %w", err) }
	keys := slices.SortedFunc(maps.Keys(s.pairs), func(x, y pairKey) int {
		return cmp.Or(cmp.Compare(x.shop, y.shop), cmp.Compare(x.month, y.month),
			cmp.Compare(x.product, y.product), cmp.Compare(x.producer, y.producer))
	})
	if len(keys) == 0 {
		return nil
	}
	before, err := shares(ctx, q, keys)
	if err != nil {
		return fail(err)
	}
	changed := keys[:0:0]
	for _, k := range keys {
		if old, ok := before[k]; (ok && old != s.pairs[k]) || (!ok && s.pairs[k].quantity > 0) {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	if err := store.Upsert(ctx, q, "price_commitments", pairColumns, []string{"shop_id", "month", "product_id", "producer_id"},
		[]string{"area", "buyer", "seller", "amount", "quantity"}, len(changed), func(i int, v []any) {
			k := changed[i]
			sh := s.pairs[k]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] = k.shop, k.month, k.product, k.producer, sh.area, sh.buyer, sh.seller, sh.amount, sh.quantity
		}); err != nil {
		return fail(err)
	}
	entities := map[entityKey]*entityDelta{}
	cells := map[cellKey]*cellDelta{}
	apply := func(k pairKey, sh share, sign int64) {
		if sh.quantity == 0 {
			return
		}
		for _, a := range areasOf(sh.area) {
			ck := cellKey{k.product, k.month, a}
			c := cells[ck]
			if c == nil {
				c = &cellDelta{}
				cells[ck] = c
			}
			c.amount, c.quantity, c.purchases = c.amount+sign*sh.amount, c.quantity+sign*sh.quantity, c.purchases+sign
			for _, ek := range []entityKey{{k.product, k.month, a, "buyer", sh.buyer}, {k.product, k.month, a, "seller", sh.seller}} {
				e := entities[ek]
				if e == nil {
					e = &entityDelta{}
					entities[ek] = e
				}
				e.purchases, e.quantity = e.purchases+sign, e.quantity+sign*sh.quantity
			}
		}
	}
	for _, k := range changed {
		apply(k, before[k], -1)
		apply(k, s.pairs[k], 1)
	}
	ekeys := slices.SortedFunc(maps.Keys(entities), func(x, y entityKey) int {
		return cmp.Or(cmp.Compare(x.product, y.product), cmp.Compare(x.month, y.month), cmp.Compare(x.area, y.area),
			cmp.Compare(x.side, y.side), cmp.Compare(x.entity, y.entity))
	})
	if err := store.InsertReturning(ctx, q, `INSERT INTO price_entities (product_id, month, area, side, entity, purchases, quantity)`, 7,
		`ON CONFLICT (product_id, month, area, side, entity) DO UPDATE SET
			purchases = price_entities.purchases + excluded.purchases, quantity = price_entities.quantity + excluded.quantity
		RETURNING product_id, month, area, side, entity, purchases`, len(ekeys), func(i int, v []any) {
			k := ekeys[i]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = k.product, k.month, k.area, k.side, k.entity, entities[k].purchases, entities[k].quantity
		}, func(rows *sqlx.Rows) error {
			var (
				k     entityKey
				after int64
			)
			if err := rows.Scan(&k.product, &k.month, &k.area, &k.side, &k.entity, &after); err != nil {
				return err
			}
			// The entity joins the cell's count when its purchases there
			// leave zero, leaves it when they come back to zero.
			joined := int64(0)
			if before := after - entities[k].purchases; before <= 0 && after > 0 {
				joined = 1
			} else if before > 0 && after <= 0 {
				joined = -1
			}
			c := cells[cellKey{k.product, k.month, k.area}]
			if k.side == "buyer" {
				c.buyers += joined
			} else {
				c.sellers += joined
			}
			return nil
		}); err != nil {
		return fail(err)
	}
	ckeys := slices.SortedFunc(maps.Keys(cells), func(x, y cellKey) int {
		return cmp.Or(cmp.Compare(x.product, y.product), cmp.Compare(x.month, y.month), cmp.Compare(x.area, y.area))
	})
	// Every cell touched, even by no net change (an entity replaced by
	// another): the upsert locks its row before its largest entities are
	// read again, so that a concurrent change's are seen.
	if err := store.UpsertAdding(ctx, q, "price_cells", cellWriteColumns, []string{"product_id", "month", "area"},
		[]string{"amount", "quantity", "purchases", "buyers", "sellers"}, len(ckeys), func(i int, v []any) {
			k, c := ckeys[i], cells[ckeys[i]]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9] = k.product, k.month, k.area, c.amount, c.quantity, c.purchases, c.buyers, c.sellers, 0, 0
		}); err != nil {
		return fail(err)
	}
	if err := largest(ctx, q, ckeys); err != nil {
		return fail(err)
	}
	return nil
}

// largestSQL sets the largest buyer's and seller's quantities of cells
// from price_entities, each one step down its index (price_entities_largest).
const largestSQL = `UPDATE price_cells SET
	largest_buyer = COALESCE((SELECT e.quantity FROM price_entities e WHERE e.product_id = price_cells.product_id
		AND e.month = price_cells.month AND e.area = price_cells.area AND e.side = 'buyer' ORDER BY e.quantity DESC LIMIT 1), 0),
	largest_seller = COALESCE((SELECT e.quantity FROM price_entities e WHERE e.product_id = price_cells.product_id
		AND e.month = price_cells.month AND e.area = price_cells.area AND e.side = 'seller' ORDER BY e.quantity DESC LIMIT 1), 0)
	WHERE `

// largest reads again the largest entities of the cells keys (whose rows
// this transaction holds), by statements of up to 100 cells.
func largest(ctx context.Context, q store.Q, keys []cellKey) error {
	for start := 0; start < len(keys); start += 100 {
		part := keys[start:min(start+100, len(keys))]
		conds := make([]string, len(part))
		args := make([]any, 0, 3*len(part))
		for i, k := range part {
			conds[i] = "(product_id = ? AND month = ? AND area = ?)"
			args = append(args, k.product, k.month, k.area)
		}
		if _, err := store.Exec(ctx, q, largestSQL+strings.Join(conds, " OR "), args...); err != nil {
			return err
		}
	}
	return nil
}

// RebuildPrices recomputes the price sums — price_commitments,
// price_entities, price_cells — from the commitments in force and their
// parties as they stand (EntityOf, Counts; each commitment in its shop's
// département now), for tools and tests that write commitments without
// core/trade. Migration 38 (core/schema) filled them once with its own
// SQL copy of these rules (TestPriceMigrationMatchesRebuild keeps them
// equal). The rows are written in bulk (store.Insert: COPY on PostgreSQL
// in a transaction); run it in a transaction, or every statement commits
// on its own.
func RebuildPrices(ctx context.Context, q store.Q) error {
	fail := func(err error) error { return fmt.Errorf("trade: rebuild prices: %w", err) }
	rows, err := q.QueryContext(ctx, `SELECT n.distributor_id, n.month, n.product_id, p.producer_id, p.quantity, p.price,
			s.address_line1, s.address_line2, s.address_line3, s.siret, s.email_key, s.email_confirmed,
			f.siret, f.email_key, f.email_confirmed
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN users s ON s.id = n.distributor_id JOIN users f ON f.id = p.producer_id
		WHERE p.status = 'accepted' AND p.quantity > 0`)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	pairs := map[pairKey]share{}
	for rows.Next() {
		var (
			k               pairKey
			quantity, price int64
			l1, l2, l3      string
			shop, producer  accounts.User
		)
		if err := rows.Scan(&k.shop, &k.month, &k.product, &k.producer, &quantity, &price, &l1, &l2, &l3,
			&shop.SIRET, &shop.EmailKey, &shop.EmailConfirmedKey, &producer.SIRET, &producer.EmailKey, &producer.EmailConfirmedKey); err != nil {
			return fail(err)
		}
		sh := shareOf(change{area: AreaOf(l1, l2, l3), buyer: EntityOf(shop), seller: EntityOf(producer),
			quantity: decimal.Dec(quantity), price: decimal.Dec(price)})
		if sh.quantity > 0 {
			pairs[k] = sh
		}
	}
	if err := rows.Close(); err != nil {
		return fail(err)
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	entities := map[entityKey]*entityDelta{}
	cells := map[cellKey]*cell{}
	for k, sh := range pairs {
		for _, a := range areasOf(sh.area) {
			ck := cellKey{k.product, k.month, a}
			c := cells[ck]
			if c == nil {
				c = &cell{}
				cells[ck] = c
			}
			c.Amount, c.Quantity, c.Purchases = c.Amount+sh.amount, c.Quantity+sh.quantity, c.Purchases+1
			for _, ek := range []entityKey{{k.product, k.month, a, "buyer", sh.buyer}, {k.product, k.month, a, "seller", sh.seller}} {
				e := entities[ek]
				if e == nil {
					e = &entityDelta{}
					entities[ek] = e
					if ek.side == "buyer" {
						c.Buyers++
					} else {
						c.Sellers++
					}
				}
				e.purchases, e.quantity = e.purchases+1, e.quantity+sh.quantity
			}
		}
	}
	for ek, e := range entities {
		c := cells[cellKey{ek.product, ek.month, ek.area}]
		if ek.side == "buyer" {
			c.LargestBuyer = max(c.LargestBuyer, e.quantity)
		} else {
			c.LargestSeller = max(c.LargestSeller, e.quantity)
		}
	}
	for _, t := range []string{"price_commitments", "price_entities", "price_cells"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fail(err)
		}
	}
	pks := slices.Collect(maps.Keys(pairs))
	if err := store.Insert(ctx, q, "price_commitments", []string{"shop_id", "month", "product_id", "producer_id", "area", "buyer", "seller", "amount", "quantity"},
		len(pks), func(i int, v []any) {
			k, sh := pks[i], pairs[pks[i]]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] = k.shop, k.month, k.product, k.producer, sh.area, sh.buyer, sh.seller, sh.amount, sh.quantity
		}); err != nil {
		return fail(err)
	}
	eks := slices.Collect(maps.Keys(entities))
	if err := store.Insert(ctx, q, "price_entities", []string{"product_id", "month", "area", "side", "entity", "purchases", "quantity"}, len(eks),
		func(i int, v []any) {
			k, e := eks[i], entities[eks[i]]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = k.product, k.month, k.area, k.side, k.entity, e.purchases, e.quantity
		}); err != nil {
		return fail(err)
	}
	cks := slices.Collect(maps.Keys(cells))
	if err := store.Insert(ctx, q, "price_cells", []string{"product_id", "month", "area", "amount", "quantity", "purchases", "buyers", "sellers",
		"largest_buyer", "largest_seller"}, len(cks), func(i int, v []any) {
		k, c := cks[i], cells[cks[i]]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9] = k.product, k.month, k.area, c.Amount, c.Quantity, c.Purchases, c.Buyers, c.Sellers,
			c.LargestBuyer, c.LargestSeller
	}); err != nil {
		return fail(err)
	}
	return nil
}

// chunks cuts ids into parts of at most 500, for IN (…) clauses.
func chunks(ids []string) [][]string {
	var out [][]string
	for len(ids) > 0 {
		n := min(500, len(ids))
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	return out
}
