-- One outbox for everything the server sends: mail and pushes wait in one table, and
-- one worker claims, leases and retries them (docs/ARCHITECTURE.md, "The outbox").
-- `kind` says what a row carries: a mail what `mail_outbox` kept (address, subject,
-- bodies, unsubscribe link, attachment), a push its subscription and payload as
-- `push_outbox` kept them. Each kind is sent and retried by its own rules
-- (server/src/mail/worker.rs); only the queue is shared.
--
-- SQLite cannot drop a column's NOT NULL in place, so the table is made anew and both
-- queues are copied into it, every row as it was (leases and due times included).
CREATE TABLE outbox (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT NOT NULL,
    -- A worker owns the row until this time; another instance may take it after.
    claimed_until    BIGINT,
    -- When a mail was sent: sent mail stays, marked; a push leaves the table instead.
    sent_at          BIGINT,
    last_error       TEXT,
    to_address       TEXT,
    subject          TEXT,
    body_text        TEXT,
    body_html        TEXT,
    list_unsubscribe TEXT,
    attachment_key   TEXT,
    attachment_name  TEXT,
    attachment_type  TEXT,
    -- A push goes with its subscription (turned off, signed out, or gone at the service),
    -- as it did from push_outbox.
    subscription_id  TEXT REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    payload          TEXT,
    -- A row is a whole mail or a whole push, never a mix.
    CONSTRAINT outbox_carries_its_kind CHECK (
        (kind = 'mail' AND to_address IS NOT NULL AND subject IS NOT NULL AND body_text IS NOT NULL
            AND body_html IS NOT NULL AND subscription_id IS NULL AND payload IS NULL)
        OR (kind = 'push' AND subscription_id IS NOT NULL AND payload IS NOT NULL AND to_address IS NULL
            AND subject IS NULL AND body_text IS NULL AND body_html IS NULL AND list_unsubscribe IS NULL
            AND attachment_key IS NULL AND attachment_name IS NULL AND attachment_type IS NULL)
    )
);

INSERT INTO outbox (id, kind, created_at, attempts, next_attempt_at, claimed_until, sent_at, last_error,
    to_address, subject, body_text, body_html, list_unsubscribe, attachment_key, attachment_name, attachment_type)
SELECT id, 'mail', created_at, attempts, next_attempt_at, claimed_until, sent_at, last_error,
    to_address, subject, body_text, body_html, list_unsubscribe, attachment_key, attachment_name, attachment_type
FROM mail_outbox;

INSERT INTO outbox (id, kind, created_at, attempts, next_attempt_at, claimed_until, last_error, subscription_id, payload)
SELECT id, 'push', created_at, attempts, next_attempt_at, claimed_until, last_error, subscription_id, payload
FROM push_outbox;

DROP TABLE push_outbox;
DROP TABLE mail_outbox;

-- What a worker asks: the due, unsent messages of one kind, soonest first.
CREATE INDEX outbox_due ON outbox (kind, next_attempt_at) WHERE sent_at IS NULL;
-- A subscription's pushes, found when it is deleted (mail rows have none).
CREATE INDEX outbox_subscription ON outbox (subscription_id) WHERE subscription_id IS NOT NULL;
