-- The accounts a user's accounting export posts to (PRODUCT §16 "Export for
-- the platform and the accountant", core/accounting): one row per purpose
-- the user set to a number other than Primeur's default — a producer's
-- customers (411), sales (701), VAT collected (44571), discounts given (665);
-- a shop's suppliers (401), purchases (607), VAT deductible (44566),
-- discounts received (765); either side's bank (512) and cash (530). A
-- purpose without a row posts to its default.
--
-- The export reads a month's documents by their own date of issue and its
-- payments by the day they were paid: an index on each.

-- +goose Up
CREATE TABLE ledger_accounts (
    user_id TEXT NOT NULL REFERENCES users (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('customers', 'sales', 'vatCollected', 'discountsGiven',
        'suppliers', 'purchases', 'vatDeductible', 'discountsReceived', 'bank', 'cash')),
    number  TEXT NOT NULL,
    PRIMARY KEY (user_id, purpose)
);
CREATE INDEX invoices_issued ON invoices (issue_date);
CREATE INDEX credit_notes_issued ON credit_notes (issue_date);
CREATE INDEX payments_paid ON payments (paid_on);

-- +goose Down
DROP INDEX payments_paid;
DROP INDEX credit_notes_issued;
DROP INDEX invoices_issued;
DROP TABLE ledger_accounts;
