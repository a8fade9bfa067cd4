use sitecast_store_core::{NewContactMessage, Result};
use sqlx::SqliteConnection;

pub async fn insert(c: &mut SqliteConnection, m: &NewContactMessage<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO contact_messages (id, name, email, phone, message, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        m.id,
        m.name,
        m.email,
        m.phone,
        m.message,
        m.now,
    )
    .execute(c)
    .await?;
    Ok(())
}
