-- Notifications per person (issue 41, PRODUCT §16 "Notifications" and §13
-- "Teams"): a notification concerns the members of an organisation whose
-- role it is about (core/notify's audience), each with their own
-- choices. A line of notifications is now one person's in one
-- organisation (person_id, user_id); a digest too; the hourly limit is
-- each membership's (members.digest_at); the choices are each
-- membership's (member_prefs), their row going with the membership.
--
-- Before, everything was the organisation's: its lines, digests, last
-- digest and choices become its founder's, the person of the same id who
-- owns it (migration 61).

-- +goose Up
ALTER TABLE members ADD COLUMN digest_at BIGINT;
UPDATE members SET digest_at = (SELECT u.digest_at FROM users u WHERE u.id = members.org_id)
    WHERE person_id = org_id;

CREATE TABLE member_prefs (
    person_id TEXT NOT NULL,
    org_id    TEXT NOT NULL,
    kind      TEXT NOT NULL,
    mode      TEXT NOT NULL,
    PRIMARY KEY (person_id, org_id, kind),
    FOREIGN KEY (person_id, org_id) REFERENCES members (person_id, org_id) ON DELETE CASCADE
);
INSERT INTO member_prefs (person_id, org_id, kind, mode)
    SELECT p.user_id, p.user_id, p.kind, p.mode FROM notification_prefs p
    JOIN members m ON m.person_id = p.user_id AND m.org_id = p.user_id;
DROP TABLE notification_prefs;

ALTER TABLE notifications ADD COLUMN person_id TEXT;
UPDATE notifications SET person_id = user_id;
CREATE INDEX notifications_person ON notifications (digest_id, person_id, user_id);

ALTER TABLE digests ADD COLUMN person_id TEXT;
UPDATE digests SET person_id = user_id;

-- A member's login confirmed receives what concerns them: the jobs seek
-- the addresses they send to in it (accounts.ConfirmedSQL).
CREATE INDEX people_email_confirmed ON people (email_confirmed);

-- +goose Down
DROP INDEX people_email_confirmed;
ALTER TABLE digests DROP COLUMN person_id;
DROP INDEX notifications_person;
ALTER TABLE notifications DROP COLUMN person_id;
CREATE TABLE notification_prefs (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    mode    TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
INSERT INTO notification_prefs (user_id, kind, mode)
    SELECT org_id, kind, mode FROM member_prefs WHERE person_id = org_id;
DROP TABLE member_prefs;
ALTER TABLE members DROP COLUMN digest_at;
