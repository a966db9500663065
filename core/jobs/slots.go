package jobs

// The slots of the emails sent by sendOnce (send.go, journal.go): for
// each kind of document, the statements of the protocol on the rows that
// record its email, written out in full — one text for both engines. They
// differ from slot to slot only by table, columns and conditions: a change
// of the protocol is made to each alike.

var (
	noteSlot = slot{
		kind: "note", prefix: "note-", table: "deliveries",
		claim: `UPDATE deliveries SET note_claim = ?, note_claimed_at = ?
			WHERE id = ? AND note_sent_at IS NULL AND note_attempts < ?
			AND (note_claim IS NULL OR note_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = deliveries.note_claim AND m.beat_at <= ?)
				OR (note_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = deliveries.note_claim)))`,
		holder: `SELECT t.note_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM deliveries t LEFT JOIN mail_senders m ON m.id = t.note_claim
			WHERE t.id = ? AND t.note_sent_at IS NULL AND t.note_attempts < ? AND t.note_claim IS NOT NULL AND t.note_claim <> ?`,
		release: `UPDATE deliveries SET note_claim = NULL, note_claimed_at = NULL WHERE id = ? AND note_claim = ?`,
		fail:    `UPDATE deliveries SET note_claim = NULL, note_claimed_at = NULL, note_attempts = note_attempts + 1 WHERE id = ? AND note_claim = ? RETURNING note_attempts`,
		leave:   `UPDATE deliveries SET note_claim = NULL, note_claimed_at = NULL, note_attempts = ? WHERE id = ? AND note_claim = ?`,
		sent:    `UPDATE deliveries SET note_sent_at = ? WHERE id = ? AND note_sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = ? AND note_claim = ?)
			ON CONFLICT DO NOTHING`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'note-' || id FROM deliveries WHERE note_sent_at IS NULL AND note_attempts >= ?)`,
		retry:     `UPDATE deliveries SET note_attempts = 0 WHERE note_sent_at IS NULL AND note_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM deliveries WHERE note_sent_at IS NULL AND note_attempts >= ?`,
	}
	invoiceSlot = slot{
		kind: "invoice", prefix: "invoice-", table: "documents",
		claim: `UPDATE documents SET mail_claim = ?, mail_claimed_at = ?
			WHERE id = ? AND kind = 'invoice' AND sent_at IS NULL AND ` + documentReady("documents") + ` AND mail_attempts < ?
			AND (mail_claim IS NULL OR mail_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = documents.mail_claim AND m.beat_at <= ?)
				OR (mail_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = documents.mail_claim)))`,
		holder: `SELECT t.mail_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM documents t LEFT JOIN mail_senders m ON m.id = t.mail_claim
			WHERE t.id = ? AND t.sent_at IS NULL AND t.mail_attempts < ? AND t.mail_claim IS NOT NULL AND t.mail_claim <> ?`,
		release: `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL WHERE id = ? AND mail_claim = ?`,
		fail:    `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = mail_attempts + 1 WHERE id = ? AND mail_claim = ? RETURNING mail_attempts`,
		leave:   `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = ? WHERE id = ? AND mail_claim = ?`,
		sent:    `UPDATE documents SET sent_at = ? WHERE id = ? AND sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM documents WHERE id = ? AND mail_claim = ?)
			ON CONFLICT DO NOTHING`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'invoice-' || id FROM documents WHERE kind = 'invoice' AND sent_at IS NULL AND mail_attempts >= ?)`,
		retry:     `UPDATE documents SET mail_attempts = 0 WHERE kind = 'invoice' AND sent_at IS NULL AND mail_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM documents WHERE kind = 'invoice' AND sent_at IS NULL AND mail_attempts >= ?`,
		pending: `SELECT t.id FROM documents t WHERE t.kind = 'invoice' AND t.sent_at IS NULL AND ` + documentReady("t") + `
		ORDER BY t.producer_id, t.year, t.seq`,
		name: `SELECT number FROM documents WHERE id = ?`,
	}
	creditSlot = slot{
		kind: "credit note", prefix: "credit-", table: "documents",
		claim: `UPDATE documents SET mail_claim = ?, mail_claimed_at = ?
			WHERE id = ? AND kind <> 'invoice' AND sent_at IS NULL AND ` + documentReady("documents") + ` AND mail_attempts < ?
			AND (mail_claim IS NULL OR mail_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = documents.mail_claim AND m.beat_at <= ?)
				OR (mail_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = documents.mail_claim)))`,
		holder: `SELECT t.mail_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM documents t LEFT JOIN mail_senders m ON m.id = t.mail_claim
			WHERE t.id = ? AND t.sent_at IS NULL AND t.mail_attempts < ? AND t.mail_claim IS NOT NULL AND t.mail_claim <> ?`,
		release: `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL WHERE id = ? AND mail_claim = ?`,
		fail:    `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = mail_attempts + 1 WHERE id = ? AND mail_claim = ? RETURNING mail_attempts`,
		leave:   `UPDATE documents SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = ? WHERE id = ? AND mail_claim = ?`,
		sent:    `UPDATE documents SET sent_at = ? WHERE id = ? AND sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM documents WHERE id = ? AND mail_claim = ?)
			ON CONFLICT DO NOTHING`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'credit-' || id FROM documents WHERE kind <> 'invoice' AND sent_at IS NULL AND mail_attempts >= ?)`,
		retry:     `UPDATE documents SET mail_attempts = 0 WHERE kind <> 'invoice' AND sent_at IS NULL AND mail_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM documents WHERE kind <> 'invoice' AND sent_at IS NULL AND mail_attempts >= ?`,
		pending: `SELECT t.id FROM documents t WHERE t.kind <> 'invoice' AND t.sent_at IS NULL AND ` + documentReady("t") + `
		ORDER BY t.producer_id, t.issued_at, t.number`,
		name: `SELECT number FROM documents WHERE id = ?`,
	}
	reminderSlot = slot{
		kind: "reminder", prefix: "reminder-", table: "reminders",
		claim: `UPDATE reminders SET mail_claim = ?, mail_claimed_at = ?
			WHERE id = ? AND sent_at IS NULL AND mail_attempts < ?
			AND (mail_claim IS NULL OR mail_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = reminders.mail_claim AND m.beat_at <= ?)
				OR (mail_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = reminders.mail_claim)))`,
		holder: `SELECT t.mail_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM reminders t LEFT JOIN mail_senders m ON m.id = t.mail_claim
			WHERE t.id = ? AND t.sent_at IS NULL AND t.mail_attempts < ? AND t.mail_claim IS NOT NULL AND t.mail_claim <> ?`,
		release: `UPDATE reminders SET mail_claim = NULL, mail_claimed_at = NULL WHERE id = ? AND mail_claim = ?`,
		fail:    `UPDATE reminders SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = mail_attempts + 1 WHERE id = ? AND mail_claim = ? RETURNING mail_attempts`,
		leave:   `UPDATE reminders SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = ? WHERE id = ? AND mail_claim = ?`,
		sent:    `UPDATE reminders SET sent_at = ? WHERE id = ? AND sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM reminders WHERE id = ? AND mail_claim = ?)
			ON CONFLICT DO NOTHING`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'reminder-' || id FROM reminders WHERE sent_at IS NULL AND mail_attempts >= ?)`,
		retry:     `UPDATE reminders SET mail_attempts = 0 WHERE sent_at IS NULL AND mail_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM reminders WHERE sent_at IS NULL AND mail_attempts >= ?`,
		pending:   `SELECT t.id FROM reminders t WHERE t.sent_at IS NULL AND ` + reminderReady + ` ORDER BY t.created_at, t.id`,
	}
	cutoffSlot = slot{
		kind: "cutoff notice", prefix: "cutoff-", table: "cutoff_notices",
		claim: `UPDATE cutoff_notices SET mail_claim = ?, mail_claimed_at = ?
			WHERE id = ? AND sent_at IS NULL AND mail_attempts < ?
			AND (mail_claim IS NULL OR mail_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = cutoff_notices.mail_claim AND m.beat_at <= ?)
				OR (mail_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = cutoff_notices.mail_claim)))`,
		holder: `SELECT t.mail_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM cutoff_notices t LEFT JOIN mail_senders m ON m.id = t.mail_claim
			WHERE t.id = ? AND t.sent_at IS NULL AND t.mail_attempts < ? AND t.mail_claim IS NOT NULL AND t.mail_claim <> ?`,
		release: `UPDATE cutoff_notices SET mail_claim = NULL, mail_claimed_at = NULL WHERE id = ? AND mail_claim = ?`,
		fail:    `UPDATE cutoff_notices SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = mail_attempts + 1 WHERE id = ? AND mail_claim = ? RETURNING mail_attempts`,
		leave:   `UPDATE cutoff_notices SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = ? WHERE id = ? AND mail_claim = ?`,
		sent:    `UPDATE cutoff_notices SET sent_at = ? WHERE id = ? AND sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM cutoff_notices WHERE id = ? AND mail_claim = ?)
			ON CONFLICT DO NOTHING`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'cutoff-' || id FROM cutoff_notices WHERE sent_at IS NULL AND mail_attempts >= ?)`,
		retry:     `UPDATE cutoff_notices SET mail_attempts = 0 WHERE sent_at IS NULL AND mail_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM cutoff_notices WHERE sent_at IS NULL AND mail_attempts >= ?`,
		pending:   `SELECT t.id FROM cutoff_notices t WHERE t.sent_at IS NULL AND ` + cutoffReady + ` ORDER BY t.created_at, t.id`,
	}
	digestSlot = slot{
		kind: "digest", prefix: "digest-", table: "digests",
		claim: `UPDATE digests SET mail_claim = ?, mail_claimed_at = ?
			WHERE id = ? AND sent_at IS NULL AND dropped_at IS NULL AND mail_attempts < ?
			AND (mail_claim IS NULL OR mail_claim = ?
				OR EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = digests.mail_claim AND m.beat_at <= ?)
				OR (mail_claimed_at <= ? AND NOT EXISTS (SELECT 1 FROM mail_senders m WHERE m.id = digests.mail_claim)))`,
		holder: `SELECT t.mail_claim AS claim, m.host, m.place, m.pid, m.process_start
			FROM digests t LEFT JOIN mail_senders m ON m.id = t.mail_claim
			WHERE t.id = ? AND t.sent_at IS NULL AND t.dropped_at IS NULL AND t.mail_attempts < ? AND t.mail_claim IS NOT NULL AND t.mail_claim <> ?`,
		release: `UPDATE digests SET mail_claim = NULL, mail_claimed_at = NULL WHERE id = ? AND mail_claim = ?`,
		fail:    `UPDATE digests SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = mail_attempts + 1 WHERE id = ? AND mail_claim = ? RETURNING mail_attempts`,
		leave:   `UPDATE digests SET mail_claim = NULL, mail_claimed_at = NULL, mail_attempts = ? WHERE id = ? AND mail_claim = ?`,
		sent:    `UPDATE digests SET sent_at = ? WHERE id = ? AND sent_at IS NULL`,
		copy: `INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at)
			SELECT ?, ?, ?, ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM digests WHERE id = ? AND mail_claim = ?)
			ON CONFLICT DO NOTHING`,
		drop: `UPDATE digests SET dropped_at = ? WHERE id = ? AND mail_claim = ?`,
		forget: `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
			(SELECT 'digest-' || id FROM digests WHERE sent_at IS NULL AND mail_attempts >= ?)`,
		retry:     `UPDATE digests SET mail_attempts = 0 WHERE sent_at IS NULL AND mail_attempts >= ?`,
		abandoned: `SELECT COUNT(*) FROM digests WHERE sent_at IS NULL AND mail_attempts >= ?`,
		pending:   `SELECT t.id FROM digests t WHERE t.sent_at IS NULL AND ` + digestReady + ` ORDER BY t.created_at, t.id`,
	}
)

// slots are every slot, notes first.
var slots = []slot{noteSlot, invoiceSlot, creditSlot, reminderSlot, cutoffSlot, digestSlot}
