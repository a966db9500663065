package reliability

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/jobs"
	"primeur/core/mail/mailtest"
	"primeur/core/notify"
	"primeur/core/store"
)

// digesting is when the replicas of the digests test start: the morning
// after the notifications were queued, past the daily digest's 7h, so that
// the lines of a daily kind are due as well as the immediate ones.
const digesting = "2026-12-02T09:00:00+01:00"

// recipient is a user of the digests test with the lines queued for it.
type recipient struct {
	id, email string
	producer  bool
	lines     []string // queued, oldest first
	daily     bool     // a kind of its lines is in the daily digest
	// quiet says why it must get nothing ("" for a user to digest).
	quiet string
}

// digestRow is a digest as the checks read it, with its lines.
type digestRow struct {
	ID       string        `db:"id"`
	User     string        `db:"user_id"`
	Daily    bool          `db:"daily"`
	Created  int64         `db:"created_at"`
	SentAt   sql.NullInt64 `db:"sent_at"`
	Attempts int           `db:"mail_attempts"`
	Lines    int           `db:"lines"`
}

// TestTwoReplicasSendEachDigestOnce runs two `primeur serve` processes on
// one database, both pinned to December 2nd 09:00, the morning after 24
// users (12 producers, 12 shops, their emails confirmed) had one to three
// notifications each queued (notify.Queue, of the kinds their role
// receives; some users put the kind of their first line in the daily
// digest). The start-up catch-up of each runs the notifications job at
// once on both. Every user to digest must get exactly one digest — one row
// in digests, recorded as sent, every one of its lines attached to it
// (notifications.digest_id), its members.digest_at claimed — and exactly one
// email on the SMTP server, to its login address, with every line, a
// List-Unsubscribe header, and "depuis hier" when it is a daily digest,
// whichever replica made and sent it. Two users get nothing: one who
// turned off the only kind of its lines (notify.SetPref … None: Gather
// drops them), one whose login email is no longer confirmed (its lines
// stay pending, its digest_at untouched). The replicas send nothing else.
//
// To make the two replicas really gather at the same moment, the test
// blocks the writes to the users table (holdWrites) before starting them:
// the job (notify.Gather) lists the users with pending lines, then, for
// each in its own transaction, reads the user, its choices and its lines,
// and claims the digest with one conditional UPDATE of the user's row
// (digest_at, at most one an hour). On PostgreSQL the test waits until
// both replicas' sessions wait on that update — both have read the first
// user's lines and decided to digest them — then lets them go: the row
// lock and the re-checked condition of the update must let exactly one
// replica make that digest, and the replicas go on racing for the
// following users as they come (each usually makes some of the digests).
// Without that condition a user gets two digests there: the test fails.
//
// On SQLite the hold takes the database's one write lock and a process
// waiting for it shows nothing: the test lets the replicas go once both
// logged the start of their jobs. A transaction there begins by taking the
// write lock (BEGIN IMMEDIATE), so the second replica reads a user's lines
// only after the first committed that user's digest: it finds them
// attached and never reaches the claim. In practice one replica makes
// every digest; what the test proves on that engine is that the other,
// gathering at the same moment, makes none. On both engines the replicas
// then email the digests at the same moment (often each sends some of
// those the other made: see the reports logged), and the claim-then-send
// protocol of core/jobs is what keeps each digest to one email.
func TestTwoReplicasSendEachDigestOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now, err := time.Parse(time.RFC3339, digesting)
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			srv := mailtest.Start(t, "", "")
			tr := transport{name: "smtp", smtp: srv}

			// 1. The users and their pending notifications.
			users := seedNotifications(t, db, 12, 12)
			byID := map[string]recipient{}
			var due []recipient
			for _, u := range users {
				byID[u.id] = u
				if u.quiet == "" {
					due = append(due, u)
				}
			}
			if len(due) < 20 || len(due) != len(users)-2 {
				t.Fatalf("%d users to digest out of %d", len(due), len(users))
			}

			// 2. Two replicas gather and send at once.
			replicas, reports := race{table: "members", statement: "UPDATE members SET digest_at", job: "notifications"}.
				run(t, b, db, digesting, tr)
			made, mailed := 0, 0
			for i, r := range replicas {
				m, s := reportCount(t, reports[i], jobs.DigestsMade), reportCount(t, reports[i], jobs.DigestsSent)
				made += m
				mailed += s
				t.Logf("%s: %d digests made, %d sent (%s)", r.name, m, s, reports[i])
			}
			if made != len(due) || mailed != len(due) {
				t.Fatalf("the replicas made %d digests and sent %d, for %d users to digest", made, mailed, len(due))
			}

			// 3. One digest per user to digest, with all its lines, sent.
			var rows []digestRow
			if err := store.Select(ctx, db, &rows, `SELECT d.id, d.user_id, d.daily, d.created_at, s.sent_at, COALESCE(s.attempts, 0) AS mail_attempts,
				(SELECT COUNT(*) FROM notifications n WHERE n.digest_id = d.id) AS lines
				FROM digests d LEFT JOIN sends s ON s.message_key = 'digest-' || d.id ORDER BY d.user_id`); err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(due) {
				t.Fatalf("%d digests for %d users to digest", len(rows), len(due))
			}
			digestOf := map[string]digestRow{} // by user
			for _, d := range rows {
				u, ok := byID[d.User]
				switch {
				case !ok || u.quiet != "":
					t.Fatalf("digest %s for %s, who must get none (%s)", d.ID, d.User, u.quiet)
				case digestOf[d.User].ID != "":
					t.Fatalf("%s has two digests: %s and %s", d.User, digestOf[d.User].ID, d.ID)
				case d.Lines != len(u.lines) || d.Daily != u.daily:
					t.Fatalf("digest %s of %s: %d lines, daily %v; want %d lines, daily %v", d.ID, d.User, d.Lines, d.Daily,
						len(u.lines), u.daily)
				case !d.SentAt.Valid || d.Attempts != 0:
					t.Fatalf("digest %s of %s not recorded as sent (%d failed attempts)", d.ID, d.User, d.Attempts)
				case d.Created < now.UnixMilli():
					t.Fatalf("digest %s of %s made at %v, before the replicas' clock", d.ID, d.User, time.UnixMilli(d.Created))
				}
				digestOf[d.User] = d
			}
			for _, u := range due {
				if n := count(t, db, `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND (digest_id IS NULL OR digest_id <> ?)`,
					u.id, digestOf[u.id].ID); n != 0 {
					t.Fatalf("%s: %d lines outside its digest %s", u.id, n, digestOf[u.id].ID)
				}
				if n := count(t, db, `SELECT COUNT(*) FROM members WHERE person_id = ? AND org_id = person_id AND digest_at = ?`, u.id, digestOf[u.id].Created); n != 1 {
					t.Fatalf("%s: digest_at is not the time of its digest", u.id)
				}
			}
			// The quiet users: the lines turned off dropped, the unconfirmed
			// user's left pending for its confirmation; no digest claimed.
			for _, u := range users {
				if u.quiet == "" {
					continue
				}
				pending := count(t, db, `SELECT COUNT(*) FROM notifications WHERE user_id = ? AND digest_id IS NULL`, u.id)
				all := count(t, db, `SELECT COUNT(*) FROM notifications WHERE user_id = ?`, u.id)
				want := len(u.lines)
				if u.id == turnedOff {
					want = 0
				}
				if pending != want || all != want {
					t.Fatalf("%s (%s): %d lines, %d pending; want %d pending", u.id, u.quiet, all, pending, want)
				}
				if n := count(t, db, `SELECT COUNT(*) FROM members WHERE person_id = ? AND org_id = person_id AND digest_at IS NULL`, u.id); n != 1 {
					t.Fatalf("%s (%s): a digest claimed", u.id, u.quiet)
				}
			}

			// 4. One email per digest, to its user, and nothing else.
			sent := messageCounts(srv)
			for _, u := range due {
				if n := sent["digest-"+digestOf[u.id].ID]; n != 1 {
					t.Fatalf("digest %s of %s emailed %d times", digestOf[u.id].ID, u.id, n)
				}
			}
			if msgs := srv.Messages(t); len(msgs) != len(due) {
				t.Fatalf("%d copies sent by the replicas for %d users to digest", len(msgs), len(due))
			}
			got := map[string]int{}
			for _, m := range srv.Merged(t) {
				key, ok := strings.CutPrefix(m.Header.Get("Message-Id"), "<digest-")
				id := strings.TrimSuffix(key, "@primeur.local>")
				var d digestRow
				for _, row := range rows {
					if row.ID == id {
						d = row
					}
				}
				if !ok || d.ID == "" {
					t.Fatalf("a message for no digest: %s %q to %v", m.Header.Get("Message-Id"), m.Subject, m.To)
				}
				u := byID[d.User]
				subject := fmt.Sprintf("Primeur : %d nouveautés attendent votre réponse", len(u.lines))
				if len(u.lines) == 1 {
					subject = "Primeur : " + u.lines[0]
				}
				if m.Subject != subject || !slices.Equal(m.To, []string{u.email}) || !slices.Equal(m.Envelope, []string{u.email}) ||
					strings.Contains(m.Body, "depuis hier") != u.daily {
					t.Fatalf("digest of %s to %v (envelope %v) %q, want %q to %s, daily %v:\n%s", u.id, m.To, m.Envelope,
						m.Subject, subject, u.email, u.daily, m.Body)
				}
				for _, l := range u.lines {
					if !strings.Contains(m.Body, "- "+l) {
						t.Fatalf("digest of %s without %q:\n%s", u.id, l, m.Body)
					}
				}
				if unsub := m.Header.Get("List-Unsubscribe"); !strings.HasPrefix(unsub, "<") ||
					!strings.Contains(unsub, "/auth/unsubscribe/one-click?t=") ||
					m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
					t.Fatalf("digest of %s: List-Unsubscribe %q, Post %q", u.id, unsub, m.Header.Get("List-Unsubscribe-Post"))
				}
				got[u.id]++
			}
			for _, u := range users {
				want := 1
				if u.quiet != "" {
					want = 0
				}
				if got[u.id] != want {
					t.Fatalf("%s got %d digests, want %d", u.id, got[u.id], want)
				}
			}
			for _, r := range replicas {
				if code := r.term(); code != 0 {
					t.Fatalf("%s stopped with status %d", r.name, code)
				}
			}
		})
	}
}

