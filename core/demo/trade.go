package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/trade"
)

// crops are what each demo producer sells, in the order of producers: the
// first two go into monthly commitments, the others into open negotiations.
var crops = [][]string{
	{"tomate", "carotte", "courgette", "laitue", "poireau"},
	{"pomme", "poire", "kiwi", "coing", "noix"},
	{"pomme-de-terre", "poireau", "oignon", "chou-fleur", "navet"},
	{"betterave", "radis", "mache", "epinard", "fraise"},
}

// seedTrade gives the shops and producers a history and open
// negotiations, through the same trade operations the API runs, each at the
// time it happened: commitments every month from the first demo month, with
// their orders and deliveries (done up to today, planned after), and for
// next month proposals in every state — proposed by a producer, countered
// by a shop, rejected, accepted, a pending correction and a refused one.
func seedTrade(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	all, err := catalog.All(ctx, tx)
	if err != nil {
		return err
	}
	products := make(map[string]catalog.Product, len(all))
	for _, p := range all {
		products[p.ID] = p
	}
	s := &trader{ctx: ctx, tx: tx, w: w, products: products}
	current := calendar.MonthOf(w.Now)
	first := current.AddMonths(-3)
	// Monthly commitments, from the first demo month to the current one:
	// each producer supplies its first two crops to two shops, agreed on the
	// first morning of the month.
	for m := first; m <= current; m++ {
		start := m.Start(w.Now.Location())
		at := s.before(start.Add(8 * time.Hour))
		for i, shop := range w.Shops {
			// Each shop buys from two producers, each producer sells to two shops.
			for _, j := range []int{i % len(w.Producers), (i + 1) % len(w.Producers)} {
				farm := w.Producers[j]
				for k, crop := range crops[j%len(crops)][:2] {
					share := 0.25 + 0.05*float64((i+j+k)%3)
					if err := s.deal(shop, farm, crop, m.String(), share, at); err != nil {
						return err
					}
				}
			}
		}
	}
	if err := s.markDone(); err != nil {
		return err
	}

	// Next month: every state of a negotiation, seen from the main shops.
	next := current.AddMonths(1).String()
	for i, shop := range w.Shops[:min(2, len(w.Shops))] {
		p := w.Producers
		ago := func(h int) time.Time { return w.Now.Add(-time.Duration(h+i) * time.Hour) }
		// Commitments with a correction pending (asked by the producer)…
		if err := s.deal(shop, p[0], crops[0][0], next, 0.3, ago(72)); err != nil {
			return err
		}
		if err := s.offer(p[0], shop, p[0], crops[0][0], next, 0.36, ago(20)); err != nil {
			return err
		}
		// …and with the shop's correction refused by the producer.
		if err := s.deal(shop, p[0], crops[0][1], next, 0.3, ago(70)); err != nil {
			return err
		}
		if err := s.offer(shop, shop, p[0], crops[0][1], next, 0.2, ago(30)); err != nil {
			return err
		}
		if err := s.answer(p[0], shop, p[0], crops[0][1], next, false, ago(26)); err != nil {
			return err
		}
		// A producer's proposal waiting for the shop.
		if err := s.offer(p[1], shop, p[1], crops[1][2], next, 0.3, ago(5)); err != nil {
			return err
		}
		// A proposal countered by the shop, waiting for the producer.
		if err := s.offer(p[2], shop, p[2], crops[2][2], next, 0.4, ago(50)); err != nil {
			return err
		}
		if err := s.offer(shop, shop, p[2], crops[2][2], next, 0.3, ago(10)); err != nil {
			return err
		}
		// A proposal the shop refused.
		if err := s.offer(p[3], shop, p[3], crops[3][2], next, 0.3, ago(40)); err != nil {
			return err
		}
		if err := s.answer(shop, shop, p[3], crops[3][2], next, false, ago(35)); err != nil {
			return err
		}
		// A commitment two months ahead.
		if err := s.deal(shop, p[2], crops[2][3], current.AddMonths(2).String(), 0.3, ago(60)); err != nil {
			return err
		}
	}
	return nil
}

// trader runs trade operations for the demo.
type trader struct {
	ctx      context.Context
	tx       *sqlx.Tx
	w        *World
	products map[string]catalog.Product
}

// before keeps a time from going past the demo's now.
func (s *trader) before(t time.Time) time.Time {
	if t.After(s.w.Now) {
		return s.w.Now
	}
	return t
}

