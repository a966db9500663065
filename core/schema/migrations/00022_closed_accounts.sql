-- Closed accounts (PRODUCT §13 "Closing an account"): an account its user
-- closed is anonymised and kept — its invoices and credit notes must stay
-- 10 years (art. L123-22 C. com.) and carry the legal details they were
-- issued with, which they store — with the time it was closed, so that the
-- map and the lists leave it out.

-- +goose Up
ALTER TABLE users ADD COLUMN closed_at BIGINT;

-- +goose Down
ALTER TABLE users DROP COLUMN closed_at;
