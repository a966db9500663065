-- Reminders of overdue invoices (PRODUCT §16 "Reminders"): the day after a
-- document's due date (step 1) and 15 days after it (step 2), the reminders
-- job emails the shop one message per producer and step listing what is
-- overdue. reminder_documents records each document reminded at each step,
-- once: its primary key is what makes a reminder happen once across
-- replicas; the reminder row carries the claim-then-send columns of its
-- email. A producer turns reminders off for a shop in reminder_optouts.

-- +goose Up
CREATE TABLE reminders (
    id              TEXT PRIMARY KEY,
    producer_id     TEXT NOT NULL REFERENCES users (id),
    distributor_id  TEXT NOT NULL REFERENCES users (id),
    step            INTEGER NOT NULL CHECK (step IN (1, 2)),
    created_at      BIGINT NOT NULL,
    mail_claim      TEXT,
    mail_claimed_at BIGINT,
    sent_at         BIGINT,
    mail_attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX reminders_unsent ON reminders (sent_at);

CREATE TABLE reminder_documents (
    document_id TEXT NOT NULL,
    step        INTEGER NOT NULL,
    reminder_id TEXT NOT NULL REFERENCES reminders (id),
    PRIMARY KEY (document_id, step)
);
CREATE INDEX reminder_documents_reminder ON reminder_documents (reminder_id);

CREATE TABLE reminder_optouts (
    producer_id    TEXT NOT NULL REFERENCES users (id),
    distributor_id TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (producer_id, distributor_id)
);

-- +goose Down
DROP TABLE reminder_optouts;
DROP TABLE reminder_documents;
DROP TABLE reminders;
