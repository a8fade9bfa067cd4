-- A company with members always has an owner: the database holds it, not only a check
-- before the write (see the Postgres migration of the same name). SQLite runs one
-- write transaction at a time (the store begins them IMMEDIATE), so the check inside
-- the write sees every earlier one. A company being deleted is gone by then and is
-- not checked.
CREATE TRIGGER users_company_keeps_an_owner_on_update
    AFTER UPDATE OF company_id, company_role ON users
    WHEN OLD.company_id IS NOT NULL AND OLD.company_role = 'owner'
BEGIN
    SELECT RAISE(ABORT, 'company_needs_owner')
    WHERE EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id)
      AND EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id)
      AND NOT EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id AND company_role = 'owner');
END;

CREATE TRIGGER users_company_keeps_an_owner_on_delete
    AFTER DELETE ON users
    WHEN OLD.company_id IS NOT NULL AND OLD.company_role = 'owner'
BEGIN
    SELECT RAISE(ABORT, 'company_needs_owner')
    WHERE EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id)
      AND EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id)
      AND NOT EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id AND company_role = 'owner');
END;
