//! Listing, reading, creating, updating and deleting projects (SPEC.md §2, §4, §5, §6).

use protocol::{CreateProject, ErrorCode, NotificationKind, Project, ProjectStatus, Role, UpdateProject};

use super::changes::{Change, Owners};
use super::notifications::{self, Notice};
use super::policy::{self, Action, Actor, ProjectRef, Target};
use super::services::Services;
use super::validation::{PROJECT_ADDRESS, PROJECT_DESCRIPTION, PROJECT_TITLE};
use super::views;
use crate::error::{Error, Result};
use crate::store::projects::{ProjectFields, ProjectRow};
use crate::store::users::UserRow;
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
pub const THUMBNAIL_NOT_IN_PROJECT: &str = "That photo is not in this project.";

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

/// The people (and the thumbnail photo) a project change names, looked up before its
/// rules are applied: the rules then decide without reading anything.
#[derive(Default, Debug, Clone)]
pub struct People {
    pub homeowner: Option<UserRow>,
    pub builder: Option<UserRow>,
    pub thumbnail: Option<Thumbnail>,
}

/// The photo a thumbnail pick names, as read before the rules run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Thumbnail {
    /// Back to the newest photo: its id, or none when the project has no photos.
    Newest(Option<String>),
    /// A photo by id, with the project it belongs to (`None` when there is no such photo).
    Photo { id: String, project_id: Option<String> },
}

/// Reads the people named (the ids as given; unknown ids read as none).
pub async fn people(svc: &Services, homeowner_id: Option<&str>, builder_id: Option<&str>) -> Result<People> {
    let pool = svc.store.pool();
    let homeowner = match homeowner_id.filter(|h| !h.trim().is_empty()) {
        Some(h) => users::find_by_id(pool, h).await?,
        None => None,
    };
    let builder = match builder_id.filter(|b| !b.is_empty()) {
        Some(b) => users::find_by_id(pool, b).await?,
        None => None,
    };
    Ok(People { homeowner, builder, thumbnail: None })
}

/// Reads the photo a thumbnail pick names, when the update names one.
async fn thumbnail_named(svc: &Services, row: &ProjectRow, input: &UpdateProject) -> Result<Option<Thumbnail>> {
    let pool = svc.store.pool();
    Ok(match input.thumbnail_id.as_deref() {
        None => None,
        Some("") => Some(Thumbnail::Newest(projects::newest_image_id(pool, &row.id).await?)),
        Some(id) => {
            let project_id = images::find(pool, id).await?.map(|i| i.project_id);
            Some(Thumbnail::Photo { id: id.to_owned(), project_id })
        }
    })
}

/// Where a thumbnail pick leaves the project's thumbnail: (photo id, picked by hand).
fn thumbnail_after(row: &ProjectRow, pick: Option<&Thumbnail>) -> Result<(Option<String>, bool)> {
    match pick {
        None => Ok((row.thumbnail_image_id.clone(), row.thumbnail_pinned != 0)),
        Some(Thumbnail::Newest(newest)) => Ok((newest.clone(), false)),
        Some(Thumbnail::Photo { id, project_id }) if project_id.as_deref() == Some(row.id.as_str()) => {
            Ok((Some(id.clone()), true))
        }
        Some(Thumbnail::Photo { .. }) => Err(Error::field("thumbnailId", THUMBNAIL_NOT_IN_PROJECT)),
    }
}

/// A homeowner a project is given must exist as a homeowner (SPEC.md §8 messages).
fn named_homeowner<'p>(people: &'p People, id: &str) -> Result<&'p UserRow> {
    if id.trim().is_empty() {
        return Err(Error::field("homeownerId", SELECT_HOMEOWNER));
    }
    people
        .homeowner
        .as_ref()
        .filter(|u| u.id == id && u.role == Role::Homeowner.as_str())
        .ok_or_else(|| Error::field("homeownerId", HOMEOWNER_NOT_FOUND))
}

/// A builder a project is given must exist as a builder.
fn named_builder<'p>(people: &'p People, id: &str) -> Result<&'p UserRow> {
    people
        .builder
        .as_ref()
        .filter(|u| u.id == id && u.role == Role::Builder.as_str())
        .ok_or_else(|| Error::field("builderId", BUILDER_NOT_FOUND))
}

