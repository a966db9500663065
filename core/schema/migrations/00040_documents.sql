-- One table of issued documents (issue 35, finding 4). Invoices, credit
-- notes, complementary invoices and escompte credit notes were two tables,
-- invoices and credit_notes, of the same 22 columns and more; a
-- complementary invoice took its number in the invoice series (FA-) but
-- lived in credit_notes, so that no one constraint guarded a series and
-- every reader of "the documents" read both with a UNION.
--
-- documents holds them all, each with its kind — 'invoice' (the monthly
-- invoice of an order), 'credit' (a claim's credit note), 'complement'
-- (a claim's complementary invoice), 'discount' (an escompte's credit
-- note) — and its series: 'FA' (invoices and complementary invoices,
-- counters key "invoice:<producer>:<year>") or 'AV' (credit notes,
-- "credit:<producer>:<year>"). UNIQUE (producer_id, series, year, seq) is
-- the one guard of a producer's yearly series. invoice_id is the invoice a
-- document corrects (NULL for an invoice, and only for one), delivery_id
-- the delivery whose claim it settles, payment_id the payment that earned
-- an escompte. An order has one invoice, a delivery one document of each
-- kind, an invoice one escompte credit note. Everything a document shows
-- is stored when it is issued; only the mail_* and sent_at columns, its
-- sending state (core/jobs), are written afterwards. document_lines are
-- its lines, with the reason of a claim's line (empty on an invoice's).
--
-- Every row is copied as it was, ids kept (payment_allocations and
-- reminder_documents name documents by id), then the old tables go.

-- +goose Up
CREATE TABLE documents (
    id                  TEXT PRIMARY KEY,
    kind                TEXT NOT NULL CHECK (kind IN ('invoice', 'credit', 'complement', 'discount')),
    series              TEXT NOT NULL,
    order_id            TEXT NOT NULL REFERENCES orders (id),
    invoice_id          TEXT REFERENCES documents (id),
    delivery_id         TEXT REFERENCES deliveries (id),
    payment_id          TEXT REFERENCES payments (id),
    producer_id         TEXT NOT NULL REFERENCES users (id),
    distributor_id      TEXT NOT NULL REFERENCES users (id),
    month               TEXT NOT NULL,
    year                INTEGER NOT NULL,
    seq                 BIGINT NOT NULL,
    number              TEXT NOT NULL,
    issued_at           BIGINT NOT NULL,
    issue_date          TEXT NOT NULL,
    due_date            TEXT NOT NULL,
    seller              TEXT NOT NULL,
    buyer               TEXT NOT NULL,
    notes               TEXT NOT NULL,
    vat_rate            BIGINT NOT NULL CHECK (vat_rate >= 0),
    vat_exempt          BOOLEAN NOT NULL,
    vat_regime          TEXT NOT NULL,
    discount            BIGINT NOT NULL,
    discount_until      TEXT NOT NULL,
    total_ht            BIGINT NOT NULL,
    total_vat           BIGINT NOT NULL,
    total_ttc           BIGINT NOT NULL,
    terms               TEXT NOT NULL,
    mail_seller_key     TEXT NOT NULL,
    mail_buyer_key      TEXT NOT NULL,
    mail_accounting_key TEXT NOT NULL,
    mail_claim          TEXT,
    mail_claimed_at     BIGINT,
    mail_attempts       INTEGER NOT NULL DEFAULT 0,
    sent_at             BIGINT,
    CHECK (series = CASE WHEN kind IN ('credit', 'discount') THEN 'AV' ELSE 'FA' END),
    CHECK ((kind = 'invoice') = (invoice_id IS NULL)),
    UNIQUE (producer_id, series, year, seq),
    UNIQUE (delivery_id, kind)
);
CREATE UNIQUE INDEX documents_invoice_of_order ON documents (order_id) WHERE kind = 'invoice';
CREATE UNIQUE INDEX documents_discount ON documents (invoice_id) WHERE kind = 'discount';
CREATE INDEX documents_order ON documents (order_id);
CREATE INDEX documents_invoice ON documents (invoice_id);
CREATE INDEX documents_distributor ON documents (distributor_id, month);
CREATE INDEX documents_month ON documents (month);
CREATE INDEX documents_due ON documents (due_date);
CREATE INDEX documents_issued ON documents (issue_date);
CREATE INDEX documents_unsent ON documents (sent_at);

