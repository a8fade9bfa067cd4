//! Messages sent through the public contact form.

use sitecast_store_core::{NewContactMessage, Result};
use sqlx::PgConnection;

use crate::convert::{at, id as uid};

pub async fn insert(c: &mut PgConnection, m: &NewContactMessage<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO contact_messages (id, name, email, phone, message, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        uid(m.id),
        m.name,
        m.email,
        m.phone,
        m.message,
        at(m.now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}
