-- What the producer's PA's Directory Service said of a document's buyer
-- when the pa job took the document up, before its deposit (issue 38):
-- 'found' (the buyer's SIREN has a directory line whose platform
-- receives), 'absent' (it has none: its platform may never get the
-- invoice), or '' (not asked: the connection has no directory URL, the
-- buyer no SIREN, or the directory did not answer). Never a reason not to
-- deposit.

-- +goose Up
ALTER TABLE pa_deposits ADD COLUMN directory TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE pa_deposits DROP COLUMN directory;
