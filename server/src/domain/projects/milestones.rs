//! A project's milestones (docs/FEATURES.md, "The project's story"): an ordered plan that
//! admins and the project's builder keep, and that the progress bar follows when the
//! project says so.
//!
//! Milestone changes are project changes. Each is planned by a pure function of the
//! project row, its current list and the actor (`plan`), then written in one
//! transaction with the project row — whose version and updated_at it moves, and
//! whose progress it sets in milestones mode — checked against the version the plan
//! was made on (another instance may have changed the project: then it is planned
//! again), with a timeline entry for a completion or a reopening. Callers run it in
//! the project's turn (`domain::shared::turns`), so it serialises with status and progress
//! changes and its changes leave in commit order.
//!
//! Deleting a milestone untags its photos in the same transaction, moving their
//! versions, and announces each as a `PhotoUpdated`: clients never have to infer a
//! photo's tag from a plan.

use protocol::{ErrorCode, Milestone, MilestonePlan, ProgressMode, TimelineDetail};

use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use super::access::{self as projects, project_ref, visible};
use crate::domain::shared::services::Services;
use crate::domain::projects::timeline;
use crate::domain::shared::validation::{self, MILESTONE_NAME};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::milestones::{self as store, MilestoneRow};
use crate::store::projects::ProjectRow;
use crate::store::{images, new_id, now_ms, Db, Tx};

pub const MILESTONE_NOT_FOUND: &str = "Milestone not found";
pub const NOT_ALLOWED: &str = "Only administrators and the project's builder can change milestones.";
pub const NAME_REQUIRED: &str = "Milestone name is required.";
pub const BAD_DATE: &str = "Enter a valid date as YYYY-MM-DD.";
pub const NOT_IN_PROJECT: &str = "That milestone is not in this project.";
/// A plan is a handful of steps; fifty is far more than any house needs and keeps
/// the whole list (sent with every change) small.
pub const MAX_MILESTONES: usize = 50;
/// The standard residential plan a project can start from.
pub const RESIDENTIAL: [&str; 9] = [
    "Site preparation",
    "Foundation",
    "Framing",
    "Roofing",
    "Rough-in (plumbing, electrical, HVAC)",
    "Insulation & drywall",
    "Finishes",
    "Final inspection",
    "Handover",
];
/// Times a change is planned again after another instance changed the project under it.
const STALE_RETRIES: usize = 3;

pub fn too_many() -> String {
    format!("A project can have at most {MAX_MILESTONES} milestones.")
}

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, MILESTONE_NOT_FOUND)
}

/// One change to a project's milestones, as requested.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    Add { name: String, target_date: Option<String> },
    Template,
    /// Only the fields present change; an empty date removes it.
    Update { id: String, name: Option<String>, target_date: Option<String> },
    /// Complete (on `done_date`, default today UTC) or reopen.
    SetDone { id: String, done: bool, done_date: Option<String> },
    Move { id: String, position: i32 },
    Delete { id: String },
}

/// The rows a change writes.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Writes {
    pub insert: Vec<MilestoneRow>,
    pub update: Vec<MilestoneRow>,
    pub delete: Vec<String>,
}

impl Writes {
    pub fn is_empty(&self) -> bool {
        self.insert.is_empty() && self.update.is_empty() && self.delete.is_empty()
    }
}

/// A timeline entry a change makes: its detail, and the milestone it is about.
pub type Entry = (TimelineDetail, String);

/// What a change does: the list after it, the rows to write, the project as it
/// leaves it, the timeline entry it makes, and the changes to publish.
#[derive(Debug, Clone)]
pub struct Planned {
    pub after: Vec<MilestoneRow>,
    pub writes: Writes,
    pub project: ProjectRow,
    pub entry: Option<Entry>,
    pub changes: Vec<Change>,
}

pub fn view(m: &MilestoneRow) -> Milestone {
    Milestone {
        id: m.id.clone(),
        project_id: m.project_id.clone(),
        name: m.name.clone(),
        position: i32::try_from(m.position).unwrap_or(i32::MAX),
        target_date: m.target_date.clone(),
        done_date: m.done_date.clone(),
    }
}

