-- Failed attempts at emailing a document (core/jobs). A send whose piece of
-- work failed for a reason of its own — it panicked, its document could
-- not be rendered or its message built — counts one attempt and is
-- retried by the next run; after jobs.MaxAttempts the document is left for
-- an administrator (`primeur jobs run deliveries --retry-failed` resets the
-- count). A failure of the mail server or of the database counts nothing:
-- it is retried without limit, as before.

-- +goose Up
ALTER TABLE deliveries ADD COLUMN note_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE invoices ADD COLUMN mail_attempts INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE invoices DROP COLUMN mail_attempts;
ALTER TABLE deliveries DROP COLUMN note_attempts;
