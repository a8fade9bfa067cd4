-- Tags, search and photo locations (issue 29).

-- A photo's tags, in the order they were added, as a JSON array of names. Names are
-- unique on a photo case-insensitively (the domain keeps them so).
ALTER TABLE project_images ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
-- Where it was taken (EXIF GPS, degrees), unless the installation keeps no locations.
ALTER TABLE project_images ADD COLUMN latitude REAL;
ALTER TABLE project_images ADD COLUMN longitude REAL;
-- A resumable upload's tags for its photo (the batch's), named when it starts.
ALTER TABLE uploads ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';

-- Settings of the whole installation: one row.
CREATE TABLE installation_settings (
    id                    INTEGER PRIMARY KEY CHECK (id = 1),
    store_photo_locations BOOLEAN NOT NULL,
    updated_at            BIGINT NOT NULL
);
INSERT INTO installation_settings (id, store_photo_locations, updated_at) VALUES (1, TRUE, 0);

-- The search index. One document per project (title; address and milestone names),
-- photo (caption; visit note and milestone name; tags) and comment (body), kept by
-- the triggers below in the same transaction as the change they follow. `id` is an
-- INTEGER PRIMARY KEY so that the full-text index's rowids survive VACUUM; each kind
-- has its own range (its code, 1 project, 2 photo, 3 comment, times 2^40) counted up
-- from its start, so that a search of one kind, newest first, walks the index's rowids
-- down from the top of that range and stops at its limit. `facets` holds the
-- document's project as a word ("p0a1b…"): a search's scope is part of its query.
CREATE TABLE search_documents (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('project', 'photo', 'comment')),
    ref_id     TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    tags       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    facets     TEXT GENERATED ALWAYS AS ('p' || lower(replace(project_id, '-', ''))) VIRTUAL
);
CREATE INDEX search_documents_project ON search_documents (project_id, kind);

-- Words are matched from their start ("kitch" finds "Kitchen"), accents ignored; the
-- prefix indexes make short prefixes cheap.
CREATE VIRTUAL TABLE search_index USING fts5 (
    title, body, tags, facets,
    content = 'search_documents', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
);
CREATE TRIGGER search_documents_inserted AFTER INSERT ON search_documents BEGIN
    INSERT INTO search_index (rowid, title, body, tags, facets) VALUES (new.id, new.title, new.body, new.tags, new.facets);
END;
CREATE TRIGGER search_documents_deleted AFTER DELETE ON search_documents BEGIN
    INSERT INTO search_index (search_index, rowid, title, body, tags, facets) VALUES ('delete', old.id, old.title, old.body, old.tags, old.facets);
END;
CREATE TRIGGER search_documents_updated AFTER UPDATE ON search_documents BEGIN
    INSERT INTO search_index (search_index, rowid, title, body, tags, facets) VALUES ('delete', old.id, old.title, old.body, old.tags, old.facets);
    INSERT INTO search_index (rowid, title, body, tags, facets) VALUES (new.id, new.title, new.body, new.tags, new.facets);
END;

-- Projects: title; address and milestone names.
CREATE TRIGGER search_project_inserted AFTER INSERT ON projects BEGIN
    INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
    VALUES ((SELECT COALESCE(MAX(id), 1 << 40) + 1 FROM search_documents WHERE id >= 1 << 40 AND id < 2 << 40), 'project', new.id, new.id, new.title, new.address, '', new.created_at);
END;
CREATE TRIGGER search_project_updated AFTER UPDATE OF title, address ON projects BEGIN
    UPDATE search_documents SET title = new.title,
        body = new.address || COALESCE((SELECT ' ' || group_concat(m.name, ' ') FROM milestones m WHERE m.project_id = new.id), '')
    WHERE ref_id = new.id;
END;

-- Milestones: their names are in their project's document and their photos'.
CREATE TRIGGER search_milestone_inserted AFTER INSERT ON milestones BEGIN
    UPDATE search_documents SET
        body = (SELECT p.address FROM projects p WHERE p.id = new.project_id)
            || COALESCE((SELECT ' ' || group_concat(m.name, ' ') FROM milestones m WHERE m.project_id = new.project_id), '')
    WHERE ref_id = new.project_id;
