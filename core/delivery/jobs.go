package delivery

import (
	"primeur/core/notify"

	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/activity"
	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/orders"
	"primeur/core/store"
)

// chunk bounds the ids bound to one IN (…) clause.
const chunk = 500

// LockDue locks every planned delivery whose lock time has passed at now:
// it becomes done, and lines without a sent quantity take the expected one.
// It returns the ids locked.
//
// Safe on several processes at once: the deliveries are selected FOR
// UPDATE in id order (PostgreSQL; SQLite transactions are serialised), so
// a concurrent run waits, then finds them no longer planned and skips
// them. Rows are always locked delivery first, then lines, the order the
// API's operations use, so the two never deadlock.
func (r Rules) LockDue(ctx context.Context, db *store.DB, now time.Time) ([]string, error) {
	var ids []string
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if ids, err = r.LockDueIn(ctx, tx, now); err != nil {
			return err
		}
		return notesAvailable(ctx, tx, ids, now)
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// LockDueIn is LockDue in the caller's transaction, for a writer of a
// whole world in one (core/demo).
func (r Rules) LockDueIn(ctx context.Context, q store.Q, now time.Time) ([]string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM deliveries WHERE status = ? AND date <= ?
		ORDER BY id`+store.ForUpdate(q), orders.Planned, r.LockedThrough(now)); err != nil {
		return nil, fmt.Errorf("delivery: due deliveries: %w", err)
	}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		if err := lockMany(ctx, q, part, now); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// notesAvailable tells each shop of deliveries just locked that their
// note is available (core/notify).
func notesAvailable(ctx context.Context, q store.Q, ids []string, now time.Time) error {
	for start := 0; start < len(ids); start += chunk {
		var rows []struct {
			ShopID   string `db:"distributor_id"`
			Producer string `db:"name"`
			Date     string `db:"date"`
		}
		if err := store.SelectIn(ctx, q, &rows, `SELECT o.distributor_id, u.name, d.date FROM deliveries d
			JOIN orders o ON o.id = d.order_id JOIN users u ON u.id = o.producer_id
			WHERE d.id IN (?) ORDER BY d.date, d.id`, ids[start:min(start+chunk, len(ids))]); err != nil {
			return fmt.Errorf("delivery: notes available: %w", err)
		}
		for _, r := range rows {
			if err := notify.NoteAvailable(ctx, q, r.ShopID, r.Producer, r.Date, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// lockOne locks one planned delivery whose row the caller holds.
func lockOne(ctx context.Context, q store.Q, id string, now time.Time) error {
	return lockMany(ctx, q, []string{id}, now)
}

func lockMany(ctx context.Context, q store.Q, ids []string, now time.Time) error {
	query, args, err := store.In(q, `UPDATE deliveries SET status = ?, updated_at = ? WHERE status = ? AND id IN (?)`,
		orders.Done, now.UnixMilli(), orders.Planned, ids)
	if err != nil {
		return fmt.Errorf("delivery: lock: %w", err)
	}
	if _, err := q.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("delivery: lock: %w", err)
	}
	query, args, err = store.In(q, `UPDATE delivery_lines SET quantity_sent = quantity_expected
		WHERE quantity_sent IS NULL AND delivery_id IN (?)`, ids)
	if err != nil {
		return fmt.Errorf("delivery: lock lines: %w", err)
	}
	if _, err := q.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("delivery: lock lines: %w", err)
	}
	return fixFees(ctx, q, ids)
}

// fixFees fixes the fee of each delivery of ids just locked (PRODUCT §16
// "Minimum order and delivery fees"): the fee of its (producer, shop)
// pair's terms as they stand now (fees.For), on the amount HT of its goods
// as sent, each line rounded as the invoice rounds it (fees.LineAmount).
// The invoice bills it, so a change of terms later in the month applies
// to the deliveries locked after it only. Terms are read once per pair.
func fixFees(ctx context.Context, q store.Q, ids []string) error {
	var rows []struct {
		ID            string      `db:"id"`
		ProducerID    string      `db:"producer_id"`
		DistributorID string      `db:"distributor_id"`
		Quantity      decimal.Dec `db:"quantity_sent"`
		Price         decimal.Dec `db:"price"`
	}
	if err := store.SelectIn(ctx, q, &rows, `SELECT d.id, o.producer_id, o.distributor_id,
			COALESCE(l.quantity_sent, 0) AS quantity_sent, COALESCE(l.price, 0) AS price
		FROM deliveries d JOIN orders o ON o.id = d.order_id LEFT JOIN delivery_lines l ON l.delivery_id = d.id
		WHERE d.status = 'done' AND d.fee IS NULL AND d.id IN (?) ORDER BY d.id`, ids); err != nil {
		return fmt.Errorf("delivery: goods of locked deliveries: %w", err)
	}
	type pair struct{ producer, shop string }
	terms := map[pair]fees.Applied{}
	goods := map[string]decimal.Dec{}
	of := map[string]pair{}
	var order []string
	for _, r := range rows {
		if _, ok := of[r.ID]; !ok {
			order = append(order, r.ID)
			of[r.ID] = pair{r.ProducerID, r.DistributorID}
		}
		goods[r.ID] += fees.LineAmount(r.Quantity, r.Price)
	}
	for _, id := range order {
		p := of[id]
		a, ok := terms[p]
		if !ok {
			var err error
			if a, err = fees.For(ctx, q, p.producer, p.shop); err != nil {
				return fmt.Errorf("delivery: fee of %s: %w", id, err)
			}
			terms[p] = a
		}
		if _, err := store.Exec(ctx, q, `UPDATE deliveries SET fee = ? WHERE id = ?`, a.FeeFor(goods[id]), id); err != nil {
			return fmt.Errorf("delivery: fee of %s: %w", id, err)
		}
	}
	return nil
}

// NotesDue lists the done deliveries whose note is due for email at now
// (NoteDelay after their lock), not yet sent, and that can go now: the
// producer or the shop of the order has a member the note concerns (an
// owner, a receiver, a delivery) with a confirmed login, whoever founded
// it (PRODUCT §13 "Confirming an email"; notify.ReachableSQL). A note whose parties have
// none waits, unlisted, and is listed by the first call after one
// confirms. Oldest first.
func (r Rules) NotesDue(ctx context.Context, q store.Q, now time.Time) ([]string, error) {
	var ids []string
	// The statuses are written out, not bound: the planner then knows the
	// partial index deliveries_notes_due (00042: the done deliveries) holds
	// every row asked for. A note is sent once its row of sends (core/jobs)
	// says so; one left for an administrator is listed, and its claim
	// skips it.
	if err := store.Select(ctx, q, &ids, `SELECT d.id FROM deliveries d
		JOIN orders o ON o.id = d.order_id
		WHERE d.status = 'done' AND d.date <= ?
		AND NOT EXISTS (SELECT 1 FROM sends n WHERE n.message_key = 'note-' || d.id AND n.sent_at IS NOT NULL)
		AND (`+notify.ReachableSQL("o.producer_id", notify.NoteRoles)+` OR `+notify.ReachableSQL("o.distributor_id", notify.NoteRoles)+`)
		ORDER BY d.date, d.id`,
		r.LockedThrough(now.Add(-NoteDelay))); err != nil {
		return nil, fmt.Errorf("delivery: notes due: %w", err)
	}
	return ids, nil
}

// Autovalidate accepts every claim sent at least AutovalidateAfter before
// now, still unreviewed, made in the sole interest of the party that did
// not answer (AcceptedBySilence: a producer's claim with some line claimed
// down and none up, a shop's with some up and none down), recording a
// claim:autovalidate event for each. It returns how many it accepted. Concurrent runs accept each claim
// once. It is the system's only way to accept a claim (the claims job and
// the invoice run call it): a claim younger than the delay is never
// accepted by the system, whatever the time of month, and a claim with a
// line claimed up never is — it waits for the shop's answer.
func (r Rules) Autovalidate(ctx context.Context, db *store.DB, now time.Time) (int, error) {
	var n int
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = autovalidate(ctx, tx, `claim_sent_at <= ? AND `+silenceAccepts, now, now.Add(-r.AutovalidateAfter).UnixMilli())
		return err
	})
	return n, err
}

// silenceAccepts is AcceptedBySilence in SQL, on a sent claim of the
// deliveries row: no line claimed up for the producer's, no line claimed
// down for the shop's. A sent claim always has a line claimed (SendClaim
// and Receive write none without), so with none the other way some line
// is claimed the right way.
const silenceAccepts = `((deliveries.claim_by = 'producer' AND NOT EXISTS (SELECT 1 FROM delivery_lines l
	WHERE l.delivery_id = deliveries.id AND l.quantity_claimed > 0))
	OR (deliveries.claim_by = 'shop' AND NOT EXISTS (SELECT 1 FROM delivery_lines l
	WHERE l.delivery_id = deliveries.id AND l.quantity_claimed < 0)))`

// autovalidate accepts the sent claims of the deliveries matching cond.
// The rows are selected FOR UPDATE in id order and re-checked by the
// database after any wait, so a claim reviewed or accepted meanwhile is
// skipped and counted once.
func autovalidate(ctx context.Context, q store.Q, cond string, now time.Time, args ...any) (int, error) {
	var ids []string
	// 'sent' written out: see NotesDue (partial index deliveries_claims_sent).
	if err := store.Select(ctx, q, &ids, `SELECT id FROM deliveries WHERE claim_status = 'sent' AND `+cond+`
		ORDER BY id`+store.ForUpdate(q), args...); err != nil {
		return 0, fmt.Errorf("delivery: pending claims: %w", err)
	}
	ms := now.UnixMilli()
	yes := true
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		query, qargs, err := store.In(q, `UPDATE deliveries SET claim_status = ?, claim_reviewed_at = ?, updated_at = ?
			WHERE id IN (?)`, orders.ClaimAccepted, ms, ms, part)
		if err != nil {
			return 0, fmt.Errorf("delivery: autovalidate: %w", err)
		}
		if _, err := q.ExecContext(ctx, query, qargs...); err != nil {
			return 0, fmt.Errorf("delivery: autovalidate: %w", err)
		}
		var rows []struct {
			Date          string `db:"date"`
			ClaimBy       string `db:"claim_by"`
			ProducerID    string `db:"producer_id"`
			DistributorID string `db:"distributor_id"`
		}
		if err := store.SelectIn(ctx, q, &rows, `SELECT d.date, d.claim_by, o.producer_id, o.distributor_id
			FROM deliveries d JOIN orders o ON o.id = d.order_id WHERE d.id IN (?) ORDER BY d.id`, part); err != nil {
			return 0, fmt.Errorf("delivery: autovalidated claims: %w", err)
		}
		// The claim's author is the origin; the other party, which did not
		// answer in time, is the target.
		for _, row := range rows {
			author, other := row.ProducerID, row.DistributorID
			if row.ClaimBy == orders.ByShop {
				author, other = other, author
			}
			if err := activity.Record(ctx, q, activity.Event{
				CreatedAt: now, Type: activity.ClaimAutovalidate,
				Data:     activity.Data{Date: row.Date, Outcome: &yes},
				OriginID: author, TargetID: other,
			}); err != nil {
				return 0, err
			}
		}
	}
	return len(ids), nil
}
