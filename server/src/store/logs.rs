use sqlx::{Any, Executor};

use super::Result;

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    ex: E,
    id: &str,
    user_id: &str,
    level: &str,
    message: &str,
    data: Option<&str>,
    now: i64,
) -> Result<()> {
    sqlx::query("INSERT INTO logs (id, user_id, level, message, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(id)
        .bind(user_id)
        .bind(level)
        .bind(message)
        .bind(data)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}
