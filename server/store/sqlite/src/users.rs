use protocol::Role;
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
        r#"SELECT id AS "id!", email, role, name, first_name, last_name, phone, builder_id,
           password_hash, email_confirmed_at, last_sign_in_at, created_at, updated_at, version
           FROM users WHERE email = $1"#,
        email
    )
    .fetch_optional(c)
    .await?
    .map(UserRow::try_from)
    .transpose()
}

pub async fn find_by_id(c: &mut SqliteConnection, id: &str) -> Result<Option<UserRow>> {
    sqlx::query_as!(
        User,
        r#"SELECT id AS "id!", email, role, name, first_name, last_name, phone, builder_id,
           password_hash, email_confirmed_at, last_sign_in_at, created_at, updated_at, version
           FROM users WHERE id = $1"#,
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
            r#"SELECT id AS "id!", email, role, name, first_name, last_name, phone, builder_id,
               password_hash, email_confirmed_at, last_sign_in_at, created_at, updated_at, version
               FROM users ORDER BY created_at DESC, id"#
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
            r#"SELECT id AS "id!", email, role, name, first_name, last_name, phone, builder_id,
               password_hash, email_confirmed_at, last_sign_in_at, created_at, updated_at, version
               FROM users WHERE role = $1 ORDER BY created_at, id"#,
            role
        )
        .fetch_all(c)
        .await?,
    )
}

/// The homeowners with at least one project of this builder.
pub async fn homeowners_of_builder(c: &mut SqliteConnection, builder_id: &str) -> Result<Vec<UserRow>> {
    rows(
        sqlx::query_as!(
            User,
            r#"SELECT u.id AS "id!", u.email, u.role, u.name, u.first_name, u.last_name, u.phone,
               u.builder_id, u.password_hash, u.email_confirmed_at, u.last_sign_in_at,
               u.created_at, u.updated_at, u.version
               FROM users u WHERE u.role = 'homeowner' AND EXISTS
               (SELECT 1 FROM projects p WHERE p.homeowner_id = u.id AND p.builder_id = $1)
               ORDER BY u.created_at DESC, u.id"#,
            builder_id
        )
        .fetch_all(c)
        .await?,
    )
}

/// Builders who have a project of this homeowner: they may see the homeowner.
pub async fn builders_of_homeowner(c: &mut SqliteConnection, homeowner_id: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT DISTINCT builder_id AS "builder_id!" FROM projects
           WHERE homeowner_id = $1 AND builder_id IS NOT NULL"#,
        homeowner_id
    )
    .fetch_all(c)
    .await?)
}

/// Project counts per user: as homeowner or as builder.
pub async fn project_counts(c: &mut SqliteConnection) -> Result<Vec<(String, i64)>> {
    let rows = sqlx::query!(
        r#"SELECT homeowner_id AS "user_id!", COUNT(*) AS "projects!: i64" FROM projects GROUP BY homeowner_id
           UNION ALL SELECT builder_id, COUNT(*) FROM projects WHERE builder_id IS NOT NULL GROUP BY builder_id"#
    )
    .fetch_all(c)
    .await?;
    Ok(rows.into_iter().map(|r| (r.user_id, r.projects)).collect())
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
           mail_status_changes AS "status_changes!: bool", mail_preferences_at AS changed_at
           FROM users WHERE id = $1"#,
        id
    )
    .fetch_optional(c)
    .await?)
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