CREATE TABLE document_lines (
    document_id   TEXT NOT NULL REFERENCES documents (id),
    position      INTEGER NOT NULL,
    chrono        BIGINT NOT NULL,
    date          TEXT NOT NULL,
    product_id    TEXT NOT NULL,
    product       TEXT NOT NULL,
    unit          TEXT NOT NULL,
    quantity      BIGINT NOT NULL,
    price         BIGINT NOT NULL,
    amount        BIGINT NOT NULL,
    claim_type    TEXT NOT NULL DEFAULT '',
    claim_comment TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (document_id, position)
);

INSERT INTO documents (id, kind, series, order_id, invoice_id, delivery_id, payment_id, producer_id, distributor_id,
    month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime,
    discount, discount_until, total_ht, total_vat, total_ttc, terms, mail_seller_key, mail_buyer_key,
    mail_accounting_key, mail_claim, mail_claimed_at, mail_attempts, sent_at)
SELECT id, 'invoice', 'FA', order_id, NULL, NULL, NULL, producer_id, distributor_id,
    month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime,
    discount, discount_until, total_ht, total_vat, total_ttc, terms, mail_seller_key, mail_buyer_key,
    mail_accounting_key, mail_claim, mail_claimed_at, mail_attempts, sent_at
FROM invoices;

INSERT INTO documents (id, kind, series, order_id, invoice_id, delivery_id, payment_id, producer_id, distributor_id,
    month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime,
    discount, discount_until, total_ht, total_vat, total_ttc, terms, mail_seller_key, mail_buyer_key,
    mail_accounting_key, mail_claim, mail_claimed_at, mail_attempts, sent_at)
SELECT id, kind, CASE WHEN kind = 'complement' THEN 'FA' ELSE 'AV' END, order_id, invoice_id, delivery_id, payment_id,
    producer_id, distributor_id,
    month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime,
    discount, discount_until, total_ht, total_vat, total_ttc, terms, mail_seller_key, mail_buyer_key,
    mail_accounting_key, mail_claim, mail_claimed_at, mail_attempts, sent_at
FROM credit_notes;

INSERT INTO document_lines (document_id, position, chrono, date, product_id, product, unit, quantity, price, amount,
    claim_type, claim_comment)
SELECT invoice_id, position, chrono, date, product_id, product, unit, quantity, price, amount, '', ''
FROM invoice_lines;

INSERT INTO document_lines (document_id, position, chrono, date, product_id, product, unit, quantity, price, amount,
    claim_type, claim_comment)
SELECT credit_note_id, position, chrono, date, product_id, product, unit, quantity, price, amount, claim_type,
    claim_comment
FROM credit_note_lines;

DROP TABLE credit_note_lines;
DROP TABLE credit_notes;
DROP TABLE invoice_lines;
DROP TABLE invoices;

