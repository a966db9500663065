-- When an account's IBAN last changed (PRODUCT §13 "Changing the bank
-- details"), in Unix milliseconds: for 30 days after, a shop preparing a
-- transfer to the producer is told, with the date, to check the new IBAN
-- with the producer before paying (the "changement de RIB" fraud). NULL:
-- not changed since this column exists.

-- +goose Up
ALTER TABLE users ADD COLUMN iban_changed_at BIGINT;

-- +goose Down
ALTER TABLE users DROP COLUMN iban_changed_at;