/// A project's milestones as one value, stamped with the project's version.
pub fn plan_view(project: &ProjectRow, rows: &[MilestoneRow]) -> MilestonePlan {
    MilestonePlan { project_id: project.id.clone(), milestones: rows.iter().map(view).collect(), version: project.version }
}

/// The share of milestones completed, in whole percent (half up); 0 with none.
pub fn progress_of(rows: &[MilestoneRow]) -> i32 {
    let total = rows.len() as i64;
    let done = rows.iter().filter(|m| m.done_date.is_some()).count() as i64;
    if total == 0 {
        return 0;
    }
    ((200 * done + total) / (2 * total)) as i32
}

/// A calendar day as `YYYY-MM-DD`, checked to exist (no 2026-02-30); `None` otherwise.
pub fn parse_date(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let b = raw.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    let year: i32 = raw[0..4].parse().ok()?;
    // Year 0000 is no one's target date, and Postgres has no year 0 to store it in.
    if year == 0 {
        return None;
    }
    let month: u8 = raw[5..7].parse().ok()?;
    let day: u8 = raw[8..10].parse().ok()?;
    let month = time::Month::try_from(month).ok()?;
    time::Date::from_calendar_date(year, month, day).ok()?;
    Some(raw.to_owned())
}

/// The UTC calendar day of a timestamp in milliseconds.
pub fn day_of(ms: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .map(|t| t.date())
        .unwrap_or(time::Date::MIN);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

fn date_field(field: &str, raw: &str) -> Result<Option<String>> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    parse_date(raw).map(Some).ok_or_else(|| Error::field(field, BAD_DATE))
}

/// A name as stored: trimmed, required, and one `MILESTONE_NAME` takes as sent (one
/// line, bounded).
pub fn clean_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(Error::field("name", NAME_REQUIRED));
    }
    MILESTONE_NAME.check("name", raw)?;
    Ok(name.to_owned())
}

fn index_of(list: &[MilestoneRow], id: &str) -> Result<usize> {
    list.iter().position(|m| m.id == id).ok_or_else(not_found)
}

fn new_row(project_id: &str, name: String, target_date: Option<String>, now: i64, id: String) -> MilestoneRow {
    MilestoneRow {
        id,
        project_id: project_id.to_owned(),
        name,
        position: 0,
        target_date,
        done_date: None,
        created_at: now,
        updated_at: now,
    }
}

/// The residential template's rows for a project, after `existing` milestones.
pub fn template_rows(project_id: &str, existing: usize, now: i64, new_id: &mut dyn FnMut() -> String) -> Vec<MilestoneRow> {
    RESIDENTIAL
        .iter()
        .enumerate()
        .map(|(i, name)| MilestoneRow { position: (existing + i) as i64, ..new_row(project_id, (*name).to_owned(), None, now, new_id()) })
        .collect()
}

/// The rows that differ between two lists of one project (positions included).
pub fn diff(before: &[MilestoneRow], after: &[MilestoneRow], now: i64) -> Writes {
    let mut writes = Writes::default();
    for m in after {
        match before.iter().find(|b| b.id == m.id) {
            None => writes.insert.push(m.clone()),
            Some(b) if b != m => writes.update.push(MilestoneRow { updated_at: now, ..m.clone() }),
            Some(_) => {}
        }
    }
    writes.delete = before.iter().filter(|b| !after.iter().any(|m| m.id == b.id)).map(|b| b.id.clone()).collect();
    writes
}

fn check_room(current: usize, adding: usize) -> Result<()> {
    if current + adding > MAX_MILESTONES {
        return Err(Error::field("name", &too_many()));
    }
    Ok(())
}

