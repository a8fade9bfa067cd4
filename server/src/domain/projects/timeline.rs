//! A project's timeline (docs/FEATURES.md, "The project's story"): what happened, when,
//! and who did it, newest first.
//!
//! Entries are written by the use case whose change they record, inside that change's
//! transaction (`record`), so the timeline never disagrees with the project: a status
//! change that fails writes no entry, one that commits always has one. They travel as
//! `Change::Timeline` through the one change path like every other change.
//!
//! Reading is by page, 20 at a time, with an opaque cursor `<created_at>.<id>` of the
//! last entry read: the next page is everything strictly older, so entries added
//! meanwhile (always newer) neither repeat nor push older ones out of reach.

use std::collections::HashSet;

use protocol::{ErrorCode, Role, TimelineDetail, TimelineEntry, TimelinePhoto};

use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use super::access::{project_ref, visible, NO_ACCESS};
use crate::domain::shared::services::Services;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::activity::{self, ActivityRow};
use crate::store::users::UserRow;
use crate::store::{images, projects, users, Db, Store, Tx};

/// Entries per page.
pub const PAGE: usize = 20;
/// Photos a site visit's entry shows: a strip of thumbnails, not the gallery.
pub const STRIP: usize = 8;
/// A site visit's photos remembered by its entry, so the strip can still show eight
/// when some of the first are deleted later (a batch holds at most this many).
pub const REMEMBERED: usize = crate::domain::shared::validation::MAX_FILES;
pub const INVALID_CURSOR: &str = "Invalid timeline cursor.";

/// Who did something, as an entry keeps them: by display name (never an email, since
/// guests read the timeline) and role, so it stays readable after the account goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub id: Option<String>,
    pub name: Option<String>,
    pub role: Option<Role>,
}

impl Who {
    pub fn of(actor: &Actor, user: Option<&UserRow>) -> Who {
        Who { id: Some(actor.id.clone()), name: user.and_then(name_of), role: Some(actor.role) }
    }
}

/// A person's display name from their names alone, with their company beside it when
/// they have one (`views::byline`); `None` rather than their email.
pub fn name_of(user: &UserRow) -> Option<String> {
    name_from(user.first_name.as_deref(), user.last_name.as_deref(), user.name.as_deref())
        .map(|name| views::byline(&name, user.company_name.as_deref()))
}

/// As `name_of`, from the name fields alone.
pub fn name_from(first: Option<&str>, last: Option<&str>, name: Option<&str>) -> Option<String> {
    let name = views::display_name(first, last, name, "");
    (!name.is_empty()).then_some(name)
}

/// Reads the actor's name for the entries of a change they make.
pub async fn who<'a>(ex: impl Into<Db<'a>>, actor: &Actor) -> Result<Who> {
    let user = users::find_by_id(ex, &actor.id).await?;
    Ok(Who::of(actor, user.as_ref()))
}

/// The stored kind of an entry: its detail's `type`.
pub fn kind(detail: &TimelineDetail) -> &'static str {
    match detail {
        TimelineDetail::ProjectCreated => "project_created",
        TimelineDetail::StatusChanged { .. } => "status_changed",
        TimelineDetail::ProgressChanged { .. } => "progress_changed",
        TimelineDetail::MilestoneCompleted { .. } => "milestone_completed",
        TimelineDetail::MilestoneReopened { .. } => "milestone_reopened",
        TimelineDetail::PhotosAdded { .. } => "photos_added",
        TimelineDetail::Comment { .. } => "comment",
        TimelineDetail::MarkedUp { .. } => "marked_up",
    }
}

pub fn photo(id: &str) -> TimelinePhoto {
    TimelinePhoto { id: id.to_owned(), thumb_url: views::media_url(id, "thumb") }
}

/// A new entry. Ids are time-ordered (UUIDv7), so entries of one millisecond still
/// sort in the order they were written.
pub fn entry(project_id: &str, who: &Who, detail: &TimelineDetail, subject_id: Option<&str>, now: i64) -> Result<ActivityRow> {
    Ok(ActivityRow {
        id: uuid::Uuid::now_v7().to_string(),
        project_id: project_id.to_owned(),
        actor_id: who.id.clone(),
        actor_name: who.name.clone(),
        actor_role: who.role,
        kind: kind(detail).to_owned(),
        detail: serde_json::to_string(detail).map_err(Error::internal)?,
        subject_id: subject_id.map(str::to_owned),
        created_at: now,
    })
}

/// Writes an entry inside the transaction of the change it records; answers the
/// change that announces it once that transaction commits.
pub async fn record(
    tx: &mut Tx,
    project_id: &str,
    who: &Who,
    detail: TimelineDetail,
    subject_id: Option<&str>,
    now: i64,
) -> Result<Change> {
    let row = entry(project_id, who, &detail, subject_id, now)?;
    activity::insert(&mut **tx, &row).await?;
    // What this instance announces: the entry as a page would show it now (the photos
    // it names were all just read in this transaction).
    let state = view(&row).and_then(|e| shown(e, |_| true));
    Ok(Change::Timeline { id: row.id, project_id: row.project_id, state: state.map(Box::new) })
}