/// A project row given to another homeowner: their names come with them.
fn give_homeowner(row: &mut ProjectRow, homeowner: &UserRow) {
    row.homeowner_id = homeowner.id.clone();
    row.homeowner_email = homeowner.email.clone();
    row.homeowner_name = homeowner.name.clone();
    row.homeowner_first_name = homeowner.first_name.clone();
    row.homeowner_last_name = homeowner.last_name.clone();
}

fn give_builder(row: &mut ProjectRow, builder: Option<&UserRow>) {
    row.builder_id = builder.map(|b| b.id.clone());
    row.builder_email = builder.map(|b| b.email.clone());
    row.builder_name = builder.and_then(|b| b.name.clone());
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

/// The rules for creating a project (SPEC.md §5 "Create project"; admins only), as a
/// pure function of the request, the actor and the people it names: the new row and
/// the changes it makes.
pub fn plan_create(
    input: &CreateProject,
    actor: &Actor,
    people: &People,
    id: String,
    now: i64,
) -> Result<(ProjectRow, Vec<Change>)> {
    if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    check_details(&input.title, &input.address, &input.description, input.progress)?;
    let homeowner = named_homeowner(people, &input.homeowner_id)?;
    let builder = match input.builder_id.as_deref().filter(|b| !b.is_empty()) {
        Some(b) => Some(named_builder(people, b)?),
        None => None,
    };
    let mut row = ProjectRow {
        id,
        title: input.title.trim().to_owned(),
        description: input.description.trim().to_owned(),
        address: input.address.trim().to_owned(),
        homeowner_id: String::new(),
        builder_id: None,
        status: input.status.as_str().to_owned(),
        progress: input.progress,
        thumbnail_image_id: None,
        thumbnail_pinned: 0,
        progress_mode: input.progress_mode.unwrap_or_default().as_str().to_owned(),
        created_at: now,
        updated_at: now,
        version: 1,
        homeowner_email: String::new(),
        homeowner_name: None,
        homeowner_first_name: None,
        homeowner_last_name: None,
        builder_email: None,
        builder_name: None,
    };
    give_homeowner(&mut row, homeowner);
    give_builder(&mut row, builder);
    let change = Change::Project {
        id: row.id.clone(),
        created: true,
        actor_id: Some(actor.id.clone()),
        previous: None,
        state: Some(Box::new(views::project(&row))),
    };
    Ok((row, vec![change]))
}

pub async fn create(svc: &Services, actor: &Actor, input: &CreateProject) -> Result<(Project, Vec<Change>)> {
    // Refused before anything is read.
    if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    let people = people(svc, Some(&input.homeowner_id), input.builder_id.as_deref()).await?;
    let (row, changes) = plan_create(input, actor, &people, new_id(), now_ms())?;
    projects::insert(svc.store.pool(), &row.id, &fields(&row), row.created_at).await?;
    Ok((views::project(&row), changes))
}

/// A row's writable fields, as the store writes them.
pub(crate) fn fields(row: &ProjectRow) -> ProjectFields<'_> {
    ProjectFields {
        title: &row.title,
        description: &row.description,
        address: &row.address,
        homeowner_id: &row.homeowner_id,
        builder_id: row.builder_id.as_deref(),
        status: &row.status,
        progress: row.progress,
        thumbnail_image_id: row.thumbnail_image_id.as_deref(),
        thumbnail_pinned: row.thumbnail_pinned != 0,
        progress_mode: &row.progress_mode,
    }
}

/// The ids of the people an update gives the project to, when it changes them.
pub fn people_named(row: &ProjectRow, input: &UpdateProject) -> (Option<String>, Option<String>) {
    let homeowner = input.homeowner_id.clone().filter(|h| *h != row.homeowner_id);
    let builder = input.builder_id.clone().filter(|b| !b.is_empty() && Some(b) != row.builder_id.as_ref());
    (homeowner, builder)
}

