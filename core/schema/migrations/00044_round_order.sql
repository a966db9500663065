-- The order of a producer's delivery round chosen by hand (issue 40, "The
-- farmer's day"): for one producer and one delivery date, each shop's
-- position in the round. Written by core/dayplan when the producer reorders
-- its stops; without rows the round is the computed one. A shop of the day
-- without a row (a delivery added later) goes at the end; a row of a shop
-- no longer delivered that day is ignored.

-- +goose Up
CREATE TABLE round_stops (
    producer_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    date        TEXT NOT NULL,
    shop_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (producer_id, date, shop_id)
);

-- +goose Down
DROP TABLE round_stops;