/// A stored entry as the wire has it, before its photos are checked; `None` (logged)
/// for a detail this build cannot read.
pub fn view(row: &ActivityRow) -> Option<TimelineEntry> {
    let detail = match serde_json::from_str::<TimelineDetail>(&row.detail) {
        Ok(detail) => detail,
        Err(err) => {
            tracing::error!(entry = %row.id, error = %err, "a timeline entry's detail does not parse; it is skipped");
            return None;
        }
    };
    Some(TimelineEntry {
        id: row.id.clone(),
        project_id: row.project_id.clone(),
        actor_name: row.actor_name.clone(),
        actor_role: row.actor_role,
        created_at: row.created_at,
        detail,
    })
}

/// The photos an entry names (a site visit's strip, a comment's photo): what is
/// checked to still exist.
pub fn photo_ids(detail: &TimelineDetail) -> Vec<String> {
    match detail {
        TimelineDetail::PhotosAdded { photos, .. } => photos.iter().map(|p| p.id.clone()).collect(),
        TimelineDetail::Comment { photo, .. } | TimelineDetail::MarkedUp { photo } => vec![photo.id.clone()],
        _ => Vec::new(),
    }
}

/// An entry as it is shown, given which photos still exist: a site visit's strip lists
/// the first `STRIP` of its photos still in the project (its count stays what was
/// added); a comment on or markup of a photo that is gone is not shown (its entry is deleted with
/// the comment, this covers the moment in between).
pub fn shown(mut entry: TimelineEntry, exists: impl Fn(&str) -> bool) -> Option<TimelineEntry> {
    match &mut entry.detail {
        TimelineDetail::PhotosAdded { photos, .. } => {
            photos.retain(|p| exists(&p.id));
            photos.truncate(STRIP);
        }
        TimelineDetail::Comment { photo, .. } | TimelineDetail::MarkedUp { photo } if !exists(&photo.id) => return None,
        _ => {}
    }
    Some(entry)
}

/// What a viewer who sees only part of a project may read of its timeline: which
/// photos they see, and whether they see comments and markup at all (a report made
/// without them does not show them).
#[derive(Clone, Copy)]
pub struct Seen<F: Fn(&str) -> bool> {
    pub photo: F,
    pub comments: bool,
    pub markup: bool,
}

/// An entry as such a viewer reads it, or `None` when it is none of theirs: a site
/// visit's strip keeps only the photos they see (and is left out when none is); a
/// comment or markup entry shows only on a photo they see, and only when they see
/// comments or markup. The one rule for guests' timelines and live events and for
/// every report's "what changed" (its PDF, its maker's view, its link's guests).
pub fn seen_by<F: Fn(&str) -> bool>(mut entry: TimelineEntry, seen: &Seen<F>) -> Option<TimelineEntry> {
    match &mut entry.detail {
        TimelineDetail::PhotosAdded { photos, .. } => {
            photos.retain(|p| (seen.photo)(&p.id));
            (!photos.is_empty()).then_some(entry)
        }
        TimelineDetail::Comment { photo, .. } => (seen.comments && (seen.photo)(&photo.id)).then_some(entry),
        TimelineDetail::MarkedUp { photo } => (seen.markup && (seen.photo)(&photo.id)).then_some(entry),
        TimelineDetail::ProjectCreated
        | TimelineDetail::StatusChanged { .. }
        | TimelineDetail::ProgressChanged { .. }
        | TimelineDetail::MilestoneCompleted { .. }
        | TimelineDetail::MilestoneReopened { .. } => Some(entry),
    }
}

pub fn cursor(created_at: i64, id: &str) -> String {
    format!("{created_at}.{id}")
}

/// A cursor this module made: `<created_at>.<id>`, anything else refused.
pub fn parse_cursor(raw: &str) -> Result<(i64, String)> {
    let bad = || Error::new(ErrorCode::BadRequest, INVALID_CURSOR);
    let (at, id) = raw.split_once('.').ok_or_else(bad)?;
    let at: i64 = at.parse().map_err(|_| bad())?;
    let id_ok = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if at < 0 || !id_ok {
        return Err(bad());
    }
    Ok((at, id.to_owned()))
}

/// Entries as shown, checking every photo they name in one query.
async fn shown_rows(store: &Store, project_id: &str, rows: &[ActivityRow]) -> Result<Vec<TimelineEntry>> {
    let entries: Vec<TimelineEntry> = rows.iter().filter_map(view).collect();
    let named: Vec<String> = entries.iter().flat_map(|e| photo_ids(&e.detail)).collect::<HashSet<_>>().into_iter().collect();
    let existing: HashSet<String> = images::existing_of_project(store.pool(), project_id, &named).await?.into_iter().collect();
    Ok(entries.into_iter().filter_map(|e| shown(e, |id| existing.contains(id))).collect())
}

