-- The price hint of the user load (PRODUCT §15: per product, the
-- quantity-weighted average price of the commitments of the last 12
-- months, platform-wide) summed per product and month of acceptance, so
-- that reading it costs the same on a platform of 20 shops or 2,000: at
-- most 12 rows per product instead of every commitment of the year
-- (290 ms per user load at 200 shops, docs/BENCHMARKS.md). core/trade keeps
-- it in the transaction that accepts a commitment (the one place
-- commitments change); migration 10 (Go) fills it from the commitments
-- already there.

-- +goose Up
CREATE TABLE price_months (
    product_id TEXT NOT NULL REFERENCES products (id),
    month      TEXT NOT NULL,
    amount     BIGINT NOT NULL, -- Σ quantity (hundredths) × price (cents)
    quantity   BIGINT NOT NULL, -- Σ quantity (hundredths)
    PRIMARY KEY (product_id, month)
);

-- +goose Down
DROP TABLE price_months;
