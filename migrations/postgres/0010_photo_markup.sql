-- Markup on photos (issue 27): one versioned document of vector shapes per photo, a
-- layer over it that never changes its pixels. `shapes` is the JSON list of shapes in
-- the photo's own coordinates. The editing session (`session_by`, `session_at`: who
-- last changed it and when) decides when the timeline gets a new "marked up a photo".
CREATE TABLE photo_markups (
    image_id   uuid PRIMARY KEY REFERENCES project_images (id) ON DELETE CASCADE,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    version    bigint NOT NULL,
    shapes     jsonb NOT NULL,
    updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
    updated_at timestamptz NOT NULL,
    session_by uuid,
    session_at timestamptz NOT NULL
);
CREATE INDEX photo_markups_project ON photo_markups (project_id);
-- Each photo keeps its shape count, written with the markup, so gallery tiles show
-- their badge without reading documents.
ALTER TABLE project_images ADD COLUMN markup_count bigint NOT NULL DEFAULT 0;