// The two users of the digests test who must get nothing.
const (
	turnedOff   = "farm-03"  // its lines are all of one kind, which it turned off
	unconfirmed = "shop-005" // its login email is no longer confirmed
)

// seedNotifications writes, in one transaction, producers farm-00… and
// shops shop-000… (accounts.Insert: their emails confirmed) and queues for
// each one to three notifications of the kinds its role receives, on
// December 1st between 10h and 19h. Every fifth user, from the third, puts
// the kind of its first line in the daily digest, except the two quiet
// ones: turnedOff, whose two lines are of one kind it turns off, and
// unconfirmed, whose email_confirmed is then emptied.
func seedNotifications(t *testing.T, db *store.DB, producers, shops int) []recipient {
	t.Helper()
	ctx := context.Background()
	created := time.Date(2026, 10, 1, 9, 0, 0, 0, paris).UnixMilli()
	var users []recipient
	for f := range producers {
		id := fmt.Sprintf("farm-%02d", f)
		users = append(users, recipient{id: id, email: id + "@fermes.fr", producer: true})
	}
	for s := range shops {
		id := fmt.Sprintf("shop-%03d", s)
		users = append(users, recipient{id: id, email: id + "@magasins.fr"})
	}
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		for i := range users {
			u := &users[i]
			switch u.id {
			case turnedOff:
				u.quiet = "it turned off the only kind of its lines"
			case unconfirmed:
				u.quiet = "its login email is no longer confirmed"
			}
			user := accounts.User{ID: u.id, Type: accounts.Distributor, Email: u.email, EmailKey: u.email,
				Name: "Magasin " + u.id, PasswordHash: "x", Legal: "SARL", Capital: "8000", SIRET: "98765432400019",
				TVAIntracom: "FR14987654324", APE: "4721Z", DeliveryDays: "0000000", AddressLine1: "1 quai de la Tournette",
				AddressLine2: "74000 Annecy", CreatedAt: created, UpdatedAt: created}
			if u.producer {
				user.Type, user.Name, user.Legal, user.DeliveryDays = accounts.Producer, "Ferme "+u.id, "EARL", "1111111"
				user.BillingMandateAt = &created
			}
			if err := accounts.Insert(ctx, tx, user); err != nil {
				return err
			}
			var kinds []string
			for _, k := range notify.Kinds {
				if (u.producer && k.Producer) || (!u.producer && k.Shop) {
					kinds = append(kinds, k.Kind)
				}
			}
			n := 1 + i%3
			if u.id == turnedOff {
				n, kinds = 2, []string{notify.Delivery}
				if err := notify.SetPref(ctx, tx, u.id, u.id, notify.Delivery, notify.None); err != nil {
					return err
				}
			}
			for j := range n {
				kind := kinds[(i+j)%len(kinds)]
				line := fmt.Sprintf("Nouveauté %d pour %s : %s.", j+1, u.id, strings.ToLower(notify.Label(kind)))
				at := time.Date(2026, 12, 1, 10+j*4, i, 0, 0, paris)
				if err := notify.Queue(ctx, tx, notify.Item{UserID: u.id, Kind: kind, Line: line,
					Link: notify.DeliveriesLink(u.producer), At: at}); err != nil {
					return err
				}
				u.lines = append(u.lines, line)
			}
			if i%5 == 2 && u.quiet == "" {
				if err := notify.SetPref(ctx, tx, u.id, u.id, kinds[i%len(kinds)], notify.Daily); err != nil {
					return err
				}
				u.daily = true
			}
			if u.id == unconfirmed {
				if _, err := store.Exec(ctx, tx, `UPDATE users SET email_confirmed = '' WHERE id = ?`, u.id); err != nil {
					return err
				}
				if _, err := store.Exec(ctx, tx, `UPDATE people SET email_confirmed = '' WHERE id = ?`, u.id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return users
}
