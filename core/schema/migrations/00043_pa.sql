-- Invoices deposited on the producer's approved platform (issue 38, core/pa
-- and the pa job of core/jobs).
--
-- pa_connections is a producer's connection to its PA's Flow Service (AFNOR
-- XP Z12-013): the flow and token URLs, the OAuth2 client id, the client
-- secret sealed (AES-256-GCM, "v1:<key id>:<base64>", the key outside the
-- database: core/pa secret.go), the directory URL ('' for none), when it
-- was connected, the time from which its documents are deposited (the
-- connection's, or an earlier --since), and polled_after, the PA's time
-- (RFC 3339) up to which the lifecycle statuses were read by search.
--
-- pa_deposits is one row per document a run took up, made by its first
-- claim: claim, claimed_at and attempts as sends (migration 42) names a
-- run in mail_senders; retry_at the wall-clock time (ms) before which a
-- failed deposit is not tried again (backoff); in_flight_at set before the
-- POST whose outcome is not recorded yet — a claim that finds it set
-- searches the PA by trackingId before depositing again —; flow_id and
-- deposited_at once deposited; status the latest lifecycle status
-- ('submitted' before any, '200', '213', '210', '212'…, 'irrecevable') and
-- error the last failure in French ('' for none).
--
-- pa_statuses is each document's history of statuses, one row per
-- lifecycle message (source: the message's flow id, or 'ack-<flow id>'
-- for an acknowledgement Error), never written twice.

-- +goose Up
CREATE TABLE pa_connections (
    producer_id   TEXT PRIMARY KEY REFERENCES users (id),
    flow_url      TEXT NOT NULL,
    token_url     TEXT NOT NULL,
    client_id     TEXT NOT NULL,
    client_secret TEXT NOT NULL,
    directory_url TEXT NOT NULL DEFAULT '',
    connected_at  BIGINT NOT NULL,
    deposit_from  BIGINT NOT NULL,
    polled_after  TEXT NOT NULL DEFAULT ''
);

CREATE TABLE pa_deposits (
    document_id  TEXT PRIMARY KEY REFERENCES documents (id),
    producer_id  TEXT NOT NULL REFERENCES users (id),
    claim        TEXT,
    claimed_at   BIGINT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    retry_at     BIGINT NOT NULL DEFAULT 0,
    in_flight_at BIGINT,
    flow_id      TEXT,
    deposited_at BIGINT,
    status       TEXT NOT NULL DEFAULT '',
    status_at    BIGINT,
    error        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pa_deposits_producer ON pa_deposits (producer_id, deposited_at);

CREATE TABLE pa_statuses (
    document_id TEXT NOT NULL REFERENCES documents (id),
    source      TEXT NOT NULL,
    status      TEXT NOT NULL,
    reason_code TEXT NOT NULL DEFAULT '',
    reason      TEXT NOT NULL DEFAULT '',
    at          BIGINT NOT NULL,
    recorded_at BIGINT NOT NULL,
    PRIMARY KEY (document_id, source)
);

-- +goose Down
DROP TABLE pa_statuses;
DROP TABLE pa_deposits;
DROP TABLE pa_connections;
