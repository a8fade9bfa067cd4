use sqlx::{Any, Executor, FromRow};

use super::Result;

/// A row of `users`, secrets included; never sent to a client as is.
#[derive(Debug, Clone, FromRow)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub role: String,
    pub name: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub builder_id: Option<String>,
    pub password_hash: Option<String>,
    pub email_confirmed_at: Option<i64>,
    pub last_sign_in_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
}

const COLUMNS: &str = "id, email, role, name, first_name, last_name, phone, builder_id, \
     password_hash, email_confirmed_at, last_sign_in_at, created_at, updated_at, version";

pub struct NewUser<'a> {
    pub id: &'a str,
    pub email: &'a str,
    pub role: &'a str,
    pub name: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub builder_id: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub email_confirmed_at: Option<i64>,
    pub now: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, user: &NewUser<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO users (id, email, role, name, first_name, last_name, phone, builder_id, \
         password_hash, email_confirmed_at, created_at, updated_at, version) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 1)",
    )
    .bind(user.id)
    .bind(user.email)
    .bind(user.role)
    .bind(user.name)
    .bind(user.first_name)
    .bind(user.last_name)
    .bind(user.phone)
    .bind(user.builder_id)
    .bind(user.password_hash)
    .bind(user.email_confirmed_at)
    .bind(user.now)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn find_by_email<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    email: &str,
) -> Result<Option<UserRow>> {
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM users WHERE email = $1"
    )))
    .bind(email)
    .fetch_optional(ex)
    .await?)
}

pub async fn find_by_id<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
) -> Result<Option<UserRow>> {
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM users WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Sets a new password; the first password also proves the mailbox (invite, reset).
pub async fn set_password<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    password_hash: &str,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE users SET password_hash = $2, \
         email_confirmed_at = COALESCE(email_confirmed_at, $3), \
         updated_at = $3, version = version + 1 WHERE id = $1",
    )
    .bind(id)
    .bind(password_hash)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Swaps a hash for a fresh one of the same password (newer hashing settings). Only if
/// the old hash is still there, so a login cannot undo a password change made while it
/// was hashing; no version bump, as no view shows the hash.
pub async fn rehash_password<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    old_hash: &str,
    new_hash: &str,
) -> Result<()> {
    sqlx::query("UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2")
        .bind(id)
        .bind(old_hash)
        .bind(new_hash)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn confirm_email<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<()> {
    sqlx::query(
        "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2), \
         updated_at = $2, version = version + 1 WHERE id = $1",
    )
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

pub async fn record_sign_in<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE users SET last_sign_in_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

pub async fn count<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<i64> {
    Ok(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM users").fetch_one(ex).await?)
}

/// Everyone, for admins' tables, newest first.
pub async fn list_all<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Vec<UserRow>> {
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM users ORDER BY created_at DESC, id"
    )))
    .fetch_all(ex)
    .await?)
}

/// Everyone with this role, by name.
pub async fn list_by_role<'e, E: Executor<'e, Database = Any>>(ex: E, role: &str) -> Result<Vec<UserRow>> {
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM users WHERE role = $1 ORDER BY created_at, id"
    )))
    .bind(role)
    .fetch_all(ex)
    .await?)
}

/// The homeowners with at least one project of this builder.
pub async fn homeowners_of_builder<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    builder_id: &str,
) -> Result<Vec<UserRow>> {
    let cols = COLUMNS.split(", ").map(|c| format!("u.{c}")).collect::<Vec<_>>().join(", ");
    Ok(sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {cols} FROM users u WHERE u.role = 'homeowner' AND EXISTS \
         (SELECT 1 FROM projects p WHERE p.homeowner_id = u.id AND p.builder_id = $1) \
         ORDER BY u.created_at DESC, u.id"
    )))
    .bind(builder_id)
    .fetch_all(ex)
    .await?)
}

/// Builders who have a project of this homeowner: they may see the homeowner.
pub async fn builders_of_homeowner<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    homeowner_id: &str,
) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar::<_, String>(
        "SELECT DISTINCT builder_id FROM projects WHERE homeowner_id = $1 AND builder_id IS NOT NULL",
    )
    .bind(homeowner_id)
    .fetch_all(ex)
    .await?)
}

/// Project counts per user: as homeowner or as builder.
pub async fn project_counts<'e, E: Executor<'e, Database = Any>>(ex: E) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as::<_, (String, i64)>(
        "SELECT homeowner_id, COUNT(*) FROM projects GROUP BY homeowner_id \
         UNION ALL SELECT builder_id, COUNT(*) FROM projects WHERE builder_id IS NOT NULL GROUP BY builder_id",
    )
    .fetch_all(ex)
    .await?)
}

pub struct ProfileFields<'a> {
    pub name: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub phone: Option<&'a str>,
}

/// Writes the editable profile fields (all of them, as given) and bumps the version.
pub async fn update_profile<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    f: &ProfileFields<'_>,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "UPDATE users SET name = $2, first_name = $3, last_name = $4, phone = $5, updated_at = $6, \
         version = version + 1 WHERE id = $1",
    )
    .bind(id)
    .bind(f.name)
    .bind(f.first_name)
    .bind(f.last_name)
    .bind(f.phone)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A user's mail preferences: (new photos, comments, status changes), 1 for on.
pub async fn mail_preferences<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<Option<(i64, i64, i64)>> {
    Ok(sqlx::query_as::<_, (i64, i64, i64)>(
        "SELECT mail_new_photos, mail_comments, mail_status_changes FROM users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

pub async fn set_mail_preferences<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    (new_photos, comments, status_changes): (bool, bool, bool),
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE users SET mail_new_photos = $2, mail_comments = $3, mail_status_changes = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(i64::from(new_photos))
    .bind(i64::from(comments))
    .bind(i64::from(status_changes))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes a user; their projects, photos' rows, favourites and sessions go with them
/// (foreign keys cascade). Returns whether the user existed.
pub async fn delete<'e, E: Executor<'e, Database = Any>>(ex: E, id: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM users WHERE id = $1").bind(id).execute(ex).await?;
    Ok(done.rows_affected() > 0)
}

#[cfg(test)]
impl UserRow {
    /// A confirmed user for the domain's rule tests.
    pub fn example(id: &str, role: protocol::Role) -> UserRow {
        UserRow {
            id: id.into(),
            email: format!("{id}@example.com"),
            role: role.as_str().into(),
            name: Some(format!("{id} name")),
            first_name: None,
            last_name: None,
            phone: None,
            builder_id: None,
            password_hash: None,
            email_confirmed_at: Some(1),
            last_sign_in_at: None,
            created_at: 1,
            updated_at: 1,
            version: 1,
        }
    }
}
