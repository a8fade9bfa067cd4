-- A company with members always has an owner: the database holds it, not only a check
-- before the write. Two admins demoting or removing a company's two owners at the same
-- moment (on two instances) each saw the other owner and both went ahead.
--
-- Every change that takes an owner away (a role change, leaving the company, an
-- account deleted) first locks the company's row, so such changes to one company run
-- one after another; then, with a fresh snapshot (READ COMMITTED, a volatile
-- function: each statement sees what committed before it), it checks that an owner is
-- left. A company being deleted is gone by then and is not checked.
CREATE FUNCTION company_keeps_an_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM companies WHERE id = OLD.company_id FOR UPDATE;
    IF FOUND
       AND EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id)
       AND NOT EXISTS (SELECT 1 FROM users WHERE company_id = OLD.company_id AND company_role = 'owner') THEN
        RAISE EXCEPTION 'company_needs_owner' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER users_company_keeps_an_owner
    AFTER UPDATE OF company_id, company_role OR DELETE ON users
    FOR EACH ROW
    WHEN (OLD.company_id IS NOT NULL AND OLD.company_role = 'owner')
    EXECUTE FUNCTION company_keeps_an_owner();
