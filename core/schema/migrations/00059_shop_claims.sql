-- Who sent a delivery's claim (issue 40, PRODUCT §16 "Claims"): the
-- producer (its claim on a done delivery, answered by the shop) or the shop
-- (what its reception counted otherwise than the note — a quantity short,
-- a quality refused —, answered by the producer). A delivery has one claim
-- either way: the claim columns of deliveries and delivery_lines hold it,
-- and billing settles an accepted one the same way whoever sent it.

-- +goose Up
ALTER TABLE deliveries ADD COLUMN claim_by TEXT NOT NULL DEFAULT 'producer' CHECK (claim_by IN ('producer', 'shop'));

-- +goose Down
ALTER TABLE deliveries DROP COLUMN claim_by;
