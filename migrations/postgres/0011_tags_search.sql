-- Tags, search and photo locations (issue 29).

-- A photo's tags, in the order they were added; unique on a photo case-insensitively
-- (the domain keeps them so).
ALTER TABLE project_images ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
-- Where it was taken (EXIF GPS, degrees), unless the installation keeps no locations.
ALTER TABLE project_images ADD COLUMN latitude double precision;
ALTER TABLE project_images ADD COLUMN longitude double precision;
-- A resumable upload's tags for its photo (the batch's), named when it starts.
ALTER TABLE uploads ADD COLUMN tags text[] NOT NULL DEFAULT '{}';

-- Settings of the whole installation: one row.
CREATE TABLE installation_settings (
    id                    integer PRIMARY KEY CHECK (id = 1),
    store_photo_locations boolean NOT NULL,
    updated_at            timestamptz NOT NULL
);
INSERT INTO installation_settings (id, store_photo_locations, updated_at) VALUES (1, TRUE, 'epoch');

-- The search index. One document per project (title; address and milestone names),
-- photo (caption, tags; visit note and milestone name) and comment (body), kept by the
-- triggers below in the same transaction as the change they follow. Words are matched
-- from their start with the 'simple' configuration (no stemming: "kitch" must find
-- "Kitchen" while it is being typed); title and tags weigh more than the rest (A, B).
CREATE TABLE search_documents (
    ref_id     uuid PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('project', 'photo', 'comment')),
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    title      text NOT NULL,
    body       text NOT NULL,
    tags       text NOT NULL,
    created_at timestamptz NOT NULL,
    document   tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', tags), 'A')
            || setweight(to_tsvector('simple', body), 'B')
    ) STORED
);
CREATE INDEX search_documents_document ON search_documents USING gin (document);
CREATE INDEX search_documents_project ON search_documents (project_id, kind);
-- A search's best matches are its newest: for common words, walking this down and
-- testing each document finds them sooner than reading every match.
CREATE INDEX search_documents_newest ON search_documents (kind, created_at DESC, ref_id);

-- What a project's and a photo's documents say, read from their rows.
CREATE FUNCTION search_project_body(project uuid) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT p.address || COALESCE((SELECT ' ' || string_agg(m.name, ' ' ORDER BY m.position) FROM milestones m WHERE m.project_id = p.id), '')
    FROM projects p WHERE p.id = project
$$;
CREATE FUNCTION search_photo_body(note text, milestone uuid) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT COALESCE(note, '') || COALESCE((SELECT ' ' || m.name FROM milestones m WHERE m.id = milestone), '')
$$;

CREATE FUNCTION search_follow_project() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
        VALUES (NEW.id, 'project', NEW.id, NEW.title, NEW.address, '', NEW.created_at);
    ELSE
        UPDATE search_documents SET title = NEW.title, body = search_project_body(NEW.id) WHERE ref_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_project_inserted AFTER INSERT ON projects FOR EACH ROW EXECUTE FUNCTION search_follow_project();
CREATE TRIGGER search_project_updated AFTER UPDATE OF title, address ON projects FOR EACH ROW EXECUTE FUNCTION search_follow_project();

-- A milestone's name is in its project's document and its photos'. (A deleted one's
-- photos lose it through their foreign key, which the photo trigger follows.)
CREATE FUNCTION search_follow_milestone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
BEGIN
    -- (When the project itself is being deleted there is no body: nothing to update.)
    UPDATE search_documents SET body = b.body FROM (SELECT search_project_body(project) AS body) b
    WHERE ref_id = project AND b.body IS NOT NULL;
    IF TG_OP = 'UPDATE' THEN
        UPDATE search_documents d SET body = search_photo_body(i.visit_note, i.milestone_id)
        FROM project_images i WHERE i.milestone_id = NEW.id AND d.ref_id = i.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_milestone_inserted AFTER INSERT OR DELETE ON milestones FOR EACH ROW EXECUTE FUNCTION search_follow_milestone();
CREATE TRIGGER search_milestone_renamed AFTER UPDATE OF name ON milestones FOR EACH ROW EXECUTE FUNCTION search_follow_milestone();

CREATE FUNCTION search_follow_photo() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
        VALUES (NEW.id, 'photo', NEW.project_id, COALESCE(NEW.caption, ''), search_photo_body(NEW.visit_note, NEW.milestone_id),
            array_to_string(NEW.tags, ' '), NEW.created_at);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE search_documents SET title = COALESCE(NEW.caption, ''), body = search_photo_body(NEW.visit_note, NEW.milestone_id),
            tags = array_to_string(NEW.tags, ' ')
        WHERE ref_id = NEW.id;
    ELSE
        DELETE FROM search_documents WHERE ref_id = OLD.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_photo_inserted AFTER INSERT OR DELETE ON project_images FOR EACH ROW EXECUTE FUNCTION search_follow_photo();
CREATE TRIGGER search_photo_updated AFTER UPDATE OF caption, visit_note, milestone_id, tags ON project_images
    FOR EACH ROW EXECUTE FUNCTION search_follow_photo();

CREATE FUNCTION search_follow_comment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
        VALUES (NEW.id, 'comment', NEW.project_id, '', NEW.body, '', NEW.created_at);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE search_documents SET body = NEW.body WHERE ref_id = NEW.id;
    ELSE
        DELETE FROM search_documents WHERE ref_id = OLD.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_comment_inserted AFTER INSERT OR DELETE ON photo_comments FOR EACH ROW EXECUTE FUNCTION search_follow_comment();
CREATE TRIGGER search_comment_edited AFTER UPDATE OF body ON photo_comments FOR EACH ROW EXECUTE FUNCTION search_follow_comment();

-- What exists already is indexed now.
INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
SELECT p.id, 'project', p.id, p.title, search_project_body(p.id), '', p.created_at FROM projects p;
INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
SELECT i.id, 'photo', i.project_id, COALESCE(i.caption, ''), search_photo_body(i.visit_note, i.milestone_id), '', i.created_at
FROM project_images i;
INSERT INTO search_documents (ref_id, kind, project_id, title, body, tags, created_at)
SELECT c.id, 'comment', c.project_id, '', c.body, '', c.created_at FROM photo_comments c;
