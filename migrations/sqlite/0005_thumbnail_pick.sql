-- An admin may pick one of a project's photos as its thumbnail (SPEC.md §3); until then,
-- and again when the picked photo is deleted, the newest photo is the thumbnail.
ALTER TABLE projects ADD COLUMN thumbnail_pinned INTEGER NOT NULL DEFAULT 0;
