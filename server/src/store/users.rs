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
