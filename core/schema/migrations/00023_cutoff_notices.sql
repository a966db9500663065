-- Cut-off reminders (PRODUCT §17 "cutoff"): on the 25th, a producer with
-- delivery days gets the shops' needs still open for next month that
-- match what it sells. One notice per producer and month, whatever the
-- replicas (the unique key), emailed by the claim-then-send protocol of
-- the other documents; the needs it lists are stored when it is made. A
-- producer turns the reminder off in its profile (cutoff_optout).

-- +goose Up
ALTER TABLE users ADD COLUMN cutoff_optout BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE cutoff_notices (
    id              TEXT PRIMARY KEY,
    producer_id     TEXT NOT NULL REFERENCES users (id),
    month           TEXT NOT NULL,
    needs           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    mail_claim      TEXT,
    mail_claimed_at BIGINT,
    sent_at         BIGINT,
    mail_attempts   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (producer_id, month)
);
CREATE INDEX cutoff_notices_unsent ON cutoff_notices (sent_at);

-- +goose Down
DROP TABLE cutoff_notices;
ALTER TABLE users DROP COLUMN cutoff_optout;
