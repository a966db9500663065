-- What a take of an offer gave back to it (issue 39, PRODUCT §3
-- "Offers"): a commitment made from an offer (core/offers.Take) holds at
-- most what it commits, so an accepted correction that lowers it, or ends
-- it, gives the difference back to the offer's remaining
-- (core/trade's giveBack). returned counts what the take gave back, so
-- that a quantity is given back once: the take holds quantity - returned.
-- The takes of a need are found by their need.
--
-- And the reference price of raw whole milk (PRODUCT §3 "Reference
-- prices", sourced): 0.47 EUR per litre, the price paid to producers for
-- conventional cow's milk at its real contents, January to November 2023
-- (471.5 EUR per 1,000 l, Agreste, 15 January 2024), as core/catalog's
-- types.csv gives it.

-- +goose Up
ALTER TABLE offer_takes ADD COLUMN returned BIGINT NOT NULL DEFAULT 0 CHECK (returned >= 0);
CREATE INDEX offer_takes_need ON offer_takes (need_id);
UPDATE products SET ref_price = 47 WHERE id = 'lait-cru-entier' AND ref_price = 0;

-- +goose Down
UPDATE products SET ref_price = 0 WHERE id = 'lait-cru-entier' AND ref_price = 47;
DROP INDEX offer_takes_need;
ALTER TABLE offer_takes DROP COLUMN returned;
