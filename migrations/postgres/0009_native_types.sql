-- Native column types (the store split): until now Postgres stored what SQLite can,
-- ids as UUID text, times as BIGINT UTC milliseconds, flags as 0/1, calendar days as
-- 'YYYY-MM-DD' text and JSON as text. From here on Postgres uses its own types: `uuid`
-- (16 bytes instead of 37, compared as numbers), `timestamptz`, `boolean`, `date` and
-- `jsonb`, so the database itself refuses a malformed value and psql shows real times.
-- The rows the store hands the domain are unchanged (the crate converts).
--
-- This converts an existing database in place, losing nothing: every value is cast, not
-- re-entered, and a value that does not convert (an id that is not a UUID, a day that
-- is not a date, a timeline entry that is not JSON) fails the migration, which then
-- changes nothing (sqlx runs each migration in one transaction), rather than being
-- dropped. (Log entries' free-form data is the one exception, below.)
--
-- Counters, sizes, versions and positions stay integers. Keys that are not ids stay
-- text: token hashes, login_failures.key_hash, server_keys.name, storage keys. Enum
-- columns (role, status, kind, category, photos…) stay text.
--
-- Also adds users.mail_preferences_at (SQLite's 0009 adds the same column).

-- 1. Foreign keys. ALTER COLUMN … TYPE refuses to change a column that a foreign key
-- joins to a column of the old type, and a key's two sides can only change one at a
-- time. So every foreign key of the schema is written down (its exact definition, ON
-- DELETE action included) and dropped here, and re-added from that record in step 3,
-- once both of its sides are uuid. Re-adding one checks every row again.
CREATE TEMPORARY TABLE sitecast_0009_foreign_keys (
    table_name      TEXT NOT NULL,
    constraint_name TEXT NOT NULL,
    definition      TEXT NOT NULL
);

DO $$
DECLARE
    fk RECORD;
BEGIN
    FOR fk IN
        SELECT c.conrelid::regclass::text AS table_name, c.conname AS constraint_name,
               pg_get_constraintdef(c.oid) AS definition
        FROM pg_constraint c
        WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
    LOOP
        INSERT INTO sitecast_0009_foreign_keys VALUES (fk.table_name, fk.constraint_name, fk.definition);
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.table_name, fk.constraint_name);
    END LOOP;
END
$$;

-- No CHECK constraint compares a converted column with a number (the only numeric one,
-- projects.progress BETWEEN 0 AND 100, is on a column that stays INTEGER), so none has
-- to be dropped and re-created. Indexes and primary/unique keys are rebuilt by
-- ALTER COLUMN … TYPE itself.

-- Site-visit (upload batch) ids were the client's to choose until this release (up to
-- 64 letters, digits and dashes): the web app made UUIDs where the browser could, and
-- other text where it could not (a page served over plain HTTP has no
-- crypto.randomUUID); the load test sent `load-…`. Those become a UUID derived from the
-- text (its MD5), the same in every column that names the batch, so a visit's photos,
-- uploads and timeline entry still find each other. Real UUIDs are kept as they are.
CREATE FUNCTION pg_temp.sitecast_0009_batch(value text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN value::uuid;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN md5(value)::uuid;
END
$$;

-- Milestone days were checked as real calendar days, year 0000 included; Postgres
-- spells that year 1 BC and refuses '0000-…' as text, so those few go through to_date,
-- which reads year 0 as 1 BC (what the store reads back as year 0). Every other day is
-- a plain cast, which refuses anything that is not a day.
CREATE FUNCTION pg_temp.sitecast_0009_day(value text) RETURNS date
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value LIKE '0000-%' THEN to_date(value, 'YYYY-MM-DD') ELSE value::date END
$$;

-- 2. The columns, one ALTER TABLE per table so each table is rewritten once.
--
-- Times: the milliseconds added to the epoch as an interval. Unlike
-- to_timestamp(col / 1000.0) this goes through no fraction of a second in floating
-- point, so every millisecond converts exactly, and it does not depend on the session's
-- time zone (the epoch literal is UTC, and an interval of milliseconds has no days to
-- shift across a DST change).
--
-- Flags: a column's old default (an integer) cannot be cast to boolean, so it is
-- dropped first and set again as a boolean after the change (ALTER TABLE applies the
-- three in that order).

ALTER TABLE users
    ALTER COLUMN id                 TYPE uuid USING id::uuid,
    ALTER COLUMN builder_id         TYPE uuid USING builder_id::uuid,
    ALTER COLUMN email_confirmed_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + email_confirmed_at * INTERVAL '1 millisecond',
    ALTER COLUMN last_sign_in_at    TYPE timestamptz USING TIMESTAMPTZ 'epoch' + last_sign_in_at * INTERVAL '1 millisecond',
    ALTER COLUMN created_at         TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN updated_at         TYPE timestamptz USING TIMESTAMPTZ 'epoch' + updated_at * INTERVAL '1 millisecond',
    ALTER COLUMN mail_new_photos DROP DEFAULT,
    ALTER COLUMN mail_new_photos    TYPE boolean USING mail_new_photos <> 0,
    ALTER COLUMN mail_new_photos SET DEFAULT true,
    ALTER COLUMN mail_comments DROP DEFAULT,
    ALTER COLUMN mail_comments      TYPE boolean USING mail_comments <> 0,
    ALTER COLUMN mail_comments SET DEFAULT true,
    ALTER COLUMN mail_status_changes DROP DEFAULT,
    ALTER COLUMN mail_status_changes TYPE boolean USING mail_status_changes <> 0,
    ALTER COLUMN mail_status_changes SET DEFAULT false,
    -- When the user last changed their mail preferences: a one-click unsubscribe link
    -- mailed before then no longer overrides what they chose since. NULL: never.
    ADD COLUMN mail_preferences_at timestamptz;

ALTER TABLE sessions
    ALTER COLUMN id           TYPE uuid USING id::uuid,
    ALTER COLUMN user_id      TYPE uuid USING user_id::uuid,
    ALTER COLUMN created_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN last_seen_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + last_seen_at * INTERVAL '1 millisecond',
    ALTER COLUMN expires_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + expires_at * INTERVAL '1 millisecond';

-- The key is the token's hash, which stays text.
ALTER TABLE auth_tokens
    ALTER COLUMN user_id    TYPE uuid USING user_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN expires_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + expires_at * INTERVAL '1 millisecond',
    ALTER COLUMN used_at    TYPE timestamptz USING TIMESTAMPTZ 'epoch' + used_at * INTERVAL '1 millisecond';

ALTER TABLE projects
    ALTER COLUMN id                 TYPE uuid USING id::uuid,
    ALTER COLUMN homeowner_id       TYPE uuid USING homeowner_id::uuid,
    ALTER COLUMN builder_id         TYPE uuid USING builder_id::uuid,
    ALTER COLUMN thumbnail_image_id TYPE uuid USING thumbnail_image_id::uuid,
    ALTER COLUMN created_at         TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN updated_at         TYPE timestamptz USING TIMESTAMPTZ 'epoch' + updated_at * INTERVAL '1 millisecond',
    ALTER COLUMN thumbnail_pinned DROP DEFAULT,
    ALTER COLUMN thumbnail_pinned   TYPE boolean USING thumbnail_pinned <> 0,
    ALTER COLUMN thumbnail_pinned SET DEFAULT false;

ALTER TABLE project_images
    ALTER COLUMN id           TYPE uuid USING id::uuid,
    ALTER COLUMN project_id   TYPE uuid USING project_id::uuid,
    ALTER COLUMN uploaded_by  TYPE uuid USING uploaded_by::uuid,
    ALTER COLUMN batch_id     TYPE uuid USING pg_temp.sitecast_0009_batch(batch_id),
    ALTER COLUMN milestone_id TYPE uuid USING milestone_id::uuid,
    ALTER COLUMN taken_at     TYPE timestamptz USING TIMESTAMPTZ 'epoch' + taken_at * INTERVAL '1 millisecond',
    ALTER COLUMN created_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN updated_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + updated_at * INTERVAL '1 millisecond';

ALTER TABLE user_favourites
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN user_id    TYPE uuid USING user_id::uuid,
    ALTER COLUMN image_id   TYPE uuid USING image_id::uuid,
    ALTER COLUMN project_id TYPE uuid USING project_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond';

ALTER TABLE photo_comments
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN image_id   TYPE uuid USING image_id::uuid,
    ALTER COLUMN project_id TYPE uuid USING project_id::uuid,
    ALTER COLUMN author_id  TYPE uuid USING author_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN updated_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + updated_at * INTERVAL '1 millisecond';

ALTER TABLE notifications
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN user_id    TYPE uuid USING user_id::uuid,
    ALTER COLUMN project_id TYPE uuid USING project_id::uuid,
    ALTER COLUMN image_id   TYPE uuid USING image_id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN read_at    TYPE timestamptz USING TIMESTAMPTZ 'epoch' + read_at * INTERVAL '1 millisecond',
    ALTER COLUMN mail_pending DROP DEFAULT,
    ALTER COLUMN mail_pending TYPE boolean USING mail_pending <> 0,
    ALTER COLUMN mail_pending SET DEFAULT false;

-- `detail` is the wire's TimelineDetail. jsonb keeps its meaning, not its spelling:
-- it reads back with normalised spacing and key order.
ALTER TABLE project_activity
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN project_id TYPE uuid USING project_id::uuid,
    ALTER COLUMN actor_id   TYPE uuid USING actor_id::uuid,
    ALTER COLUMN subject_id TYPE uuid USING pg_temp.sitecast_0009_batch(subject_id),
    ALTER COLUMN detail     TYPE jsonb USING detail::jsonb,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond';

-- `data` is free-form text from the client (protocol's LogEntry: "typically JSON
-- text"), so not every row holds JSON. JSON is kept as JSON; anything else (or JSON
-- jsonb refuses, such as a \u0000 escape) becomes a JSON string holding the text
-- unchanged (`data #>> '{}'` gives it back), instead of failing the migration. The
-- store's logs::insert applies the same rule to new entries.
CREATE FUNCTION pg_temp.sitecast_0009_json(value text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN value::jsonb;
EXCEPTION WHEN data_exception THEN
    RETURN to_jsonb(value);
END
$$;

ALTER TABLE logs
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN user_id    TYPE uuid USING user_id::uuid,
    ALTER COLUMN data       TYPE jsonb USING pg_temp.sitecast_0009_json(data),
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond';

ALTER TABLE contact_messages
    ALTER COLUMN id         TYPE uuid USING id::uuid,
    ALTER COLUMN created_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond';

-- `attempts` is a counter and stays INTEGER.
ALTER TABLE mail_outbox
    ALTER COLUMN id              TYPE uuid USING id::uuid,
    ALTER COLUMN created_at      TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN next_attempt_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + next_attempt_at * INTERVAL '1 millisecond',
    ALTER COLUMN claimed_until   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + claimed_until * INTERVAL '1 millisecond',
    ALTER COLUMN sent_at         TYPE timestamptz USING TIMESTAMPTZ 'epoch' + sent_at * INTERVAL '1 millisecond';

-- Keyed by a hash (text); `attempts` is a counter.
ALTER TABLE login_failures
    ALTER COLUMN window_ends_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + window_ends_at * INTERVAL '1 millisecond';

-- server_keys (name, value) has neither ids nor times: unchanged.

-- file_count, finished and stored are counters.
ALTER TABLE upload_batches
    ALTER COLUMN id           TYPE uuid USING pg_temp.sitecast_0009_batch(id),
    ALTER COLUMN project_id   TYPE uuid USING project_id::uuid,
    ALTER COLUMN user_id      TYPE uuid USING user_id::uuid,
    ALTER COLUMN created_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN completed_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + completed_at * INTERVAL '1 millisecond';

-- `length` is a size in bytes and stays BIGINT.
ALTER TABLE uploads
    ALTER COLUMN id           TYPE uuid USING id::uuid,
    ALTER COLUMN project_id   TYPE uuid USING project_id::uuid,
    ALTER COLUMN user_id      TYPE uuid USING user_id::uuid,
    ALTER COLUMN batch_id     TYPE uuid USING pg_temp.sitecast_0009_batch(batch_id),
    ALTER COLUMN photo_id     TYPE uuid USING photo_id::uuid,
    ALTER COLUMN milestone_id TYPE uuid USING milestone_id::uuid,
    ALTER COLUMN created_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN expires_at   TYPE timestamptz USING TIMESTAMPTZ 'epoch' + expires_at * INTERVAL '1 millisecond',
    ALTER COLUMN finished_at  TYPE timestamptz USING TIMESTAMPTZ 'epoch' + finished_at * INTERVAL '1 millisecond';

-- Calendar days: 'YYYY-MM-DD' reads as the same day whatever the session's DateStyle.
-- `position` stays BIGINT.
ALTER TABLE milestones
    ALTER COLUMN id          TYPE uuid USING id::uuid,
    ALTER COLUMN project_id  TYPE uuid USING project_id::uuid,
    ALTER COLUMN target_date TYPE date USING pg_temp.sitecast_0009_day(target_date),
    ALTER COLUMN done_date   TYPE date USING pg_temp.sitecast_0009_day(done_date),
    ALTER COLUMN created_at  TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond',
    ALTER COLUMN updated_at  TYPE timestamptz USING TIMESTAMPTZ 'epoch' + updated_at * INTERVAL '1 millisecond';

-- The token is kept as its hash (text); `photos` is an enum (text).
ALTER TABLE guest_links
    ALTER COLUMN id             TYPE uuid USING id::uuid,
    ALTER COLUMN project_id     TYPE uuid USING project_id::uuid,
    ALTER COLUMN created_by     TYPE uuid USING created_by::uuid,
    ALTER COLUMN downloads      TYPE boolean USING downloads <> 0,
    ALTER COLUMN expires_at     TYPE timestamptz USING TIMESTAMPTZ 'epoch' + expires_at * INTERVAL '1 millisecond',
    ALTER COLUMN revoked_at     TYPE timestamptz USING TIMESTAMPTZ 'epoch' + revoked_at * INTERVAL '1 millisecond',
    ALTER COLUMN last_opened_at TYPE timestamptz USING TIMESTAMPTZ 'epoch' + last_opened_at * INTERVAL '1 millisecond',
    ALTER COLUMN created_at     TYPE timestamptz USING TIMESTAMPTZ 'epoch' + created_at * INTERVAL '1 millisecond';

-- 3. The foreign keys again, exactly as they were; each is checked against the rows.
DO $$
DECLARE
    fk RECORD;
BEGIN
    FOR fk IN SELECT * FROM sitecast_0009_foreign_keys LOOP
        EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.table_name, fk.constraint_name, fk.definition);
    END LOOP;
END
$$;

DROP TABLE sitecast_0009_foreign_keys;
DROP FUNCTION pg_temp.sitecast_0009_json(text);
DROP FUNCTION pg_temp.sitecast_0009_batch(text);
DROP FUNCTION pg_temp.sitecast_0009_day(text);
