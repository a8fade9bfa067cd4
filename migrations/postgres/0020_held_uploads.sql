-- An upload may start as soon as its photo is chosen and wait, whole, for the uploader
-- to publish it (docs/FEATURES.md, "Photo upload"): until then it is held, becomes no
-- photo when its last byte arrives, and belongs to no site visit. Publishing sets its
-- caption, visit and tags and releases it.
ALTER TABLE uploads ADD COLUMN held BOOLEAN NOT NULL DEFAULT FALSE;
