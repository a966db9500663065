-- A producer's minimum order and delivery fees (issue 40, "Minimum order and
-- delivery fees"; PRODUCT §16 "Minimum order and delivery fees"), written by
-- core/fees. Amounts in cents HT. delivery_terms holds the producer's terms
-- for every shop: the minimum amount of goods per delivery (0: none), the
-- flat fee, the fee by distance band (bands: a JSON array of
-- {"upToKm", "fee"}, by increasing distance; '' or '[]' none) and the amount
-- of goods from which a delivery is free (0: never). delivery_terms_shops
-- holds its exceptions for one shop: a minimum and a fee replacing the
-- producer's, each NULL to keep the producer's.

-- +goose Up
CREATE TABLE delivery_terms (
    producer_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    minimum     BIGINT NOT NULL DEFAULT 0,
    fee         BIGINT NOT NULL DEFAULT 0,
    bands       TEXT NOT NULL DEFAULT '',
    free_above  BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE delivery_terms_shops (
    producer_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    shop_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    minimum     BIGINT,
    fee         BIGINT,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (producer_id, shop_id)
);

-- +goose Down
DROP TABLE delivery_terms_shops;
DROP TABLE delivery_terms;
