-- Accounts, sessions, login throttling and the activity feed.
-- One SQL text for SQLite and PostgreSQL: times are BIGINT Unix milliseconds,
-- identifiers are opaque TEXT (UUIDv7), booleans are BOOLEAN.

-- +goose Up
CREATE TABLE users (
    id                    TEXT PRIMARY KEY,
    type                  TEXT NOT NULL CHECK (type IN ('producer', 'distributor')),
    email                 TEXT NOT NULL,
    email_key             TEXT NOT NULL UNIQUE,
    name                  TEXT NOT NULL,
    password_hash         TEXT NOT NULL,
    capital               TEXT NOT NULL DEFAULT '',
    bic                   TEXT NOT NULL DEFAULT '',
    ape                   TEXT NOT NULL DEFAULT '',
    iban                  TEXT NOT NULL DEFAULT '',
    siret                 TEXT NOT NULL DEFAULT '',
    tel                   TEXT NOT NULL DEFAULT '',
    tvaintracom           TEXT NOT NULL DEFAULT '',
    address_line1         TEXT NOT NULL DEFAULT '',
    address_line2         TEXT NOT NULL DEFAULT '',
    address_line3         TEXT NOT NULL DEFAULT '',
    latitude              TEXT NOT NULL DEFAULT '',
    longitude             TEXT NOT NULL DEFAULT '',
    certification         TEXT NOT NULL DEFAULT '',
    legal                 TEXT NOT NULL DEFAULT '',
    delivery_days         TEXT NOT NULL DEFAULT '0000000',
    email_accounting      TEXT NOT NULL DEFAULT '',
    billing_address_line1 TEXT NOT NULL DEFAULT '',
    billing_address_line2 TEXT NOT NULL DEFAULT '',
    billing_address_line3 TEXT NOT NULL DEFAULT '',
    billing_mandate_at    BIGINT,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL
);
CREATE INDEX users_type ON users (type);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE login_throttle (
    key           TEXT PRIMARY KEY,
    failures      INTEGER NOT NULL,
    window_start  BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL
);

CREATE TABLE events (
    id         TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    origin_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    target_id  TEXT REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX events_origin ON events (origin_id, created_at);
CREATE INDEX events_target ON events (target_id, created_at);

-- +goose Down
DROP TABLE events;
DROP TABLE login_throttle;
DROP TABLE sessions;
DROP TABLE users;
