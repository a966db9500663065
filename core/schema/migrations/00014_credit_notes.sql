-- Documents that settle a claim (PRODUCT §16 "Credit notes"). An invoice
-- bills what the delivery notes say was sent; a claim accepted on one of its
-- deliveries — by the shop, or by the system after claims.autovalidate-after
-- — is settled by a document of its own, never by changing the invoice: a
-- credit note (avoir, kind 'credit') for the quantities claimed down,
-- numbered in the producer's own gap-free yearly series (AV-2026-000001,
-- counters key "credit:<producer>:<year>"), and a complementary invoice
-- (kind 'complement') for quantities claimed up, numbered in the producer's
-- invoice sequence (FA-…). Each refers to the invoice it corrects (its
-- number and date, BT-25/BT-26 of Factur-X). One document of each kind per
-- delivery at most: a delivery has one claim. Like invoices, everything a
-- document shows is stored when it is issued; only the mail_* and sent_at
-- columns are written afterwards.

-- +goose Up
CREATE TABLE credit_notes (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('credit', 'complement')),
    invoice_id      TEXT NOT NULL REFERENCES invoices (id),
    delivery_id     TEXT NOT NULL REFERENCES deliveries (id),
    order_id        TEXT NOT NULL REFERENCES orders (id),
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
    mail_attempts   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (delivery_id, kind),
    UNIQUE (producer_id, number)
);
CREATE INDEX credit_notes_invoice ON credit_notes (invoice_id);
CREATE INDEX credit_notes_order ON credit_notes (order_id);
CREATE INDEX credit_notes_month ON credit_notes (month);
CREATE INDEX credit_notes_unsent ON credit_notes (sent_at);

CREATE TABLE credit_note_lines (
    credit_note_id TEXT NOT NULL REFERENCES credit_notes (id),
    position       INTEGER NOT NULL,
    chrono         BIGINT NOT NULL,
    date           TEXT NOT NULL,
    product_id     TEXT NOT NULL,
    product        TEXT NOT NULL,
    unit           TEXT NOT NULL,
    quantity       BIGINT NOT NULL,
    price          BIGINT NOT NULL,
    amount         BIGINT NOT NULL,
    PRIMARY KEY (credit_note_id, position)
);

-- +goose Down
DROP TABLE credit_note_lines;
DROP TABLE credit_notes;
