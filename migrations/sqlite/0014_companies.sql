-- Builder companies (issue 30). A project's builder is a company; each of its people
-- signs in as themselves: owners manage the company, managers see all its projects and
-- invite crew, crew see the projects they are on (or all, when the owner says so).
CREATE TABLE companies (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version    BIGINT NOT NULL DEFAULT 1
);

-- A person belongs to at most one company.
ALTER TABLE users ADD COLUMN company_id TEXT REFERENCES companies (id) ON DELETE SET NULL;
ALTER TABLE users ADD COLUMN company_role TEXT CHECK (company_role IN ('owner', 'manager', 'crew'));
ALTER TABLE users ADD COLUMN all_projects BOOLEAN NOT NULL DEFAULT 0;
CREATE INDEX users_company ON users (company_id);

-- Who of the company's crew is on a project.
CREATE TABLE project_crew (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at   BIGINT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_crew_user ON project_crew (user_id);

-- Every builder becomes the owner of a one-member company of the same name, which
-- keeps the builder's id (ids are unique per table; nothing else shares the id space),
-- and their projects move to it: a builder's dashboard is now the company's.
INSERT INTO companies (id, name, created_at, updated_at)
    SELECT id, COALESCE(NULLIF(trim(name), ''), email), created_at, updated_at FROM users WHERE role = 'builder';
UPDATE users SET company_id = id, company_role = 'owner' WHERE role = 'builder';

ALTER TABLE projects ADD COLUMN company_id TEXT REFERENCES companies (id) ON DELETE CASCADE;
UPDATE projects SET company_id = builder_id;
DROP INDEX projects_builder;
ALTER TABLE projects DROP COLUMN builder_id;
CREATE INDEX projects_company ON projects (company_id);
