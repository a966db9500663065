-- The Encaissée (212) status a producer's PA receives from Primeur once an
-- invoice is paid in full (issue 38, the pa job of core/jobs): cashed_at is
-- when a run took it up (claimed, then posted as a CDAR lifecycle flow);
-- cashed_error the PA's refusal in French ('' for none), after which it is
-- not posted again.

-- +goose Up
ALTER TABLE pa_deposits ADD COLUMN cashed_at BIGINT;
ALTER TABLE pa_deposits ADD COLUMN cashed_error TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE pa_deposits DROP COLUMN cashed_error;
ALTER TABLE pa_deposits DROP COLUMN cashed_at;