-- +goose Down
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
    mail_attempts   INTEGER NOT NULL DEFAULT 0,
    mail_seller_key     TEXT NOT NULL DEFAULT '',
    mail_buyer_key      TEXT NOT NULL DEFAULT '',
    mail_accounting_key TEXT NOT NULL DEFAULT '',
    vat_regime      TEXT NOT NULL DEFAULT 'normal',
    discount        BIGINT NOT NULL DEFAULT 0,
    discount_until  TEXT NOT NULL DEFAULT '',
    UNIQUE (producer_id, number),
    UNIQUE (producer_id, year, seq)
);
CREATE INDEX invoices_distributor ON invoices (distributor_id, month);
CREATE INDEX invoices_month ON invoices (month);
CREATE INDEX invoices_unsent ON invoices (sent_at);
CREATE INDEX invoices_due ON invoices (due_date);
CREATE INDEX invoices_issued ON invoices (issue_date);
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
CREATE TABLE credit_notes (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('credit', 'complement', 'discount')),
    invoice_id      TEXT NOT NULL REFERENCES invoices (id),
    delivery_id     TEXT REFERENCES deliveries (id),
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
    mail_seller_key     TEXT NOT NULL DEFAULT '',
    mail_buyer_key      TEXT NOT NULL DEFAULT '',
    mail_accounting_key TEXT NOT NULL DEFAULT '',
    payment_id      TEXT REFERENCES payments (id),
    vat_regime      TEXT NOT NULL DEFAULT 'normal',
    discount        BIGINT NOT NULL DEFAULT 0,
    discount_until  TEXT NOT NULL DEFAULT '',
    UNIQUE (delivery_id, kind),
    UNIQUE (producer_id, number)
);
CREATE INDEX credit_notes_invoice ON credit_notes (invoice_id);
CREATE INDEX credit_notes_order ON credit_notes (order_id);
CREATE INDEX credit_notes_month ON credit_notes (month);
CREATE INDEX credit_notes_unsent ON credit_notes (sent_at);
CREATE INDEX credit_notes_due ON credit_notes (due_date);
CREATE UNIQUE INDEX credit_notes_discount ON credit_notes (invoice_id) WHERE kind = 'discount';
CREATE INDEX credit_notes_issued ON credit_notes (issue_date);
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
    claim_type     TEXT NOT NULL DEFAULT '',
    claim_comment  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (credit_note_id, position)
);
INSERT INTO invoices (id, order_id, producer_id, distributor_id, month, year, seq, number, issued_at, issue_date, due_date,
    seller, buyer, notes, vat_rate, vat_exempt, total_ht, total_vat, total_ttc, terms, mail_claim, mail_claimed_at, sent_at,
    mail_attempts, mail_seller_key, mail_buyer_key, mail_accounting_key, vat_regime, discount, discount_until)
SELECT id, order_id, producer_id, distributor_id, month, year, seq, number, issued_at, issue_date, due_date,
    seller, buyer, notes, vat_rate, vat_exempt, total_ht, total_vat, total_ttc, terms, mail_claim, mail_claimed_at, sent_at,
    mail_attempts, mail_seller_key, mail_buyer_key, mail_accounting_key, vat_regime, discount, discount_until
FROM documents WHERE kind = 'invoice';
INSERT INTO credit_notes (id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id, month, year, seq, number,
    issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, total_ht, total_vat, total_ttc, terms,
    mail_claim, mail_claimed_at, sent_at, mail_attempts, mail_seller_key, mail_buyer_key, mail_accounting_key, payment_id,
    vat_regime, discount, discount_until)
SELECT id, kind, invoice_id, delivery_id, order_id, producer_id, distributor_id, month, year, seq, number,
    issued_at, issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, total_ht, total_vat, total_ttc, terms,
    mail_claim, mail_claimed_at, sent_at, mail_attempts, mail_seller_key, mail_buyer_key, mail_accounting_key, payment_id,
    vat_regime, discount, discount_until
FROM documents WHERE kind <> 'invoice';
INSERT INTO invoice_lines (invoice_id, position, chrono, date, product_id, product, unit, quantity, price, amount)
SELECT l.document_id, l.position, l.chrono, l.date, l.product_id, l.product, l.unit, l.quantity, l.price, l.amount
FROM document_lines l JOIN documents d ON d.id = l.document_id WHERE d.kind = 'invoice';
INSERT INTO credit_note_lines (credit_note_id, position, chrono, date, product_id, product, unit, quantity, price, amount,
    claim_type, claim_comment)
SELECT l.document_id, l.position, l.chrono, l.date, l.product_id, l.product, l.unit, l.quantity, l.price, l.amount,
    l.claim_type, l.claim_comment
FROM document_lines l JOIN documents d ON d.id = l.document_id WHERE d.kind <> 'invoice';
DROP TABLE document_lines;
DROP TABLE documents;
