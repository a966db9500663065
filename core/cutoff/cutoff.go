// Package cutoff makes the reminders of the 25th (PRODUCT §17 "cutoff"):
// shops tell producers what they need; at the end of the month, a producer
// with delivery days is told which of next month's needs are still open
// for the products it sells, so that it proposes before the month starts.
package cutoff

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/notify"
	"primeur/core/planning"
	"primeur/core/store"
)

// Day is the day of the month from which the notices of next month are
// made (the job runs daily; each producer gets one notice per month).
const Day = 25

// Need is an open need a notice lists.
type Need struct {
	ShopID      string      `json:"shop" db:"distributor_id"`
	ShopName    string      `json:"shopName" db:"shop_name"`
	Product     string      `json:"product" db:"product_id"`
	ProductName string      `json:"productName" db:"product_name"`
	Unit        string      `json:"unit" db:"unit"`
	Available   decimal.Dec `json:"available" db:"available"`
}

// Notice is one producer's reminder of a month's open needs.
type Notice struct {
	ID         string
	ProducerID string
	Month      string
	Needs      []Need
	CreatedAt  int64
}

// Create makes, from the Day-th of today's month, the notices of next
// month: for each producer with delivery days and an owner or a sales member with a
// confirmed login (notify.ReachableSQL: whoever founded it), not closed, that did not
// turn the reminder off and has none yet for that month, the shops' needs
// of next month with quantity left to propose on, of the products it
// committed in the last 12 months, on which it has made no proposal. A
// producer without such a need gets no notice. The unique (producer,
// month) key makes a notice once, whatever the replicas.
func Create(ctx context.Context, db *store.DB, now time.Time, today string) ([]Notice, error) {
	day, ok := calendar.ParseDate(today)
	if !ok {
		return nil, fmt.Errorf("cutoff: today %q", today)
	}
	if day.String()[8:] < fmt.Sprintf("%02d", Day) {
		return nil, nil
	}
	month := day.Month()
	next, since := month.AddMonths(1).String(), month.AddMonths(-12).String()
	var producers []string
	if err := store.Select(ctx, db, &producers, `SELECT u.id FROM users u
		WHERE u.type = 'producer' AND u.closed_at IS NULL AND u.cutoff_optout = FALSE AND `+notify.ReachableSQL("u.id", notify.CutoffRoles)+` AND u.delivery_days <> '0000000'
			AND NOT EXISTS (SELECT 1 FROM cutoff_notices c WHERE c.producer_id = u.id AND c.month = ?)
		ORDER BY u.id`, next); err != nil {
		return nil, fmt.Errorf("cutoff: producers: %w", err)
	}
	var out []Notice
	for _, p := range producers {
		var needs []Need
		if err := store.Select(ctx, db, &needs, `SELECT n.distributor_id, s.name AS shop_name, n.product_id, c.name AS product_name, c.unit,
				n.quantity - COALESCE((SELECT SUM(o.quantity) FROM proposals o WHERE o.need_id = n.id AND o.status IN (?, ?)), 0) AS available
			FROM needs n JOIN users s ON s.id = n.distributor_id JOIN products c ON c.id = n.product_id
			WHERE n.month = ? AND s.closed_at IS NULL
				AND n.product_id IN (SELECT m.product_id FROM proposals q JOIN needs m ON m.id = q.need_id
					WHERE q.producer_id = ? AND q.status = ? AND q.quantity > 0 AND m.month >= ?)
				AND NOT EXISTS (SELECT 1 FROM proposals r WHERE r.need_id = n.id AND r.producer_id = ?)
			ORDER BY s.name, s.id, c.name`,
			planning.StatusAccepted, planning.StatusProposed, next, p, planning.StatusAccepted, since, p); err != nil {
			return out, fmt.Errorf("cutoff: needs of %s: %w", p, err)
		}
		open := needs[:0]
		for _, n := range needs {
			if n.Available > 0 {
				open = append(open, n)
			}
		}
		if len(open) == 0 {
			continue
		}
		data, err := json.Marshal(open)
		if err != nil {
			return out, fmt.Errorf("cutoff: %w", err)
		}
		n := Notice{ID: core.NewID(), ProducerID: p, Month: next, Needs: open, CreatedAt: now.UnixMilli()}
		_, err = store.Exec(ctx, db, `INSERT INTO cutoff_notices (id, producer_id, month, needs, created_at) VALUES (?, ?, ?, ?, ?)`,
			n.ID, n.ProducerID, n.Month, string(data), n.CreatedAt)
		switch {
		case store.IsUniqueViolation(err):
			continue // another process made it meanwhile
		case err != nil:
			return out, fmt.Errorf("cutoff: insert: %w", err)
		}
		out = append(out, n)
	}
	return out, nil
}

// Get reads a notice.
func Get(ctx context.Context, q store.Q, id string) (Notice, error) {
	var r struct {
		ID         string `db:"id"`
		ProducerID string `db:"producer_id"`
		Month      string `db:"month"`
		Needs      string `db:"needs"`
		CreatedAt  int64  `db:"created_at"`
	}
	if err := store.Get(ctx, q, &r, `SELECT id, producer_id, month, needs, created_at FROM cutoff_notices WHERE id = ?`, id); err != nil {
		return Notice{}, fmt.Errorf("cutoff: notice %s: %w", id, err)
	}
	n := Notice{ID: r.ID, ProducerID: r.ProducerID, Month: r.Month, CreatedAt: r.CreatedAt}
	if err := json.Unmarshal([]byte(r.Needs), &n.Needs); err != nil {
		return Notice{}, fmt.Errorf("cutoff: notice %s: %w", id, err)
	}
	return n, nil
}
