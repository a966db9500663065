package trade

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"primeur/core/address"
	"primeur/core/decimal"
	"primeur/core/store"

	"github.com/jmoiron/sqlx"
)

// MinPartners is how many distinct buyers and how many distinct sellers a
// comparison figure needs behind it to be shown, so that no partner's
// price can be inferred from it (PRODUCT §15 "Price comparison").
const MinPartners = 3

// National is the area of the comparison's figure for the whole platform;
// the others are départements ("74", "2A", "971").
const National = "FR"

// Figure is the average price paid on the platform for a product and
// month in one area.
type Figure struct {
	Area      string      `json:"area" doc:"FR for the whole platform, else the département (74, 2A, 971)" example:"74"`
	Average   decimal.Dec `json:"average" doc:"Quantity-weighted average unit price HT in EUR of the commitments in force"`
	Purchases int64       `json:"purchases" doc:"How many commitments (purchases) are behind it" example:"12"`
}

// Comparison is the price comparison of a need: the average price paid for
// its product and month on the whole platform and in the shop's
// département. A figure is nil when fewer than MinPartners distinct
// buyers or sellers back it (or nothing was bought).
type Comparison struct {
	Product  string  `json:"product" doc:"Product id"`
	Month    string  `json:"month" doc:"YYYY-MM-01"`
	Area     string  `json:"area" doc:"The shop's département; empty when its address has no French postcode"`
	National *Figure `json:"national" doc:"The whole platform; null when hidden"`
	Local    *Figure `json:"local" doc:"The shop's département; null when hidden or unknown"`
}

// AreaOf is the comparison area of an account's address lines: the
// département of its postcode, "" when it has none.
func AreaOf(lines ...string) string {
	return address.DepartmentOf(lines...)
}

// Compare reads the price comparison of product in month for a shop of
// area (its département, "" when unknown): two rows of price_areas, so its
// cost does not grow with the platform's trade.
func Compare(ctx context.Context, q store.Q, product, month, area string) (Comparison, error) {
	out := Comparison{Product: product, Month: month, Area: area}
	var rows []struct {
		Area      string `db:"area"`
		Amount    int64  `db:"amount"`
		Quantity  int64  `db:"quantity"`
		Purchases int64  `db:"purchases"`
		Buyers    int64  `db:"buyers"`
		Sellers   int64  `db:"sellers"`
	}
	local := area
	if local == "" {
		local = National
	}
	if err := store.Select(ctx, q, &rows, `SELECT area, amount, quantity, purchases, buyers, sellers FROM price_areas
		WHERE product_id = ? AND month = ? AND area IN (?, ?)`, product, month, National, local); err != nil {
		return out, fmt.Errorf("trade: compare prices: %w", err)
	}
	for _, r := range rows {
		if r.Buyers < MinPartners || r.Sellers < MinPartners || r.Quantity <= 0 || r.Amount < 0 {
			continue
		}
		// Round half up: both sums are positive.
		f := &Figure{Area: r.Area, Average: decimal.Dec((2*r.Amount + r.Quantity) / (2 * r.Quantity)), Purchases: r.Purchases}
		if r.Area == National {
			out.National = f
		} else {
			out.Local = f
		}
	}
	return out, nil
}

// pairKey is a row of price_pairs: a shop and a producer's commitments of
// a product for a month.
type pairKey struct{ product, month, shop, producer string }

// pairDelta is what changes of commitment add to a pair: area is the
// shop's département now, where the pair counts if it counted nowhere yet.
type pairDelta struct {
	area                        string
	amount, quantity, purchases int64
}

// memberKey is a row of price_members.
type memberKey struct{ product, month, area, side, member string }

// areaKey is a row of price_areas.
type areaKey struct{ product, month, area string }

// areaDelta is what changes add to a row of price_areas.
type areaDelta struct{ amount, quantity, purchases, buyers, sellers int64 }

// pair is the delta of c's pair, created empty.
func (s priceSums) pair(c change) *pairDelta {
	k := pairKey{c.product, c.month, c.shop, c.producer}
	d := s.pairs[k]
	if d == nil {
		d = &pairDelta{area: c.area}
		s.pairs[k] = d
	}
	return d
}

// areasOf are the areas a pair of area counts in: the platform, and its
// département when it has one.
func areasOf(area string) []string {
	if area == "" {
		return []string{National}
	}
	return []string{National, area}
}

// priceAreaColumns are the columns of price_areas (writeComparison).
var priceAreaColumns = []store.Column{{Name: "product_id", Type: "text"}, {Name: "month", Type: "text"}, {Name: "area", Type: "text"},
	{Name: "amount", Type: "bigint"}, {Name: "quantity", Type: "bigint"}, {Name: "purchases", Type: "bigint"},
	{Name: "buyers", Type: "bigint"}, {Name: "sellers", Type: "bigint"}}

