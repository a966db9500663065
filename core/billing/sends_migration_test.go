package billing_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// sendState is the state of a message's email: its claim, the claim's
// time, its attempts, and when it was sent and dropped (-1 for none).
type sendState struct {
	Key       string  `db:"message_key"`
	Claim     *string `db:"claim"`
	ClaimedAt int64   `db:"claimed_at"`
	Attempts  int     `db:"attempts"`
	SentAt    int64   `db:"sent_at"`
	DroppedAt int64   `db:"dropped_at"`
}

func (s sendState) String() string {
	claim := "-"
	if s.Claim != nil {
		claim = *s.Claim
	}
	return fmt.Sprintf("claim %s at %d, %d attempts, sent %d, dropped %d", claim, s.ClaimedAt, s.Attempts, s.SentAt, s.DroppedAt)
}

// oldSends reads, at version 41, the state of every email that has one
// from the columns of its subject's table.
func oldSends(t *testing.T, db *store.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, q := range []string{
		`SELECT 'note-' || id AS message_key, note_claim AS claim, COALESCE(note_claimed_at, -1) AS claimed_at,
			note_attempts AS attempts, COALESCE(note_sent_at, -1) AS sent_at, -1 AS dropped_at FROM deliveries`,
		`SELECT CASE WHEN kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || id AS message_key, mail_claim AS claim,
			COALESCE(mail_claimed_at, -1) AS claimed_at, mail_attempts AS attempts, COALESCE(sent_at, -1) AS sent_at,
			-1 AS dropped_at FROM documents`,
		`SELECT 'reminder-' || id AS message_key, mail_claim AS claim, COALESCE(mail_claimed_at, -1) AS claimed_at,
			mail_attempts AS attempts, COALESCE(sent_at, -1) AS sent_at, -1 AS dropped_at FROM reminders`,
		`SELECT 'cutoff-' || id AS message_key, mail_claim AS claim, COALESCE(mail_claimed_at, -1) AS claimed_at,
			mail_attempts AS attempts, COALESCE(sent_at, -1) AS sent_at, -1 AS dropped_at FROM cutoff_notices`,
		`SELECT 'digest-' || id AS message_key, mail_claim AS claim, COALESCE(mail_claimed_at, -1) AS claimed_at,
			mail_attempts AS attempts, COALESCE(sent_at, -1) AS sent_at, COALESCE(dropped_at, -1) AS dropped_at FROM digests`,
	} {
		var rows []sendState
		if err := store.Select(ctx, db, &rows, q); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Claim != nil || r.ClaimedAt != -1 || r.Attempts != 0 || r.SentAt != -1 || r.DroppedAt != -1 {
				out[r.Key] = r.String()
			}
		}
	}
	return out
}

