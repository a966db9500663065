-- The way back of a login email change (PRODUCT §13 "Changing the login
-- email", issue 33): when a new login email is confirmed, the address it
-- replaced receives a link (email_confirmations, purpose "revert", valid 7
-- days) that restores it. While that link lives, the address stays the
-- account's: no other account may register it or change to it, so that
-- whoever took the account cannot block the way back by taking the old
-- address. email_key is the address's unique form (accounts.EmailKey),
-- written for every link from this version and looked up by the holds;
-- the links made before keep '' (none of them is a way back).

-- +goose Up
ALTER TABLE email_confirmations ADD COLUMN email_key TEXT NOT NULL DEFAULT '';
CREATE INDEX email_confirmations_key ON email_confirmations (email_key);

-- +goose Down
DROP INDEX email_confirmations_key;
ALTER TABLE email_confirmations DROP COLUMN email_key;
