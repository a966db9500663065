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
	"primeur/core/supply"
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

// ranges are what each demo producer grows, in the order of producers: its
// crops, then the rest of its range. Clementines and figs grow nowhere
// around Annecy: the shops' needs of them find no producer.
var ranges = [][]string{
	{"tomate", "carotte", "courgette", "laitue", "poireau", "concombre", "poivron", "aubergine", "haricot-vert",
		"brocoli", "fenouil", "blette", "persil", "basilic"},
	{"pomme", "poire", "kiwi", "coing", "noix", "peche", "nectarine", "abricot", "cerise", "prune", "mirabelle",
		"framboise", "myrtille", "groseille", "raisin", "chataigne", "rhubarbe"},
	{"pomme-de-terre", "poireau", "oignon", "chou-fleur", "navet", "endive", "chou-vert", "chou-rouge",
		"chou-de-bruxelles", "chou-kale", "celeri-rave", "panais", "topinambour", "potiron", "butternut", "ail",
		"echalote", "champignon"},
	{"betterave", "radis", "mache", "epinard", "fraise", "melon", "pasteque", "artichaut", "asperge", "petit-pois"},
}

// The supply story of the recent months (see supplyAll and markDone): the
// shops top up every delivery by topUp percent the morning it comes, to keep
// a few days of stock; Jardins d'Alby could commit only half of the shops'
// lamb's lettuce (partialCrop); frost cut Ferme des Glières's lettuces
// (shortCrop) to shortPercent of what was planned over the last week.
const (
	topUp        = 30
	shortPercent = 40
	partialCrop  = "mache"
	shortCrop    = "laitue"
)

// seedTrade gives the shops and producers a history and open
// negotiations, through the same trade operations the API runs, each at the
// time it happened: commitments every month from the first demo month, with
// their orders and deliveries (done up to today, planned after), and for
// next month proposals in every state — proposed by a producer, countered
// by a shop, rejected, accepted, a pending correction and a refused one.
// The first months the shops try the platform on a few crops; since last
// month they buy nearly their whole need on it (supplyAll).
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
			if m >= current.AddMonths(-1) {
				// Agreed before the month, so that deliveries start on its first days.
				if err := s.supplyAll(shop, m.String(), s.before(start.AddDate(0, 0, -10).Add(8*time.Hour)), nil); err != nil {
					return err
				}
				continue
			}
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
	// Next month's other needs, agreed ten days before it once that day
	// has come, as the months before.
	if at := current.AddMonths(1).Start(w.Now.Location()).AddDate(0, 0, -10).Add(8 * time.Hour); !at.After(w.Now) {
		negotiated := []string{crops[0][0], crops[0][1], crops[1][2], crops[2][2], crops[3][2]}
		for _, shop := range w.Shops {
			if err := s.supplyAll(shop, next, at, negotiated); err != nil {
				return err
			}
		}
	}
	return nil
}