/// Applies an edit to the list as it is; answers the list after it (positions not yet
/// renumbered) and the timeline entry it makes, if any.
fn edited(
    row: &ProjectRow,
    current: &[MilestoneRow],
    edit: &Edit,
    now: i64,
    new_id: &mut dyn FnMut() -> String,
) -> Result<(Vec<MilestoneRow>, Option<Entry>)> {
    let mut after = current.to_vec();
    let mut entry = None;
    match edit {
        Edit::Add { name, target_date } => {
            check_room(after.len(), 1)?;
            let name = clean_name(name)?;
            let target = date_field("targetDate", target_date.as_deref().unwrap_or_default())?;
            after.push(new_row(&row.id, name, target, now, new_id()));
        }
        Edit::Template => {
            check_room(after.len(), RESIDENTIAL.len())?;
            let rows = template_rows(&row.id, after.len(), now, new_id);
            after.extend(rows);
        }
        Edit::Update { id, name, target_date } => {
            let i = index_of(&after, id)?;
            if let Some(name) = name {
                after[i].name = clean_name(name)?;
            }
            if let Some(date) = target_date {
                after[i].target_date = date_field("targetDate", date)?;
            }
        }
        Edit::SetDone { id, done, done_date } => {
            let i = index_of(&after, id)?;
            let m = &mut after[i];
            let was_done = m.done_date.is_some();
            if *done {
                let date = match done_date {
                    Some(d) => date_field("doneDate", d)?.unwrap_or_else(|| day_of(now)),
                    None => day_of(now),
                };
                m.done_date = Some(date);
                // Re-dating a completed milestone is a correction, not news.
                if !was_done {
                    entry = Some((TimelineDetail::MilestoneCompleted { milestone_id: m.id.clone(), name: m.name.clone() }, m.id.clone()));
                }
            } else if was_done {
                m.done_date = None;
                entry = Some((TimelineDetail::MilestoneReopened { milestone_id: m.id.clone(), name: m.name.clone() }, m.id.clone()));
            }
        }
        Edit::Move { id, position } => {
            let i = index_of(&after, id)?;
            let last = after.len() - 1;
            let to = usize::try_from(*position).ok().filter(|p| *p <= last).ok_or_else(|| {
                Error::field("position", &format!("Position must be between 0 and {last}."))
            })?;
            let m = after.remove(i);
            after.insert(to, m);
        }
        Edit::Delete { id } => {
            let i = index_of(&after, id)?;
            after.remove(i);
        }
    }
    Ok((after, entry))
}

