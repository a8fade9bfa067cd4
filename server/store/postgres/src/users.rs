//! Accounts: the `users` table, secrets included (never sent to a client as is).

use protocol::{CompanyRole, Role};
use sitecast_store_core::{decode, MailPreferencesRow, NewUser, ProfileFields, Result, UserRow};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::convert::{at, id as uid, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// A row of `users` as Postgres returns it: uuid, timestamptz, the role still text.
struct Rec {
    id: Uuid,
    email: String,
    role: String,
    name: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    phone: Option<String>,
    builder_id: Option<Uuid>,
    password_hash: Option<String>,
    email_confirmed_at: Option<OffsetDateTime>,
    last_sign_in_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    version: i64,
    company_id: Option<Uuid>,
    company_role: Option<String>,
    all_projects: bool,
    company_name: Option<String>,
}

impl Rec {
    fn into_row(self) -> Result<UserRow> {
        Ok(UserRow {
            id: text(self.id),
            email: self.email,
            role: decode::<Role>("users.role", &self.role)?,
            name: self.name,
            first_name: self.first_name,
            last_name: self.last_name,
            phone: self.phone,
            builder_id: opt_text(self.builder_id),
            password_hash: self.password_hash,
            email_confirmed_at: opt_ms(self.email_confirmed_at),
            last_sign_in_at: opt_ms(self.last_sign_in_at),
            created_at: ms(self.created_at),
            updated_at: ms(self.updated_at),
            version: self.version,
            company_id: opt_text(self.company_id),
            company_role: self.company_role.as_deref().map(|r| decode::<CompanyRole>("users.company_role", r)).transpose()?,
            all_projects: self.all_projects,
            company_name: self.company_name,
        })
    }
}

fn rows(recs: Vec<Rec>) -> Result<Vec<UserRow>> {
    recs.into_iter().map(Rec::into_row).collect()
}

pub async fn insert(c: &mut PgConnection, user: &NewUser<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO users (id, email, role, name, first_name, last_name, phone, builder_id,
         password_hash, email_confirmed_at, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 1)",
        uid(user.id),
        user.email,
        user.role.as_str(),
        user.name,
        user.first_name,
        user.last_name,
        user.phone,
        opt_id(user.builder_id),
        user.password_hash,
        opt_at(user.email_confirmed_at),
        at(user.now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn find_by_email(c: &mut PgConnection, email: &str) -> Result<Option<UserRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.email = $1"#,
        email,
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// Holds the user's row until the transaction ends: writes about one user that must
/// see each other (a cap on their devices) run one after another. False when the
/// user does not exist.
pub async fn lock(c: &mut PgConnection, id: &str) -> Result<bool> {
    let found = sqlx::query_scalar!("SELECT 1 AS \"one!\" FROM users WHERE id = $1 FOR UPDATE", uid(id)).fetch_optional(&mut *c).await?;
    Ok(found.is_some())
}

pub async fn find_by_id(c: &mut PgConnection, id: &str) -> Result<Option<UserRow>> {
    sqlx::query_as!(
        Rec,
        r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.id = $1"#,
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?
    .map(Rec::into_row)
    .transpose()
}

/// Sets a new password; the first password also proves the mailbox (invite, reset).
pub async fn set_password(c: &mut PgConnection, id: &str, password_hash: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $2,
           email_confirmed_at = COALESCE(email_confirmed_at, $3),
           updated_at = $3, version = version + 1
         WHERE id = $1",
        uid(id),
        password_hash,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Only if the old hash is still there, so a login cannot undo a password change made
/// while it was hashing; no version bump, as no view shows the hash.
pub async fn rehash_password(c: &mut PgConnection, id: &str, old_hash: &str, new_hash: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2",
        uid(id),
        old_hash,
        new_hash,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn confirm_email(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2),
           updated_at = $2, version = version + 1
         WHERE id = $1",
        uid(id),
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

pub async fn record_sign_in(c: &mut PgConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE users SET last_sign_in_at = $2 WHERE id = $1", uid(id), at(now))
        .execute(&mut *c)
        .await?;
    Ok(())
}

pub async fn count(c: &mut PgConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!" FROM users"#).fetch_one(&mut *c).await?)
}

/// Everyone, for admins' tables, newest first.
pub async fn list_all(c: &mut PgConnection) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id ORDER BY u.created_at DESC, u.id"#,
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// Everyone with this role, oldest account first.
pub async fn list_by_role(c: &mut PgConnection, role: &str) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.role = $1 ORDER BY u.created_at, u.id"#,
            role,
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// The homeowners with at least one project of this company; with
/// `crew_of`, one that member is on.
pub async fn homeowners_of_company(c: &mut PgConnection, company_id: &str, crew_of: Option<&str>) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.role = 'homeowner' AND EXISTS
               (SELECT 1 FROM projects p WHERE p.homeowner_id = u.id AND p.company_id = $1
                  AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2)))
             ORDER BY u.created_at DESC, u.id"#,
            uid(company_id),
            opt_id(crew_of),
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// The members of companies with a project of this homeowner who may see it (the
/// rule of `policy::allows` for `OwnProjects`: owners, managers and all-projects crew
/// see the company's projects, other crew those they are on). They may see the homeowner.
pub async fn builders_of_homeowner(c: &mut PgConnection, homeowner_id: &str) -> Result<Vec<String>> {
    let ids = sqlx::query_scalar!(
        r#"SELECT DISTINCT u.id FROM users u JOIN projects p ON p.company_id = u.company_id
           WHERE p.homeowner_id = $1 AND u.role = 'builder'
             AND (u.company_role <> 'crew' OR u.all_projects
                  OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = u.id))
           ORDER BY u.id"#,
        uid(homeowner_id),
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(ids.into_iter().map(text).collect())
}

/// Project counts per user: as homeowner, or the projects a builder sees in their company.
pub async fn project_counts(c: &mut PgConnection) -> Result<Vec<(String, i64)>> {
    let counts = sqlx::query!(
        r#"SELECT homeowner_id AS "user_id!", COUNT(*) AS "projects!" FROM projects GROUP BY homeowner_id
           UNION ALL
           SELECT u.id, COUNT(*) FROM users u JOIN projects p ON p.company_id = u.company_id
             WHERE u.role = 'builder' AND (u.company_role <> 'crew' OR u.all_projects
                   OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = u.id))
             GROUP BY u.id"#,
    )
    .fetch_all(&mut *c)
    .await?;
    Ok(counts.into_iter().map(|r| (text(r.user_id), r.projects)).collect())
}

/// A company's members, owners first, then managers, then crew.
pub async fn members_of(c: &mut PgConnection, company_id: &str) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            Rec,
            r#"SELECT u.id, u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects, c.name AS "company_name?"
         FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.company_id = $1
             ORDER BY CASE u.company_role WHEN 'owner' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END,
                      COALESCE(u.name, u.email), u.id"#,
            uid(company_id),
        )
        .fetch_all(&mut *c)
        .await?,
    )
}

