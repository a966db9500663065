-- Email confirmation (PRODUCT §13 "Confirming an email"): an address
-- receives documents and notifications only once a link sent to it was
-- opened. email_confirmed holds the login email as confirmed (its key),
-- accounting_confirmed the shop's accounting email as confirmed: an
-- address is confirmed while it equals what was confirmed, so a changed
-- address is unconfirmed by construction. The accounts that exist when
-- this runs keep receiving what they received: they count as confirmed.
--
-- email_confirmations holds the links, like password_resets only the
-- SHA-256 of their token: purpose "account" confirms the login email (at
-- registration), "change" a new login email that replaces the old one once
-- confirmed, "accounting" a shop's accounting email. email is the address
-- the link was sent to.

-- +goose Up
ALTER TABLE users ADD COLUMN email_confirmed TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN accounting_confirmed TEXT NOT NULL DEFAULT '';
UPDATE users SET email_confirmed = email_key, accounting_confirmed = LOWER(TRIM(email_accounting));
CREATE INDEX users_email_confirmed ON users (email_confirmed);
CREATE INDEX users_accounting_confirmed ON users (accounting_confirmed);

CREATE TABLE email_confirmations (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    email      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX email_confirmations_user ON email_confirmations (user_id, purpose);
CREATE INDEX email_confirmations_expires ON email_confirmations (expires_at);

-- +goose Down
DROP TABLE email_confirmations;
DROP INDEX users_accounting_confirmed;
DROP INDEX users_email_confirmed;
ALTER TABLE users DROP COLUMN accounting_confirmed;
ALTER TABLE users DROP COLUMN email_confirmed;
