-- The re-plan of an order after an acceptance (issue 20, the proposal
-- round-trip) reads the shop's needs of the month and probes the
-- producer's commitment on each (core/trade/replan.go): with the product
-- and the id in the index, SQLite reads the needs from the index alone
-- instead of looking each one up in the table (PostgreSQL can scan it
-- index-only). Every query on (distributor_id, month) is served as before.

-- +goose Up
DROP INDEX needs_distributor_month;
CREATE INDEX needs_distributor_month ON needs (distributor_id, month, product_id, id);

-- +goose Down
DROP INDEX needs_distributor_month;
CREATE INDEX needs_distributor_month ON needs (distributor_id, month);
