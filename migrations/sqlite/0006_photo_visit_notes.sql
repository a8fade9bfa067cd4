-- A photo keeps the note of the site visit (upload batch) it came with, so the gallery
-- and lightbox can show it long after the batch's bookkeeping row is gone.
ALTER TABLE project_images ADD COLUMN visit_note TEXT;