/// The rules for changing a project's milestones, as a pure function of the project
/// row, its milestones as they are, the edit and the actor: admins and the project's
/// builder only; names required and bounded; dates real calendar days; at most
/// `MAX_MILESTONES`; positions dense 0..n. Every change moves the project's version
/// and updated_at and, in milestones mode, sets its progress. `None` when the edit
/// changes nothing (nothing is written then).
pub fn plan(
    row: &ProjectRow,
    current: &[MilestoneRow],
    edit: &Edit,
    actor: &Actor,
    now: i64,
    new_id: &mut dyn FnMut() -> String,
) -> Result<Option<Planned>> {
    if !policy::can_view_project(actor, project_ref(row)) {
        return Err(Error::new(ErrorCode::Forbidden, projects::NO_ACCESS));
    }
    if !policy::allows(actor, Action::EditMilestones, Target::Project(project_ref(row))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    let (mut after, entry) = edited(row, current, edit, now, new_id)?;
    for (i, m) in after.iter_mut().enumerate() {
        m.position = i as i64;
    }
    let writes = diff(current, &after, now);
    if writes.is_empty() {
        return Ok(None);
    }
    let after: Vec<MilestoneRow> = after
        .into_iter()
        .map(|m| writes.update.iter().find(|u| u.id == m.id).cloned().unwrap_or(m))
        .collect();
    let mut project = row.clone();
    project.version = row.version + 1;
    project.updated_at = now;
    if row.progress_mode == ProgressMode::Milestones {
        project.progress = progress_of(&after);
    }
    let changes = vec![
        Change::Project {
            id: row.id.clone(),
            created: false,
            actor_id: Some(actor.id.clone()),
            previous: None,
            state: Some(Box::new(views::project(&project))),
        },
        Change::Milestones {
            project_id: row.id.clone(),
            version: project.version,
            state: Some(Box::new(plan_view(&project, &after))),
        },
    ];
    Ok(Some(Planned { after, writes, project, entry, changes }))
}

pub fn plan_add(row: &ProjectRow, current: &[MilestoneRow], name: &str, target_date: Option<&str>, actor: &Actor, now: i64) -> Result<Option<Planned>> {
    let edit = Edit::Add { name: name.to_owned(), target_date: target_date.map(str::to_owned) };
    plan(row, current, &edit, actor, now, &mut new_id)
}

pub fn plan_template(row: &ProjectRow, current: &[MilestoneRow], actor: &Actor, now: i64) -> Result<Option<Planned>> {
    plan(row, current, &Edit::Template, actor, now, &mut new_id)
}

/// Rename and/or (re)date.
pub fn plan_update(
    row: &ProjectRow,
    current: &[MilestoneRow],
    id: &str,
    name: Option<&str>,
    target_date: Option<&str>,
    actor: &Actor,
    now: i64,
) -> Result<Option<Planned>> {
    let edit = Edit::Update { id: id.to_owned(), name: name.map(str::to_owned), target_date: target_date.map(str::to_owned) };
    plan(row, current, &edit, actor, now, &mut new_id)
}

/// Complete or reopen.
pub fn plan_set_done(
    row: &ProjectRow,
    current: &[MilestoneRow],
    id: &str,
    done: bool,
    done_date: Option<&str>,
    actor: &Actor,
    now: i64,
) -> Result<Option<Planned>> {
    let edit = Edit::SetDone { id: id.to_owned(), done, done_date: done_date.map(str::to_owned) };
    plan(row, current, &edit, actor, now, &mut new_id)
}

pub fn plan_move(row: &ProjectRow, current: &[MilestoneRow], id: &str, position: i32, actor: &Actor, now: i64) -> Result<Option<Planned>> {
    plan(row, current, &Edit::Move { id: id.to_owned(), position }, actor, now, &mut new_id)
}

pub fn plan_delete(row: &ProjectRow, current: &[MilestoneRow], id: &str, actor: &Actor, now: i64) -> Result<Option<Planned>> {
    plan(row, current, &Edit::Delete { id: id.to_owned() }, actor, now, &mut new_id)
}

/// Writes a planned change's milestone rows inside its transaction; answers the
/// changes of the photos a deletion untagged.
async fn write(tx: &mut Tx, project_id: &str, writes: &Writes, now: i64) -> Result<Vec<Change>> {
    let mut changes = Vec::new();
    for id in &writes.delete {
        for photo in images::untag_milestone(&mut **tx, id, now).await? {
            changes.push(Change::Photo { id: photo, project_id: project_id.to_owned(), created: false, state: None });
        }
        store::delete(&mut **tx, id).await?;
    }
    for m in &writes.update {
        store::update(&mut **tx, m).await?;
    }
    for m in &writes.insert {
        store::insert(&mut **tx, m).await?;
    }
    Ok(changes)
}

/// Carries out one edit of a project's milestones (run it in the project's turn):
/// the plan as it now stands, and the changes to publish.
pub async fn change(svc: &Services, actor: &Actor, project_id: &str, edit: &Edit) -> Result<(MilestonePlan, Vec<Change>)> {
    for _ in 0..STALE_RETRIES {
        let row = visible(svc, actor, project_id).await?;
        let current = store::list(svc.store.pool(), &row.id).await?;
        let who = timeline::who(svc.store.pool(), actor).await?;
        let now = now_ms();
        let Some(planned) = plan(&row, &current, edit, actor, now, &mut new_id)? else {
            return Ok((plan_view(&row, &current), Vec::new()));
        };
        let mut tx = svc.store.begin_write().await?;
        // Milestones change only with their project's version: a project that moved on
        // since it was read may have other milestones now; plan again on what it has.
        if !crate::store::projects::update_at_version(&mut *tx, &row.id, &planned.project.fields(), now, row.version).await? {
            continue;
        }
        let mut changes = planned.changes;
        changes.extend(write(&mut tx, &row.id, &planned.writes, now).await?);
        if let Some((detail, subject)) = planned.entry {
            changes.push(timeline::record(&mut tx, &row.id, &who, detail, Some(&subject), now).await?);
        }
        tx.commit().await?;
        return Ok((plan_view(&planned.project, &planned.after), changes));
    }
    Err(Error::internal("the project kept changing under a milestone change"))
}

/// The project of a milestone the actor can see: where its change takes its turn.
/// Unknown milestones and those of projects the actor cannot see are answered alike.
pub async fn project_of(svc: &Services, actor: &Actor, id: &str) -> Result<String> {
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let pool = svc.store.pool();
    let m = store::find(pool, id).await?.ok_or_else(not_found)?;
    let project = crate::store::projects::find(pool, &m.project_id).await?.ok_or_else(not_found)?;
    if !policy::can_view_project(actor, project_ref(&project)) {
        return Err(not_found());
    }
    Ok(project.id)
}

/// A project's milestones, for anyone who may see the project.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<MilestonePlan> {
    let project = visible(svc, actor, project_id).await?;
    Ok(plan_view(&project, &store::list(svc.store.pool(), &project.id).await?))
}

