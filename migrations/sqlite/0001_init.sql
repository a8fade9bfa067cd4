-- Sitecast's data model (DESIGN.md §4). Ids are UUID text, times are UTC milliseconds
-- since the epoch (BIGINT), so one portable store serves SQLite and Postgres.

CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL UNIQUE,
    role               TEXT NOT NULL DEFAULT 'homeowner' CHECK (role IN ('admin', 'builder', 'homeowner')),
    name               TEXT,
    first_name         TEXT,
    last_name          TEXT,
    phone              TEXT,
    builder_id         TEXT REFERENCES users (id) ON DELETE SET NULL,
    -- NULL until the user sets a password (an invited user has none yet).
    password_hash      TEXT,
    email_confirmed_at BIGINT,
    last_sign_in_at    BIGINT,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    version            BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- SHA-256 of the cookie token, hex; the token itself is never stored.
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    user_agent   TEXT,
    ip           TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE auth_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('invite', 'reset', 'confirm_email')),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX auth_tokens_user ON auth_tokens (user_id, kind);

CREATE TABLE projects (
    id                 TEXT PRIMARY KEY,
    title              TEXT NOT NULL,
    description        TEXT NOT NULL DEFAULT '',
    address            TEXT NOT NULL,
    homeowner_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    builder_id         TEXT REFERENCES users (id) ON DELETE CASCADE,
    status             TEXT NOT NULL DEFAULT 'in-progress' CHECK (status IN ('planning', 'in-progress', 'on-hold', 'completed')),
    progress           INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
    thumbnail_image_id TEXT REFERENCES project_images (id) ON DELETE SET NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    version            BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX projects_homeowner ON projects (homeowner_id);
CREATE INDEX projects_builder ON projects (builder_id);

CREATE TABLE project_images (
    id            TEXT PRIMARY KEY,
    project_id    TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    uploaded_by   TEXT REFERENCES users (id) ON DELETE SET NULL,
    category      TEXT NOT NULL DEFAULT 'other' CHECK (category IN ('interior', 'exterior', 'structural', 'finishes', 'other', 'general')),
    caption       TEXT,
    original_name TEXT NOT NULL,
    content_type  TEXT NOT NULL,
    byte_size     BIGINT NOT NULL,
    width         INTEGER NOT NULL,
    height        INTEGER NOT NULL,
    taken_at      BIGINT,
    -- Prefix of the stored objects (original, display, thumb) in the photo store.
    storage_key   TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    version       BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX project_images_project ON project_images (project_id, created_at);

CREATE TABLE user_favourites (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    image_id   TEXT NOT NULL REFERENCES project_images (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    UNIQUE (user_id, image_id)
);
CREATE INDEX user_favourites_project ON user_favourites (user_id, project_id);

CREATE TABLE photo_comments (
    id         TEXT PRIMARY KEY,
    image_id   TEXT NOT NULL REFERENCES project_images (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    author_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX photo_comments_image ON photo_comments (image_id, created_at);

CREATE TABLE notifications (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    project_id TEXT REFERENCES projects (id) ON DELETE CASCADE,
    image_id   TEXT REFERENCES project_images (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    read_at    BIGINT
);
CREATE INDEX notifications_user ON notifications (user_id, created_at);

CREATE TABLE project_activity (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    actor_id   TEXT REFERENCES users (id) ON DELETE SET NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('created', 'details_updated', 'status_changed', 'progress_changed', 'photos_uploaded', 'photo_deleted')),
    -- JSON with the kind's details (old and new values, photo count).
    data       TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL
);
CREATE INDEX project_activity_project ON project_activity (project_id, created_at);

CREATE TABLE logs (
    id         TEXT PRIMARY KEY,
    user_id    TEXT REFERENCES users (id) ON DELETE SET NULL,
    level      TEXT NOT NULL,
    message    TEXT NOT NULL,
    data       TEXT,
    created_at BIGINT NOT NULL
);

CREATE TABLE contact_messages (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    phone      TEXT,
    message    TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Durable mail queue: a message is written here in the same transaction as the change
-- that causes it, and a worker sends it with retries, so a mail-server outage loses nothing.
CREATE TABLE mail_outbox (
    id              TEXT PRIMARY KEY,
    to_address      TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body_text       TEXT NOT NULL,
    body_html       TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    -- A worker owns the row until this time; another instance may take it after.
    claimed_until   BIGINT,
    sent_at         BIGINT,
    last_error      TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (sent_at, next_attempt_at);
