-- Password resets (PRODUCT §13 "Password reset"): a link sent by email,
-- valid one hour, used once. Like sessions, the table keeps only the
-- SHA-256 of the link's token: a copy of the database opens no account.

-- +goose Up
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX password_resets_user ON password_resets (user_id);
CREATE INDEX password_resets_expires ON password_resets (expires_at);

-- +goose Down
DROP TABLE password_resets;
