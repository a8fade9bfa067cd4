//! A made report read back from the store: its options, its content and the photos
//! it shows. A report link's guest reads these (which photos, whether markup shows)
//! without the report use cases, which make links of their own (`guests`).

use std::collections::HashSet;

use protocol::{ErrorCode, ReportContent, ReportOptions};

use crate::domain::shared::services::Services;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::reports::{self, ReportRow};

pub const REPORT_NOT_FOUND: &str = "Report not found";

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, REPORT_NOT_FOUND)
}

/// The choices a report was made with, as stored with it.
pub fn options_of(row: &ReportRow) -> Result<ReportOptions> {
    serde_json::from_str(&row.options).map_err(|err| {
        tracing::error!(report = %row.id, error = %err, "a stored report's options do not read");
        Error::internal("a stored report could not be read")
    })
}

/// What a report shows as it was made; `None` for a report made before that was kept.
pub async fn stored_content(svc: &Services, id: &str) -> Result<Option<ReportContent>> {
    let Some(Some(text)) = reports::content(svc.store.pool(), id).await? else { return Ok(None) };
    serde_json::from_str(&text).map(Some).map_err(|err| {
        tracing::error!(report = %id, error = %err, "a stored report's content does not read");
        Error::internal("a stored report could not be read")
    })
}

/// Every photo a report's content shows: its sections', its pairs' and its cover.
pub fn photo_ids(content: &ReportContent) -> HashSet<String> {
    let sections = content.sections.iter().flat_map(|s| s.photos.iter());
    let pairs = content.pairs.iter().flat_map(|p| [&p.before, &p.after]);
    let cover = views::thumbnail_photo_id(&content.project).map(str::to_owned);
    sections.chain(pairs).map(|p| p.photo.id.clone()).chain(cover).collect()
}

/// The photos a report shows (a report link's guest sees exactly these).
pub async fn photo_ids_of(svc: &Services, report_id: &str) -> Result<HashSet<String>> {
    Ok(stored_content(svc, report_id).await?.as_ref().map(photo_ids).unwrap_or_default())
}

/// Whether a report shows its photos' markup (its link's guests see markup only then).
pub async fn shows_markup(svc: &Services, id: &str) -> Result<bool> {
    let row = reports::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    Ok(options_of(&row)?.markup)
}
