-- Offers a shop can take (issue 39, PRODUCT §3 "Offers"; DFC: Offer): a
-- producer posts availability or a surplus of one of its own products
-- (supplied_products) for a month — a quantity in the type's unit and a
-- unit price HT (cents) —, which a shop turns into its need and an
-- accepted proposal in one step (core/offers.Take). remaining is what
-- shops have not taken yet; each take is kept (offer_takes) with the need
-- it filled. An offer is never deleted once taken: withdrawing it sets
-- withdrawn_at.

-- +goose Up
CREATE TABLE offers (
    id                  TEXT PRIMARY KEY,
    producer_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    supplied_product_id TEXT NOT NULL REFERENCES supplied_products (id),
    month               TEXT NOT NULL,
    quantity            BIGINT NOT NULL CHECK (quantity > 0),
    remaining           BIGINT NOT NULL CHECK (remaining >= 0 AND remaining <= quantity),
    price               BIGINT NOT NULL CHECK (price > 0),
    withdrawn_at        BIGINT,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
);
CREATE INDEX offers_producer ON offers (producer_id, month);
CREATE INDEX offers_month ON offers (month, remaining);

CREATE TABLE offer_takes (
    id             TEXT PRIMARY KEY,
    offer_id       TEXT NOT NULL REFERENCES offers (id) ON DELETE CASCADE,
    distributor_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    need_id        TEXT NOT NULL,
    quantity       BIGINT NOT NULL CHECK (quantity > 0),
    created_at     BIGINT NOT NULL
);
CREATE INDEX offer_takes_offer ON offer_takes (offer_id);
CREATE INDEX offer_takes_distributor ON offer_takes (distributor_id);

-- +goose Down
DROP TABLE offer_takes;
DROP TABLE offers;
