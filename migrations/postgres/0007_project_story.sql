-- The project's story (issue 18): milestones, a timeline, photos tagged by milestone
-- and grouped by site visit, and guest links.

-- Progress set by hand ('manual', admins) or following the milestones ('milestones':
-- the share of them completed).
ALTER TABLE projects ADD COLUMN progress_mode TEXT NOT NULL DEFAULT 'manual';

-- A project's ordered plan. Dates are calendar days (YYYY-MM-DD).
CREATE TABLE milestones (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    position    BIGINT NOT NULL,
    target_date TEXT,
    done_date   TEXT,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX milestones_project ON milestones (project_id, position);

-- The site visit (upload batch) a photo came with, and the milestone it is tagged
-- with; deleting the milestone leaves the photo untagged.
ALTER TABLE project_images ADD COLUMN batch_id TEXT;
ALTER TABLE project_images ADD COLUMN milestone_id TEXT REFERENCES milestones (id) ON DELETE SET NULL;
CREATE INDEX project_images_milestone ON project_images (milestone_id);

-- The timeline. The first schema's table was never written to and its kinds were
-- fixed by a CHECK; it is replaced. `detail` is the entry's JSON (the wire's
-- TimelineDetail); `subject_id` names what the entry is about (a comment, a batch)
-- so that it can go with it. Actor name and role are kept as they were, so an entry
-- stays readable after its account goes.
DROP TABLE project_activity;
CREATE TABLE project_activity (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    actor_id   TEXT REFERENCES users (id) ON DELETE SET NULL,
    actor_name TEXT,
    actor_role TEXT,
    kind       TEXT NOT NULL,
    detail     TEXT NOT NULL,
    subject_id TEXT,
    created_at BIGINT NOT NULL
);
-- Newest first by (created_at, id): the timeline's cursor order.
CREATE INDEX project_activity_feed ON project_activity (project_id, created_at, id);
CREATE INDEX project_activity_subject ON project_activity (subject_id);

-- Read-only links for guests. Only the token's SHA-256 is kept.
CREATE TABLE guest_links (
    id             TEXT PRIMARY KEY,
    project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_by     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash     TEXT NOT NULL UNIQUE,
    photos         TEXT NOT NULL,
    downloads      BIGINT NOT NULL,
    expires_at     BIGINT,
    revoked_at     BIGINT,
    last_opened_at BIGINT,
    created_at     BIGINT NOT NULL
);
CREATE INDEX guest_links_project ON guest_links (project_id, created_at);