// writeComparison adds the pairs' changes to the comparison's tables, each
// table's rows in ascending key order so that concurrent acceptances lock
// them in the same order. A buyer or seller joins an area's distinct count
// when its purchases there leave zero and leaves it when they come back to
// zero; the upserts return the new counts, so concurrent changes of one
// member serialise on its row.
func (s priceSums) writeComparison(ctx context.Context, q store.Q) error {
	pairs := make([]pairKey, 0, len(s.pairs))
	for k, d := range s.pairs {
		if d.amount != 0 || d.quantity != 0 || d.purchases != 0 {
			pairs = append(pairs, k)
		}
	}
	slices.SortFunc(pairs, func(x, y pairKey) int {
		return cmp.Or(cmp.Compare(x.product, y.product), cmp.Compare(x.month, y.month),
			cmp.Compare(x.shop, y.shop), cmp.Compare(x.producer, y.producer))
	})
	members := map[memberKey]int64{}
	areas := map[areaKey]*areaDelta{}
	areaOf := func(k areaKey) *areaDelta {
		d := areas[k]
		if d == nil {
			d = &areaDelta{}
			areas[k] = d
		}
		return d
	}
	stored := make(map[pairKey]string, len(pairs)) // the area each pair counts in
	if err := store.InsertReturning(ctx, q, `INSERT INTO price_pairs (product_id, month, shop_id, producer_id, area, purchases)`, 6,
		`ON CONFLICT (product_id, month, shop_id, producer_id) DO UPDATE SET
			area = CASE WHEN price_pairs.purchases = 0 THEN excluded.area ELSE price_pairs.area END,
			purchases = price_pairs.purchases + excluded.purchases
		RETURNING product_id, month, shop_id, producer_id, area`, len(pairs), func(i int, v []any) {
			k := pairs[i]
			v[0], v[1], v[2], v[3], v[4], v[5] = k.product, k.month, k.shop, k.producer, s.pairs[k].area, s.pairs[k].purchases
		}, func(rows *sqlx.Rows) error {
			var k pairKey
			var area string
			if err := rows.Scan(&k.product, &k.month, &k.shop, &k.producer, &area); err != nil {
				return err
			}
			stored[k] = area
			return nil
		}); err != nil {
		return fmt.Errorf("trade: price comparison: %w", err)
	}
	for _, k := range pairs {
		d := s.pairs[k]
		for _, a := range areasOf(stored[k]) {
			ad := areaOf(areaKey{k.product, k.month, a})
			ad.amount, ad.quantity, ad.purchases = ad.amount+d.amount, ad.quantity+d.quantity, ad.purchases+d.purchases
			members[memberKey{k.product, k.month, a, "buyer", k.shop}] += d.purchases
			members[memberKey{k.product, k.month, a, "seller", k.producer}] += d.purchases
		}
	}
	mkeys := make([]memberKey, 0, len(members))
	for k, n := range members {
		if n != 0 {
			mkeys = append(mkeys, k)
		}
	}
	slices.SortFunc(mkeys, func(x, y memberKey) int {
		return cmp.Or(cmp.Compare(x.product, y.product), cmp.Compare(x.month, y.month), cmp.Compare(x.area, y.area),
			cmp.Compare(x.side, y.side), cmp.Compare(x.member, y.member))
	})
	if err := store.InsertReturning(ctx, q, `INSERT INTO price_members (product_id, month, area, side, member_id, purchases)`, 6,
		`ON CONFLICT (product_id, month, area, side, member_id) DO UPDATE SET
			purchases = price_members.purchases + excluded.purchases
		RETURNING product_id, month, area, side, member_id, purchases`, len(mkeys), func(i int, v []any) {
			k := mkeys[i]
			v[0], v[1], v[2], v[3], v[4], v[5] = k.product, k.month, k.area, k.side, k.member, members[k]
		}, func(rows *sqlx.Rows) error {
			var (
				k     memberKey
				after int64
			)
			if err := rows.Scan(&k.product, &k.month, &k.area, &k.side, &k.member, &after); err != nil {
				return err
			}
			// The member joins the area's count when its purchases there
			// leave zero, leaves it when they come back to zero.
			joined, delta := int64(0), members[k]
			if before := after - delta; before <= 0 && after > 0 {
				joined = 1
			} else if before > 0 && after <= 0 {
				joined = -1
			}
			if joined != 0 {
				ad := areaOf(areaKey{k.product, k.month, k.area})
				if k.side == "buyer" {
					ad.buyers += joined
				} else {
					ad.sellers += joined
				}
			}
			return nil
		}); err != nil {
		return fmt.Errorf("trade: price comparison: %w", err)
	}
	akeys := make([]areaKey, 0, len(areas))
	for k, d := range areas {
		if *d != (areaDelta{}) {
			akeys = append(akeys, k)
		}
	}
	slices.SortFunc(akeys, func(x, y areaKey) int {
		return cmp.Or(cmp.Compare(x.product, y.product), cmp.Compare(x.month, y.month), cmp.Compare(x.area, y.area))
	})
	if err := store.UpsertAdding(ctx, q, "price_areas", priceAreaColumns, []string{"product_id", "month", "area"},
		[]string{"amount", "quantity", "purchases", "buyers", "sellers"}, len(akeys), func(i int, dst []any) {
			k := akeys[i]
			d := areas[k]
			dst[0], dst[1], dst[2], dst[3], dst[4], dst[5], dst[6], dst[7] = k.product, k.month, k.area, d.amount, d.quantity, d.purchases, d.buyers, d.sellers
		}); err != nil {
		return fmt.Errorf("trade: price comparison: %w", err)
	}
	return nil
}

