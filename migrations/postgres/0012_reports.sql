-- Progress reports (issue 28): a PDF made from a project's photos, milestones and
-- timeline for a period. `options` is the maker's choices as JSON; while `status` is
-- 'generating', `done` of `total` photos are placed and `updated_at` moves with them,
-- so a report whose instance died is found stale and marked failed. The PDF itself is
-- a stored object (`storage_key`) beside the photos.
CREATE TABLE reports (
    id          uuid PRIMARY KEY,
    project_id  uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_by  uuid REFERENCES users (id) ON DELETE SET NULL,
    options     jsonb NOT NULL,
    status      text NOT NULL CHECK (status IN ('generating', 'ready', 'failed')),
    done        integer NOT NULL DEFAULT 0,
    total       integer NOT NULL,
    pages       integer,
    byte_size   bigint,
    storage_key text,
    error       text,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    finished_at timestamptz
);
CREATE INDEX reports_project ON reports (project_id, created_at DESC);
-- One report of a project is made at a time, on whichever instance took it.
CREATE UNIQUE INDEX reports_one_generating ON reports (project_id) WHERE status = 'generating';
