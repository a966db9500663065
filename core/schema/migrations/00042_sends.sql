-- One sends table (issue 35): the state of every email the jobs send
-- (core/jobs "sendOnce"), which each kind kept in columns of its own
-- table — deliveries' note_*, documents', reminders', cutoff_notices' and
-- digests' mail_*, sent_at and dropped_at — is one row of sends, keyed by
-- the message's key as mail_copies keys its copies ('note-<delivery>',
-- 'invoice-<document>', 'credit-<document>', 'reminder-<id>',
-- 'cutoff-<id>', 'digest-<id>'), with its kind and its subject's id. A row
-- is made by the first claim of the message: a subject without one was
-- never claimed. The key alone is unique: a claim's upsert names it as
-- its conflict (PostgreSQL would refuse a concurrent insert on another
-- unique key rather than wait and update), and the key is its kind and
-- subject's (the CHECK). claim and claimed_at name the run holding it
-- (mail_senders), attempts counts its failures of its own (MaxAttempts
-- leaves it for an administrator), sent_at is when it was sent, dropped_at
-- when it was dropped with nothing to say (a digest).
--
-- Every row that held some state (sent, claimed, an attempt failed,
-- dropped) moves into sends as it was; then the old columns and their
-- indexes go. deliveries_notes_due, which held the unsent notes, now holds
-- the done deliveries: the notes due are those without a sent row in sends.

-- +goose Up
CREATE TABLE sends (
    message_key TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('note', 'invoice', 'credit', 'reminder', 'cutoff', 'digest')),
    subject_id  TEXT NOT NULL,
    claim       TEXT,
    claimed_at  BIGINT,
    attempts    INTEGER NOT NULL DEFAULT 0,
    sent_at     BIGINT,
    dropped_at  BIGINT,
    CHECK (message_key = kind || '-' || subject_id)
);
CREATE INDEX sends_unsent ON sends (attempts) WHERE sent_at IS NULL;

INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at, attempts, sent_at)
SELECT 'note-' || id, 'note', id, note_claim, note_claimed_at, note_attempts, note_sent_at FROM deliveries
WHERE note_sent_at IS NOT NULL OR note_claim IS NOT NULL OR note_claimed_at IS NOT NULL OR note_attempts <> 0;

INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at, attempts, sent_at)
SELECT CASE WHEN kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || id, CASE WHEN kind = 'invoice' THEN 'invoice' ELSE 'credit' END,
    id, mail_claim, mail_claimed_at, mail_attempts, sent_at FROM documents
WHERE sent_at IS NOT NULL OR mail_claim IS NOT NULL OR mail_claimed_at IS NOT NULL OR mail_attempts <> 0;

INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at, attempts, sent_at)
SELECT 'reminder-' || id, 'reminder', id, mail_claim, mail_claimed_at, mail_attempts, sent_at FROM reminders
WHERE sent_at IS NOT NULL OR mail_claim IS NOT NULL OR mail_claimed_at IS NOT NULL OR mail_attempts <> 0;

INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at, attempts, sent_at)
SELECT 'cutoff-' || id, 'cutoff', id, mail_claim, mail_claimed_at, mail_attempts, sent_at FROM cutoff_notices
WHERE sent_at IS NOT NULL OR mail_claim IS NOT NULL OR mail_claimed_at IS NOT NULL OR mail_attempts <> 0;

INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at, attempts, sent_at, dropped_at)
SELECT 'digest-' || id, 'digest', id, mail_claim, mail_claimed_at, mail_attempts, sent_at, dropped_at FROM digests
WHERE sent_at IS NOT NULL OR mail_claim IS NOT NULL OR mail_claimed_at IS NOT NULL OR mail_attempts <> 0
    OR dropped_at IS NOT NULL;

DROP INDEX deliveries_notes_due;
DROP INDEX documents_unsent;
DROP INDEX reminders_unsent;
DROP INDEX cutoff_notices_unsent;
DROP INDEX digests_unsent;
CREATE INDEX deliveries_notes_due ON deliveries (status, date, id) WHERE status = 'done';

ALTER TABLE deliveries DROP COLUMN note_claim;
ALTER TABLE deliveries DROP COLUMN note_claimed_at;
ALTER TABLE deliveries DROP COLUMN note_attempts;
ALTER TABLE deliveries DROP COLUMN note_sent_at;
ALTER TABLE documents DROP COLUMN mail_claim;
ALTER TABLE documents DROP COLUMN mail_claimed_at;
ALTER TABLE documents DROP COLUMN mail_attempts;
ALTER TABLE documents DROP COLUMN sent_at;
ALTER TABLE reminders DROP COLUMN mail_claim;
ALTER TABLE reminders DROP COLUMN mail_claimed_at;
ALTER TABLE reminders DROP COLUMN mail_attempts;
ALTER TABLE reminders DROP COLUMN sent_at;
ALTER TABLE cutoff_notices DROP COLUMN mail_claim;
ALTER TABLE cutoff_notices DROP COLUMN mail_claimed_at;
ALTER TABLE cutoff_notices DROP COLUMN mail_attempts;
ALTER TABLE cutoff_notices DROP COLUMN sent_at;
ALTER TABLE digests DROP COLUMN mail_claim;
ALTER TABLE digests DROP COLUMN mail_claimed_at;
ALTER TABLE digests DROP COLUMN mail_attempts;
ALTER TABLE digests DROP COLUMN sent_at;
ALTER TABLE digests DROP COLUMN dropped_at;

