-- Notifications by email (PRODUCT §16 "Notifications"): what needs the
-- other side's answer — a proposal, an answer, a correction, a claim, a
-- delivery the shop changed, a delivery note — is queued for its
-- recipient (notifications) and gathered into digests: at most one per
-- user an hour (users.digest_at, the last one made, claimed by a
-- conditional update so that replicas make it once), the daily kinds at
-- 7h. Each user chooses per kind
-- (notification_prefs; none stored means "immediate"). Digests are emailed
-- by the claim-then-send protocol of the other documents. secrets holds
-- the key that signs the unsubscribe links, made once for every replica.

-- +goose Up
ALTER TABLE users ADD COLUMN digest_at BIGINT;

CREATE TABLE notification_prefs (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    mode    TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
);

CREATE TABLE digests (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (id),
    daily           BOOLEAN NOT NULL,
    created_at      BIGINT NOT NULL,
    mail_claim      TEXT,
    mail_claimed_at BIGINT,
    sent_at         BIGINT,
    mail_attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX digests_unsent ON digests (sent_at);
CREATE INDEX digests_user ON digests (user_id, created_at);

CREATE TABLE notifications (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,
    line       TEXT NOT NULL,
    link       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    digest_id  TEXT REFERENCES digests (id)
);
CREATE INDEX notifications_pending ON notifications (digest_id, user_id);

CREATE TABLE secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE secrets;
DROP TABLE notifications;
DROP TABLE digests;
DROP TABLE notification_prefs;
ALTER TABLE users DROP COLUMN digest_at;
