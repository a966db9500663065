-- Payments between a shop and a producer (PRODUCT §16 "Payments"). A payment
-- is recorded by the producer (status 'recorded'), or declared sent by the
-- shop ('declared') until the producer confirms it ('recorded') or refuses it
-- ('refused'); a recorded payment entered by mistake is undone ('undone'),
-- never deleted. Only recorded payments count. A payment is allocated to
-- invoices and complementary invoices of the pair (payment_allocations);
-- what is left unallocated is a credit of the shop on its account with the
-- producer. Amounts are euro cents.

-- +goose Up
CREATE TABLE payments (
    id             TEXT PRIMARY KEY,
    producer_id    TEXT NOT NULL REFERENCES users (id),
    distributor_id TEXT NOT NULL REFERENCES users (id),
    amount         BIGINT NOT NULL CHECK (amount > 0),
    paid_on        TEXT NOT NULL,
    method         TEXT NOT NULL CHECK (method IN ('virement', 'cheque', 'especes', 'prelevement')),
    reference      TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('declared', 'recorded', 'refused', 'undone')),
    created_by     TEXT NOT NULL REFERENCES users (id),
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX payments_pair ON payments (producer_id, distributor_id);
CREATE INDEX payments_distributor ON payments (distributor_id);

CREATE TABLE payment_allocations (
    payment_id  TEXT NOT NULL REFERENCES payments (id),
    document_id TEXT NOT NULL,
    amount      BIGINT NOT NULL CHECK (amount > 0),
    PRIMARY KEY (payment_id, document_id)
);
CREATE INDEX payment_allocations_document ON payment_allocations (document_id);

-- +goose Down
DROP TABLE payment_allocations;
DROP TABLE payments;
