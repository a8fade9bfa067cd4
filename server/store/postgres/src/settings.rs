//! The installation's settings (issue 29): one row, made by its migration.

use sitecast_store_core::{Result, SettingsRow};
use sqlx::PgConnection;

use crate::convert::{at, ms};

/// Locked for share: in a transaction, a change of the settings waits for it to end.
pub async fn get(c: &mut PgConnection) -> Result<SettingsRow> {
    let r = sqlx::query!("SELECT store_photo_locations, updated_at FROM installation_settings WHERE id = 1 FOR SHARE")
        .fetch_one(&mut *c)
        .await?;
    Ok(SettingsRow { store_photo_locations: r.store_photo_locations, updated_at: ms(r.updated_at) })
}

pub async fn set(c: &mut PgConnection, settings: &SettingsRow) -> Result<()> {
    sqlx::query!(
        "UPDATE installation_settings SET store_photo_locations = $1, updated_at = $2 WHERE id = 1",
        settings.store_photo_locations,
        at(settings.updated_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}
