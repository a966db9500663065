-- The periodic jobs look for work to do — delivery notes to email (every
-- 5 minutes), claims waiting for the shop (hourly) — among the deliveries.
-- Through (status, date) the notes query read every done delivery of the
-- platform's history, and the claims query had no index at all: at 200
-- shops and a year of deliveries, 0.7 s and 0.2 s per run on SQLite, growing
-- with the history (docs/BENCHMARKS.md). These partial indexes hold only the
-- pending rows (notes unsent: done ones due, planned ones to come; claims
-- sent), so the jobs' reads follow the work to do. Their columns are those
-- SQLite's planner, without statistics, prefers over (status, date) and the
-- primary key: the queries' equality, range and ORDER BY.

-- +goose Up
CREATE INDEX deliveries_notes_due ON deliveries (status, date, id) WHERE note_sent_at IS NULL;
CREATE INDEX deliveries_claims_sent ON deliveries (id) WHERE claim_status = 'sent';

-- +goose Down
DROP INDEX deliveries_claims_sent;
DROP INDEX deliveries_notes_due;
