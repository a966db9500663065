-- At most once under kills (issue 33, core/jobs "sendOnce", PRODUCT §17
-- "Sending emails").
--
-- mail_senders: the processes sending documents, one row per run of the
-- send workers (jobs.sendQueued), made when it claims its first document
-- and deleted when it ends. A document's claim (note_claim, mail_claim)
-- names the row of the run that holds it; the run renews beat_at every few
-- seconds (jobs.Beat) while it works, so that a claim whose run stopped
-- renewing it for jobs.Lease — a killed process — is taken back in
-- seconds. host, place (the machine's boot and the process's PID
-- namespace), pid and process_start (the kernel's start time of the
-- process, in clock ticks after boot) say which process it is: a process
-- of the same place finds it dead at once once that process is gone;
-- started_at is when the run began.
--
-- mail_copies: each recipient's copy of a message at its point of no
-- return, written and committed before the final "." of SMTP's DATA
-- (mail.Journal): committed_at alone means the server may have it,
-- accepted_at that it has. A copy committed and never accepted by a run
-- now gone is never sent again on its own: the document is left for an
-- administrator. The rows of a document go once it is recorded as sent.

-- +goose Up
CREATE TABLE mail_senders (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    place TEXT NOT NULL,
    pid BIGINT NOT NULL,
    process_start BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    beat_at BIGINT NOT NULL
);

CREATE TABLE mail_copies (
    message_key TEXT NOT NULL,
    recipient TEXT NOT NULL,
    message_id TEXT NOT NULL,
    owner TEXT NOT NULL,
    committed_at BIGINT NOT NULL,
    accepted_at BIGINT,
    PRIMARY KEY (message_key, recipient)
);

-- +goose Down
DROP TABLE mail_copies;
DROP TABLE mail_senders;