/// The rules for changing a project (SPEC.md §5, §6), as a pure function of the row as
/// it is, the request, the actor and the people the request names: status and
/// progress are for admins only; details for admins and the project's builder; moving
/// a project to other people for admins. Answers the row as the change leaves it and
/// the changes to publish.
pub fn plan_update(
    row: &ProjectRow,
    input: &UpdateProject,
    actor: &Actor,
    people: &People,
    now: i64,
) -> Result<(ProjectRow, Vec<Change>)> {
    if !policy::can_view_project(actor, project_ref(row)) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
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
    let (thumbnail, pinned) = thumbnail_after(row, people.thumbnail.as_ref())?;
    let thumbnail_changed = thumbnail != row.thumbnail_image_id || pinned != (row.thumbnail_pinned != 0);
    if !status_changed && !details_changed && !owners_changed && !thumbnail_changed {
        return Err(Error::new(ErrorCode::NoChanges, NO_CHANGES));
    }
    let target = Target::Project(project_ref(row));
    if status_changed && !policy::allows(actor, Action::ChangeProjectStatus, target) {
        return Err(Error::new(ErrorCode::Forbidden, ADMIN_ONLY_STATUS));
    }
    if details_changed && !policy::allows(actor, Action::EditProjectDetails, target) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    let mut next = row.clone();
    // Choosing the thumbnail is an admin's call, as it is when creating (SPEC.md §3).
    if thumbnail_changed {
        if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
            return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
        }
        next.thumbnail_image_id = thumbnail;
        next.thumbnail_pinned = i32::from(pinned);
    }
    // Giving a project to other people is an admin's call, like creating it.
    if owners_changed {
        if !policy::allows(actor, Action::CreateProject, Target::Nothing) {
            return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
        }
        // People who stay keep their names; the new ones must exist in their roles.
        if homeowner_id != row.homeowner_id {
            give_homeowner(&mut next, named_homeowner(people, homeowner_id)?);
        }
        match builder_id {
            Some(b) if Some(b) == row.builder_id.as_deref() => {}
            Some(b) => give_builder(&mut next, Some(named_builder(people, b)?)),
            None => give_builder(&mut next, None),
        }
    }
    check_details(title, address, description, progress)?;
    next.title = title.to_owned();
    next.description = description.to_owned();
    next.address = address.to_owned();
    next.status = status.as_str().to_owned();
    next.progress = progress;
    next.updated_at = now;
    next.version = row.version + 1;
    let change = Change::Project {
        id: row.id.clone(),
        created: false,
        actor_id: Some(actor.id.clone()),
        previous: owners_changed.then(|| owners(row)),
        state: Some(Box::new(views::project(&next))),
    };
    Ok((next, vec![change]))
}

/// Applies an update to the project as `row` has it. `None` when the row is stale
/// (another instance changed the project since it was read): the caller reads it
/// again and retries, so a change never overwrites one it did not see.
pub async fn update(svc: &Services, actor: &Actor, row: &ProjectRow, input: &UpdateProject) -> Result<Option<(ProjectRow, Vec<Change>)>> {
    let (homeowner, builder) = people_named(row, input);
    let mut people = if homeowner.is_some() || builder.is_some() {
        people(svc, homeowner.as_deref(), builder.as_deref()).await?
    } else {
        People::default()
    };
    people.thumbnail = thumbnail_named(svc, row, input).await?;
    let (next, mut changes) = plan_update(row, input, actor, &people, now_ms())?;
    let mut tx = svc.store.begin_write().await?;
    let mut mailed = false;
    if !projects::update_at_version(&mut *tx, &next.id, &fields(&next), next.updated_at, row.version).await? {
        return Ok(None);
    }
    // Issue 17: the project's homeowner and builder (but not whoever changed it) are
    // notified of a new status, in the same transaction.
    if next.status != row.status {
        let actor_name = users::find_by_id(&mut *tx, &actor.id).await?.and_then(|u| views::summary(&u).name);
        let status = ProjectStatus::parse(&next.status).unwrap_or(ProjectStatus::InProgress);
        let told = notifications::owners_except(project_ref(&next), &actor.id);
        mailed = notifications::mail_status_change(svc, &mut tx, &told, &next.id, &next.title, status).await?;
        let notices = told
            .into_iter()
            .map(|user_id| Notice {
                user_id,
                kind: NotificationKind::StatusChange,
                project_id: next.id.clone(),
                image_id: None,
                actor_name: actor_name.clone(),
                title: format!("{} is now {}", next.title, notifications::status_label(status)),
                body: actor_name.as_ref().map(|n| format!("Changed by {n}")).unwrap_or_default(),
            })
            .collect();
        changes.extend(notifications::record(&mut tx, notices).await?);
    }
    tx.commit().await.map_err(StoreError::from)?;
    if mailed {
        svc.auth.outbox.wake();
    }
    Ok(Some((next, changes)))
}

