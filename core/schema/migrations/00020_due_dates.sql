-- The reminders job reads the accounts of the pairs with a document due in
-- the last 90 days (payments.DueAccounts), found by due date rather than by
-- reading every invoice of the platform's history.

-- +goose Up
CREATE INDEX invoices_due ON invoices (due_date);
CREATE INDEX credit_notes_due ON credit_notes (due_date);

-- +goose Down
DROP INDEX credit_notes_due;
DROP INDEX invoices_due;
