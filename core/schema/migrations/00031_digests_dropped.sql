-- Digests dropped (PRODUCT §16 "Notifications"): a digest whose account
-- was closed, or whose lines all went, after it was made has nothing to
-- say and is not emailed. The notifications job records when it dropped
-- it; sent_at stays empty, since it was never sent, and the job selects and
-- claims only the digests neither sent nor dropped.

-- +goose Up
ALTER TABLE digests ADD COLUMN dropped_at BIGINT;

-- +goose Down
ALTER TABLE digests DROP COLUMN dropped_at;
