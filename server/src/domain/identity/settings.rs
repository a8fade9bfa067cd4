//! The installation's settings (docs/FEATURES.md, "Tags and search"), which admins
//! change: whether photos keep where they were taken. Turning that off forgets every
//! location already kept, in the same transaction, so "off" means none is stored.

use protocol::{ErrorCode, InstallationSettings};

use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::store::settings::SettingsRow;
use crate::store::{images, now_ms, settings};

pub const ADMINS_ONLY: &str = "Only administrators can change the installation's settings.";

fn admin_only(actor: &Actor) -> Result<()> {
    if policy::allows(actor, Action::ManageInstallation, Target::Nothing) {
        Ok(())
    } else {
        Err(Error::new(ErrorCode::Forbidden, ADMINS_ONLY))
    }
}

/// Whether new photos keep their location: read for each stored photo.
pub async fn store_photo_locations(svc: &Services) -> Result<bool> {
    Ok(settings::get(svc.store.pool()).await?.store_photo_locations)
}

/// The settings, and how many photos have a location kept.
pub async fn get(svc: &Services, actor: &Actor) -> Result<(InstallationSettings, i64)> {
    admin_only(actor)?;
    let pool = svc.store.pool();
    let row = settings::get(pool).await?;
    let with_location = images::count_with_location(pool).await?;
    Ok((
        InstallationSettings {
            store_photo_locations: row.store_photo_locations,
            require_factor_admins: row.require_factor_admins,
            require_factor_company_leads: row.require_factor_company_leads,
        },
        with_location,
    ))
}

pub async fn update(svc: &Services, actor: &Actor, input: &InstallationSettings) -> Result<(InstallationSettings, i64)> {
    admin_only(actor)?;
    let mut tx = svc.store.begin_write().await?;
    let row = SettingsRow {
        store_photo_locations: input.store_photo_locations,
        require_factor_admins: input.require_factor_admins,
        require_factor_company_leads: input.require_factor_company_leads,
        updated_at: now_ms(),
    };
    settings::set(&mut *tx, &row).await?;
    if !input.store_photo_locations {
        let forgotten = images::forget_locations(&mut *tx).await?;
        tracing::info!(admin = %actor.id, forgotten, "photo locations switched off and forgotten");
    }
    let with_location = images::count_with_location(&mut *tx).await?;
    tx.commit().await?;
    Ok((*input, with_location))
}
