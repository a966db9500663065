-- A proposal names one of the producer's own products (issue 39, PRODUCT §3
-- "Producers' products"; DFC: the offer of a supplied product): NULL when
-- it names only the need's product type, as every proposal before did. The
-- commitment keeps it (an acceptance changes the row's status), and the
-- delivery notes and invoices of its lines name the product.

-- +goose Up
ALTER TABLE proposals ADD COLUMN supplied_product_id TEXT REFERENCES supplied_products (id);

-- +goose Down
ALTER TABLE proposals DROP COLUMN supplied_product_id;