/// Deleting a project is an admin's call (SPEC.md §6); its photos go with it.
pub fn plan_delete(row: &ProjectRow, actor: &Actor) -> Result<Vec<Change>> {
    if !policy::can_view_project(actor, project_ref(row)) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
    if !policy::allows(actor, Action::DeleteProject, Target::Project(project_ref(row))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    Ok(vec![Change::ProjectDeleted { id: row.id.clone(), version: row.version + 1, owners: owners(row) }])
}

pub async fn delete(svc: &Services, actor: &Actor, row: &ProjectRow) -> Result<Vec<Change>> {
    let changes = plan_delete(row, actor)?;
    let mut tx = svc.store.begin_write().await?;
    let files = images::storage_keys_of_projects(&mut *tx, std::slice::from_ref(&row.id)).await?;
    projects::delete(&mut *tx, &row.id).await?;
    tx.commit().await.map_err(StoreError::from)?;
    svc.delete_photo_files(&files).await;
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str, role: Role) -> UserRow {
        UserRow::example(id, role)
    }

    fn row() -> ProjectRow {
        ProjectRow {
            id: "p".into(),
            title: "Oak Street".into(),
            description: "".into(),
            address: "1 Oak Street".into(),
            homeowner_id: "h".into(),
            builder_id: Some("b".into()),
            status: ProjectStatus::InProgress.as_str().into(),
            progress: 40,
            thumbnail_image_id: None,
            thumbnail_pinned: 0,
            progress_mode: "manual".into(),
            created_at: 1,
            updated_at: 1,
            version: 7,
            homeowner_email: "h@example.com".into(),
            homeowner_name: Some("h name".into()),
            homeowner_first_name: None,
            homeowner_last_name: None,
            builder_email: Some("b@example.com".into()),
            builder_name: Some("b name".into()),
        }
    }

    fn actor(id: &str, role: Role) -> Actor {
        Actor { id: id.into(), role }
    }

    fn update(f: impl FnOnce(&mut UpdateProject)) -> UpdateProject {
        let mut input = UpdateProject { id: "p".into(), ..UpdateProject::default() };
        f(&mut input);
        input
    }

    fn code(r: Result<(ProjectRow, Vec<Change>)>) -> ErrorCode {
        r.err().map(|e| e.code()).unwrap_or(ErrorCode::Internal)
    }

    fn message(r: Result<(ProjectRow, Vec<Change>)>) -> String {
        r.err().map(|e| e.api.message).unwrap_or_default()
    }

    #[test]
    fn status_and_progress_are_for_admins_only() {
        let input = update(|u| u.progress = Some(60));
        let none = People::default();
        let (next, changes) = plan_update(&row(), &input, &actor("a", Role::Admin), &none, 99).unwrap();
        assert_eq!((next.progress, next.version, next.updated_at), (60, 8, 99));
        assert!(matches!(&changes[..], [Change::Project { created: false, previous: None, state: Some(p), .. }] if p.progress == 60 && p.version == 8));
        assert_eq!(message(plan_update(&row(), &input, &actor("b", Role::Builder), &none, 99)), ADMIN_ONLY_STATUS);
        assert_eq!(message(plan_update(&row(), &input, &actor("h", Role::Homeowner), &none, 99)), ADMIN_ONLY_STATUS);
        let out_of_range = update(|u| u.progress = Some(101));
        assert_eq!(code(plan_update(&row(), &out_of_range, &actor("a", Role::Admin), &none, 99)), ErrorCode::Validation);
    }

    #[test]
    fn details_are_for_admins_and_the_projects_builder() {
        let input = update(|u| u.title = Some("  Elm Street ".into()));
        let none = People::default();
        let (next, _) = plan_update(&row(), &input, &actor("b", Role::Builder), &none, 5).unwrap();
        assert_eq!(next.title, "Elm Street", "trimmed");
        assert!(plan_update(&row(), &input, &actor("a", Role::Admin), &none, 5).is_ok());
        assert_eq!(message(plan_update(&row(), &input, &actor("h", Role::Homeowner), &none, 5)), NOT_ALLOWED);
        // Another builder's project is not theirs to see, let alone change.
        assert_eq!(message(plan_update(&row(), &input, &actor("b2", Role::Builder), &none, 5)), NO_ACCESS);
        let blank = update(|u| u.title = Some("   ".into()));
        assert_eq!(code(plan_update(&row(), &blank, &actor("a", Role::Admin), &none, 5)), ErrorCode::Validation);
        let long = update(|u| u.description = Some("x".repeat(5_001)));
        assert_eq!(code(plan_update(&row(), &long, &actor("a", Role::Admin), &none, 5)), ErrorCode::Validation);
    }

    #[test]
    fn a_request_that_changes_nothing_is_refused() {
        let same = update(|u| {
            u.title = Some("Oak Street".into());
            u.progress = Some(40);
            u.homeowner_id = Some("h".into());
        });
        assert_eq!(code(plan_update(&row(), &same, &actor("a", Role::Admin), &People::default(), 5)), ErrorCode::NoChanges);
    }

    #[test]
    fn moving_a_project_is_for_admins_and_names_real_people() {
        let input = update(|u| u.homeowner_id = Some("h2".into()));
        let people = People { homeowner: Some(user("h2", Role::Homeowner)), builder: None, thumbnail: None };
        let (next, changes) = plan_update(&row(), &input, &actor("a", Role::Admin), &people, 5).unwrap();
        assert_eq!((next.homeowner_id.as_str(), next.homeowner_email.as_str()), ("h2", "h2@example.com"));
        assert_eq!(next.builder_id.as_deref(), Some("b"), "the builder stays");
        let previous = Owners { homeowner_id: "h".into(), builder_id: Some("b".into()) };
        assert!(matches!(&changes[..], [Change::Project { previous: Some(p), .. }] if *p == previous));
        // The builder may not move it; nor may anyone give it to a builder as homeowner.
        assert_eq!(message(plan_update(&row(), &input, &actor("b", Role::Builder), &people, 5)), NOT_ALLOWED);
        let wrong_role = People { homeowner: Some(user("h2", Role::Builder)), builder: None, thumbnail: None };
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &wrong_role, 5)), HOMEOWNER_NOT_FOUND);
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &People::default(), 5)), HOMEOWNER_NOT_FOUND);
        // Removing the builder needs nobody read; naming an unknown one is refused.
        let unassign = update(|u| u.builder_id = Some(String::new()));
        let (next, _) = plan_update(&row(), &unassign, &actor("a", Role::Admin), &People::default(), 5).unwrap();
        assert_eq!((next.builder_id, next.builder_email, next.builder_name), (None, None, None));
        let unknown = update(|u| u.builder_id = Some("nobody".into()));
        assert_eq!(message(plan_update(&row(), &unknown, &actor("a", Role::Admin), &People::default(), 5)), BUILDER_NOT_FOUND);
        // Only the people an update changes are looked up.
        assert_eq!(people_named(&row(), &update(|u| u.homeowner_id = Some("h".into()))), (None, None));
        assert_eq!(people_named(&row(), &input), (Some("h2".into()), None));
    }

    #[test]
    fn the_thumbnail_is_an_admins_pick_among_the_projects_photos() {
        let input = update(|u| u.thumbnail_id = Some("img2".into()));
        let pick = |project: Option<&str>| People {
            thumbnail: Some(Thumbnail::Photo { id: "img2".into(), project_id: project.map(Into::into) }),
            ..People::default()
        };
        let (next, changes) = plan_update(&row(), &input, &actor("a", Role::Admin), &pick(Some("p")), 5).unwrap();
        assert_eq!((next.thumbnail_image_id.as_deref(), next.thumbnail_pinned), (Some("img2"), 1));
        assert!(matches!(&changes[..], [Change::Project { state: Some(p), .. }] if p.thumbnail_pinned
            && p.thumbnail_url.as_deref().is_some_and(|u| u.contains("img2"))));
        assert_eq!(message(plan_update(&row(), &input, &actor("b", Role::Builder), &pick(Some("p")), 5)), NOT_ALLOWED);
        assert_eq!(message(plan_update(&row(), &input, &actor("h", Role::Homeowner), &pick(Some("p")), 5)), NOT_ALLOWED);
        // A photo of another project, or none at all, is refused by name.
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &pick(Some("p2")), 5)), THUMBNAIL_NOT_IN_PROJECT);
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &pick(None), 5)), THUMBNAIL_NOT_IN_PROJECT);
        // Back to the newest photo: no longer pinned.
        let mut pinned = row();
        pinned.thumbnail_image_id = Some("img2".into());
        pinned.thumbnail_pinned = 1;
        let newest = People { thumbnail: Some(Thumbnail::Newest(Some("img9".into()))), ..People::default() };
        let back = update(|u| u.thumbnail_id = Some(String::new()));
        let (next, _) = plan_update(&pinned, &back, &actor("a", Role::Admin), &newest, 5).unwrap();
        assert_eq!((next.thumbnail_image_id.as_deref(), next.thumbnail_pinned), (Some("img9"), 0));
        // Picking what is already picked changes nothing.
        let same = People { thumbnail: Some(Thumbnail::Photo { id: "img2".into(), project_id: Some("p".into()) }), ..People::default() };
        assert_eq!(code(plan_update(&pinned, &input, &actor("a", Role::Admin), &same, 5)), ErrorCode::NoChanges);
    }

    #[test]
    fn creating_is_for_admins_and_needs_a_homeowner() {
        let input = CreateProject {
            title: "Birch Road".into(),
            description: String::new(),
            address: "2 Birch Road".into(),
            homeowner_id: "h".into(),
            builder_id: Some("b".into()),
            status: ProjectStatus::Planning,
            progress: 0,
            progress_mode: None,
            milestones: None,
        };
        let people = People { homeowner: Some(user("h", Role::Homeowner)), builder: Some(user("b", Role::Builder)), thumbnail: None };
        let (row, changes) = plan_create(&input, &actor("a", Role::Admin), &people, "new".into(), 3).unwrap();
        assert_eq!((row.id.as_str(), row.version, row.created_at, row.builder_name.as_deref()), ("new", 1, 3, Some("b name")));
        assert!(matches!(&changes[..], [Change::Project { created: true, .. }]));
        for who in [actor("b", Role::Builder), actor("h", Role::Homeowner)] {
            let r = plan_create(&input, &who, &people, "new".into(), 3);
            assert_eq!(r.err().map(|e| e.api.message).unwrap_or_default(), NOT_ALLOWED);
        }
        let nobody = CreateProject { homeowner_id: " ".into(), ..input.clone() };
        let r = plan_create(&nobody, &actor("a", Role::Admin), &people, "new".into(), 3);
        assert_eq!(r.err().map(|e| e.api.message).unwrap_or_default(), SELECT_HOMEOWNER);
    }

    #[test]
    fn deleting_is_for_admins() {
        let changes = plan_delete(&row(), &actor("a", Role::Admin)).unwrap();
        assert!(matches!(&changes[..], [Change::ProjectDeleted { version: 8, .. }]));
        assert_eq!(plan_delete(&row(), &actor("b", Role::Builder)).err().map(|e| e.api.message).unwrap_or_default(), NOT_ALLOWED);
        assert_eq!(plan_delete(&row(), &actor("h2", Role::Homeowner)).err().map(|e| e.api.message).unwrap_or_default(), NO_ACCESS);
    }
}