// TestSendsMigration: migration 42 moves the state of every email — a
// delivery note's, an invoice's, a credit note's, a reminder's, a cutoff
// notice's, a digest's: sent, claimed by a run in flight, failed attempts,
// left for an administrator, dropped — from the columns of its subject's
// table into its row of sends, keyed by the message's key, on a database
// made by the code of version 39 (testdata/v39) put in every state at
// version 41; the old columns go.
func TestSendsMigration(t *testing.T) {
	t.Parallel()
	fixture := loadFixture(t)
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		if _, err := schema.MigrateTo(ctx, db, 39); err != nil {
			t.Fatal(err)
		}
		load(t, db, fixture)
		if _, err := schema.MigrateTo(ctx, db, 41); err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := store.Exec(ctx, db, q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		var user string
		if err := store.Get(ctx, db, &user, `SELECT MIN(id) FROM users`); err != nil {
			t.Fatal(err)
		}
		// Claims in flight, attempts failed, emails left for an
		// administrator, of every kind, beside the fixture's sent ones.
		exec(`UPDATE deliveries SET note_claim = 'run-1', note_claimed_at = 1000, note_attempts = 1
			WHERE id = (SELECT MIN(id) FROM deliveries WHERE note_sent_at IS NULL)`)
		exec(`UPDATE deliveries SET note_attempts = 3 WHERE id = (SELECT MAX(id) FROM deliveries WHERE note_sent_at IS NULL)`)
		exec(`UPDATE documents SET mail_claim = 'run-2', mail_claimed_at = 2000 WHERE id = (SELECT MIN(id) FROM documents WHERE kind = 'invoice')`)
		exec(`UPDATE documents SET mail_attempts = 3, sent_at = NULL WHERE id = (SELECT MAX(id) FROM documents WHERE kind = 'invoice')`)
		exec(`UPDATE reminders SET mail_claim = 'run-3', mail_claimed_at = 3000, mail_attempts = 2, sent_at = NULL
			WHERE id = (SELECT MIN(id) FROM reminders)`)
		exec(`INSERT INTO cutoff_notices (id, producer_id, month, needs, created_at, mail_claim, mail_claimed_at, sent_at, mail_attempts)
			VALUES ('c-sent', ?, '2026-12', '[]', 1, NULL, NULL, 4000, 1), ('c-claimed', ?, '2027-01', '[]', 2, 'run-4', 4100, NULL, 0),
			('c-new', ?, '2027-02', '[]', 3, NULL, NULL, NULL, 0)`, user, user, user)
		exec(`INSERT INTO digests (id, user_id, daily, created_at, mail_claim, mail_claimed_at, sent_at, mail_attempts, dropped_at)
			VALUES ('d-sent', ?, FALSE, 1, NULL, NULL, 5000, 0, NULL), ('d-dropped', ?, TRUE, 2, NULL, NULL, NULL, 0, 5100),
			('d-claimed', ?, FALSE, 3, 'run-5', 5200, NULL, 2, NULL), ('d-left', ?, FALSE, 4, NULL, NULL, NULL, 3, NULL),
			('d-new', ?, FALSE, 5, NULL, NULL, NULL, 0, NULL)`, user, user, user, user, user)
		was := oldSends(t, db)
		kinds := map[string]bool{}
		for key, state := range was {
			kind := key[:strings.IndexByte(key, '-')]
			for _, s := range []string{"claim run", "attempts, sent -1", "3 attempts", "sent 1", "sent 2", "sent 4", "sent 5", "dropped 5"} {
				if strings.Contains(state, s) {
					kinds[kind+" "+s] = true
				}
			}
		}
		for _, want := range []string{"note sent 1", "note claim run", "note 3 attempts", "invoice sent 1", "invoice claim run",
			"invoice 3 attempts", "credit sent 1", "credit attempts, sent -1", "reminder claim run", "cutoff sent 4",
			"cutoff claim run", "digest sent 5", "digest dropped 5", "digest claim run", "digest 3 attempts"} {
			if !kinds[want] {
				t.Errorf("the database misses a state: %s (has %v)", want, kinds)
			}
		}

		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		var rows []sendState
		if err := store.Select(ctx, db, &rows, `SELECT message_key, claim, COALESCE(claimed_at, -1) AS claimed_at, attempts,
			COALESCE(sent_at, -1) AS sent_at, COALESCE(dropped_at, -1) AS dropped_at FROM sends`); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, r := range rows {
			got[r.Key] = r.String()
		}
		if !maps.Equal(got, was) {
			for k := range was {
				if got[k] != was[k] {
					t.Errorf("%s: %q, was %q", k, got[k], was[k])
				}
			}
			for k := range got {
				if _, ok := was[k]; !ok {
					t.Errorf("%s: %q, was nothing", k, got[k])
				}
			}
		}
		var mismatched int
		if err := store.Get(ctx, db, &mismatched, `SELECT COUNT(*) FROM sends
			WHERE message_key <> kind || '-' || subject_id`); err != nil || mismatched != 0 {
			t.Fatalf("%d rows of sends whose key is not their kind and subject's (%v)", mismatched, err)
		}
		for _, table := range []string{"deliveries", "documents", "reminders", "cutoff_notices", "digests"} {
			for _, c := range storetest.Columns(t, db, table) {
				if strings.Contains(c, "mail_claim") || strings.Contains(c, "attempts") || c == "sent_at" || c == "note_sent_at" ||
					c == "dropped_at" || strings.HasPrefix(c, "note_claim") {
					t.Errorf("%s.%s still there", table, c)
				}
			}
		}
	})
}
