-- Push notifications (issue 33): each device (browser) a person turned them on for,
-- what waits to be sent to it, and which kinds they want pushed.

-- A browser's push subscription (RFC 8030 endpoint, RFC 8291 keys, base64url). It
-- belongs to the session that made it: signing out, or being signed out anywhere,
-- ends the pushes to that browser with the session.
CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    device     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions (session_id);

-- Pushes waiting to be sent, claimed with a lease like mail (`mail_outbox`), so
-- several instances share the queue. `payload` is the JSON the service worker shows.
CREATE TABLE push_outbox (
    id              TEXT PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    payload         TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until   BIGINT,
    last_error      TEXT
);
CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at);
CREATE INDEX push_outbox_subscription ON push_outbox (subscription_id);

-- The "Push" column beside "Email" in Profile & Settings.
ALTER TABLE users ADD COLUMN push_new_photos BOOLEAN NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN push_comments BOOLEAN NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN push_status_changes BOOLEAN NOT NULL DEFAULT 1;