-- +goose Down
ALTER TABLE deliveries ADD COLUMN note_sent_at BIGINT;
ALTER TABLE deliveries ADD COLUMN note_claim TEXT;
ALTER TABLE deliveries ADD COLUMN note_claimed_at BIGINT;
ALTER TABLE deliveries ADD COLUMN note_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN mail_claim TEXT;
ALTER TABLE documents ADD COLUMN mail_claimed_at BIGINT;
ALTER TABLE documents ADD COLUMN mail_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN sent_at BIGINT;
ALTER TABLE reminders ADD COLUMN mail_claim TEXT;
ALTER TABLE reminders ADD COLUMN mail_claimed_at BIGINT;
ALTER TABLE reminders ADD COLUMN sent_at BIGINT;
ALTER TABLE reminders ADD COLUMN mail_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cutoff_notices ADD COLUMN mail_claim TEXT;
ALTER TABLE cutoff_notices ADD COLUMN mail_claimed_at BIGINT;
ALTER TABLE cutoff_notices ADD COLUMN sent_at BIGINT;
ALTER TABLE cutoff_notices ADD COLUMN mail_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE digests ADD COLUMN mail_claim TEXT;
ALTER TABLE digests ADD COLUMN mail_claimed_at BIGINT;
ALTER TABLE digests ADD COLUMN sent_at BIGINT;
ALTER TABLE digests ADD COLUMN mail_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE digests ADD COLUMN dropped_at BIGINT;

UPDATE deliveries SET note_sent_at = (SELECT s.sent_at FROM sends s WHERE s.message_key = 'note-' || deliveries.id),
    note_claim = (SELECT s.claim FROM sends s WHERE s.message_key = 'note-' || deliveries.id),
    note_claimed_at = (SELECT s.claimed_at FROM sends s WHERE s.message_key = 'note-' || deliveries.id),
    note_attempts = COALESCE((SELECT s.attempts FROM sends s WHERE s.message_key = 'note-' || deliveries.id), 0);
UPDATE documents SET sent_at = (SELECT s.sent_at FROM sends s WHERE s.message_key = CASE WHEN documents.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || documents.id),
    mail_claim = (SELECT s.claim FROM sends s WHERE s.message_key = CASE WHEN documents.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || documents.id),
    mail_claimed_at = (SELECT s.claimed_at FROM sends s WHERE s.message_key = CASE WHEN documents.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || documents.id),
    mail_attempts = COALESCE((SELECT s.attempts FROM sends s WHERE s.message_key = CASE WHEN documents.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || documents.id), 0);
UPDATE reminders SET sent_at = (SELECT s.sent_at FROM sends s WHERE s.message_key = 'reminder-' || reminders.id),
    mail_claim = (SELECT s.claim FROM sends s WHERE s.message_key = 'reminder-' || reminders.id),
    mail_claimed_at = (SELECT s.claimed_at FROM sends s WHERE s.message_key = 'reminder-' || reminders.id),
    mail_attempts = COALESCE((SELECT s.attempts FROM sends s WHERE s.message_key = 'reminder-' || reminders.id), 0);
UPDATE cutoff_notices SET sent_at = (SELECT s.sent_at FROM sends s WHERE s.message_key = 'cutoff-' || cutoff_notices.id),
    mail_claim = (SELECT s.claim FROM sends s WHERE s.message_key = 'cutoff-' || cutoff_notices.id),
    mail_claimed_at = (SELECT s.claimed_at FROM sends s WHERE s.message_key = 'cutoff-' || cutoff_notices.id),
    mail_attempts = COALESCE((SELECT s.attempts FROM sends s WHERE s.message_key = 'cutoff-' || cutoff_notices.id), 0);
UPDATE digests SET sent_at = (SELECT s.sent_at FROM sends s WHERE s.message_key = 'digest-' || digests.id),
    mail_claim = (SELECT s.claim FROM sends s WHERE s.message_key = 'digest-' || digests.id),
    mail_claimed_at = (SELECT s.claimed_at FROM sends s WHERE s.message_key = 'digest-' || digests.id),
    mail_attempts = COALESCE((SELECT s.attempts FROM sends s WHERE s.message_key = 'digest-' || digests.id), 0),
    dropped_at = (SELECT s.dropped_at FROM sends s WHERE s.message_key = 'digest-' || digests.id);

DROP INDEX deliveries_notes_due;
CREATE INDEX deliveries_notes_due ON deliveries (status, date, id) WHERE note_sent_at IS NULL;
CREATE INDEX documents_unsent ON documents (sent_at);
CREATE INDEX reminders_unsent ON reminders (sent_at);
CREATE INDEX cutoff_notices_unsent ON cutoff_notices (sent_at);
CREATE INDEX digests_unsent ON digests (sent_at);
DROP TABLE sends;
