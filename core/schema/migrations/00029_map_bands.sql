-- The map's index by latitude bands (issue 20, core/shopmap.BandE6). The
-- index of 00026 searched a box on its latitudes, then read every shop
-- of those latitudes to keep those of its longitudes: on a platform of
-- France's scale, the map of a département read the shops of a band
-- across the whole country (about 1,500 around Haute-Savoie's latitudes
-- for its 19 on the bench). Now the index holds the band of a quarter of
-- a degree first, so that a box is searched band by band on its
-- longitudes (SQLite and PostgreSQL both index the expression, which
-- the query writes the same way); lat_e6 last keeps the clusters' reads
-- on the index alone.

-- +goose Up
DROP INDEX users_map;
CREATE INDEX users_map ON users (type, closed_at, (lat_e6 / 250000), lon_e6, lat_e6);

-- +goose Down
DROP INDEX users_map;
CREATE INDEX users_map ON users (type, closed_at, lat_e6, lon_e6);
