//! Listing, reading, creating, updating and deleting projects (SPEC.md §2, §4, §5, §6),
//! with their milestones and the timeline that tells their story.

mod access;
pub mod milestones;
pub mod pages;
pub mod timeline;

pub use access::{project_ref, visible, NO_ACCESS, PROJECT_NOT_FOUND};

use protocol::{CreateProject, ErrorCode, MilestoneStart, NotificationKind, ProgressMode, Project, Role, TimelineDetail, UpdateProject};

use crate::domain::shared::changes::{Change, Owners};
use crate::domain::messaging::notifications::{self, Notice};
use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{self, PROJECT_ADDRESS, PROJECT_DESCRIPTION, PROJECT_TITLE};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::projects::ProjectRow;
use crate::store::users::UserRow;
use crate::store::companies::{self, CompanyRow};
use crate::store::{images, milestones as store_milestones, new_id, now_ms, projects, users};

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
pub const PROGRESS_FOLLOWS_MILESTONES: &str = "Progress follows the milestones. Switch to manual progress to set it by hand.";

pub fn owners(p: &ProjectRow) -> Owners {
    Owners::of(p)
}

pub async fn get(svc: &Services, actor: &Actor, id: &str) -> Result<Project> {
    Ok(views::project(&visible(svc, actor, id).await?))
}

/// The people (and the thumbnail photo) a project change names, looked up before its
/// rules are applied: the rules then decide without reading anything.
#[derive(Default, Debug, Clone)]
pub struct People {
    pub homeowner: Option<UserRow>,
    /// The builder company named (docs/FEATURES.md, "Builder companies").
    pub builder: Option<CompanyRow>,
    pub thumbnail: Option<Thumbnail>,
    /// The progress the project's milestones give, read when an update switches the
    /// project to follow them.
    pub milestone_progress: Option<i32>,
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
    let homeowner = match homeowner_id.filter(|h| !h.trim().is_empty() && validation::could_be_id(h)) {
        Some(h) => users::find_by_id(pool, h).await?,
        None => None,
    };
    let builder = match builder_id.filter(|b| !b.is_empty() && validation::could_be_id(b)) {
        Some(b) => companies::find(pool, b).await?,
        None => None,
    };
    Ok(People { homeowner, builder, thumbnail: None, milestone_progress: None })
}

/// Reads the photo a thumbnail pick names, when the update names one.
async fn thumbnail_named(svc: &Services, row: &ProjectRow, input: &UpdateProject) -> Result<Option<Thumbnail>> {
    let pool = svc.store.pool();
    Ok(match input.thumbnail_id.as_deref() {
        None => None,
        Some("") => Some(Thumbnail::Newest(projects::newest_image_id(pool, &row.id).await?)),
        Some(id) => {
            let found = if validation::could_be_id(id) { images::find(pool, id).await? } else { None };
            let project_id = found.map(|i| i.project_id);
            Some(Thumbnail::Photo { id: id.to_owned(), project_id })
        }
    })
}

/// Where a thumbnail pick leaves the project's thumbnail: (photo id, picked by hand).
fn thumbnail_after(row: &ProjectRow, pick: Option<&Thumbnail>) -> Result<(Option<String>, bool)> {
    match pick {
        None => Ok((row.thumbnail_image_id.clone(), row.thumbnail_pinned)),
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
        .filter(|u| u.id == id && u.role == Role::Homeowner)
        .ok_or_else(|| Error::field("homeownerId", HOMEOWNER_NOT_FOUND))
}

/// A builder a project is given must exist as a company (docs/FEATURES.md,
/// "Builder companies").
fn named_builder<'p>(people: &'p People, id: &str) -> Result<&'p CompanyRow> {
    people.builder.as_ref().filter(|c| c.id == id).ok_or_else(|| Error::field("builderId", BUILDER_NOT_FOUND))
}

/// A project row given to another homeowner: their names come with them.
fn give_homeowner(row: &mut ProjectRow, homeowner: &UserRow) {
    row.homeowner_id = homeowner.id.clone();
    row.homeowner_email = homeowner.email.clone();
    row.homeowner_name = homeowner.name.clone();
    row.homeowner_first_name = homeowner.first_name.clone();
    row.homeowner_last_name = homeowner.last_name.clone();
}

