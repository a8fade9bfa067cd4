//! The installation's settings: one row, made by its migration.

use sitecast_store_core::{Result, SettingsRow};
use sqlx::SqliteConnection;

pub async fn get(c: &mut SqliteConnection) -> Result<SettingsRow> {
    Ok(sqlx::query_as!(
        SettingsRow,
        r#"SELECT store_photo_locations AS "store_photo_locations: bool",
                  require_factor_admins AS "require_factor_admins: bool",
                  require_factor_company_leads AS "require_factor_company_leads: bool", updated_at
           FROM installation_settings WHERE id = 1"#
    )
    .fetch_one(&mut *c)
    .await?)
}

pub async fn set(c: &mut SqliteConnection, settings: &SettingsRow) -> Result<()> {
    sqlx::query!(
        "UPDATE installation_settings SET store_photo_locations = $1, require_factor_admins = $2,
             require_factor_company_leads = $3, updated_at = $4 WHERE id = 1",
        settings.store_photo_locations,
        settings.require_factor_admins,
        settings.require_factor_company_leads,
        settings.updated_at,
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}
