//! The installation's settings: one row, made by its migration.

use sitecast_store_core::{Result, SettingsRow};
use sqlx::PgConnection;

use crate::convert::{at, ms};

/// Locked for share: in a transaction, a change of the settings waits for it to end.
pub async fn get(c: &mut PgConnection) -> Result<SettingsRow> {
    let r = sqlx::query!("SELECT store_photo_locations, require_factor_admins, require_factor_company_leads, updated_at
         FROM installation_settings WHERE id = 1 FOR SHARE")
        .fetch_one(&mut *c)
        .await?;
    Ok(SettingsRow {
        store_photo_locations: r.store_photo_locations,
        require_factor_admins: r.require_factor_admins,
        require_factor_company_leads: r.require_factor_company_leads,
        updated_at: ms(r.updated_at),
    })
}

pub async fn set(c: &mut PgConnection, settings: &SettingsRow) -> Result<()> {
    sqlx::query!(
        "UPDATE installation_settings SET store_photo_locations = $1, require_factor_admins = $2,
             require_factor_company_leads = $3, updated_at = $4 WHERE id = 1",
        settings.store_photo_locations,
        settings.require_factor_admins,
        settings.require_factor_company_leads,
        at(settings.updated_at),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}
