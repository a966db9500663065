-- Password reset links of a member's own login (issue 41, PRODUCT §13
-- "Teams"): a person who founded no organisation has no row of users,
-- where password_resets points. Like password_resets: the SHA-256 of the
-- link's token, valid an hour, used once.

-- +goose Up
CREATE TABLE person_resets (
    token_hash TEXT PRIMARY KEY,
    person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX person_resets_person ON person_resets (person_id);
CREATE INDEX person_resets_expires ON person_resets (expires_at);

-- +goose Down
DROP TABLE person_resets;
