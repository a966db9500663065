package supply

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/store"
)

// French messages for a window a user asked for.
const (
	MsgBadStart = "Veuillez saisir une date de début valide (AAAA-MM-JJ)."
	MsgBadDays  = "Le nombre de jours doit être un entier compris entre 1 et 31."
)

// ParseWindow reads the window of a request: start is "YYYY-MM-DD", the
// Monday of today's week when empty (PRODUCT §2: the window starts at the
// beginning of the current week); days is a whole number from 1 to
// MaxDays, DefaultDays when empty.
func ParseWindow(start, days string, today calendar.Date) (Window, error) {
	w := Window{Start: today.Monday(), Days: DefaultDays}
	var errs core.ValidationError
	if s := strings.TrimSpace(start); s != "" {
		d, ok := calendar.ParseDate(s)
		if !ok {
			errs.Add("start", MsgBadStart)
		}
		w.Start = d
	}
	if s := strings.TrimSpace(days); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxDays {
			errs.Add("days", MsgBadDays)
		}
		w.Days = n
	}
	if err := errs.Err(); err != nil {
		return Window{}, err
	}
	return w, nil
}

type needRow struct {
	ProductID string      `db:"product_id"`
	Name      string      `db:"name"`
	Unit      string      `db:"unit"`
	Month     string      `db:"month"`
	Quantity  decimal.Dec `db:"quantity"`
}

type lineRow struct {
	ProductID    string       `db:"product_id"`
	Name         string       `db:"name"`
	Unit         string       `db:"unit"`
	ProducerID   string       `db:"producer_id"`
	ProducerName string       `db:"producer_name"`
	Date         string       `db:"date"`
	Status       string       `db:"status"`
	Expected     decimal.Dec  `db:"quantity_expected"`
	Sent         *decimal.Dec `db:"quantity_sent"`
}

// Load reads what the projection of a shop's window needs and computes it,
// in two queries whatever the number of products and days: the needs of
// the months the simulation touches, and the shop's non-cancelled delivery
// lines from the look-back to the day after the window and over the 7 days
// before today. The caller has checked that shopID is a shop the user may
// see.
func Load(ctx context.Context, q store.Q, shopID string, w Window, today calendar.Date) (Projection, error) {
	if err := w.valid(); err != nil {
		return Projection{}, err
	}
	first, after := w.Start.AddDays(-LookBack), w.End().AddDays(1)
	var needs []needRow
	if err := store.Select(ctx, q, &needs, `SELECT n.product_id, p.name, p.unit, n.month, n.quantity
		FROM needs n JOIN products p ON p.id = n.product_id
		WHERE n.distributor_id = ? AND n.month >= ? AND n.month <= ?`,
		shopID, first.Month(), after.Month()); err != nil {
		return Projection{}, fmt.Errorf("supply: needs of %s: %w", shopID, err)
	}
	var lines []lineRow
	if err := store.Select(ctx, q, &lines, `SELECT l.product_id, p.name, p.unit, d.producer_id, u.name AS producer_name,
			d.date, d.status, l.quantity_expected, l.quantity_sent
		FROM orders o
		JOIN deliveries d ON d.order_id = o.id
		JOIN delivery_lines l ON l.delivery_id = d.id
		JOIN products p ON p.id = l.product_id
		JOIN users u ON u.id = d.producer_id
		WHERE o.distributor_id = ? AND d.status <> ?
			AND ((d.date >= ? AND d.date <= ?) OR (d.date >= ? AND d.date <= ?))`,
		shopID, Cancelled, first.String(), after.String(),
		today.AddDays(-RiskLookBack).String(), today.AddDays(-1).String()); err != nil {
		return Projection{}, fmt.Errorf("supply: deliveries of %s: %w", shopID, err)
	}

	in := Input{Window: w, Today: today, Needs: make([]Need, len(needs)), Deliveries: make([]Delivery, 0, len(lines))}
	products := map[string]Product{}
	for i, n := range needs {
		in.Needs[i] = Need{ProductID: n.ProductID, Month: n.Month, Quantity: n.Quantity}
		products[n.ProductID] = Product{ID: n.ProductID, Name: n.Name, Unit: n.Unit}
	}
	producers := map[string]string{}
	for _, l := range lines {
		day, ok := calendar.ParseDate(l.Date)
		if !ok {
			return Projection{}, fmt.Errorf("supply: delivery date %q", l.Date)
		}
		in.Deliveries = append(in.Deliveries, Delivery{
			ProductID: l.ProductID, ProducerID: l.ProducerID, Date: day, Status: l.Status,
			Expected: l.Expected, Sent: l.Sent,
		})
		products[l.ProductID] = Product{ID: l.ProductID, Name: l.Name, Unit: l.Unit}
		producers[l.ProducerID] = l.ProducerName
	}
	for _, p := range products {
		in.Products = append(in.Products, p)
	}
	out, err := Project(in)
	if err != nil {
		return Projection{}, err
	}
	out.Producers = producersOf(out, producers)
	return out, nil
}

// producersOf names the producers appearing in the projection's cells, by
// name.
func producersOf(p Projection, names map[string]string) []Producer {
	seen := map[string]bool{}
	out := []Producer{}
	for _, row := range p.Products {
		for _, d := range row.Days {
			for _, list := range [][]Incoming{d.Deliveries, d.NextDeliveries} {
				for _, in := range list {
					if !seen[in.Producer] {
						seen[in.Producer] = true
						out = append(out, Producer{ID: in.Producer, Name: names[in.Producer]})
					}
				}
			}
		}
	}
	sortProducers(out)
	return out
}

func sortProducers(ps []Producer) {
	sort.Slice(ps, func(i, j int) bool {
		a, b := catalog.NameKey(ps[i].Name), catalog.NameKey(ps[j].Name)
		if a != b {
			return a < b
		}
		return ps[i].ID < ps[j].ID
	})
}