/// A project's milestones with no access check: callers decide who may see them (a
/// subscription's turn, a guest's link). "Project not found" when there is none.
pub async fn current(svc: &Services, project_id: &str) -> Result<MilestonePlan> {
    let pool = svc.store.pool();
    let project = crate::store::projects::find(pool, project_id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, projects::PROJECT_NOT_FOUND))?;
    Ok(plan_view(&project, &store::list(pool, &project.id).await?))
}

/// The milestone a photo is tagged with, checked to be one of the project's: `None`
/// for an empty id (no tag).
pub async fn tag_for<'a>(ex: impl Into<Db<'a>>, project_id: &str, raw: Option<&str>) -> Result<Option<String>> {
    let Some(id) = raw.map(str::trim).filter(|id| !id.is_empty()) else { return Ok(None) };
    if !validation::could_be_id(id) {
        return Err(Error::field("milestoneId", NOT_IN_PROJECT));
    }
    match store::find(ex, id).await? {
        Some(m) if m.project_id == project_id => Ok(Some(m.id)),
        _ => Err(Error::field("milestoneId", NOT_IN_PROJECT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Role;

    fn project(mode: ProgressMode) -> ProjectRow {
        ProjectRow {
            title: "Oak Street".into(),
            address: "1 Oak Street".into(),
            progress: 40,
            progress_mode: mode,
            version: 7,
            homeowner_name: None,
            company_name: None,
            ..ProjectRow::example("p", "h", Some("b"))
        }
    }

    /// A builder owns the company of their own id (as a builder from before companies does).
    fn actor(id: &str, role: Role) -> Actor {
        match role {
            Role::Builder => Actor::member(id, id, protocol::CompanyRole::Owner, false),
            _ => Actor::new(id, role),
        }
    }

    fn admin() -> Actor {
        actor("a", Role::Admin)
    }

    fn list(names: &[&str]) -> Vec<MilestoneRow> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| MilestoneRow { position: i as i64, ..new_row("p", (*n).to_owned(), None, 1, format!("m{i}")) })
            .collect()
    }

    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("new{n}")
        }
    }

    fn run(row: &ProjectRow, current: &[MilestoneRow], edit: Edit, who: &Actor) -> Result<Option<Planned>> {
        plan(row, current, &edit, who, 1_780_000_000_000, &mut ids())
    }

    fn names(p: &Planned) -> Vec<(&str, i64)> {
        p.after.iter().map(|m| (m.name.as_str(), m.position)).collect()
    }

    fn message(r: Result<Option<Planned>>) -> (ErrorCode, String) {
        r.err().map(|e| (e.code(), e.api.fields.first().map(|f| f.message.clone()).unwrap_or(e.api.message))).unwrap_or((ErrorCode::Internal, String::new()))
    }

    #[test]
    fn admins_and_the_projects_builder_may_change_milestones_no_one_else() {
        let row = project(ProgressMode::Manual);
        let add = || Edit::Add { name: "Framing".into(), target_date: None };
        assert!(run(&row, &[], add(), &admin()).unwrap().is_some());
        assert!(run(&row, &[], add(), &actor("b", Role::Builder)).unwrap().is_some());
        assert_eq!(message(run(&row, &[], add(), &actor("h", Role::Homeowner))), (ErrorCode::Forbidden, NOT_ALLOWED.into()));
        assert_eq!(message(run(&row, &[], add(), &actor("b2", Role::Builder))).0, ErrorCode::Forbidden);
        assert_eq!(message(run(&row, &[], add(), &actor("h2", Role::Homeowner))).0, ErrorCode::Forbidden);
    }

    #[test]
    fn names_are_trimmed_required_and_bounded_and_dates_are_real_days() {
        let row = project(ProgressMode::Manual);
        let add = |name: &str, date: Option<&str>| Edit::Add { name: name.into(), target_date: date.map(Into::into) };
        let p = run(&row, &[], add("  Framing ", Some("2026-03-31")), &admin()).unwrap().unwrap();
        assert_eq!((p.after[0].name.as_str(), p.after[0].target_date.as_deref()), ("Framing", Some("2026-03-31")));
        assert_eq!(p.writes.insert.len(), 1);
        assert_eq!(message(run(&row, &[], add("   ", None), &admin())), (ErrorCode::Validation, NAME_REQUIRED.into()));
        assert!(run(&row, &[], add(&"x".repeat(120), None), &admin()).is_ok());
        for bad in ["Framing\u{7}", "Roof\nBcc: x", "\u{0}"] {
            assert_eq!(message(run(&row, &[], add(bad, None), &admin())), (ErrorCode::Validation, MILESTONE_NAME.characters_message()), "{bad:?}");
        }
        assert_eq!(message(run(&row, &[], add(&"x".repeat(121), None), &admin())), (ErrorCode::Validation, MILESTONE_NAME.message()));
        for bad in ["2026-02-30", "2026-13-01", "26-01-01", "2026/01/01", "2026-1-01", "tomorrow"] {
            assert_eq!(message(run(&row, &[], add("Roof", Some(bad)), &admin())), (ErrorCode::Validation, BAD_DATE.into()), "{bad}");
        }
        assert_eq!(parse_date("2028-02-29").as_deref(), Some("2028-02-29"), "a leap day");
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(1_780_000_000_000), "2026-05-28");
    }

    #[test]
    fn the_template_appends_the_residential_plan_up_to_fifty() {
        let row = project(ProgressMode::Manual);
        let p = run(&row, &list(&["Survey"]), Edit::Template, &admin()).unwrap().unwrap();
        let got: Vec<&str> = p.after.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(got[0], "Survey");
        assert_eq!(&got[1..], RESIDENTIAL);
        assert_eq!(p.after.last().map(|m| m.position), Some(9));
        let full = list(&["x"; MAX_MILESTONES - 8]);
        assert_eq!(message(run(&row, &full, Edit::Template, &admin())), (ErrorCode::Validation, too_many()));
        let at_limit = list(&["x"; MAX_MILESTONES]);
        let add = Edit::Add { name: "One more".into(), target_date: None };
        assert_eq!(message(run(&row, &at_limit, add, &admin())).1, too_many());
    }

    #[test]
    fn moving_and_deleting_keep_positions_dense() {
        let row = project(ProgressMode::Manual);
        let current = list(&["A", "B", "C", "D"]);
        let p = run(&row, &current, Edit::Move { id: "m3".into(), position: 1 }, &admin()).unwrap().unwrap();
        assert_eq!(names(&p), [("A", 0), ("D", 1), ("B", 2), ("C", 3)]);
        // Only the rows whose position moved are written.
        let mut moved: Vec<&str> = p.writes.update.iter().map(|m| m.name.as_str()).collect();
        moved.sort();
        assert_eq!(moved, ["B", "C", "D"]);
        let p = run(&row, &current, Edit::Move { id: "m0".into(), position: 3 }, &admin()).unwrap().unwrap();
        assert_eq!(names(&p), [("B", 0), ("C", 1), ("D", 2), ("A", 3)]);
        for bad in [-1, 4] {
            assert_eq!(message(run(&row, &current, Edit::Move { id: "m0".into(), position: bad }, &admin())).0, ErrorCode::Validation);
        }
        assert!(run(&row, &current, Edit::Move { id: "m2".into(), position: 2 }, &admin()).unwrap().is_none(), "no move");
        let p = run(&row, &current, Edit::Delete { id: "m1".into() }, &admin()).unwrap().unwrap();
        assert_eq!(names(&p), [("A", 0), ("C", 1), ("D", 2)]);
        assert_eq!(p.writes.delete, ["m1"]);
        assert_eq!(message(run(&row, &current, Edit::Delete { id: "nope".into() }, &admin())), (ErrorCode::NotFound, MILESTONE_NOT_FOUND.into()));
    }

    #[test]
    fn progress_follows_milestones_only_in_milestones_mode() {
        let mut current = list(&["A", "B", "C"]);
        current[0].done_date = Some("2026-01-05".into());
        let done = |id: &str| Edit::SetDone { id: id.into(), done: true, done_date: None };
        let row = project(ProgressMode::Milestones);
        let p = run(&row, &current, done("m1"), &admin()).unwrap().unwrap();
        assert_eq!((p.project.progress, p.project.version, p.project.updated_at), (67, 8, 1_780_000_000_000));
        assert_eq!(p.after[1].done_date.as_deref(), Some("2026-05-28"), "today, UTC");
        assert!(matches!(&p.changes[..], [Change::Project { state: Some(s), .. }, Change::Milestones { version: 8, state: Some(plan), .. }]
            if s.progress == 67 && s.version == 8 && plan.milestones.len() == 3));
        assert!(matches!(&p.entry, Some((TimelineDetail::MilestoneCompleted { name, .. }, id)) if name == "B" && id == "m1"));
        // Manual mode: the version still moves, the progress does not.
        let p = run(&project(ProgressMode::Manual), &current, done("m1"), &admin()).unwrap().unwrap();
        assert_eq!((p.project.progress, p.project.version), (40, 8));
        // Reopening, deleting and adding recount; an empty list is 0%.
        let p = run(&row, &current, Edit::SetDone { id: "m0".into(), done: false, done_date: None }, &admin()).unwrap().unwrap();
        assert_eq!(p.project.progress, 0);
        assert!(matches!(&p.entry, Some((TimelineDetail::MilestoneReopened { .. }, _))));
        let p = run(&row, &current, Edit::Delete { id: "m2".into() }, &admin()).unwrap().unwrap();
        assert_eq!(p.project.progress, 50);
        assert_eq!(p.entry, None);
        assert_eq!(progress_of(&[]), 0);
        let mut eight = list(&["x"; 8]);
        eight[0].done_date = Some("2026-01-01".into());
        assert_eq!(progress_of(&eight), 13, "12.5 rounds up");
        // Completing what is complete with another date corrects it without an entry;
        // reopening what is open changes nothing.
        let redate = Edit::SetDone { id: "m0".into(), done: true, done_date: Some("2026-01-06".into()) };
        let p = run(&row, &current, redate, &admin()).unwrap().unwrap();
        assert_eq!((p.after[0].done_date.as_deref(), p.entry.is_none()), (Some("2026-01-06"), true));
        assert!(run(&row, &current, Edit::SetDone { id: "m1".into(), done: false, done_date: None }, &admin()).unwrap().is_none());
    }

    #[test]
    fn updates_rename_and_redate_only_what_is_given() {
        let row = project(ProgressMode::Manual);
        let mut current = list(&["A"]);
        current[0].target_date = Some("2026-04-01".into());
        let rename = Edit::Update { id: "m0".into(), name: Some(" Slab ".into()), target_date: None };
        let p = run(&row, &current, rename, &admin()).unwrap().unwrap();
        assert_eq!((p.after[0].name.as_str(), p.after[0].target_date.as_deref()), ("Slab", Some("2026-04-01")));
        assert_eq!(p.writes.update[0].updated_at, 1_780_000_000_000);
        let undate = Edit::Update { id: "m0".into(), name: None, target_date: Some(String::new()) };
        assert_eq!(run(&row, &current, undate, &admin()).unwrap().unwrap().after[0].target_date, None);
        let same = Edit::Update { id: "m0".into(), name: Some("A".into()), target_date: Some("2026-04-01".into()) };
        assert!(run(&row, &current, same, &admin()).unwrap().is_none());
        let blank = Edit::Update { id: "m0".into(), name: Some(" ".into()), target_date: None };
        assert_eq!(message(run(&row, &current, blank, &admin())).1, NAME_REQUIRED);
    }
}
