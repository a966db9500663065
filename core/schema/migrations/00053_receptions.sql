-- The shop's reception of a delivery on a phone (issue 40, PRODUCT §16
-- "Reception"): who received it and when, what each line received and, where
-- it differs from the note, why, with a photo; and the pictures themselves
-- (core/images: photos of a problem, drawn signatures), kept in the database
-- so that backups and replicas hold them (docs/SECURITY.md "Pictures").

-- +goose Up
CREATE TABLE images (
    id         TEXT PRIMARY KEY,
    owner_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    media_type TEXT NOT NULL CHECK (media_type IN ('image/jpeg', 'image/png')),
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    data       BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX images_owner ON images (owner_id);

-- One reception per delivery. idem_key is the key the phone made when the
-- reception was typed: the same reception sent again (a queue drained twice)
-- finds it and changes nothing.
CREATE TABLE receptions (
    delivery_id  TEXT PRIMARY KEY REFERENCES deliveries (id) ON DELETE CASCADE,
    idem_key     TEXT NOT NULL UNIQUE,
    received_at  BIGINT NOT NULL,
    received_by  TEXT NOT NULL,
    signature_id TEXT REFERENCES images (id),
    created_at   BIGINT NOT NULL
);

CREATE TABLE reception_lines (
    line_id     TEXT PRIMARY KEY REFERENCES delivery_lines (id) ON DELETE CASCADE,
    delivery_id TEXT NOT NULL REFERENCES receptions (delivery_id) ON DELETE CASCADE,
    received    BIGINT NOT NULL CHECK (received >= 0),
    reason      TEXT NOT NULL DEFAULT '' CHECK (reason IN ('', 'quality', 'quantity')),
    comment     TEXT NOT NULL DEFAULT '',
    photo_id    TEXT REFERENCES images (id)
);
CREATE INDEX reception_lines_delivery ON reception_lines (delivery_id);

-- +goose Down
DROP TABLE reception_lines;
DROP TABLE receptions;
DROP TABLE images;
