-- Price privacy (PRODUCT §15 "Price privacy", docs/SECURITY.md "Price
-- privacy", issue 33): the price figures count a commitment only between
-- two legal entities — each account's login email confirmed and its SIRET
-- valid, the entity being its SIREN — of two different companies, and
-- only a real purchase (1 kg or piece and 10 € HT at least); a figure is
-- shown only when 3 distinct entities bought and 3 sold behind it, none
-- holding more than half its quantity. The sums become, per commitment,
-- what it counts for (price_commitments: its area and the entities it
-- counted as when accepted, so that a change takes off exactly what was
-- added), per cell and entity what each bought or sold (price_entities:
-- distinct counts and the largest one, through price_entities_largest),
-- and per cell — product, month of the need, area 'FR' or a département
-- — the figure's sums (price_cells). The user load's price hint reads the
-- national cells of its months (price_cells_area), so price_months goes;
-- price_pairs, price_members and price_areas give way to the new tables.
--
-- The commitments already in force are counted here under these rules:
-- the entity of an account is its SIRET's first 9 digits when its login
-- email is confirmed (email_confirmed = email_key) and its SIRET, spaces
-- removed, is 14 digits whose SIREN and whole pass the Luhn check (La
-- Poste's, SIREN 356000000, when their digits sum to a multiple of 5),
-- as accounts.ValidSIRET; each commitment in the département its pair
-- counted in (price_pairs). core/trade's RebuildPrices computes the same
-- in Go (TestPriceMigrationMatchesRebuild).

-- +goose Up
CREATE TABLE price_commitments (
    shop_id     TEXT NOT NULL,
    month       TEXT NOT NULL, -- the need's month
    product_id  TEXT NOT NULL,
    producer_id TEXT NOT NULL,
    area        TEXT NOT NULL, -- the shop's département when accepted, '' when none
    buyer       TEXT NOT NULL, -- the shop's SIREN when accepted
    seller      TEXT NOT NULL, -- the producer's SIREN when accepted
    amount      BIGINT NOT NULL, -- quantity (hundredths) × price (cents); 0 when it counts nowhere
    quantity    BIGINT NOT NULL, -- hundredths; 0 when it counts nowhere
    PRIMARY KEY (shop_id, month, product_id, producer_id)
);

CREATE TABLE price_entities (
    product_id TEXT NOT NULL,
    month      TEXT NOT NULL,
    area       TEXT NOT NULL,
    side       TEXT NOT NULL CHECK (side IN ('buyer', 'seller')),
    entity     TEXT NOT NULL, -- a SIREN
    purchases  BIGINT NOT NULL,
    quantity   BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, area, side, entity)
);
CREATE INDEX price_entities_largest ON price_entities (product_id, month, area, side, quantity);

CREATE TABLE price_cells (
    product_id     TEXT NOT NULL,
    month          TEXT NOT NULL,
    area           TEXT NOT NULL, -- 'FR' for the whole platform, else a département
    amount         BIGINT NOT NULL, -- Σ quantity (hundredths) × price (cents)
    quantity       BIGINT NOT NULL, -- Σ quantity (hundredths)
    purchases      BIGINT NOT NULL, -- commitments counted
    buyers         BIGINT NOT NULL, -- distinct SIRENs that bought
    sellers        BIGINT NOT NULL, -- distinct SIRENs that sold
    largest_buyer  BIGINT NOT NULL, -- the quantity of the SIREN that bought most
    largest_seller BIGINT NOT NULL, -- the quantity of the SIREN that sold most
    PRIMARY KEY (product_id, month, area)
);
CREATE INDEX price_cells_area ON price_cells (area, month);

WITH entity AS (
    SELECT id, SUBSTR(x, 1, 9) AS siren
    FROM (SELECT id, REPLACE(siret, ' ', '') AS x FROM users WHERE email_confirmed <> '' AND email_confirmed = email_key) u
    WHERE CASE WHEN LENGTH(x) = 14 AND LENGTH(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(x, '0', ''), '1', ''), '2', ''), '3', ''), '4', ''), '5', ''), '6', ''), '7', ''), '8', ''), '9', '')) = 0 THEN
            (CAST(SUBSTR(x, 1, 1) AS INTEGER) + (2 * CAST(SUBSTR(x, 2, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 2, 1) AS INTEGER)) / 10 +
                CAST(SUBSTR(x, 3, 1) AS INTEGER) + (2 * CAST(SUBSTR(x, 4, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 4, 1) AS INTEGER)) / 10 +
                CAST(SUBSTR(x, 5, 1) AS INTEGER) + (2 * CAST(SUBSTR(x, 6, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 6, 1) AS INTEGER)) / 10 +
                CAST(SUBSTR(x, 7, 1) AS INTEGER) + (2 * CAST(SUBSTR(x, 8, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 8, 1) AS INTEGER)) / 10 +
                CAST(SUBSTR(x, 9, 1) AS INTEGER)) % 10 = 0
            AND (((2 * CAST(SUBSTR(x, 1, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 1, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 2, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 3, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 3, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 4, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 5, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 5, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 6, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 7, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 7, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 8, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 9, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 9, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 10, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 11, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 11, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 12, 1) AS INTEGER) +
                (2 * CAST(SUBSTR(x, 13, 1) AS INTEGER)) % 10 + (2 * CAST(SUBSTR(x, 13, 1) AS INTEGER)) / 10 + CAST(SUBSTR(x, 14, 1) AS INTEGER)) % 10 = 0
                OR (SUBSTR(x, 1, 9) = '356000000' AND (CAST(SUBSTR(x, 1, 1) AS INTEGER) + CAST(SUBSTR(x, 2, 1) AS INTEGER) + CAST(SUBSTR(x, 3, 1) AS INTEGER) +
                CAST(SUBSTR(x, 4, 1) AS INTEGER) + CAST(SUBSTR(x, 5, 1) AS INTEGER) + CAST(SUBSTR(x, 6, 1) AS INTEGER) +
                CAST(SUBSTR(x, 7, 1) AS INTEGER) + CAST(SUBSTR(x, 8, 1) AS INTEGER) + CAST(SUBSTR(x, 9, 1) AS INTEGER) +
                CAST(SUBSTR(x, 10, 1) AS INTEGER) + CAST(SUBSTR(x, 11, 1) AS INTEGER) + CAST(SUBSTR(x, 12, 1) AS INTEGER) +
                CAST(SUBSTR(x, 13, 1) AS INTEGER) + CAST(SUBSTR(x, 14, 1) AS INTEGER)) % 5 = 0))
        ELSE FALSE END
)
INSERT INTO price_commitments (shop_id, month, product_id, producer_id, area, buyer, seller, amount, quantity)
SELECT n.distributor_id, n.month, n.product_id, p.producer_id, COALESCE(pp.area, ''), b.siren, s.siren, p.quantity * p.price, p.quantity
FROM proposals p
JOIN needs n ON n.id = p.need_id
JOIN entity b ON b.id = n.distributor_id
JOIN entity s ON s.id = p.producer_id
LEFT JOIN price_pairs pp ON pp.product_id = n.product_id AND pp.month = n.month AND pp.shop_id = n.distributor_id
    AND pp.producer_id = p.producer_id
