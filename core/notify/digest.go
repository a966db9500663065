package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// MaxLines bounds the lines of one digest; more wait for the next.
const MaxLines = 200

// MaxUsersPerRun bounds the users one Gather looks at; the next run takes
// the others.
const MaxUsersPerRun = 500

// The rule of what is due, written once in SQL for the choice of the
// recipients (Gather) and of their lines (gatherOne), so that a run takes
// only the recipients it has something to do for. A recipient is a person
// in an organisation (n.person_id, n.user_id: a membership). In these
// fragments n is a pending line of pendingLines, p the person's choice
// for its kind (none stored means Immediate), u the organisation (users),
// pe the person (people), m the membership (members, LEFT JOINed: gone
// when the person left).
const (
	// pendingLines are the lines with their kinds' choices.
	pendingLines = `notifications n LEFT JOIN member_prefs p ON p.person_id = n.person_id AND p.org_id = n.user_id AND p.kind = n.kind`
	// recipient joins the line's organisation, person and membership.
	recipient = ` JOIN users u ON u.id = n.user_id LEFT JOIN people pe ON pe.id = n.person_id
		LEFT JOIN members m ON m.person_id = n.person_id AND m.org_id = n.user_id`
	// gone: the organisation or the person closed, or the person no
	// longer a member: the lines are dropped.
	gone = `(u.closed_at IS NOT NULL OR pe.id IS NULL OR pe.closed_at IS NOT NULL OR m.person_id IS NULL)`
	// lineOff: a line of a kind turned off, to drop.
	lineOff = `p.mode = 'none'`
	// lineDue (one argument: the last DailyHour at or before now, in
	// milliseconds): a line of a kind gathered at most every hour, or of a
	// daily kind and older than that DailyHour.
	lineDue = `(COALESCE(p.mode, 'immediate') NOT IN ('none', 'daily') OR (p.mode = 'daily' AND n.created_at < ?))`
	// memberFree (one argument: now less Every, in milliseconds): the
	// membership's last digest, if any, is at least Every old.
	memberFree = `(m.digest_at IS NULL OR m.digest_at <= ?)`
	// personConfirmed: the person's login email is confirmed.
	personConfirmed = `pe.email_confirmed = pe.email_key`
)

// Gather makes the digests due at now (local time in loc) and returns
// their ids. A digest is one person's in one organisation: the lines
// Queue gave them. For each such recipient with pending lines, in a
// transaction of its own:
//
//   - lines of kinds the person turned off are dropped, and so are those
//     of a closed organisation or person, or of a person no longer a
//     member;
//   - the lines of Immediate kinds are due; those of Daily kinds are due
//     once the DailyHour that follows them has come (a line of 6h goes at
//     7h, one of 8h the next day at 7h);
//   - a person whose login email is not confirmed gets nothing yet: their
//     lines wait for the confirmation;
//   - the digest is made only if the recipient's last one is at least
//     Every old: one conditional update of the membership's row decides
//     it, so that of two replicas running at once one makes it, and the
//     other finds nothing due. The lines join the digest in the same
//     transaction.
//
// The recipients looked at, MaxUsersPerRun at most in the order of the
// organisation's then the person's id, are only those with something to
// do now, by the same rule (gone, lineOff, lineDue, memberFree,
// personConfirmed). Recipients whose lines wait — for the confirmation,
// the hour or the DailyHour — are left out until then, so that however
// many they are they never take the places of a run, leaving the others'
// due lines waiting.
func Gather(ctx context.Context, db *store.DB, now time.Time, loc *time.Location) ([]string, error) {
	// The last DailyHour at or before now: daily lines older are due.
	local := now.In(loc)
	daily := time.Date(local.Year(), local.Month(), local.Day(), DailyHour, 0, 0, 0, loc)
	if daily.After(now) {
		daily = daily.AddDate(0, 0, -1)
	}
	free := now.Add(-Every)
	var recipients []struct {
		PersonID string `db:"person_id"`
		OrgID    string `db:"user_id"`
	}
	if err := store.Select(ctx, db, &recipients, `SELECT DISTINCT n.user_id, COALESCE(n.person_id, '') AS person_id FROM `+pendingLines+recipient+`
		WHERE n.digest_id IS NULL AND (`+gone+` OR `+lineOff+`
			OR (`+personConfirmed+` AND `+memberFree+` AND `+lineDue+`))
		ORDER BY n.user_id, person_id LIMIT ?`, free.UnixMilli(), daily.UnixMilli(), MaxUsersPerRun); err != nil {
		return nil, fmt.Errorf("notify: pending: %w", err)
	}
	var made []string
	for _, r := range recipients {
		if err := ctx.Err(); err != nil {
			return made, err
		}
		id, err := gatherOne(ctx, db, r.PersonID, r.OrgID, now, free, daily)
		if err != nil {
			return made, err
		}
		if id != "" {
			made = append(made, id)
		}
	}
	return made, nil
}

