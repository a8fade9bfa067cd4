-- Progress reports (issue 28): a PDF made from a project's photos, milestones and
-- timeline for a period. `options` is the maker's choices as JSON; while `status` is
-- 'generating', `done` of `total` photos are placed and `updated_at` moves with them,
-- so a report whose instance died is found stale and marked failed. The PDF itself is
-- a stored object (`storage_key`) beside the photos.
CREATE TABLE reports (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_by  TEXT REFERENCES users (id) ON DELETE SET NULL,
    options     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('generating', 'ready', 'failed')),
    done        INTEGER NOT NULL DEFAULT 0,
    total       INTEGER NOT NULL,
    pages       INTEGER,
    byte_size   BIGINT,
    storage_key TEXT,
    error       TEXT,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX reports_project ON reports (project_id, created_at DESC);
-- One report of a project is made at a time, on whichever instance took it.
CREATE UNIQUE INDEX reports_one_generating ON reports (project_id) WHERE status = 'generating';
