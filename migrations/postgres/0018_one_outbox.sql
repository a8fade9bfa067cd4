-- One outbox for everything the server sends: mail and pushes wait in one table, and
-- one worker claims, leases and retries them (docs/ARCHITECTURE.md, "The outbox").
-- `kind` says what a row carries: a mail what `mail_outbox` kept (address, subject,
-- bodies, unsubscribe link, attachment), a push its subscription and payload as
-- `push_outbox` kept them. Each kind is sent and retried by its own rules
-- (server/src/mail/worker.rs); only the queue is shared.
--
-- The mail queue becomes the outbox in place (its rows, times and leases untouched);
-- the queued pushes move into it, every row as it was, and their table goes.
ALTER TABLE mail_outbox RENAME TO outbox;
ALTER TABLE outbox RENAME CONSTRAINT mail_outbox_pkey TO outbox_pkey;
DROP INDEX mail_outbox_due;

ALTER TABLE outbox
    ADD COLUMN kind text NOT NULL DEFAULT 'mail',
    -- A push goes with its subscription (turned off, signed out, or gone at the
    -- service), as it did from push_outbox.
    ADD COLUMN subscription_id uuid REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    ADD COLUMN payload text,
    ALTER COLUMN to_address DROP NOT NULL,
    ALTER COLUMN subject DROP NOT NULL,
    ALTER COLUMN body_text DROP NOT NULL,
    ALTER COLUMN body_html DROP NOT NULL;
-- Every row so far was a mail; from now on each insert names its kind.
ALTER TABLE outbox ALTER COLUMN kind DROP DEFAULT;

INSERT INTO outbox (id, kind, created_at, attempts, next_attempt_at, claimed_until, last_error, subscription_id, payload)
SELECT id, 'push', created_at, attempts, next_attempt_at, claimed_until, last_error, subscription_id, payload
FROM push_outbox;
DROP TABLE push_outbox;

-- A row is a whole mail or a whole push, never a mix.
ALTER TABLE outbox ADD CONSTRAINT outbox_carries_its_kind CHECK (
    (kind = 'mail' AND to_address IS NOT NULL AND subject IS NOT NULL AND body_text IS NOT NULL
        AND body_html IS NOT NULL AND subscription_id IS NULL AND payload IS NULL)
    OR (kind = 'push' AND subscription_id IS NOT NULL AND payload IS NOT NULL AND to_address IS NULL
        AND subject IS NULL AND body_text IS NULL AND body_html IS NULL AND list_unsubscribe IS NULL
        AND attachment_key IS NULL AND attachment_name IS NULL AND attachment_type IS NULL)
);

-- What a worker asks: the due, unsent messages of one kind, soonest first.
CREATE INDEX outbox_due ON outbox (kind, next_attempt_at) WHERE sent_at IS NULL;
-- A subscription's pushes, found when it is deleted (mail rows have none).
CREATE INDEX outbox_subscription ON outbox (subscription_id) WHERE subscription_id IS NOT NULL;
