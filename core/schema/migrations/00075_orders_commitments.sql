-- The commitments an order plans from, kept on the order (issue 42, the
-- proposal round-trip): its producer's accepted proposals on its shop's
-- needs of its month, as core/trade's re-plan reads them, written by each
-- acceptance in its transaction (core/trade's keptCommitments). An
-- acceptance re-plans from them instead of reading the commitments again
-- under the write lock. NULL: not known, read them (every order until its
-- next acceptance; an order whose commitments another writer changed — a
-- merge of product types, core/trade's MovePrices — is set back to NULL).

-- +goose Up
ALTER TABLE orders ADD COLUMN commitments TEXT;

-- +goose Down
ALTER TABLE orders DROP COLUMN commitments;
