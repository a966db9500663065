-- Producers' own products (issue 39, PRODUCT §3 "Producers' products"):
-- what a producer sells, each of a catalogue product type (products), with
-- its own name, its sale unit and that unit's quantity in the type's unit
-- (unit_quantity, hundredths: 150 is a "pièce de 1,5 kg" of a type in kg),
-- its labels, its months of availability (twelve '0'/'1', January first),
-- its reference price HT per unit of the type (cents) and its photo in three
-- sizes. Named after the Data Food Consortium's SuppliedProduct; written by
-- core/supplied. A product is never deleted while a proposal may name it:
-- removing it sets retired_at.

-- +goose Up
CREATE TABLE supplied_products (
    id            TEXT PRIMARY KEY,
    producer_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    product_id    TEXT NOT NULL REFERENCES products (id),
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL,
    packaging     TEXT NOT NULL DEFAULT '',
    unit_quantity BIGINT NOT NULL CHECK (unit_quantity > 0),
    certifier     TEXT NOT NULL DEFAULT '',
    months        TEXT NOT NULL CHECK (length(months) = 12),
    ref_price     BIGINT NOT NULL CHECK (ref_price >= 0),
    retired_at    BIGINT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX supplied_products_name ON supplied_products (producer_id, name_key) WHERE retired_at IS NULL;
CREATE INDEX supplied_products_type ON supplied_products (product_id);

-- A product's labels (DFC: its labelling characteristics), one row each, so
-- that producers are found by label.
CREATE TABLE supplied_product_labels (
    supplied_product_id TEXT NOT NULL REFERENCES supplied_products (id) ON DELETE CASCADE,
    label               TEXT NOT NULL CHECK (label IN ('ab', 'conversion', 'label-rouge', 'aop', 'igp', 'hve', 'nature-progres')),
    PRIMARY KEY (supplied_product_id, label)
);
CREATE INDEX supplied_product_labels_label ON supplied_product_labels (label, supplied_product_id);

-- A product's photo, made by core/images in three sizes, each an image of
-- its own (table images: in the database, so that backups and every replica
-- have them). An image id is never reused, so its URL is cached for good.
CREATE TABLE supplied_product_photos (
    image_id            TEXT PRIMARY KEY REFERENCES images (id) ON DELETE CASCADE,
    supplied_product_id TEXT NOT NULL REFERENCES supplied_products (id) ON DELETE CASCADE,
    size                TEXT NOT NULL CHECK (size IN ('small', 'medium', 'large')),
    UNIQUE (supplied_product_id, size)
);

-- +goose Down
DROP TABLE supplied_product_photos;
DROP TABLE supplied_product_labels;
DROP TABLE supplied_products;
