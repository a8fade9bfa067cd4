//! A project's cover: its newest photo, unless an admin picked one (SPEC.md §4
//! thumbnail rule). Recording or deleting a photo may move it, and with it the
//! project's version.

use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::Actor;
use crate::domain::shared::views;
use crate::store::projects::ProjectRow;
use crate::store::{projects, StoreError, Tx};

/// Points the project's cover at its newest photo; when that changed it (and so the
/// project's version), answers the project as this transaction left it. The event
/// carries that state: a read at publish time could already include a later change
/// and announce its version a second time.
pub(super) async fn refresh_cover(tx: &mut Tx, project_id: &str, now: i64) -> std::result::Result<Option<ProjectRow>, StoreError> {
    if !projects::refresh_thumbnail(&mut **tx, project_id, now).await? {
        return Ok(None);
    }
    projects::find(&mut **tx, project_id).await
}

pub(super) fn cover_change(project: &ProjectRow, actor: &Actor) -> Change {
    Change::Project {
        id: project.id.clone(),
        created: false,
        actor_id: Some(actor.id.clone()),
        previous: None,
        state: Some(Box::new(views::project(project))),
    }
}

