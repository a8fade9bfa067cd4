-- Push notifications (issue 33): each device (browser) a person turned them on for,
-- what waits to be sent to it, and which kinds they want pushed.

-- A browser's push subscription (RFC 8030 endpoint, RFC 8291 keys, base64url). It
-- belongs to the session that made it: signing out, or being signed out anywhere,
-- ends the pushes to that browser with the session.
CREATE TABLE push_subscriptions (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    endpoint   text NOT NULL UNIQUE,
    p256dh     text NOT NULL,
    auth       text NOT NULL,
    device     text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions (session_id);

-- Pushes waiting to be sent, claimed with a lease like mail (`mail_outbox`), so
-- several instances share the queue. `payload` is the JSON the service worker shows.
CREATE TABLE push_outbox (
    id              uuid PRIMARY KEY,
    subscription_id uuid NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    payload         text NOT NULL,
    created_at      timestamptz NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    claimed_until   timestamptz,
    last_error      text
);
CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at);
CREATE INDEX push_outbox_subscription ON push_outbox (subscription_id);

-- The "Push" column beside "Email" in Profile & Settings.
ALTER TABLE users ADD COLUMN push_new_photos boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN push_comments boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN push_status_changes boolean NOT NULL DEFAULT true;
