use protocol::{CompanyRole, Role};
use sitecast_store_core::{decode, MailPreferencesRow, NewUser, ProfileFields, Result, UserRow};
use sqlx::SqliteConnection;

/// A row of `users` as stored: the role still text.
struct User {
    id: String,
    email: String,
    role: String,
    name: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    phone: Option<String>,
    builder_id: Option<String>,
    password_hash: Option<String>,
    email_confirmed_at: Option<i64>,
    last_sign_in_at: Option<i64>,
    created_at: i64,
    updated_at: i64,
    version: i64,
    company_id: Option<String>,
    company_role: Option<String>,
    all_projects: bool,
    company_name: Option<String>,
}

impl TryFrom<User> for UserRow {
    type Error = sitecast_store_core::StoreError;

    fn try_from(u: User) -> Result<UserRow> {
        Ok(UserRow {
            role: decode::<Role>("users.role", &u.role)?,
            id: u.id,
            email: u.email,
            name: u.name,
            first_name: u.first_name,
            last_name: u.last_name,
            phone: u.phone,
            builder_id: u.builder_id,
            password_hash: u.password_hash,
            email_confirmed_at: u.email_confirmed_at,
            last_sign_in_at: u.last_sign_in_at,
            created_at: u.created_at,
            updated_at: u.updated_at,
            version: u.version,
            company_role: u.company_role.as_deref().map(|r| decode::<CompanyRole>("users.company_role", r)).transpose()?,
            company_id: u.company_id,
            all_projects: u.all_projects,
            company_name: u.company_name,
        })
    }
}

fn rows(users: Vec<User>) -> Result<Vec<UserRow>> {
    users.into_iter().map(UserRow::try_from).collect()
}

pub async fn insert(c: &mut SqliteConnection, user: &NewUser<'_>) -> Result<()> {
    let role = user.role.as_str();
    sqlx::query!(
        "INSERT INTO users (id, email, role, name, first_name, last_name, phone, builder_id, \
         password_hash, email_confirmed_at, created_at, updated_at, version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 1)",
        user.id,
        user.email,
        role,
        user.name,
        user.first_name,
        user.last_name,
        user.phone,
        user.builder_id,
        user.password_hash,
        user.email_confirmed_at,
        user.now,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn find_by_email(c: &mut SqliteConnection, email: &str) -> Result<Option<UserRow>> {
    sqlx::query_as!(
        User,
        r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.email = $1"#,
        email
    )
    .fetch_optional(c)
    .await?
    .map(UserRow::try_from)
    .transpose()
}

/// The user exists (SQLite's write transactions already run one at a time, so there is
/// nothing more to hold); see the Postgres store's `lock`.
pub async fn lock(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let found = sqlx::query_scalar!("SELECT 1 AS \"one!: i64\" FROM users WHERE id = $1", id).fetch_optional(c).await?;
    Ok(found.is_some())
}

pub async fn find_by_id(c: &mut SqliteConnection, id: &str) -> Result<Option<UserRow>> {
    sqlx::query_as!(
        User,
        r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.id = $1"#,
        id
    )
    .fetch_optional(c)
    .await?
    .map(UserRow::try_from)
    .transpose()
}

/// Sets a new password; the first password also proves the mailbox (invite, reset).
pub async fn set_password(c: &mut SqliteConnection, id: &str, password_hash: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $2, \
         email_confirmed_at = COALESCE(email_confirmed_at, $3), \
         updated_at = $3, version = version + 1 WHERE id = $1",
        id,
        password_hash,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Only if the old hash is still there, so a login cannot undo a password change made
/// while it was hashing; no version bump, as no view shows the hash.
pub async fn rehash_password(c: &mut SqliteConnection, id: &str, old_hash: &str, new_hash: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2",
        id,
        old_hash,
        new_hash,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn confirm_email(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2), \
         updated_at = $2, version = version + 1 WHERE id = $1",
        id,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn record_sign_in(c: &mut SqliteConnection, id: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE users SET last_sign_in_at = $2 WHERE id = $1", id, now)
        .execute(c)
        .await?;
    Ok(())
}

pub async fn count(c: &mut SqliteConnection) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM users"#)
        .fetch_one(c)
        .await?)
}

/// Everyone, for admins' tables, newest first.
pub async fn list_all(c: &mut SqliteConnection) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            User,
            r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id ORDER BY u.created_at DESC, u.id"#
        )
        .fetch_all(c)
        .await?,
    )
}

/// Everyone with this role, by name.
pub async fn list_by_role(c: &mut SqliteConnection, role: &str) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            User,
            r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.role = $1 ORDER BY u.created_at, u.id"#,
            role
        )
        .fetch_all(c)
        .await?,
    )
}

/// The homeowners with at least one project of this company; with
/// `crew_of`, one that member is on.
pub async fn homeowners_of_company(c: &mut SqliteConnection, company_id: &str, crew_of: Option<&str>) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            User,
            r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.role = 'homeowner' AND EXISTS
               (SELECT 1 FROM projects p WHERE p.homeowner_id = u.id AND p.company_id = $1
                  AND ($2 IS NULL OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = $2)))
               ORDER BY u.created_at DESC, u.id"#,
            company_id,
            crew_of,
        )
        .fetch_all(c)
        .await?,
    )
}

