-- Teams (issue 41, PRODUCT §13 "Teams"): a row of users is an
-- organisation (a shop or a farm; every table of trade, documents and
-- payments keeps pointing at it), a row of people is one login (an email,
-- a password, a name), members says which people belong to which
-- organisation with which role, invitations are the single-use links an
-- owner sends.
--
-- Each account of today becomes a person with the same id, email and
-- password hash, owner of its own organisation: its sessions stay open,
-- now the person's in that organisation. A closed account's person is
-- closed, without membership. A shop's accounting email, where it is not
-- the shop's own address, becomes an accountant's invitation already
-- expired: nobody holds its link (its token_hash is no SHA-256), the owner
-- sends it again from the Team screen, and until then the invoices keep
-- going to that address as before (users.email_accounting is kept).

-- +goose Up
CREATE TABLE people (
    id              TEXT PRIMARY KEY,
    email           TEXT NOT NULL,
    email_key       TEXT NOT NULL UNIQUE,
    email_confirmed TEXT NOT NULL DEFAULT '',
    name            TEXT NOT NULL,
    password_hash   TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    closed_at       BIGINT
);

CREATE TABLE members (
    person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    org_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'buyer', 'receiver', 'sales', 'delivery', 'accountant')),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (person_id, org_id)
);
CREATE INDEX members_org ON members (org_id, role);

CREATE TABLE invitations (
    id         TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    org_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    email_key  TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'buyer', 'receiver', 'sales', 'delivery', 'accountant')),
    invited_by TEXT REFERENCES people (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX invitations_org ON invitations (org_id, email_key);

-- A session is a person's, in the organisation of user_id.
ALTER TABLE sessions ADD COLUMN person_id TEXT;
CREATE INDEX sessions_person ON sessions (person_id, user_id);

-- Who did it: the person behind an event or a payment recorded (NULL
-- before teams, or for what the platform did).
ALTER TABLE events ADD COLUMN person_id TEXT;
ALTER TABLE payments ADD COLUMN person_id TEXT;

INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at, closed_at)
    SELECT id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at, closed_at FROM users;
INSERT INTO members (person_id, org_id, role, created_at, updated_at)
    SELECT id, id, 'owner', created_at, created_at FROM users WHERE closed_at IS NULL;
UPDATE sessions SET person_id = user_id;
INSERT INTO invitations (id, token_hash, org_id, email, email_key, role, invited_by, created_at, expires_at, used_at)
    SELECT 'migrated-' || id, 'migrated-' || id, id, TRIM(email_accounting), LOWER(TRIM(email_accounting)), 'accountant', id, updated_at, 0, NULL
    FROM users
    WHERE type = 'distributor' AND closed_at IS NULL AND TRIM(email_accounting) <> '' AND LOWER(TRIM(email_accounting)) <> email_key;

-- +goose Down
ALTER TABLE payments DROP COLUMN person_id;
ALTER TABLE events DROP COLUMN person_id;
DROP INDEX sessions_person;
ALTER TABLE sessions DROP COLUMN person_id;
DROP TABLE invitations;
DROP TABLE members;
DROP TABLE people;
