-- Proposals by need. The partial unique indexes of 00002 only serve queries
-- that name a status, so reading one need's proposals (every trade and need
-- write locks the need and reads them) and joining a shop's needs to their
-- proposals (the user load, GET /api/needs) scanned the whole table: on
-- SQLite the join of 3,600 needs took 1.8 s. See docs/BENCHMARKS.md.

-- +goose Up
CREATE INDEX proposals_need ON proposals (need_id);

-- +goose Down
DROP INDEX proposals_need;