/// A project row given to another company: its crew stays behind.
fn give_builder(row: &mut ProjectRow, builder: Option<&CompanyRow>) {
    row.company_id = builder.map(|b| b.id.clone());
    row.company_name = builder.map(|b| b.name.clone());
    row.crew = Vec::new();
}

/// A project's details as sent (SPEC.md §5: title and address required; the
/// Limits table's lengths and characters), and its progress.
fn check_details(title: &str, address: &str, description: &str, progress: i32) -> Result<()> {
    let mut errors = Vec::new();
    let details = [
        ("title", title, PROJECT_TITLE, Some(TITLE_REQUIRED)),
        ("address", address, PROJECT_ADDRESS, Some(ADDRESS_REQUIRED)),
        ("description", description, PROJECT_DESCRIPTION, None),
    ];
    for (field, value, limit, required) in details {
        let message = match required {
            Some(required) if value.trim().is_empty() => Some(required.to_owned()),
            _ => limit.problem(value),
        };
        if let Some(message) = message {
            errors.push(protocol::FieldError { field: field.to_owned(), message });
        }
    }
    if !(0..=100).contains(&progress) {
        errors.push(protocol::FieldError { field: "progress".to_owned(), message: PROGRESS_RANGE.to_owned() });
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
    // A new project has no milestone done yet: following them, it starts at 0%.
    let mode = input.progress_mode.unwrap_or_default();
    if mode == ProgressMode::Milestones && input.progress != 0 {
        return Err(Error::field("progress", PROGRESS_FOLLOWS_MILESTONES));
    }
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
        company_id: None,
        status: input.status,
        progress: input.progress,
        thumbnail_image_id: None,
        thumbnail_pinned: false,
        progress_mode: mode,
        created_at: now,
        updated_at: now,
        version: 1,
        homeowner_email: String::new(),
        homeowner_name: None,
        homeowner_first_name: None,
        homeowner_last_name: None,
        company_name: None,
        crew: Vec::new(),
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
    let who = timeline::who(svc.store.pool(), actor).await?;
    // The project, the plan it starts from and its first timeline entry in one
    // transaction. Neither is announced: nobody can be watching a project that did not
    // exist a moment ago; whoever opens it reads them.
    let mut tx = svc.store.begin_write().await?;
    projects::insert(&mut *tx, &row.id, &row.fields(), row.created_at).await?;
    if input.milestones == Some(MilestoneStart::Residential) {
        for m in crate::domain::projects::milestones::template_rows(&row.id, 0, row.created_at, &mut new_id) {
            store_milestones::insert(&mut *tx, &m).await?;
        }
    }
    timeline::record(&mut tx, &row.id, &who, TimelineDetail::ProjectCreated, None, row.created_at).await?;
    tx.commit().await?;
    Ok((views::project(&row), changes))
}

/// The ids of the people an update gives the project to, when it changes them.
pub fn people_named(row: &ProjectRow, input: &UpdateProject) -> (Option<String>, Option<String>) {
    let homeowner = input.homeowner_id.clone().filter(|h| *h != row.homeowner_id);
    let builder = input.builder_id.clone().filter(|b| !b.is_empty() && Some(b) != row.company_id.as_ref());
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
    let status = input.status.unwrap_or(row.status);
    // In milestones mode the progress is the share of milestones done (kept so by every
    // milestone change); switching to it takes that share at once (docs/FEATURES.md,
    // "The project's story").
    let mode_before = row.progress_mode;
    let mode = input.progress_mode.unwrap_or(mode_before);
    let (progress, by_hand_refused) = match mode {
        ProgressMode::Manual => (input.progress.unwrap_or(row.progress), false),
        ProgressMode::Milestones => {
            let follows =
                if mode_before == ProgressMode::Milestones { row.progress } else { people.milestone_progress.unwrap_or(row.progress) };
            (follows, input.progress.is_some_and(|p| p != follows))
        }
    };
    let title = input.title.as_deref().map(str::trim).unwrap_or(&row.title);
    let description = input.description.as_deref().map(str::trim).unwrap_or(&row.description);
    let address = input.address.as_deref().map(str::trim).unwrap_or(&row.address);
    let homeowner_id = input.homeowner_id.as_deref().unwrap_or(&row.homeowner_id);
    let builder_id = match input.builder_id.as_deref() {
        Some("") => None,
        Some(b) => Some(b),
        None => row.company_id.as_deref(),
    };

    let status_changed = status != row.status || progress != row.progress || mode != mode_before;
    let details_changed = title != row.title || description != row.description || address != row.address;
    let owners_changed = homeowner_id != row.homeowner_id || builder_id != row.company_id.as_deref();
    let (thumbnail, pinned) = thumbnail_after(row, people.thumbnail.as_ref())?;
    let thumbnail_changed = thumbnail != row.thumbnail_image_id || pinned != (row.thumbnail_pinned);
    if !status_changed && !details_changed && !owners_changed && !thumbnail_changed && !by_hand_refused {
        return Err(Error::new(ErrorCode::NoChanges, NO_CHANGES));
    }
    let target = Target::Project(project_ref(row));
    if by_hand_refused {
        if !policy::allows(actor, Action::ChangeProjectStatus, target) {
            return Err(Error::new(ErrorCode::Forbidden, ADMIN_ONLY_STATUS));
        }
        return Err(Error::field("progress", PROGRESS_FOLLOWS_MILESTONES));
    }
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
        next.thumbnail_pinned = pinned;
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
            Some(b) if Some(b) == row.company_id.as_deref() => {}
            Some(b) => give_builder(&mut next, Some(named_builder(people, b)?)),
            None => give_builder(&mut next, None),
        }
    }
    // Checked as sent (before trimming), the stored value standing for one not sent.
    check_details(
        input.title.as_deref().unwrap_or(&row.title),
        input.address.as_deref().unwrap_or(&row.address),
        input.description.as_deref().unwrap_or(&row.description),
        progress,
    )?;
    next.title = title.to_owned();
    next.description = description.to_owned();
    next.address = address.to_owned();
    next.status = status;
    next.progress = progress;
    next.progress_mode = mode;
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

