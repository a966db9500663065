-- The price comparison (PRODUCT §15 "Price comparison"): per product and
-- month of the need, the average price of the commitments in force on the
-- whole platform (area 'FR') and in each département (area '74', '2A',
-- '971'…), with the number of purchases and of distinct buyers and sellers
-- behind it, so that a figure is shown only when at least 3 of each back
-- it. Like price_months, sums kept by core/trade in the transaction that
-- accepts a commitment, so that reading a comparison costs two rows.
--
-- price_pairs records, per shop and producer, the commitments counted and
-- the département they count in (the shop's when the pair's first one
-- counted), so that a change is taken off where it was added even after
-- the shop moved. price_members counts each buyer's and seller's purchases
-- per area: a member joins the area's distinct count when its purchases
-- leave zero and leaves it when they return to zero. Migration 19 (Go)
-- fills the three tables from the commitments already there.

-- +goose Up
CREATE TABLE price_pairs (
    product_id  TEXT NOT NULL,
    month       TEXT NOT NULL,
    shop_id     TEXT NOT NULL,
    producer_id TEXT NOT NULL,
    area        TEXT NOT NULL, -- the département, '' when the address has no postcode
    purchases   BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, shop_id, producer_id)
);

CREATE TABLE price_members (
    product_id TEXT NOT NULL,
    month      TEXT NOT NULL,
    area       TEXT NOT NULL,
    side       TEXT NOT NULL CHECK (side IN ('buyer', 'seller')),
    member_id  TEXT NOT NULL,
    purchases  BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, area, side, member_id)
);

CREATE TABLE price_areas (
    product_id TEXT NOT NULL,
    month      TEXT NOT NULL,
    area       TEXT NOT NULL, -- 'FR' for the whole platform, else a département
    amount     BIGINT NOT NULL, -- Σ quantity (hundredths) × price (cents)
    quantity   BIGINT NOT NULL, -- Σ quantity (hundredths)
    purchases  BIGINT NOT NULL, -- commitments in force
    buyers     BIGINT NOT NULL, -- distinct shops among them
    sellers    BIGINT NOT NULL, -- distinct producers among them
    PRIMARY KEY (product_id, month, area)
);

-- +goose Down
DROP TABLE price_areas;
DROP TABLE price_members;
DROP TABLE price_pairs;
