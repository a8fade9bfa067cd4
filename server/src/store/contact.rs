use sqlx::{Any, Executor};

use super::Result;

pub struct NewContactMessage<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub message: &'a str,
    pub now: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(ex: E, m: &NewContactMessage<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO contact_messages (id, name, email, phone, message, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(m.id)
    .bind(m.name)
    .bind(m.email)
    .bind(m.phone)
    .bind(m.message)
    .bind(m.now)
    .execute(ex)
    .await?;
    Ok(())
}
