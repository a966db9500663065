-- The index price_cells_area served one read only, the user load's
-- per-product prices (trade.Prices: the national cells of the last twelve
-- months), which the user load no longer carries (issues 35 and 42). The
-- price comparison reads its cells by price_cells' primary key; nothing
-- reads by area and month any more, and every acceptance kept the index up
-- to date for nothing.

-- +goose Up
DROP INDEX price_cells_area;

-- +goose Down
CREATE INDEX price_cells_area ON price_cells (area, month);