END;
CREATE TRIGGER search_milestone_renamed AFTER UPDATE OF name ON milestones BEGIN
    UPDATE search_documents SET
        body = (SELECT p.address FROM projects p WHERE p.id = new.project_id)
            || COALESCE((SELECT ' ' || group_concat(m.name, ' ') FROM milestones m WHERE m.project_id = new.project_id), '')
    WHERE ref_id = new.project_id;
    UPDATE search_documents SET
        body = COALESCE((SELECT i.visit_note FROM project_images i WHERE i.id = search_documents.ref_id), '') || ' ' || new.name
    WHERE ref_id IN (SELECT i.id FROM project_images i WHERE i.milestone_id = new.id);
END;
-- (Its photos lose the milestone through their foreign key, which the photo trigger
-- below follows.)
-- When the project itself is being deleted, there is nothing left to update.
CREATE TRIGGER search_milestone_deleted AFTER DELETE ON milestones BEGIN
    UPDATE search_documents SET
        body = (SELECT p.address FROM projects p WHERE p.id = old.project_id)
            || COALESCE((SELECT ' ' || group_concat(m.name, ' ') FROM milestones m WHERE m.project_id = old.project_id), '')
    WHERE ref_id = old.project_id AND EXISTS (SELECT 1 FROM projects p WHERE p.id = old.project_id);
END;

-- Photos: caption; visit note and milestone name; tags.
CREATE TRIGGER search_photo_inserted AFTER INSERT ON project_images BEGIN
    INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
    VALUES ((SELECT COALESCE(MAX(id), 2 << 40) + 1 FROM search_documents WHERE id >= 2 << 40 AND id < 3 << 40), 'photo', new.id, new.project_id, COALESCE(new.caption, ''),
        COALESCE(new.visit_note, '') || COALESCE((SELECT ' ' || m.name FROM milestones m WHERE m.id = new.milestone_id), ''),
        COALESCE((SELECT group_concat(t.value, ' ') FROM json_each(new.tags) t), ''),
        new.created_at);
END;
CREATE TRIGGER search_photo_updated AFTER UPDATE OF caption, visit_note, milestone_id, tags ON project_images BEGIN
    UPDATE search_documents SET title = COALESCE(new.caption, ''),
        body = COALESCE(new.visit_note, '') || COALESCE((SELECT ' ' || m.name FROM milestones m WHERE m.id = new.milestone_id), ''),
        tags = COALESCE((SELECT group_concat(t.value, ' ') FROM json_each(new.tags) t), '')
    WHERE ref_id = new.id;
END;
CREATE TRIGGER search_photo_deleted AFTER DELETE ON project_images BEGIN
    DELETE FROM search_documents WHERE ref_id = old.id;
END;

-- Comments: body.
CREATE TRIGGER search_comment_inserted AFTER INSERT ON photo_comments BEGIN
    INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
    VALUES ((SELECT COALESCE(MAX(id), 3 << 40) + 1 FROM search_documents WHERE id >= 3 << 40 AND id < 4 << 40), 'comment', new.id, new.project_id, '', new.body, '', new.created_at);
END;
CREATE TRIGGER search_comment_edited AFTER UPDATE OF body ON photo_comments BEGIN
    UPDATE search_documents SET body = new.body WHERE ref_id = new.id;
END;
CREATE TRIGGER search_comment_deleted AFTER DELETE ON photo_comments BEGIN
    DELETE FROM search_documents WHERE ref_id = old.id;
END;

-- What exists already is indexed now, oldest first in each kind's range.
INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
SELECT (1 << 40) + ROW_NUMBER() OVER (ORDER BY p.created_at, p.id), 'project', p.id, p.id, p.title,
    p.address || COALESCE((SELECT ' ' || group_concat(m.name, ' ') FROM milestones m WHERE m.project_id = p.id), ''),
    '', p.created_at
FROM projects p;
INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
SELECT (2 << 40) + ROW_NUMBER() OVER (ORDER BY i.created_at, i.id), 'photo', i.id, i.project_id, COALESCE(i.caption, ''),
    COALESCE(i.visit_note, '') || COALESCE((SELECT ' ' || m.name FROM milestones m WHERE m.id = i.milestone_id), ''),
    '', i.created_at
FROM project_images i;
INSERT INTO search_documents (id, kind, ref_id, project_id, title, body, tags, created_at)
SELECT (3 << 40) + ROW_NUMBER() OVER (ORDER BY c.created_at, c.id), 'comment', c.id, c.project_id, '', c.body, '', c.created_at
FROM photo_comments c;