// supplyAll commits, for the month, the shop's whole need of every product
// a demo producer grows but the crops in except, each from the first
// producer growing it (half for partialCrop).
func (s *trader) supplyAll(shop accounts.User, month string, at time.Time, except []string) error {
	taken := map[string]bool{}
	for _, crop := range except {
		taken[crop] = true
	}
	for j, farm := range s.w.Producers {
		for _, crop := range ranges[j%len(ranges)] {
			if taken[crop] {
				continue
			}
			taken[crop] = true
			share := 1.0
			if crop == partialCrop {
				share = 0.5
			}
			if err := s.deal(shop, farm, crop, month, share, at); err != nil {
				return err
			}
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

// quantity is share of a need, rounded down for the unit, at least one
// unit; the whole need for a share of 1.
func (s *trader) quantity(crop string, need decimal.Dec, share float64) float64 {
	if share >= 1 {
		return need.Float()
	}
	q := need.Float() * share
	if catalog.Whole(s.products[crop].Unit) || q >= 10 {
		q = float64(int(q))
	} else {
		q = float64(int(q*10)) / 10
	}
	return min(max(q, 1), need.Float())
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
// job would have, after the shop noted on the morning of each delivery what
// came (the sent quantities, as a shop does before the lock): since last
// month, topUp percent more than planned, but for shortCrop over the last 7
// days, shortPercent of it (sentOf); before, one delivery in seven came a
// little short (5 % less, in whole units).
func (s *trader) markDone() error {
	rules := delivery.DefaultRules()
	rules.Location = s.w.Now.Location()
	today := calendar.DateOf(s.w.Now.In(rules.Location))
	recent := calendar.MonthOf(s.w.Now).AddMonths(-1).First().String()
	var lines []struct {
		ID       string      `db:"id"`
		OrderID  string      `db:"order_id"`
		Date     string      `db:"date"`
		Chrono   int64       `db:"chrono"`
		ShopID   string      `db:"distributor_id"`
		LineID   string      `db:"line_id"`
		Product  string      `db:"product_id"`
		Unit     string      `db:"unit"`
		Expected decimal.Dec `db:"quantity_expected"`
	}
	if err := store.Select(s.ctx, s.tx, &lines, `SELECT d.id, d.order_id, d.date, d.chrono, o.distributor_id,
			l.id AS line_id, l.product_id, p.unit, l.quantity_expected
		FROM deliveries d JOIN orders o ON o.id = d.order_id JOIN delivery_lines l ON l.delivery_id = d.id
		JOIN products p ON p.id = l.product_id
		WHERE d.status = ? AND d.date <= ?
		ORDER BY d.id, l.id`, orders.Planned, rules.LockedThrough(s.w.Now)); err != nil {
		return fmt.Errorf("demo: deliveries to note: %w", err)
	}
	lastWeek := today.AddDays(-supply.RiskLookBack).String()
	for i := 0; i < len(lines); {
		d := lines[i]
		var c delivery.Change
		for ; i < len(lines) && lines[i].ID == d.ID; i++ {
			l := lines[i]
			var sent decimal.Dec
			switch {
			case d.Date >= recent && l.Product == shortCrop && d.Date >= lastWeek:
				sent = sentOf(l.Expected, l.Unit, shortPercent, false)
			case d.Date >= recent:
				sent = sentOf(l.Expected, l.Unit, 100+topUp, true)
				if catalog.Whole(l.Unit) {
					// One piece more: a month of pieces is split in whole
					// pieces, the remainder on its last delivery.
					sent += decimal.Hundred
				}
			case d.Chrono%7 == 3 && l.Expected >= 2000:
				sent = l.Expected - l.Expected/2000*100
			default:
				continue
			}
			f := sent.Float()
			c.Lines = append(c.Lines, delivery.LineSent{ID: l.LineID, QuantitySent: &f})
		}
		if len(c.Lines) == 0 {
			continue
		}
		morning := rules.LockTime(d.Date).Add(-5 * time.Hour)
		if _, err := rules.Update(s.ctx, s.tx, d.ShopID, d.OrderID, d.ID, c, morning); err != nil {
			return fmt.Errorf("demo: delivery %s noted: %w", d.ID, err)
		}
	}
	if _, err := rules.LockDueIn(s.ctx, s.tx, s.w.Now); err != nil {
		return fmt.Errorf("demo: deliver: %w", err)
	}
	return nil
}

// sentOf is percent of an expected quantity, in hundredths of a kilogram or
// whole pieces, rounded up or down; at least one unit when something was
// expected.
func sentOf(expected decimal.Dec, unit string, percent int64, up bool) decimal.Dec {
	step := decimal.Dec(1)
	if catalog.Whole(unit) {
		step = decimal.Hundred
	}
	n := int64(expected / step * decimal.Dec(percent))
	q := n / 100
	if up && n%100 != 0 {
		q++
	}
	if q == 0 && expected > 0 {
		q = 1
	}
	return decimal.Dec(q) * step
}
