-- A delivery's fee fixed at its lock (issue 40, PRODUCT §16 "Minimum order
-- and delivery fees"): the fee of the (producer, shop) pair's terms as they
-- stand when the delivery locks (12:00 on its date, or its reception), on
-- the amount HT of its goods as sent, in hundredths of a euro HT; 0 when
-- none is due. The month's invoice bills it, so that a change of terms in
-- the middle of a month applies only to the deliveries locked after it.
-- NULL for a delivery not locked yet, and for those locked before this
-- migration, which the invoice bills at the terms of its issue as before.

-- +goose Up
ALTER TABLE deliveries ADD COLUMN fee BIGINT CHECK (fee >= 0);

-- +goose Down
ALTER TABLE deliveries DROP COLUMN fee;
