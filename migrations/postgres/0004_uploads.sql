-- Resumable uploads (tus 1.0) and the site visits they belong to.
--
-- A batch is the files a person selected together, with an optional note for the
-- homeowner. It completes when each of its files has finished one way or another
-- (stored, refused, discarded or expired); then one "new photos" mail goes out.
CREATE TABLE upload_batches (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    note         TEXT,
    -- Files selected together, as the client declared at the first file's creation.
    file_count   BIGINT NOT NULL,
    -- Files finished so far, and of those the ones stored as photos.
    finished     BIGINT NOT NULL DEFAULT 0,
    stored       BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL,
    completed_at BIGINT
);

-- One file being uploaded. Its bytes so far are in the partial-upload folder under
-- the row's id; the row outlives the file by its expiry, so a client that lost the
-- last response learns the outcome instead of sending the file again.
CREATE TABLE uploads (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    batch_id    TEXT REFERENCES upload_batches (id) ON DELETE CASCADE,
    file_name   TEXT NOT NULL,
    caption     TEXT,
    category    TEXT,
    -- Declared size in bytes (Upload-Length).
    length      BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    -- Unfinished uploads are swept after this (UTC ms); finished rows too.
    expires_at  BIGINT NOT NULL,
    finished_at BIGINT,
    -- When finished: the photo it became, or why it was refused.
    photo_id    TEXT,
    refused     TEXT
);
CREATE INDEX uploads_expires ON uploads (expires_at);
CREATE INDEX uploads_user ON uploads (user_id, finished_at);
CREATE INDEX uploads_batch ON uploads (batch_id);