/// The members of companies with a project of this homeowner who may see it (the
/// rule of `policy::allows` for `OwnProjects`: owners, managers and all-projects crew
/// see the company's projects, other crew those they are on). They may see the homeowner.
pub async fn builders_of_homeowner(c: &mut SqliteConnection, homeowner_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT DISTINCT u.id AS "id!" FROM users u JOIN projects p ON p.company_id = u.company_id
           WHERE p.homeowner_id = $1 AND u.role = 'builder'
             AND (u.company_role <> 'crew' OR u.all_projects
                  OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = u.id))
           ORDER BY u.id"#,
        homeowner_id
    )
    .fetch_all(c)
    .await?)
}

/// Project counts per user: as homeowner, or the projects a builder sees in their company.
pub async fn project_counts(c: &mut SqliteConnection) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query!(
        r#"SELECT homeowner_id AS "user_id!", COUNT(*) AS "projects!: i64" FROM projects GROUP BY homeowner_id
           UNION ALL SELECT u.id, COUNT(*) FROM users u JOIN projects p ON p.company_id = u.company_id
             WHERE u.role = 'builder' AND (u.company_role <> 'crew' OR u.all_projects
                   OR EXISTS (SELECT 1 FROM project_crew pc WHERE pc.project_id = p.id AND pc.user_id = u.id))
             GROUP BY u.id"#
    )
    .fetch_all(c)
    .await?;
    Ok(rows.into_iter().map(|r| (r.user_id, r.projects)).collect())
}

/// A company's members, owners first, then managers, then crew.
pub async fn members_of(c: &mut SqliteConnection, company_id: &str) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            User,
            r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone, u.builder_id,
           u.password_hash, u.email_confirmed_at, u.last_sign_in_at, u.created_at, u.updated_at, u.version,
           u.company_id, u.company_role, u.all_projects AS "all_projects!: bool", c.name AS "company_name?"
           FROM users u LEFT JOIN companies c ON c.id = u.company_id WHERE u.company_id = $1
               ORDER BY CASE u.company_role WHEN 'owner' THEN 0 WHEN 'manager' THEN 1 ELSE 2 END,
                        COALESCE(u.name, u.email), u.id"#,
            company_id,
        )
        .fetch_all(c)
        .await?,
    )
}

/// Puts a user in a company with a role, or (`None`) takes them out of theirs; they
/// leave every project crew of a company they leave.
pub async fn set_membership(
    c: &mut SqliteConnection,
    id: &str,
    membership: Option<(&str, CompanyRole, bool)>,
    now: i64,
) -> Result<bool> {
    let (company_id, role, all) = match membership {
        Some((company, role, all)) => (Some(company), Some(role.as_str()), all),
        None => (None, None, false),
    };
    sqlx::query!(
        "DELETE FROM project_crew WHERE user_id = $1 AND ($2 IS NULL OR project_id NOT IN (SELECT id FROM projects WHERE company_id = $2))",
        id,
        company_id,
    )
    .execute(&mut *c)
    .await?;
    let done = sqlx::query!(
        "UPDATE users SET company_id = $2, company_role = $3, all_projects = $4, updated_at = $5, version = version + 1 WHERE id = $1",
        id,
        company_id,
        role,
        all,
        now,
    )
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Writes the editable profile fields (all of them, as given) and bumps the version.
pub async fn update_profile(c: &mut SqliteConnection, id: &str, f: &ProfileFields<'_>, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET name = $2, first_name = $3, last_name = $4, phone = $5, updated_at = $6, \
         version = version + 1 WHERE id = $1",
        id,
        f.name,
        f.first_name,
        f.last_name,
        f.phone,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// The flags are 0/1 integers.
pub async fn mail_preferences(c: &mut SqliteConnection, id: &str) -> Result<Option<MailPreferencesRow>> {
    Ok(sqlx::query_as!(
        MailPreferencesRow,
        r#"SELECT mail_new_photos AS "new_photos!: bool", mail_comments AS "comments!: bool",
           mail_status_changes AS "status_changes!: bool", mail_preferences_at AS changed_at,
           push_new_photos AS "push_new_photos!: bool", push_comments AS "push_comments!: bool",
           push_status_changes AS "push_status_changes!: bool"
           FROM users WHERE id = $1"#,
        id
    )
    .fetch_optional(c)
    .await?)
}

/// Which kinds are pushed; false when the user does not exist.
pub async fn set_push_preferences(c: &mut SqliteConnection, id: &str, (new_photos, comments, status_changes): (bool, bool, bool)) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET push_new_photos = $2, push_comments = $3, push_status_changes = $4 WHERE id = $1",
        id,
        new_photos,
        comments,
        status_changes,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn set_mail_preferences(
    c: &mut SqliteConnection,
    id: &str,
    (new_photos, comments, status_changes): (bool, bool, bool),
    now: i64,
) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET mail_new_photos = $2, mail_comments = $3, mail_status_changes = $4, \
         mail_preferences_at = $5 WHERE id = $1",
        id,
        new_photos,
        comments,
        status_changes,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Their projects, photos' rows, favourites and sessions go with them (foreign keys
/// cascade).
pub async fn delete(c: &mut SqliteConnection, id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM users WHERE id = $1", id).execute(c).await?;
    Ok(done.rows_affected() > 0)
}
