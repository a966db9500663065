-- The values a counter-proposal replaced (issue 37, finding 2): an open
-- proposal made by one side over the other side's keeps that side and its
-- quantity and price, so that both read it as a counter-proposal and see
-- what it answers. NULL on a first proposal or correction, on the
-- commitment, and on the proposals made before this migration (their
-- previous values were overwritten and are not known). A side modifying
-- its own proposal keeps the values it answered.

-- +goose Up
ALTER TABLE proposals ADD COLUMN previous_origin TEXT;
ALTER TABLE proposals ADD COLUMN previous_quantity BIGINT;
ALTER TABLE proposals ADD COLUMN previous_price BIGINT;

-- +goose Down
ALTER TABLE proposals DROP COLUMN previous_price;
ALTER TABLE proposals DROP COLUMN previous_quantity;
ALTER TABLE proposals DROP COLUMN previous_origin;
