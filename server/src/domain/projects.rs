//! Listing, reading, creating, updating and deleting projects (SPEC.md §2, §4, §5, §6).

use protocol::{CreateProject, ErrorCode, Project, ProjectStatus, Role, UpdateProject};

use super::changes::{Change, Owners};
use super::policy::{self, Action, Actor, ProjectRef, Target};
use super::services::Services;
use super::validation::{PROJECT_ADDRESS, PROJECT_DESCRIPTION, PROJECT_TITLE};
use super::views;
use crate::error::{Error, Result};
use crate::store::projects::{ProjectFields, ProjectRow};
use crate::store::{images, new_id, now_ms, projects, users, StoreError};

pub const PROJECT_NOT_FOUND: &str = "Project not found";
pub const NO_ACCESS: &str = "You don't have access to this project";
pub const ADMIN_ONLY_STATUS: &str = "Only administrators can update project status or progress";
pub const NO_CHANGES: &str = "No changes to update";
pub const SELECT_HOMEOWNER: &str = "Please select a homeowner.";
pub const HOMEOWNER_NOT_FOUND: &str = "Selected homeowner not found. Please refresh and try again.";
pub const BUILDER_NOT_FOUND: &str = "Selected builder not found. Please refresh and try again.";
pub const TITLE_REQUIRED: &str = "Title is required";
pub const ADDRESS_REQUIRED: &str = "Address is required";
pub const PROGRESS_RANGE: &str = "Progress must be between 0 and 100.";
pub const NOT_ALLOWED: &str = "You don't have permission to change this project.";

/// The facts about a project that the policy decides on.
pub(crate) fn project_ref(p: &ProjectRow) -> ProjectRef<'_> {
    ProjectRef { homeowner_id: &p.homeowner_id, builder_id: p.builder_id.as_deref() }
}

pub fn owners(p: &ProjectRow) -> Owners {
    Owners { homeowner_id: p.homeowner_id.clone(), builder_id: p.builder_id.clone() }
}

pub async fn list(svc: &Services, actor: &Actor) -> Result<Vec<Project>> {
    let rows = projects::list(svc.store.pool(), &policy::project_scope(actor)).await?;
    Ok(rows.iter().map(views::project).collect())
}

/// A project the actor may see: "Project not found" when it does not exist, "You don't
/// have access to this project" when it is someone else's (SPEC.md §2).
pub async fn visible(svc: &Services, actor: &Actor, id: &str) -> Result<ProjectRow> {
    let row = projects::find(svc.store.pool(), id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, PROJECT_NOT_FOUND))?;
    if !policy::can_view_project(actor, project_ref(&row)) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
    Ok(row)
}

pub async fn get(svc: &Services, actor: &Actor, id: &str) -> Result<Project> {
    Ok(views::project(&visible(svc, actor, id).await?))
}

async fn check_people(svc: &Services, homeowner_id: &str, builder_id: Option<&str>) -> Result<()> {
    if homeowner_id.trim().is_empty() {
        return Err(Error::field("homeownerId", SELECT_HOMEOWNER));
    }
    let homeowner = users::find_by_id(svc.store.pool(), homeowner_id).await?;
    if homeowner.is_none_or(|u| u.role != Role::Homeowner.as_str()) {
        return Err(Error::field("homeownerId", HOMEOWNER_NOT_FOUND));
    }
    if let Some(b) = builder_id {
        let builder = users::find_by_id(svc.store.pool(), b).await?;
        if builder.is_none_or(|u| u.role != Role::Builder.as_str()) {
            return Err(Error::field("builderId", BUILDER_NOT_FOUND));
        }
    }
    Ok(())
}

fn check_details(title: &str, address: &str, description: &str, progress: i32) -> Result<()> {
    let mut errors = Vec::new();
    let mut push = |field: &str, message: String| errors.push(protocol::FieldError { field: field.to_owned(), message });
    if title.trim().is_empty() {
        push("title", TITLE_REQUIRED.to_owned());
    }
    if address.trim().is_empty() {
        push("address", ADDRESS_REQUIRED.to_owned());
    }
    for (field, value, limit) in [("title", title, PROJECT_TITLE), ("address", address, PROJECT_ADDRESS), ("description", description, PROJECT_DESCRIPTION)] {
        if !limit.allows(value) {
            push(field, limit.message());
        }
    }
    if !(0..=100).contains(&progress) {
        push("progress", PROGRESS_RANGE.to_owned());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::validation(errors))
    }
}