/// Puts a user in a company with a role, or (`None`) takes them out of theirs; they
/// leave every project crew of a company they leave.
pub async fn set_membership(
    c: &mut PgConnection,
    id: &str,
    membership: Option<(&str, CompanyRole, bool)>,
    now: i64,
) -> Result<bool> {
    let (company_id, role, all) = match membership {
        Some((company, role, all)) => (Some(company), Some(role.as_str()), all),
        None => (None, None, false),
    };
    sqlx::query!(
        "DELETE FROM project_crew WHERE user_id = $1
           AND ($2::uuid IS NULL OR project_id NOT IN (SELECT id FROM projects WHERE company_id = $2))",
        uid(id),
        opt_id(company_id),
    )
    .execute(&mut *c)
    .await?;
    let done = sqlx::query!(
        "UPDATE users SET company_id = $2, company_role = $3, all_projects = $4, updated_at = $5, version = version + 1 WHERE id = $1",
        uid(id),
        opt_id(company_id),
        role,
        all,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Writes the editable profile fields (all of them, as given) and bumps the version.
pub async fn update_profile(c: &mut PgConnection, id: &str, f: &ProfileFields<'_>, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET name = $2, first_name = $3, last_name = $4, phone = $5, updated_at = $6,
           version = version + 1
         WHERE id = $1",
        uid(id),
        f.name,
        f.first_name,
        f.last_name,
        f.phone,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A user's mail preferences, and when they last changed them.
pub async fn mail_preferences(c: &mut PgConnection, id: &str) -> Result<Option<MailPreferencesRow>> {
    let prefs = sqlx::query!(
        "SELECT mail_new_photos, mail_comments, mail_status_changes, mail_preferences_at,
           push_new_photos, push_comments, push_status_changes
         FROM users WHERE id = $1",
        uid(id),
    )
    .fetch_optional(&mut *c)
    .await?;
    Ok(prefs.map(|p| MailPreferencesRow {
        new_photos: p.mail_new_photos,
        comments: p.mail_comments,
        status_changes: p.mail_status_changes,
        changed_at: opt_ms(p.mail_preferences_at),
        push_new_photos: p.push_new_photos,
        push_comments: p.push_comments,
        push_status_changes: p.push_status_changes,
    }))
}

/// Which kinds are pushed; false when the user does not exist.
pub async fn set_push_preferences(c: &mut PgConnection, id: &str, (new_photos, comments, status_changes): (bool, bool, bool)) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET push_new_photos = $2, push_comments = $3, push_status_changes = $4 WHERE id = $1",
        uid(id),
        new_photos,
        comments,
        status_changes,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Writes the three choices and notes `now` as when they changed (an unsubscribe link
/// mailed before then no longer overrides them); false when the user does not exist.
pub async fn set_mail_preferences(
    c: &mut PgConnection,
    id: &str,
    (new_photos, comments, status_changes): (bool, bool, bool),
    now: i64,
) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET mail_new_photos = $2, mail_comments = $3, mail_status_changes = $4,
           mail_preferences_at = $5
         WHERE id = $1",
        uid(id),
        new_photos,
        comments,
        status_changes,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes a user; their projects, photos' rows, favourites and sessions go with them
/// (foreign keys cascade). Returns whether the user existed.
pub async fn delete(c: &mut PgConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM users WHERE id = $1", uid(id)).execute(&mut *c).await?;
    Ok(done.rows_affected() > 0)
}
