use sitecast_store_core::Result;
use sqlx::SqliteConnection;

pub async fn insert(
    c: &mut SqliteConnection,
    id: &str,
    user_id: &str,
    level: &str,
    message: &str,
    data: Option<&str>,
    now: i64,
) -> Result<()> {
    sqlx::query!(
        "INSERT INTO logs (id, user_id, level, message, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        id,
        user_id,
        level,
        message,
        data,
        now,
    )
    .execute(c)
    .await?;
    Ok(())
}
