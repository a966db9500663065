-- A producer's payment terms (PRODUCT §16 "Payment terms", core/terms): the
-- basis of the term (days after the end of the décade of the first delivery
-- billed, or after the end of its month), the days, and an early-payment
-- discount in hundredths of a percent with its window in days (0: none).
-- Every account gets the legal maximum (30 days after the décade, no
-- discount); only producers' terms are used.

-- +goose Up
ALTER TABLE users ADD COLUMN payment_basis TEXT NOT NULL DEFAULT 'decade';
ALTER TABLE users ADD COLUMN payment_days INTEGER NOT NULL DEFAULT 30;
ALTER TABLE users ADD COLUMN payment_discount INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN payment_discount_days INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN payment_discount_days;
ALTER TABLE users DROP COLUMN payment_discount;
ALTER TABLE users DROP COLUMN payment_days;
ALTER TABLE users DROP COLUMN payment_basis;