pub async fn create(svc: &Services, actor: &Actor, input: &CreateProject) -> Result<(Project, Vec<Change>)> {
    if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    check_details(&input.title, &input.address, &input.description, input.progress)?;
    let builder_id = input.builder_id.as_deref().filter(|b| !b.is_empty());
    check_people(svc, &input.homeowner_id, builder_id).await?;
    let id = new_id();
    projects::insert(
        svc.store.pool(),
        &id,
        &ProjectFields {
            title: input.title.trim(),
            description: input.description.trim(),
            address: input.address.trim(),
            homeowner_id: &input.homeowner_id,
            builder_id,
            status: input.status.as_str(),
            progress: input.progress,
        },
        now_ms(),
    )
    .await?;
    let project = get(svc, actor, &id).await?;
    let change = Change::Project {
        id,
        created: true,
        actor_id: Some(actor.id.clone()),
        previous: None,
        state: Some(Box::new(project.clone())),
    };
    Ok((project, vec![change]))
}

/// Applies the fields present. Status and progress are for admins only; details for
/// admins and the project's builder; moving a project to other people for admins.
pub async fn update(svc: &Services, actor: &Actor, input: &UpdateProject) -> Result<(Project, Vec<Change>)> {
    let row = visible(svc, actor, &input.id).await?;
    let status = input.status.unwrap_or(ProjectStatus::parse(&row.status).unwrap_or(ProjectStatus::InProgress));
    let progress = input.progress.unwrap_or(row.progress);
    let title = input.title.as_deref().map(str::trim).unwrap_or(&row.title);
    let description = input.description.as_deref().map(str::trim).unwrap_or(&row.description);
    let address = input.address.as_deref().map(str::trim).unwrap_or(&row.address);
    let homeowner_id = input.homeowner_id.as_deref().unwrap_or(&row.homeowner_id);
    let builder_id = match input.builder_id.as_deref() {
        Some("") => None,
        Some(b) => Some(b),
        None => row.builder_id.as_deref(),
    };

    let status_changed = status.as_str() != row.status || progress != row.progress;
    let details_changed = title != row.title || description != row.description || address != row.address;
    let owners_changed = homeowner_id != row.homeowner_id || builder_id != row.builder_id.as_deref();
    if !status_changed && !details_changed && !owners_changed {
        return Err(Error::new(ErrorCode::NoChanges, NO_CHANGES));
    }
    let target = Target::Project(project_ref(&row));
    if status_changed && !policy::allows(actor, Action::ChangeProjectStatus, target) {
        return Err(Error::new(ErrorCode::Forbidden, ADMIN_ONLY_STATUS));
    }
    if details_changed && !policy::allows(actor, Action::EditProjectDetails, target) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    // Giving a project to other people is an admin's call, like creating it.
    if owners_changed {
        if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
            return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
        }
        check_people(svc, homeowner_id, builder_id).await?;
    }
    check_details(title, address, description, progress)?;
    projects::update(
        svc.store.pool(),
        &row.id,
        &ProjectFields { title, description, address, homeowner_id, builder_id, status: status.as_str(), progress },
        now_ms(),
    )
    .await?;
    let project = views::project(
        &projects::find(svc.store.pool(), &row.id)
            .await?
            .ok_or_else(|| Error::new(ErrorCode::NotFound, PROJECT_NOT_FOUND))?,
    );
    let change = Change::Project {
        id: row.id.clone(),
        created: false,
        actor_id: Some(actor.id.clone()),
        previous: owners_changed.then(|| owners(&row)),
        state: Some(Box::new(project.clone())),
    };
    Ok((project, vec![change]))
}

pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let row = visible(svc, actor, id).await?;
    if !policy::allows(actor, Action::DeleteProject, Target::Project(project_ref(&row))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    let mut tx = svc.store.begin_write().await?;
    let files = images::storage_keys_of_projects(&mut *tx, std::slice::from_ref(&row.id)).await?;
    projects::delete(&mut *tx, &row.id).await?;
    tx.commit().await.map_err(StoreError::from)?;
    svc.delete_photo_files(&files).await;
    Ok(vec![Change::ProjectDeleted { id: row.id.clone(), version: row.version + 1, owners: owners(&row) }])
}
