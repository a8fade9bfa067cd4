//! What a download covers: all of a project's photos or the actor's favourites, with
//! the names their zip entries get.

use std::collections::HashSet;

use protocol::ErrorCode;

use super::ingest::file_name;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::projects::{project_ref, visible};
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::store::images;
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;

pub const NO_PHOTOS_TO_DOWNLOAD: &str = "There are no photos to download.";

/// The photos a download covers: all of a project's, or the actor's favourites.
pub async fn downloadable(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    favourites_only: bool,
) -> Result<(ProjectRow, Vec<ImageRow>)> {
    // Photo bytes answer "not found" for a project the viewer may not see, as for one
    // that does not exist: ids cannot be probed (the socket says "no access").
    let project = visible(svc, actor, project_id).await.map_err(|err| match err.code() {
        ErrorCode::Forbidden => Error::new(ErrorCode::NotFound, crate::domain::projects::PROJECT_NOT_FOUND),
        _ => err,
    })?;
    if !policy::allows(actor, Action::DownloadPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, crate::domain::projects::NO_ACCESS));
    }
    let pool = svc.store.pool();
    let rows = if favourites_only {
        images::favourites_in_project(pool, &actor.id, &project.id).await?
    } else {
        images::list_for_project(pool, &project.id).await?
    };
    if rows.is_empty() {
        return Err(Error::new(ErrorCode::NotFound, NO_PHOTOS_TO_DOWNLOAD));
    }
    Ok((project, rows))
}

/// Names of the entries of a zip download: the original names, made unique; a photo
/// `marked` (downloaded with its markup drawn on) is a JPEG named "<name> (marked up).jpg".
pub fn zip_names(rows: &[ImageRow], marked: impl Fn(&ImageRow) -> bool) -> Vec<String> {
    let mut used = HashSet::new();
    rows.iter()
        .map(|r| {
            let original = file_name(&r.original_name);
            let (stem, ext) = match original.rfind('.') {
                Some(dot) if dot > 0 => (&original[..dot], &original[dot..]),
                _ => (original.as_str(), ""),
            };
            let (name, stem, ext) = if marked(r) {
                (format!("{stem} (marked up).jpg"), format!("{stem} (marked up)"), ".jpg")
            } else {
                (original.clone(), stem.to_owned(), ext)
            };
            let mut candidate = name.clone();
            let mut n = 2;
            while !used.insert(candidate.to_lowercase()) {
                candidate = format!("{stem} ({n}){ext}");
                n += 1;
            }
            candidate
        })
        .collect()
}


#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ImageCategory;

    #[test]
    fn zip_entry_names_are_unique() {
        let row = |name: &str| ImageRow {
            id: String::new(),
            project_id: String::new(),
            uploaded_by: None,
            category: ImageCategory::Other,
            caption: None,
            original_name: name.into(),
            content_type: "image/jpeg".into(),
            byte_size: 0,
            width: 1,
            height: 1,
            taken_at: None,
            storage_key: String::new(),
            created_at: 0,
            updated_at: 0,
            version: 1,
            comment_count: 0,
            visit_note: None,
            batch_id: None,
            milestone_id: None,
            markup_count: 0,
            tags: vec![],
            location: None,
            uploader: None,
        };
        let rows = [row("a.jpg"), row("A.jpg"), row("a.jpg"), row("b")];
        assert_eq!(zip_names(&rows, |_| false), vec!["a.jpg", "A (2).jpg", "a (3).jpg", "b"]);
        let rows = [row("a.heic"), row("a (marked up).jpg"), row("b")];
        assert_eq!(zip_names(&rows, |r| r.original_name != "a (marked up).jpg"), vec!["a (marked up).jpg", "a (marked up) (2).jpg", "b (marked up).jpg"]);
    }
}
