//! Who may see and act on a photo. A photo of a project the actor cannot see is
//! answered exactly like a photo that does not exist, so ids cannot be probed.

use protocol::ErrorCode;

use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::projects::{project_ref, visible};
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::{images, projects};
use crate::domain::shared::validation;

pub const IMAGE_NOT_FOUND: &str = "Image not found";
pub const NOT_ALLOWED_UPLOAD: &str = "You don't have permission to upload photos to this project.";
pub const NOT_ALLOWED_EDIT: &str = "You don't have permission to edit this photo.";
pub const NOT_ALLOWED_DELETE: &str = "Only administrators can delete photos.";

pub(super) fn image_not_found() -> Error {
    Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND)
}

/// A photo and its project, when the actor can see the project. A photo of a project
/// the actor cannot see is answered exactly like a photo that does not exist.
pub(crate) async fn visible_photo(svc: &Services, actor: &Actor, id: &str) -> Result<(ImageRow, ProjectRow)> {
    if !validation::could_be_id(id) {
        return Err(image_not_found());
    }
    let pool = svc.store.pool();
    let image = images::find(pool, id).await?.ok_or_else(image_not_found)?;
    let project = projects::find(pool, &image.project_id).await?.ok_or_else(image_not_found)?;
    if !policy::can_view_project(actor, project_ref(&project)) {
        return Err(image_not_found());
    }
    Ok((image, project))
}

/// A photo and its project, when the actor may do `action` to it; one they see but
/// may not act on gets `denied`.
pub(super) async fn photo_for(
    svc: &Services,
    actor: &Actor,
    id: &str,
    action: Action,
    denied: fn() -> Error,
) -> Result<(ImageRow, ProjectRow)> {
    let (image, project) = visible_photo(svc, actor, id).await?;
    if !policy::allows(actor, action, Target::Project(project_ref(&project))) {
        return Err(denied());
    }
    Ok((image, project))
}

/// The project of a photo the actor can see: where a change to the photo takes its
/// turn. Unknown and unseen photos are answered alike, and start no project's turns.
pub async fn project_of(svc: &Services, actor: &Actor, id: &str) -> Result<String> {
    Ok(visible_photo(svc, actor, id).await?.1.id)
}

/// The project an upload goes to, when the actor may upload there.
pub async fn upload_target(svc: &Services, actor: &Actor, project_id: &str) -> Result<ProjectRow> {
    let project = visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::UploadPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_UPLOAD));
    }
    Ok(project)
}

/// A photo the actor may fetch the bytes of (thumbnail, display or original).
pub async fn viewable(svc: &Services, actor: &Actor, id: &str) -> Result<ImageRow> {
    let (image, _) = photo_for(svc, actor, id, Action::DownloadPhoto, image_not_found).await?;
    Ok(image)
}

