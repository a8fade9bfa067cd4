-- A project's photos are read a page at a time in the gallery's order: newest first by
-- the date a photo shows (taken, else uploaded), then upload time, then id
-- (docs/FEATURES.md, "Big projects"). This index holds that order, so the first page
-- and the page a year back each read only their own rows.
CREATE INDEX project_images_gallery ON project_images (project_id, (COALESCE(taken_at, created_at)) DESC, created_at DESC, id);
