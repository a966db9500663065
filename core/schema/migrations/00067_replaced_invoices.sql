-- A monthly invoice rejected by the producer's approved platform (status
-- 213 Rejetée, or a flow found irrecevable: it failed the compliance
-- checks) is deemed not issued; the producer re-issues it corrected, under
-- a new number of its sequence (issue 38, PRODUCT §16 "Rejected (213) and
-- refused (210)", billing.Replace). In one transaction:
--   - an internal credit note (kind 'credit', internal TRUE, no delivery)
--     cancels the rejected invoice in the producer's books, so that every
--     reader that sums documents counts its amount once: it is never
--     deposited on a PA;
--   - the replacement, an invoice of the same order, is issued;
--   - the rejected invoice is marked: replaced_by names its replacement.
--     Nothing else of an issued document ever changes.
-- An order has one invoice not replaced (the index below, replacing
-- 00040's one invoice per order).

-- +goose Up
ALTER TABLE documents ADD COLUMN replaced_by TEXT;
ALTER TABLE documents ADD COLUMN internal BOOLEAN NOT NULL DEFAULT FALSE;
DROP INDEX documents_invoice_of_order;
CREATE UNIQUE INDEX documents_invoice_of_order ON documents (order_id) WHERE kind = 'invoice' AND replaced_by IS NULL;
CREATE UNIQUE INDEX documents_replaced_by ON documents (replaced_by);

-- +goose Down
DROP INDEX documents_replaced_by;
DROP INDEX documents_invoice_of_order;
CREATE UNIQUE INDEX documents_invoice_of_order ON documents (order_id) WHERE kind = 'invoice';
ALTER TABLE documents DROP COLUMN internal;
ALTER TABLE documents DROP COLUMN replaced_by;