func gatherOne(ctx context.Context, db *store.DB, personID, orgID string, now, free, daily time.Time) (string, error) {
	var made string
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var r struct {
			Confirmed bool `db:"confirmed"`
			Gone      bool `db:"gone"`
		}
		if err := store.Get(ctx, tx, &r, `SELECT COALESCE(`+personConfirmed+`, false) AS confirmed, `+gone+` AS gone
			FROM users u LEFT JOIN people pe ON pe.id = ? LEFT JOIN members m ON m.person_id = pe.id AND m.org_id = u.id
			WHERE u.id = ?`, personID, orgID); err != nil {
			return fmt.Errorf("notify: recipient %s in %s: %w", personID, orgID, err)
		}
		if r.Gone {
			_, err := store.Exec(ctx, tx, `DELETE FROM notifications WHERE user_id = ? AND COALESCE(person_id, '') = ? AND digest_id IS NULL`, orgID, personID)
			return err
		}
		if _, err := store.Exec(ctx, tx, `DELETE FROM notifications WHERE id IN (SELECT n.id FROM `+pendingLines+`
			WHERE n.user_id = ? AND n.person_id = ? AND n.digest_id IS NULL AND `+lineOff+`)`, orgID, personID); err != nil {
			return fmt.Errorf("notify: drop lines turned off: %w", err)
		}
		if !r.Confirmed {
			return nil
		}
		var due []struct {
			ID   string `db:"id"`
			Mode string `db:"mode"`
		}
		if err := store.Select(ctx, tx, &due, `SELECT n.id, COALESCE(p.mode, 'immediate') AS mode FROM `+pendingLines+`
			WHERE n.user_id = ? AND n.person_id = ? AND n.digest_id IS NULL AND `+lineDue+`
			ORDER BY n.created_at, n.id LIMIT ?`, orgID, personID, daily.UnixMilli(), MaxLines); err != nil {
			return fmt.Errorf("notify: due lines of %s in %s: %w", personID, orgID, err)
		}
		if len(due) == 0 {
			return nil
		}
		ids := make([]string, len(due))
		hasDaily := false
		for i, l := range due {
			ids[i] = l.ID
			hasDaily = hasDaily || l.Mode == Daily
		}
		n, err := store.Exec(ctx, tx, `UPDATE members SET digest_at = ? WHERE person_id = ? AND org_id = ? AND (digest_at IS NULL OR digest_at <= ?)`,
			now.UnixMilli(), personID, orgID, free.UnixMilli())
		if err != nil {
			return fmt.Errorf("notify: claim digest of %s in %s: %w", personID, orgID, err)
		}
		if n == 0 {
			return nil // a digest less than an hour old: the lines wait
		}
		id := core.NewID()
		if _, err := store.Exec(ctx, tx, `INSERT INTO digests (id, user_id, person_id, daily, created_at) VALUES (?, ?, ?, ?, ?)`,
			id, orgID, personID, hasDaily, now.UnixMilli()); err != nil {
			return fmt.Errorf("notify: digest: %w", err)
		}
		if n, err := store.ExecIn(ctx, tx, `UPDATE notifications SET digest_id = ? WHERE id IN (?) AND digest_id IS NULL`, id, ids); err != nil {
			return fmt.Errorf("notify: digest lines: %w", err)
		} else if n == 0 {
			return errTaken // another gathering took them: no empty digest
		}
		made = id
		return nil
	})
	if errors.Is(err, errTaken) {
		return "", nil
	}
	return made, err
}

// errTaken rolls back a digest whose lines another gathering took.
var errTaken = errors.New("notify: lines taken")

// Line is one line of a digest.
type Line struct {
	Kind string `db:"kind"`
	Line string `db:"line"`
	Link string `db:"link"`
}

// Digest is a digest to email: a person's (PersonID, Email), in an
// organisation (UserID).
type Digest struct {
	ID       string
	UserID   string
	PersonID string
	Email    string
	Daily    bool
	// Closed is set when the organisation or the person was closed, or
	// the person left the organisation, since: nothing to send.
	Closed bool
	// Lines, grouped by kind in Kinds' order, oldest first in a kind.
	Lines []Line
}

// Kinds returns the kinds of its lines, in order.
func (d Digest) Kinds() []string {
	var out []string
	for _, l := range d.Lines {
		if len(out) == 0 || out[len(out)-1] != l.Kind {
			out = append(out, l.Kind)
		}
	}
	return out
}

// Get reads a digest with its lines and its recipient's email.
func Get(ctx context.Context, q store.Q, id string) (Digest, error) {
	var row struct {
		UserID   string `db:"user_id"`
		PersonID string `db:"person_id"`
		Daily    bool   `db:"daily"`
		Email    string `db:"email"`
		Closed   bool   `db:"closed"`
	}
	if err := store.Get(ctx, q, &row, `SELECT d.user_id, COALESCE(d.person_id, d.user_id) AS person_id, d.daily, COALESCE(pe.email, '') AS email,
		(u.closed_at IS NOT NULL OR pe.id IS NULL OR pe.closed_at IS NOT NULL OR m.person_id IS NULL) AS closed
		FROM digests d JOIN users u ON u.id = d.user_id LEFT JOIN people pe ON pe.id = COALESCE(d.person_id, d.user_id)
		LEFT JOIN members m ON m.person_id = pe.id AND m.org_id = d.user_id
		WHERE d.id = ?`, id); err != nil {
		return Digest{}, fmt.Errorf("notify: digest %s: %w", id, err)
	}
	var lines []struct {
		Line
		CreatedAt int64  `db:"created_at"`
		ID        string `db:"id"`
	}
	if err := store.Select(ctx, q, &lines, `SELECT kind, line, link, created_at, id FROM notifications WHERE digest_id = ?
		ORDER BY created_at, id`, id); err != nil {
		return Digest{}, fmt.Errorf("notify: digest %s lines: %w", id, err)
	}
	d := Digest{ID: id, UserID: row.UserID, PersonID: row.PersonID, Email: row.Email, Daily: row.Daily, Closed: row.Closed}
	for _, k := range Kinds {
		for _, l := range lines {
			if l.Kind == k.Kind {
				d.Lines = append(d.Lines, l.Line)
			}
		}
	}
	return d, nil
}
