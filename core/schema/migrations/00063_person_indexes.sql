-- What a person did (issue 41, PRODUCT §13 "Teams"), read by their data
-- export (core/mydata, personne.json) through an index on the person.

-- +goose Up
CREATE INDEX events_person ON events (person_id, created_at);
CREATE INDEX payments_person ON payments (person_id);

-- +goose Down
DROP INDEX payments_person;
DROP INDEX events_person;