// needOf finds the shop's need for a crop and month; ok is false when the
// shop has none (out of season).
func (s *trader) needOf(shop accounts.User, crop, month string) (id string, qty decimal.Dec, ok bool, err error) {
	var n struct {
		ID       string      `db:"id"`
		Quantity decimal.Dec `db:"quantity"`
	}
	err = store.Get(s.ctx, s.tx, &n, `SELECT id, quantity FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		shop.ID, crop, month)
	if store.IsNotFound(err) {
		return "", 0, false, nil
	}
	return n.ID, n.Quantity, err == nil, err
}

// quantity is share of a need, rounded down for the unit, at least one unit.
func (s *trader) quantity(crop string, need decimal.Dec, share float64) float64 {
	q := need.Float() * share
	if s.products[crop].Unit == catalog.Piece || q >= 10 {
		q = float64(int(q))
	} else {
		q = float64(int(q*10)) / 10
	}
	return max(q, 1)
}

// price is the crop's reference price, moved a little per shop and producer.
func (s *trader) price(crop string, shop, farm accounts.User) float64 {
	ref := s.products[crop].RefPrice.Float()
	shift := float64((len(shop.Name)+2*len(farm.Name))%11)/100 - 0.05
	return float64(int(ref*(1+shift)*100+0.5)) / 100
}

// offer makes a proposal (or correction) by actor on farm's negotiation.
func (s *trader) offer(actor, shop, farm accounts.User, crop, month string, share float64, at time.Time) error {
	id, need, ok, err := s.needOf(shop, crop, month)
	if err != nil || !ok {
		return err
	}
	if _, err := trade.Propose(s.ctx, s.tx, actor, id, farm.ID, trade.Offer{
		Quantity: s.quantity(crop, need, share), Price: s.price(crop, shop, farm),
	}, at); err != nil {
		return fmt.Errorf("demo: %s proposes %s for %s: %w", actor.Name, crop, month, err)
	}
	return nil
}

// answer reviews the open proposal of farm's negotiation.
func (s *trader) answer(actor, shop, farm accounts.User, crop, month string, accepted bool, at time.Time) error {
	id, _, ok, err := s.needOf(shop, crop, month)
	if err != nil || !ok {
		return err
	}
	if _, err := trade.Review(s.ctx, s.tx, actor, id, farm.ID, accepted, at); err != nil {
		return fmt.Errorf("demo: %s reviews %s for %s: %w", actor.Name, crop, month, err)
	}
	return nil
}

// deal is a producer's proposal accepted by the shop an hour later (or at
// the demo's now).
func (s *trader) deal(shop, farm accounts.User, crop, month string, share float64, at time.Time) error {
	if err := s.offer(farm, shop, farm, crop, month, share, at); err != nil {
		return err
	}
	return s.answer(shop, shop, farm, crop, month, true, s.before(at.Add(time.Hour)))
}

// markDone locks the deliveries whose lock has passed, as the deliveries
// job would have; one in seven came a little short (5 % less, in whole
// units), as the shop noted on the morning of the delivery.
func (s *trader) markDone() error {
	rules := delivery.DefaultRules()
	rules.Location = s.w.Now.Location()
	var short []struct {
		ID       string      `db:"id"`
		OrderID  string      `db:"order_id"`
		Date     string      `db:"date"`
		ShopID   string      `db:"distributor_id"`
		LineID   string      `db:"line_id"`
		Expected decimal.Dec `db:"quantity_expected"`
	}
	if err := store.Select(s.ctx, s.tx, &short, `SELECT d.id, d.order_id, d.date, o.distributor_id, l.id AS line_id, l.quantity_expected
		FROM deliveries d JOIN orders o ON o.id = d.order_id JOIN delivery_lines l ON l.delivery_id = d.id
		WHERE d.status = ? AND d.date <= ? AND d.chrono % 7 = 3 AND l.quantity_expected >= 2000
		ORDER BY d.id, l.id`, orders.Planned, rules.LockedThrough(s.w.Now)); err != nil {
		return fmt.Errorf("demo: short deliveries: %w", err)
	}
	for i := 0; i < len(short); {
		d := short[i]
		var c delivery.Change
		for ; i < len(short) && short[i].ID == d.ID; i++ {
			sent := (short[i].Expected - short[i].Expected/2000*100).Float()
			c.Lines = append(c.Lines, delivery.LineSent{ID: short[i].LineID, QuantitySent: &sent})
		}
		morning := rules.LockTime(d.Date).Add(-5 * time.Hour)
		if _, err := rules.Update(s.ctx, s.tx, d.ShopID, d.OrderID, d.ID, c, morning); err != nil {
			return fmt.Errorf("demo: short delivery %s: %w", d.ID, err)
		}
	}
	if _, err := rules.LockDueIn(s.ctx, s.tx, s.w.Now); err != nil {
		return fmt.Errorf("demo: deliver: %w", err)
	}
	return nil
}
