-- A producer suggests a product type the catalogue lacks (issue 39,
-- PRODUCT §3 "Suggesting a type"): its name, family and unit, and a note.
-- An administrator accepts it (the type is created: product_id names it)
-- or merges it into an existing type (product_id names that one), from
-- the CLI (primeur catalogue suggestions, accept, merge-suggestion); the
-- producer reads the outcome in its list.

-- +goose Up
CREATE TABLE type_suggestions (
    id          TEXT PRIMARY KEY,
    producer_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    family_id   TEXT NOT NULL REFERENCES families (id),
    unit        TEXT NOT NULL,
    note        TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'merged')),
    product_id  TEXT REFERENCES products (id),
    created_at  BIGINT NOT NULL,
    decided_at  BIGINT
);
CREATE INDEX type_suggestions_producer ON type_suggestions (producer_id, created_at);
CREATE INDEX type_suggestions_status ON type_suggestions (status, created_at);

-- +goose Down
DROP TABLE type_suggestions;
