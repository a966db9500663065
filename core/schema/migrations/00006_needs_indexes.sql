-- No query reads needs by product across shops: every read names the shop
-- (the unique (distributor, product, month) and (distributor, month) serve
-- them). The (product, month) index only cost each need's write — a fifth
-- of an Excel import's time. See docs/BENCHMARKS.md.

-- +goose Up
DROP INDEX needs_product_month;

-- +goose Down
CREATE INDEX needs_product_month ON needs (product_id, month);
