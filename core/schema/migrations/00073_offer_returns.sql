-- What a take of an offer gave back to it (issue 39, PRODUCT §3
-- "Offers"): a commitment made from an offer (core/offers.Take) holds at
-- most what it commits, so an accepted correction that lowers it, or ends
-- it, gives the difference back to the offer's remaining
-- (core/trade's giveBack). returned counts what the take gave back, so
-- that a quantity is given back once: the take holds quantity - returned.
-- The takes of a need are found by their need.

-- +goose Up
ALTER TABLE offer_takes ADD COLUMN returned BIGINT NOT NULL DEFAULT 0 CHECK (returned >= 0);
CREATE INDEX offer_takes_need ON offer_takes (need_id);

-- +goose Down
DROP INDEX offer_takes_need;
ALTER TABLE offer_takes DROP COLUMN returned;
