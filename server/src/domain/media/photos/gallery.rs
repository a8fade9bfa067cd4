//! A project's photos as its people browse and edit them: the list with their
//! favourites, captions, categories and milestone tags, deletion, and favourites.

use protocol::{ErrorCode, ProjectImage, UpdatePhoto};

use super::access::{image_not_found, photo_for, NOT_ALLOWED_DELETE, NOT_ALLOWED_EDIT};
use super::cover::{cover_change, refresh_cover};
use crate::domain::shared::changes::Change;
use crate::domain::projects::milestones;
use crate::domain::shared::policy::{Action, Actor};
use crate::domain::projects::visible;
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::CAPTION;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::projects::ProjectRow;
use crate::store::{activity, images, now_ms};

/// A project's photos, newest first, and the actor's favourites among them.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<(Vec<ProjectImage>, Vec<String>)> {
    list_of(svc, actor, &visible(svc, actor, project_id).await?).await
}

/// As `list`, for a project already checked with `projects::visible`.
pub async fn list_of(svc: &Services, actor: &Actor, project: &ProjectRow) -> Result<(Vec<ProjectImage>, Vec<String>)> {
    let pool = svc.store.pool();
    let photos = images::list_for_project(pool, &project.id).await?.iter().map(views::image).collect();
    let favourites = images::favourite_ids(pool, &actor.id, &project.id).await?;
    Ok((photos, favourites))
}

pub async fn update(svc: &Services, actor: &Actor, input: &UpdatePhoto) -> Result<(ProjectImage, Vec<Change>)> {
    let (image, _) =
        photo_for(svc, actor, &input.id, Action::EditPhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_EDIT)).await?;
    if let Some(caption) = &input.caption {
        CAPTION.check("caption", caption)?;
    }
    let caption = match &input.caption {
        Some(c) if c.trim().is_empty() => None,
        Some(c) => Some(c.trim().to_owned()),
        None => image.caption.clone(),
    };
    let category = input.category.unwrap_or(image.category);
    let milestone_id = match input.milestone_id.as_deref() {
        None => image.milestone_id.clone(),
        tag => milestones::tag_for(svc.store.pool(), &image.project_id, tag).await?,
    };
    if caption == image.caption && category == image.category && milestone_id == image.milestone_id {
        return Ok((views::image(&image), Vec::new()));
    }
    let mut tx = svc.store.begin_write().await?;
    let meta = images::Meta { caption: caption.as_deref(), category, milestone_id: milestone_id.as_deref() };
    if !images::update_meta(&mut *tx, &image.id, &meta, now_ms()).await? {
        return Err(image_not_found());
    }
    let row = images::find(&mut *tx, &image.id).await?.ok_or_else(image_not_found)?;
    tx.commit().await?;
    let photo = views::image(&row);
    let change =
        Change::Photo { id: row.id.clone(), project_id: row.project_id.clone(), created: false, state: Some(Box::new(photo.clone())) };
    Ok((photo, vec![change]))
}

pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let (image, project) =
        photo_for(svc, actor, id, Action::DeletePhoto, || Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DELETE)).await?;
    let mut tx = svc.store.begin_write().await?;
    // The photo's comments go with it, and so do their timeline entries.
    let entries = activity::delete_for_comments_of_image(&mut *tx, &image.id).await?;
    if !images::delete(&mut *tx, &image.id).await? {
        return Err(image_not_found());
    }
    let cover = refresh_cover(&mut tx, &project.id, now_ms()).await?;
    tx.commit().await?;
    svc.delete_photo_files(&[(image.storage_key.clone(), image.content_type.clone())]).await;
    let mut changes = vec![Change::PhotoDeleted { id: image.id.clone(), project_id: project.id.clone() }];
    changes.extend(entries.into_iter().map(|id| Change::TimelineRemoved { id, project_id: project.id.clone() }));
    if let Some(project) = cover {
        changes.push(cover_change(&project, actor));
    }
    Ok(changes)
}

/// Idempotent both ways (SPEC.md §4: adding an existing favourite succeeds). The
/// user's sockets hear of it only when something changed.
pub async fn set_favourite(svc: &Services, actor: &Actor, image_id: &str, favourite: bool) -> Result<Vec<Change>> {
    let (image, project) = photo_for(svc, actor, image_id, Action::FavouritePhoto, image_not_found).await?;
    let pool = svc.store.pool();
    let changed = if favourite {
        images::add_favourite(pool, &actor.id, &image, now_ms()).await?
    } else {
        images::remove_favourite(pool, &actor.id, &image.id).await?
    };
    Ok(if changed {
        vec![Change::Favourite { user_id: actor.id.clone(), project_id: project.id, image_id: image.id, favourite }]
    } else {
        Vec::new()
    })
}