WHERE p.status = 'accepted' AND p.quantity >= 100 AND p.quantity * p.price >= 100000 AND b.siren <> s.siren;

INSERT INTO price_entities (product_id, month, area, side, entity, purchases, quantity)
SELECT product_id, month, 'FR', 'buyer', buyer, COUNT(*), SUM(quantity) FROM price_commitments GROUP BY product_id, month, buyer
UNION ALL
SELECT product_id, month, area, 'buyer', buyer, COUNT(*), SUM(quantity) FROM price_commitments WHERE area <> '' GROUP BY product_id, month, area, buyer
UNION ALL
SELECT product_id, month, 'FR', 'seller', seller, COUNT(*), SUM(quantity) FROM price_commitments GROUP BY product_id, month, seller
UNION ALL
SELECT product_id, month, area, 'seller', seller, COUNT(*), SUM(quantity) FROM price_commitments WHERE area <> '' GROUP BY product_id, month, area, seller;

INSERT INTO price_cells (product_id, month, area, amount, quantity, purchases, buyers, sellers, largest_buyer, largest_seller)
SELECT product_id, month, 'FR', SUM(amount), SUM(quantity), COUNT(*), 0, 0, 0, 0 FROM price_commitments GROUP BY product_id, month
UNION ALL
SELECT product_id, month, area, SUM(amount), SUM(quantity), COUNT(*), 0, 0, 0, 0 FROM price_commitments WHERE area <> '' GROUP BY product_id, month, area;

UPDATE price_cells SET
    buyers = (SELECT COUNT(*) FROM price_entities e WHERE e.product_id = price_cells.product_id AND e.month = price_cells.month
        AND e.area = price_cells.area AND e.side = 'buyer'),
    sellers = (SELECT COUNT(*) FROM price_entities e WHERE e.product_id = price_cells.product_id AND e.month = price_cells.month
        AND e.area = price_cells.area AND e.side = 'seller'),
    largest_buyer = COALESCE((SELECT MAX(e.quantity) FROM price_entities e WHERE e.product_id = price_cells.product_id
        AND e.month = price_cells.month AND e.area = price_cells.area AND e.side = 'buyer'), 0),
    largest_seller = COALESCE((SELECT MAX(e.quantity) FROM price_entities e WHERE e.product_id = price_cells.product_id
        AND e.month = price_cells.month AND e.area = price_cells.area AND e.side = 'seller'), 0);

DROP TABLE price_months;
DROP TABLE price_areas;
DROP TABLE price_members;
DROP TABLE price_pairs;

-- +goose Down
-- The former tables come back empty: trade of this version has no
-- figure of every commitment to fill them with.
CREATE TABLE price_months (
    product_id TEXT NOT NULL REFERENCES products (id),
    month      TEXT NOT NULL,
    amount     BIGINT NOT NULL,
    quantity   BIGINT NOT NULL,
    PRIMARY KEY (product_id, month)
);
CREATE TABLE price_pairs (
    product_id  TEXT NOT NULL,
    month       TEXT NOT NULL,
    shop_id     TEXT NOT NULL,
    producer_id TEXT NOT NULL,
    area        TEXT NOT NULL,
    purchases   BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, shop_id, producer_id)
);
CREATE TABLE price_members (
    product_id TEXT NOT NULL,
    month      TEXT NOT NULL,
    area       TEXT NOT NULL,
    side       TEXT NOT NULL CHECK (side IN ('buyer', 'seller')),
    member_id  TEXT NOT NULL,
    purchases  BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, area, side, member_id)
);
CREATE TABLE price_areas (
    product_id TEXT NOT NULL,
    month      TEXT NOT NULL,
    area       TEXT NOT NULL,
    amount     BIGINT NOT NULL,
    quantity   BIGINT NOT NULL,
    purchases  BIGINT NOT NULL,
    buyers     BIGINT NOT NULL,
    sellers    BIGINT NOT NULL,
    PRIMARY KEY (product_id, month, area)
);
DROP TABLE price_cells;
DROP TABLE price_entities;
DROP TABLE price_commitments;
