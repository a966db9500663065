package jobs

import "strconv"

// The emails sent by sendOnce (send.go, journal.go) record their state in
// one table, sends (migration 42): a row per message, keyed by its key
// ("invoice-<id>", as mail_copies keys its copies), made by the message's
// first claim. The statements of the protocol on it are written once,
// below; a kind of email (a slot) keeps only what is its own: the table of
// its subjects and the condition for one to go (its claim's), the
// documents due (pending), and its name for an administrator.

// The protocol's statements on sends, one text for both engines.
const (
	// sendClaimable is the condition that the row of sends a claim updates
	// (an existing one) may be taken: unsent, not dropped, attempts left,
	// and unclaimed, or claimed by a run that stopped renewing its claims
	// for Lease (by its own time when its row of mail_senders is gone), or
	// by a run known dead. Args: MaxAttempts, the dead run, and twice the
	// time before which a renewal is stale.
	sendClaimable = `sends.sent_at IS NULL AND sends.dropped_at IS NULL AND sends.attempts < ?
		AND (sends.claim IS NULL OR sends.claim = ?
			OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = sends.claim AND m.beat_at <= ?)
			OR (sends.claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = sends.claim)))`
	// sendHolder reads who holds a message's claim, another run's: args
	// the key, MaxAttempts, the run.
	sendHolder = `SELECT s.claim AS claim, m.host, m.place, m.pid, m.process_start
		FROM sends s LEFT JOIN mail_senders m ON m.id = s.claim
		WHERE s.message_key = ? AND s.sent_at IS NULL AND s.dropped_at IS NULL AND s.attempts < ?
		AND s.claim IS NOT NULL AND s.claim <> ?`
	// sendRelease, sendFail (counting an attempt, RETURNING their number)
	// and sendLeave (for an administrator: arg MaxAttempts first) clear
	// the run's claim: args the key, the run.
	sendRelease = `UPDATE sends SET claim = NULL, claimed_at = NULL WHERE message_key = ? AND claim = ?`
	sendFail    = `UPDATE sends SET claim = NULL, claimed_at = NULL, attempts = attempts + 1 WHERE message_key = ? AND claim = ? RETURNING attempts`
	sendLeave   = `UPDATE sends SET claim = NULL, claimed_at = NULL, attempts = ? WHERE message_key = ? AND claim = ?`
	// sendSent records the message sent: args the time, the key.
	sendSent = `UPDATE sends SET sent_at = ? WHERE message_key = ? AND sent_at IS NULL`
	// sendDrop records the message dropped (errDropped): args the time,
	// the key, the run.
	sendDrop = `UPDATE sends SET dropped_at = ? WHERE message_key = ? AND claim = ?`
	// sendCopy records a copy in mail_copies while the run holds the
	// claim: args key, recipient, Message-ID, run, time, key, run.
	sendCopy = `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
		SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM sends WHERE message_key = ? AND claim = ?)
		ON CONFLICT DO NOTHING`
	// sendForget, sendRetry and sendsAbandoned are RetryFailed's and
	// CountAbandoned's, of every kind: arg MaxAttempts.
	sendForget = `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
		(SELECT message_key FROM sends WHERE sent_at IS NULL AND attempts >= ?)`
	sendRetry      = `UPDATE sends SET attempts = 0 WHERE sent_at IS NULL AND attempts >= ? RETURNING kind`
	sendsAbandoned = `SELECT COUNT(*) FROM sends WHERE sent_at IS NULL AND attempts >= ?`
)

// claimSQL is the claim of a message of a slot whose subjects are rows of
// table, ready when they meet ready (a condition on t, the subject's row;
// "" for none): one statement that makes the message's row of sends, named
// by the run, if it has none — and the subject exists and is ready —, or
// else takes it if it is claimable (sendClaimable). Args: the key, the
// run, the time, the subject, MaxAttempts, a dead run's id, and twice the
// time before which a renewal is stale.
func claimSQL(kind, table, ready string) string {
	if ready == "" {
		ready = "1 = 1"
	}
	return `INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at)
		SELECT CAST(? AS TEXT), '` + kind + `', t.id, CAST(? AS TEXT), CAST(? AS BIGINT) FROM ` + table + ` t
		WHERE t.id = ? AND ` + ready + `
		ON CONFLICT (message_key) DO UPDATE SET claim = excluded.claim, claimed_at = excluded.claimed_at
		WHERE ` + sendClaimable
}

// unsent is the condition that the message of subject t (a table's alias)
// keyed prefix || t.id is to be sent: neither sent, nor dropped, nor left
// for an administrator (its attempts spent) — the pending queries'.
func unsent(prefix, t string) string {
	return `NOT EXISTS (SELECT 1 FROM sends s WHERE s.message_key = '` + prefix + `' || ` + t + `.id
		AND (s.sent_at IS NOT NULL OR s.dropped_at IS NOT NULL OR s.attempts >= ` + strconv.Itoa(MaxAttempts) + `))`
}

// newSlot is the slot of the emails of kind — the kind sends records
// ("invoice"), also the prefix of its keys ("invoice-<id>") — named label
// for the Observer and the logs, whose subjects are the rows of table that
// meet ready (claimSQL).
func newSlot(kind, label, table, ready string) slot {
	return slot{kind: label, prefix: kind + "-", table: table, claim: claimSQL(kind, table, ready)}
}

var (
	noteSlot    = newSlot("note", "note", "deliveries", "")
	invoiceSlot = func() slot {
		s := newSlot("invoice", "invoice", "documents", "t.kind = 'invoice' AND "+documentReady("t"))
		s.pending = `SELECT t.id FROM documents t WHERE t.kind = 'invoice' AND ` + unsent("invoice-", "t") + ` AND ` + documentReady("t") + `
		ORDER BY t.producer_id, t.year, t.seq`
		s.name = `SELECT number FROM documents WHERE id = ?`
		return s
	}()
	creditSlot = func() slot {
		s := newSlot("credit", "credit note", "documents", "t.kind <> 'invoice' AND "+documentReady("t"))
		s.pending = `SELECT t.id FROM documents t WHERE t.kind <> 'invoice' AND ` + unsent("credit-", "t") + ` AND ` + documentReady("t") + `
		ORDER BY t.producer_id, t.issued_at, t.number`
		s.name = `SELECT number FROM documents WHERE id = ?`
		return s
	}()
	reminderSlot = func() slot {
		s := newSlot("reminder", "reminder", "reminders", "")
		s.pending = `SELECT t.id FROM reminders t WHERE ` + unsent("reminder-", "t") + ` AND ` + reminderReady + ` ORDER BY t.created_at, t.id`
		return s
	}()
	cutoffSlot = func() slot {
		s := newSlot("cutoff", "cutoff notice", "cutoff_notices", "")
		s.pending = `SELECT t.id FROM cutoff_notices t WHERE ` + unsent("cutoff-", "t") + ` AND ` + cutoffReady + ` ORDER BY t.created_at, t.id`
		return s
	}()
	digestSlot = func() slot {
		s := newSlot("digest", "digest", "digests", "")
		s.drops = true
		s.pending = `SELECT t.id FROM digests t WHERE ` + unsent("digest-", "t") + ` AND ` + digestReady + ` ORDER BY t.created_at, t.id`
		return s
	}()
)