/// Times a change is planned again after another instance changed the project under it.
const STALE_RETRIES: usize = 3;

/// A change to the project's details, status, progress or people, as its turn runs
/// it: read, planned, written; planned again when another instance changed the
/// project in between (the people's names in it may have changed too).
pub async fn change(svc: &Services, actor: &Actor, id: &str, input: &UpdateProject) -> Result<(Project, Vec<Change>)> {
    for _ in 0..STALE_RETRIES {
        // One read per change: a change that lands between this read and the write
        // fails the write's version check, and the change is planned again.
        let current = visible(svc, actor, id).await?;
        if let Some((row, changes)) = update(svc, actor, &current, input).await? {
            return Ok((views::project(&row), changes));
        }
    }
    Err(Error::internal("the project kept changing under an update"))
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
    if input.progress_mode == Some(ProgressMode::Milestones) && row.progress_mode != ProgressMode::Milestones {
        // Read before the write, which checks the version: a milestone change since
        // (it moves the version) makes this update plan again.
        people.milestone_progress =
            Some(crate::domain::projects::milestones::progress_of(&store_milestones::list(svc.store.pool(), &row.id).await?));
    }
    let (next, mut changes) = plan_update(row, input, actor, &people, now_ms())?;
    let mut tx = svc.store.begin_write().await?;
    let mut mailed = false;
    if !projects::update_at_version(&mut *tx, &next.id, &next.fields(), next.updated_at, row.version).await? {
        return Ok(None);
    }
    // A project moved to another company leaves its crew behind (docs/FEATURES.md,
    // "Builder companies").
    if next.company_id != row.company_id {
        projects::set_crew(&mut *tx, &next.id, &[], next.updated_at).await?;
    }
    // The timeline records status and progress changes with them (docs/FEATURES.md,
    // "The project's story").
    let from = row.status;
    let to = next.status;
    let mut entries = Vec::new();
    if from != to {
        entries.push(TimelineDetail::StatusChanged { from, to });
    }
    if next.progress != row.progress {
        entries.push(TimelineDetail::ProgressChanged { from: row.progress, to: next.progress });
    }
    if !entries.is_empty() {
        let who = timeline::who(&mut *tx, actor).await?;
        for detail in entries {
            changes.push(timeline::record(&mut tx, &next.id, &who, detail, None, next.updated_at).await?);
        }
    }
    // The project's homeowner and builder (but not whoever changed it) are notified of a
    // new status (docs/FEATURES.md, "Comments, notifications and mail"), in the same
    // transaction.
    if next.status != row.status {
        let actor_name = users::find_by_id(&mut *tx, &actor.id).await?.and_then(|u| views::summary(&u).name);
        let status = next.status;
        let people = crate::domain::shared::audience::project_people(&mut *tx, &owners(&next)).await?;
        let told = notifications::owners_except(&people, &actor.id);
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
    tx.commit().await?;
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

/// Deleting a project by id, as its turn runs it.
pub async fn remove(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let row = visible(svc, actor, id).await?;
    delete(svc, actor, &row).await
}

pub async fn delete(svc: &Services, actor: &Actor, row: &ProjectRow) -> Result<Vec<Change>> {
    let changes = plan_delete(row, actor)?;
    let mut tx = svc.store.begin_write().await?;
    let files = images::storage_keys_of_projects(&mut *tx, std::slice::from_ref(&row.id)).await?;
    let report_files = crate::store::reports::storage_keys_of_projects(&mut *tx, std::slice::from_ref(&row.id)).await?;
    projects::delete(&mut *tx, &row.id).await?;
    tx.commit().await?;
    svc.delete_photo_files(&files).await;
    svc.delete_files(&report_files).await;
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ProjectStatus;

    fn user(id: &str, role: Role) -> UserRow {
        UserRow::example(id, role)
    }

    fn company(id: &str) -> CompanyRow {
        CompanyRow { id: id.into(), name: "Summit Homes".into(), created_at: 1, updated_at: 1, version: 1, project_count: 0 }
    }

    fn row() -> ProjectRow {
        ProjectRow {
            id: "p".into(),
            title: "Oak Street".into(),
            description: "".into(),
            address: "1 Oak Street".into(),
            homeowner_id: "h".into(),
            company_id: Some("b".into()),
            status: ProjectStatus::InProgress,
            progress: 40,
            thumbnail_image_id: None,
            thumbnail_pinned: false,
            progress_mode: ProgressMode::Manual,
            created_at: 1,
            updated_at: 1,
            version: 7,
            homeowner_email: "h@example.com".into(),
            homeowner_name: Some("h name".into()),
            homeowner_first_name: None,
            homeowner_last_name: None,
            company_name: Some("b name".into()),
            crew: Vec::new(),
        }
    }

    /// A builder owns the company of their own id (as a builder from before companies does).
    fn actor(id: &str, role: Role) -> Actor {
        match role {
            Role::Builder => Actor::member(id, id, protocol::CompanyRole::Owner, false),
            _ => Actor::new(id, role),
        }
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
        let people = People { homeowner: Some(user("h2", Role::Homeowner)), ..People::default() };
        let (next, changes) = plan_update(&row(), &input, &actor("a", Role::Admin), &people, 5).unwrap();
        assert_eq!((next.homeowner_id.as_str(), next.homeowner_email.as_str()), ("h2", "h2@example.com"));
        assert_eq!(next.company_id.as_deref(), Some("b"), "the builder stays");
        let previous = Owners { homeowner_id: "h".into(), company_id: Some("b".into()), crew: Vec::new() };
        assert!(matches!(&changes[..], [Change::Project { previous: Some(p), .. }] if *p == previous));
        // The builder may not move it; nor may anyone give it to a builder as homeowner.
        assert_eq!(message(plan_update(&row(), &input, &actor("b", Role::Builder), &people, 5)), NOT_ALLOWED);
        let wrong_role = People { homeowner: Some(user("h2", Role::Builder)), ..People::default() };
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &wrong_role, 5)), HOMEOWNER_NOT_FOUND);
        assert_eq!(message(plan_update(&row(), &input, &actor("a", Role::Admin), &People::default(), 5)), HOMEOWNER_NOT_FOUND);
        // Removing the builder needs nobody read; naming an unknown one is refused.
        let unassign = update(|u| u.builder_id = Some(String::new()));
        let (next, _) = plan_update(&row(), &unassign, &actor("a", Role::Admin), &People::default(), 5).unwrap();
        assert_eq!((next.company_id, next.company_name), (None, None));
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
        assert_eq!((next.thumbnail_image_id.as_deref(), next.thumbnail_pinned), (Some("img2"), true));
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
        pinned.thumbnail_pinned = true;
        let newest = People { thumbnail: Some(Thumbnail::Newest(Some("img9".into()))), ..People::default() };
        let back = update(|u| u.thumbnail_id = Some(String::new()));
        let (next, _) = plan_update(&pinned, &back, &actor("a", Role::Admin), &newest, 5).unwrap();
        assert_eq!((next.thumbnail_image_id.as_deref(), next.thumbnail_pinned), (Some("img9"), false));
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
        let people = People { homeowner: Some(user("h", Role::Homeowner)), builder: Some(company("b")), ..People::default() };
        let (row, changes) = plan_create(&input, &actor("a", Role::Admin), &people, "new".into(), 3).unwrap();
        assert_eq!((row.id.as_str(), row.version, row.created_at, row.company_name.as_deref()), ("new", 1, 3, Some("Summit Homes")));
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
    fn progress_follows_the_milestones_in_milestones_mode() {
        let none = People::default();
        let to_milestones = update(|u| u.progress_mode = Some(ProgressMode::Milestones));
        let share = People { milestone_progress: Some(67), ..People::default() };
        let (next, changes) = plan_update(&row(), &to_milestones, &actor("a", Role::Admin), &share, 9).unwrap();
        assert_eq!((next.progress_mode.as_str(), next.progress, next.version), ("milestones", 67, 8));
        assert!(matches!(&changes[..], [Change::Project { state: Some(p), .. }] if p.progress_mode == ProgressMode::Milestones));
        // Choosing how progress is kept is an admin's call, like progress itself.
        assert_eq!(message(plan_update(&row(), &to_milestones, &actor("b", Role::Builder), &share, 9)), ADMIN_ONLY_STATUS);
        // In milestones mode progress is not set by hand; the same value is no change.
        let mut following = row();
        following.progress_mode = ProgressMode::Milestones;
        let by_hand = update(|u| u.progress = Some(90));
        let err = plan_update(&following, &by_hand, &actor("a", Role::Admin), &none, 9).unwrap_err();
        assert_eq!((err.code(), err.api.fields[0].field.as_str(), err.api.fields[0].message.as_str()), (ErrorCode::Validation, "progress", PROGRESS_FOLLOWS_MILESTONES));
        assert_eq!(message(plan_update(&following, &by_hand, &actor("b", Role::Builder), &none, 9)), ADMIN_ONLY_STATUS);
        let same = update(|u| u.progress = Some(40));
        assert_eq!(code(plan_update(&following, &same, &actor("a", Role::Admin), &none, 9)), ErrorCode::NoChanges);
        // Back to manual: the progress stays until set by hand, in the same request or later.
        let to_manual = update(|u| {
            u.progress_mode = Some(ProgressMode::Manual);
            u.progress = Some(90);
        });
        let (next, _) = plan_update(&following, &to_manual, &actor("a", Role::Admin), &none, 9).unwrap();
        assert_eq!((next.progress_mode.as_str(), next.progress), ("manual", 90));
        // Created following the milestones: 0% and no other value.
        let input = CreateProject {
            title: "Birch Road".into(),
            description: String::new(),
            address: "2 Birch Road".into(),
            homeowner_id: "h".into(),
            builder_id: None,
            status: ProjectStatus::Planning,
            progress: 30,
            progress_mode: Some(ProgressMode::Milestones),
            milestones: Some(MilestoneStart::Residential),
        };
        let people = People { homeowner: Some(user("h", Role::Homeowner)), ..People::default() };
        let err = plan_create(&input, &actor("a", Role::Admin), &people, "new".into(), 3).unwrap_err();
        assert_eq!(err.api.fields[0].message, PROGRESS_FOLLOWS_MILESTONES);
        let (row, _) = plan_create(&CreateProject { progress: 0, ..input }, &actor("a", Role::Admin), &people, "new".into(), 3).unwrap();
        assert_eq!((row.progress_mode.as_str(), row.progress), ("milestones", 0));
    }

    #[test]
    fn deleting_is_for_admins() {
        let changes = plan_delete(&row(), &actor("a", Role::Admin)).unwrap();
        assert!(matches!(&changes[..], [Change::ProjectDeleted { version: 8, .. }]));
        assert_eq!(plan_delete(&row(), &actor("b", Role::Builder)).err().map(|e| e.api.message).unwrap_or_default(), NOT_ALLOWED);
        assert_eq!(plan_delete(&row(), &actor("h2", Role::Homeowner)).err().map(|e| e.api.message).unwrap_or_default(), NO_ACCESS);
    }
}