/// A page of a project's timeline, newest first, after the cursor `before` (a previous
/// page's `next`), and the cursor of the page after it (`None` at the first entry).
/// No access check: callers decide who may read it (`list` for users; guests' links).
pub async fn page(svc: &Services, project_id: &str, before: Option<&str>) -> Result<(Vec<TimelineEntry>, Option<String>)> {
    let before = before.map(parse_cursor).transpose()?;
    let limit = PAGE as i64 + 1;
    let mut rows = activity::page(svc.store.pool(), project_id, before.as_ref().map(|(at, id)| (*at, id.as_str())), limit).await?;
    let more = rows.len() > PAGE;
    rows.truncate(PAGE);
    // The cursor is the last row read, shown or not: the next page starts after it.
    let next = rows.last().filter(|_| more).map(|r| cursor(r.created_at, &r.id));
    Ok((shown_rows(&svc.store, project_id, &rows).await?, next))
}

/// A page of the timeline of a project the actor may read.
pub async fn list(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    before: Option<&str>,
) -> Result<(Vec<TimelineEntry>, Option<String>)> {
    let project = visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::ReadTimeline, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
    page(svc, &project.id, before).await
}

/// One entry as shown now, for another instance's announcement of it; `None` when it
/// (or its project) is gone or is not to be shown.
pub async fn current_in(store: &Store, id: &str) -> Result<Option<TimelineEntry>> {
    let Some(row) = activity::find(store.pool(), id).await? else { return Ok(None) };
    if projects::find(store.pool(), &row.project_id).await?.is_none() {
        return Ok(None);
    }
    Ok(shown_rows(store, &row.project_id, std::slice::from_ref(&row)).await?.pop())
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::ProjectStatus;

    fn entry_of(detail: TimelineDetail) -> TimelineEntry {
        TimelineEntry { id: "e".into(), project_id: "p".into(), actor_name: None, actor_role: None, created_at: 5, detail }
    }

    #[test]
    fn cursors_round_trip_and_anything_else_is_refused() {
        let c = cursor(1_700_000_000_123, "0190a0b4-7d2e-7abc-8def-0123456789ab");
        assert_eq!(parse_cursor(&c).unwrap(), (1_700_000_000_123, "0190a0b4-7d2e-7abc-8def-0123456789ab".to_owned()));
        for bad in ["", "123", ".abc", "abc.def", "-5.abc", "5.", "5.a b", "5.a'--", &format!("5.{}", "a".repeat(65))] {
            let err = parse_cursor(bad).unwrap_err();
            assert_eq!((err.code(), err.api.message.as_str()), (ErrorCode::BadRequest, INVALID_CURSOR), "{bad:?}");
        }
    }

    #[test]
    fn a_strip_shows_the_first_eight_photos_still_there() {
        let photos: Vec<TimelinePhoto> = (0..12).map(|i| photo(&format!("i{i}"))).collect();
        let detail = TimelineDetail::PhotosAdded { count: 12, photos, note: Some("Framing".into()) };
        let gone = ["i0", "i3"];
        let shown = shown(entry_of(detail), |id| !gone.contains(&id)).unwrap();
        let TimelineDetail::PhotosAdded { count, photos, note } = shown.detail else { panic!() };
        let ids: Vec<&str> = photos.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["i1", "i2", "i4", "i5", "i6", "i7", "i8", "i9"]);
        assert_eq!((count, note.as_deref()), (12, Some("Framing")), "the count is what was added");
        assert_eq!(photos[0].thumb_url, "/media/images/i1/thumb");
    }

    #[test]
    fn a_comment_on_a_photo_that_is_gone_is_not_shown() {
        let comment = TimelineDetail::Comment { comment_id: "c".into(), excerpt: "Nice".into(), photo: photo("i1") };
        assert!(shown(entry_of(comment.clone()), |_| true).is_some());
        assert!(shown(entry_of(comment), |_| false).is_none());
        let status = TimelineDetail::StatusChanged { from: ProjectStatus::Planning, to: ProjectStatus::InProgress };
        assert!(shown(entry_of(status), |_| false).is_some(), "entries without photos are always shown");
    }

    #[test]
    fn entries_keep_the_actors_name_never_an_email_and_round_trip_their_detail() {
        let mut user = UserRow::example("u", Role::Builder);
        let who = Who::of(&Actor::member("u", "u", protocol::CompanyRole::Owner, false), Some(&user));
        assert_eq!(who.name, user.name.clone());
        user.name = None;
        user.first_name = None;
        user.last_name = None;
        assert_eq!(name_of(&user), None, "no names: no name, not the email");
        let detail = TimelineDetail::ProgressChanged { from: 40, to: 55 };
        let row = entry("p", &who, &detail, None, 9).unwrap();
        assert_eq!((row.kind.as_str(), row.actor_role), ("progress_changed", Some(Role::Builder)));
        let back = view(&row).unwrap();
        assert_eq!((back.detail, back.created_at, back.actor_role), (detail, 9, Some(Role::Builder)));
        assert!(view(&ActivityRow { detail: "{".into(), ..row }).is_none());
    }
}
