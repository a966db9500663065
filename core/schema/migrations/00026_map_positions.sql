-- The map by viewport (issue 20, PRODUCT §2 "Map"): the map asks for the
-- shops of its visible area, so positions must be searchable by an index.
-- users.latitude and users.longitude stay the profile's texts; lat_e6 and
-- lon_e6 hold the same position in millionths of a degree (about 0.1 m),
-- NULL when the account is not placed: a text that is not a coordinate
-- (the profile's rule: digits, one dot at most, a leading minus), a
-- latitude beyond ±90 or a longitude beyond ±180, either one missing, or
-- 0/0 (unset coordinates stored so). accounts.Position computes them from
-- the texts wherever a position is written (accounts.Insert and
-- InsertAll, the profile update, closing an account); this migration
-- fills them for the accounts that exist, with the same rule in SQL (one
-- text for SQLite and PostgreSQL: no regular expressions, the shape
-- checked with trim, substr and replace, the cast inside the CASE that
-- checked it). The index serves the map's box query and its clusters,
-- which read only these columns (core/shopmap).

-- +goose Up
ALTER TABLE users ADD COLUMN lat_e6 INTEGER;
ALTER TABLE users ADD COLUMN lon_e6 INTEGER;

UPDATE users SET
    lat_e6 = CASE
        WHEN TRIM(latitude) <> ''
            AND TRIM(SUBSTR(TRIM(latitude), 1, 1), '0123456789.-') = ''
            AND TRIM(SUBSTR(TRIM(latitude), 2), '0123456789.') = ''
            AND LENGTH(TRIM(latitude)) - LENGTH(REPLACE(TRIM(latitude), '.', '')) <= 1
            AND REPLACE(REPLACE(TRIM(latitude), '-', ''), '.', '') <> ''
        THEN CASE
            WHEN ABS(CAST(TRIM(latitude) AS DOUBLE PRECISION)) <= 90
            THEN CAST(ROUND(CAST(TRIM(latitude) AS DOUBLE PRECISION) * 1000000) AS INTEGER)
        END
    END,
    lon_e6 = CASE
        WHEN TRIM(longitude) <> ''
            AND TRIM(SUBSTR(TRIM(longitude), 1, 1), '0123456789.-') = ''
            AND TRIM(SUBSTR(TRIM(longitude), 2), '0123456789.') = ''
            AND LENGTH(TRIM(longitude)) - LENGTH(REPLACE(TRIM(longitude), '.', '')) <= 1
            AND REPLACE(REPLACE(TRIM(longitude), '-', ''), '.', '') <> ''
        THEN CASE
            WHEN ABS(CAST(TRIM(longitude) AS DOUBLE PRECISION)) <= 180
            THEN CAST(ROUND(CAST(TRIM(longitude) AS DOUBLE PRECISION) * 1000000) AS INTEGER)
        END
    END;

UPDATE users SET lat_e6 = NULL, lon_e6 = NULL
    WHERE lat_e6 IS NULL OR lon_e6 IS NULL OR (lat_e6 = 0 AND lon_e6 = 0);

CREATE INDEX users_map ON users (type, closed_at, lat_e6, lon_e6);

-- +goose Down
DROP INDEX users_map;
ALTER TABLE users DROP COLUMN lon_e6;
ALTER TABLE users DROP COLUMN lat_e6;
