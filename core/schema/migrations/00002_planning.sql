-- The product catalogue, the shops' needs and the proposals made on them.
-- Quantities are BIGINT hundredths of the unit (kg or piece); money is BIGINT
-- cents. Migration 00003 (Go) loads the catalogue from core/catalog.

-- +goose Up
CREATE TABLE products (
    id        TEXT PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    name_key  TEXT NOT NULL UNIQUE,
    unit      TEXT NOT NULL CHECK (unit IN ('kg', 'un')),
    share     INTEGER NOT NULL,
    ref_price BIGINT NOT NULL,
    coefs     TEXT NOT NULL
);

CREATE TABLE needs (
    id             TEXT PRIMARY KEY,
    distributor_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    product_id     TEXT NOT NULL REFERENCES products (id),
    month          TEXT NOT NULL,
    quantity       BIGINT NOT NULL CHECK (quantity >= 0),
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    UNIQUE (distributor_id, product_id, month)
);
CREATE INDEX needs_distributor_month ON needs (distributor_id, month);
CREATE INDEX needs_product_month ON needs (product_id, month);

-- Per need and producer: at most one commitment (status accepted) and at
-- most one open proposal (proposed or rejected); origin is PRODUCT's `from`.
CREATE TABLE proposals (
    id          TEXT PRIMARY KEY,
    need_id     TEXT NOT NULL REFERENCES needs (id) ON DELETE CASCADE,
    producer_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status      TEXT NOT NULL CHECK (status IN ('proposed', 'accepted', 'rejected')),
    origin      TEXT NOT NULL CHECK (origin IN ('producer', 'distributor')),
    quantity    BIGINT NOT NULL CHECK (quantity >= 0),
    price       BIGINT NOT NULL CHECK (price >= 0),
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX proposals_commitment ON proposals (need_id, producer_id) WHERE status = 'accepted';
CREATE UNIQUE INDEX proposals_open ON proposals (need_id, producer_id) WHERE status <> 'accepted';
CREATE INDEX proposals_producer ON proposals (producer_id);

-- +goose Down
DROP TABLE proposals;
DROP TABLE needs;
DROP TABLE products;
