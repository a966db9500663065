-- Orders and their deliveries (PRODUCT §15, §16). An order is one producer
-- supplying one shop for one month; its deliveries fall on the producer's
-- delivery days and carry one line per committed product. Written by
-- core/trade (planning deliveries from commitments) and core/delivery
-- (the shop's changes, the lock, claims); read by core/supply.

-- +goose Up
CREATE TABLE orders (
    id             TEXT PRIMARY KEY,
    producer_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    distributor_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    month          TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    UNIQUE (producer_id, distributor_id, month)
);
CREATE INDEX orders_distributor ON orders (distributor_id, month);

-- chrono: the producer's delivery-note number, sequential, never reused.
CREATE TABLE deliveries (
    id                TEXT PRIMARY KEY,
    order_id          TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    producer_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status            TEXT NOT NULL CHECK (status IN ('planned', 'done', 'cancelled')),
    date              TEXT NOT NULL,
    chrono            BIGINT NOT NULL,
    claim_status      TEXT NOT NULL DEFAULT 'void' CHECK (claim_status IN ('void', 'sent', 'accepted', 'rejected')),
    claim_sent_at     BIGINT,
    claim_reviewed_at BIGINT,
    note_sent_at      BIGINT,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    UNIQUE (producer_id, chrono)
);
CREATE INDEX deliveries_order ON deliveries (order_id);
CREATE INDEX deliveries_status_date ON deliveries (status, date);

-- quantity_sent is NULL until the shop sets it or the lock defaults it to
-- quantity_expected; quantity_claimed is the producer's signed adjustment.
CREATE TABLE delivery_lines (
    id                TEXT PRIMARY KEY,
    delivery_id       TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    need_id           TEXT NOT NULL REFERENCES needs (id),
    product_id        TEXT NOT NULL REFERENCES products (id),
    price             BIGINT NOT NULL CHECK (price >= 0),
    quantity_expected BIGINT NOT NULL CHECK (quantity_expected >= 0),
    quantity_sent     BIGINT CHECK (quantity_sent >= 0),
    quantity_claimed  BIGINT NOT NULL DEFAULT 0,
    claim_type        TEXT NOT NULL DEFAULT '' CHECK (claim_type IN ('', 'quality', 'quantity')),
    claim_comment     TEXT NOT NULL DEFAULT '',
    UNIQUE (delivery_id, product_id)
);
CREATE INDEX delivery_lines_need ON delivery_lines (need_id);

-- Named sequences (delivery chronos per producer, invoice numbers per
-- producer and year), advanced under the row lock of their transaction.
CREATE TABLE counters (
    key   TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

-- +goose Down
DROP TABLE counters;
DROP TABLE delivery_lines;
DROP TABLE deliveries;
DROP TABLE orders;
