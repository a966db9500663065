-- Invoices (PRODUCT §16) and the bookkeeping of the documents the jobs email.
-- An invoice is issued once per order, in the producer's name under its
-- billing mandate, numbered in the producer's own yearly sequence
-- (FA-2026-000001, from counters key "invoice:<producer>:<year>"). Everything
-- the document shows is stored here when it is issued — parties, lines,
-- totals, terms — and the PDF is rendered from these rows only, so an issued
-- invoice never changes. Only the mail_* and sent_at columns are written
-- afterwards.
--
-- Emails follow a claim-then-send protocol (core/jobs): a job claims a
-- document by writing a random token and the time into *_claim and
-- *_claimed_at (only when it is unsent and unclaimed, or its claim is older
-- than the lease), sends, then sets *sent_at where the token is still its.

-- +goose Up
ALTER TABLE deliveries ADD COLUMN note_claim TEXT;
ALTER TABLE deliveries ADD COLUMN note_claimed_at BIGINT;

CREATE TABLE invoices (
    id              TEXT PRIMARY KEY,
    order_id        TEXT NOT NULL UNIQUE REFERENCES orders (id),
    producer_id     TEXT NOT NULL REFERENCES users (id),
    distributor_id  TEXT NOT NULL REFERENCES users (id),
    month           TEXT NOT NULL,
    year            INTEGER NOT NULL,
    seq             BIGINT NOT NULL,
    number          TEXT NOT NULL,
    issued_at       BIGINT NOT NULL,
    issue_date      TEXT NOT NULL,
    due_date        TEXT NOT NULL,
    seller          TEXT NOT NULL,
    buyer           TEXT NOT NULL,
    notes           TEXT NOT NULL,
    vat_rate        BIGINT NOT NULL CHECK (vat_rate >= 0),
    vat_exempt      BOOLEAN NOT NULL,
    total_ht        BIGINT NOT NULL,
    total_vat       BIGINT NOT NULL,
    total_ttc       BIGINT NOT NULL,
    terms           TEXT NOT NULL,
    mail_claim      TEXT,
    mail_claimed_at BIGINT,
    sent_at         BIGINT,
    UNIQUE (producer_id, number),
    UNIQUE (producer_id, year, seq)
);
CREATE INDEX invoices_distributor ON invoices (distributor_id, month);
CREATE INDEX invoices_month ON invoices (month);
CREATE INDEX invoices_unsent ON invoices (sent_at);

-- One line per delivery line billed: the delivery note it comes from, the
-- product as named then, the invoiced quantity (sent, plus the claimed
-- adjustment when the claim was accepted), the unit price and amount HT.
CREATE TABLE invoice_lines (
    invoice_id TEXT NOT NULL REFERENCES invoices (id),
    position   INTEGER NOT NULL,
    chrono     BIGINT NOT NULL,
    date       TEXT NOT NULL,
    product_id TEXT NOT NULL,
    product    TEXT NOT NULL,
    unit       TEXT NOT NULL,
    quantity   BIGINT NOT NULL,
    price      BIGINT NOT NULL,
    amount     BIGINT NOT NULL,
    PRIMARY KEY (invoice_id, position)
);

-- +goose Down
DROP TABLE invoice_lines;
DROP TABLE invoices;
ALTER TABLE deliveries DROP COLUMN note_claimed_at;
ALTER TABLE deliveries DROP COLUMN note_claim;
