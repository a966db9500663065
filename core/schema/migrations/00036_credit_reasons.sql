-- The reason of each line of a credit note or complementary invoice
-- (PRODUCT §16 "Credit notes", issue 32): the type of the claim it settles
-- — quality (a réfaction for non-conformity) or quantity (a quantity
-- correction) — and the producer's comment, copied from the delivery line
-- when the document is issued, so that the document states why it corrects
-- the invoice and never changes afterwards. The documents issued before
-- keep their lines as they were: no reason, as they were sent.

-- +goose Up
ALTER TABLE credit_note_lines ADD COLUMN claim_type TEXT NOT NULL DEFAULT '';
ALTER TABLE credit_note_lines ADD COLUMN claim_comment TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE credit_note_lines DROP COLUMN claim_comment;
ALTER TABLE credit_note_lines DROP COLUMN claim_type;