// rebuildComparison recomputes the comparison's tables from the
// commitments in force, each pair in its shop's département now; part of
// RebuildPrices. Migration 19 (core/schema) holds its frozen copy.
func rebuildComparison(ctx context.Context, q store.Q) error {
	rows, err := q.QueryContext(ctx, `SELECT n.product_id, n.month, n.distributor_id, p.producer_id, p.quantity, p.price,
			u.address_line1, u.address_line2, u.address_line3
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN users u ON u.id = n.distributor_id
		WHERE p.status = 'accepted' AND p.quantity > 0`)
	if err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	defer rows.Close()
	pairs := map[pairKey]*pairDelta{}
	for rows.Next() {
		var (
			k               pairKey
			quantity, price int64
			l1, l2, l3      string
		)
		if err := rows.Scan(&k.product, &k.month, &k.shop, &k.producer, &quantity, &price, &l1, &l2, &l3); err != nil {
			return fmt.Errorf("trade: rebuild price comparison: %w", err)
		}
		p := pairs[k]
		if p == nil {
			p = &pairDelta{area: AreaOf(l1, l2, l3)}
			pairs[k] = p
		}
		p.amount, p.quantity, p.purchases = p.amount+quantity*price, p.quantity+quantity, p.purchases+1
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	areas := map[areaKey]*areaDelta{}
	members := map[memberKey]int64{}
	for k, p := range pairs {
		for _, a := range areasOf(p.area) {
			ak := areaKey{k.product, k.month, a}
			ad := areas[ak]
			if ad == nil {
				ad = &areaDelta{}
				areas[ak] = ad
			}
			ad.amount, ad.quantity, ad.purchases = ad.amount+p.amount, ad.quantity+p.quantity, ad.purchases+p.purchases
			for _, m := range []memberKey{{k.product, k.month, a, "buyer", k.shop}, {k.product, k.month, a, "seller", k.producer}} {
				if members[m] == 0 {
					if m.side == "buyer" {
						ad.buyers++
					} else {
						ad.sellers++
					}
				}
				members[m] += p.purchases
			}
		}
	}
	for _, t := range []string{"price_pairs", "price_members", "price_areas"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fmt.Errorf("trade: rebuild price comparison: %w", err)
		}
	}
	pks := slices.Collect(maps.Keys(pairs))
	if err := store.Insert(ctx, q, "price_pairs", []string{"product_id", "month", "shop_id", "producer_id", "area", "purchases"}, len(pks),
		func(i int, v []any) {
			k, p := pks[i], pairs[pks[i]]
			v[0], v[1], v[2], v[3], v[4], v[5] = k.product, k.month, k.shop, k.producer, p.area, p.purchases
		}); err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	mks := slices.Collect(maps.Keys(members))
	if err := store.Insert(ctx, q, "price_members", []string{"product_id", "month", "area", "side", "member_id", "purchases"}, len(mks),
		func(i int, v []any) {
			k := mks[i]
			v[0], v[1], v[2], v[3], v[4], v[5] = k.product, k.month, k.area, k.side, k.member, members[k]
		}); err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	aks := slices.Collect(maps.Keys(areas))
	if err := store.Insert(ctx, q, "price_areas", []string{"product_id", "month", "area", "amount", "quantity", "purchases", "buyers", "sellers"}, len(aks),
		func(i int, v []any) {
			k, a := aks[i], areas[aks[i]]
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] = k.product, k.month, k.area, a.amount, a.quantity, a.purchases, a.buyers, a.sellers
		}); err != nil {
		return fmt.Errorf("trade: rebuild price comparison: %w", err)
	}
	return nil
}
