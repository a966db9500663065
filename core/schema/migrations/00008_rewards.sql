-- The ambassador programme (PRODUCT §1 "Rewards", §9): a shop's pledged
-- monthly contribution, pay-what-you-want with a 10 € minimum. One row per
-- shop while the pledge stands; ending it deletes the row. No payment is
-- taken yet: the row records the commitment the levels of core/rewards read.

-- +goose Up
CREATE TABLE contributions (
    distributor_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    amount         BIGINT NOT NULL CHECK (amount >= 1000),
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

-- +goose Down
DROP TABLE contributions;
