-- Throttling counts attempts, not failures (issue 13): every login and
-- registration is counted before the password is hashed, by one atomic
-- upsert that returns the new count, in fixed windows per key (core/accounts,
-- docs/SECURITY.md "Login throttling"). The table now also holds the
-- registration counters and the addresses an account logged in from, so it
-- is renamed, and its columns say what they hold: attempts in the window,
-- and the window's end (after which the row starts over, or is purged).

-- +goose Up
ALTER TABLE login_throttle RENAME TO throttle;
ALTER TABLE throttle RENAME COLUMN failures TO attempts;
ALTER TABLE throttle RENAME COLUMN blocked_until TO window_end;

-- +goose Down
ALTER TABLE throttle RENAME COLUMN window_end TO blocked_until;
ALTER TABLE throttle RENAME COLUMN attempts TO failures;
ALTER TABLE throttle RENAME TO login_throttle;
