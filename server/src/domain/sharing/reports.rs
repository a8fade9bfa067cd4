//! Progress reports (docs/FEATURES.md, "Progress reports"): a project's photos,
//! milestones and timeline for a period, as a PDF to hand to a lender, an inspector or
//! the family.
//!
//! What a report holds is decided here, once, as a `ReportContent`: the preview shows
//! it, and the generator lays it out (`media::report`) on the image workers, off the
//! live path, one report at a time per instance. Its row is written in the project's
//! turn like every change and moves on as photos are placed, so every open project
//! page, on every instance, watches it progress; the finished PDF is stored beside
//! the photos.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use protocol::{
    Comment, ErrorCode, GuestLink, MakeReport, PreviewReport, Report, ReportContent, ReportGrouping, ReportMilestone,
    ReportMilestoneState, ReportOptions, ReportPairView, ReportPhoto, ReportPhotos, ReportSection, ReportStatus, Shape,
    ShareReport, SharedReport, TimelineEntry,
};
use tokio::sync::mpsc;

use crate::domain::shared::changes::Change;
use crate::domain::media::markup;
use crate::domain::projects::milestones::{day_of, parse_date};
use crate::domain::shared::policy::{self, Action, Actor, Guest, LinkedRef, ReportRef, Target};
use crate::domain::projects::{project_ref, visible};
use crate::domain::shared::services::Services;
use crate::domain::projects::timeline;
use crate::domain::shared::turns::Turns;
use crate::domain::shared::views;
use crate::domain::sharing::stored::{options_of, photo_ids, stored_content};
use crate::error::{Error, Result};
use crate::media::report::{self as pdf, layout, PhotoSource};
use crate::media::{extension_for, photo_keys};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::reports::{self, ReportRow};
use crate::mail::templates::{self, ReportMail};
use crate::mail::Attachment;
use crate::store::{comments, guest_links, images, milestones, new_id, now_ms, users, Store, StoreError};

pub const NOT_ALLOWED: &str = "You don't have permission to make reports for this project.";
pub const FAVOURITES_ONLY: &str = "Homeowners can make a report of their favourites.";
pub const BAD_PER_PAGE: &str = "Choose 1, 2 or 4 photos per page.";
pub const BAD_DAY: &str = "Enter a date as YYYY-MM-DD.";
pub const BAD_PERIOD: &str = "The period must end on or after its first day.";
pub const NOTHING_PICKED: &str = "Pick at least one photo.";
pub const NO_PHOTOS: &str = "No photos match these choices.";
pub const TOO_MANY_PHOTOS: &str = "A report holds at most 500 photos. Choose a shorter period or fewer photos.";
pub const TOO_MANY_PAIRS: &str = "A report holds at most 20 before/after pairs.";
pub const PAIR_NOT_HERE: &str = "Both photos of a pair must be among the project's photos.";
pub const NOT_A_MILESTONE: &str = "Choose milestones of this project.";
pub const BUSY: &str = "A report of this project is being made. Try again when it is ready.";
pub use super::stored::REPORT_NOT_FOUND;
pub const NOT_READY: &str = "This report is not ready yet.";
pub const NOT_ALLOWED_DELETE: &str = "Only the report's maker or an administrator can delete it.";
pub const NOT_ALLOWED_SHARE: &str = "You don't have permission to share this report.";
pub const NOT_ALLOWED_MAIL: &str = "Only an administrator or the project's builder can mail a report.";
pub const NO_HOMEOWNER_MAIL: &str = "The homeowner has no email address to send to.";
/// A PDF larger than this is not attached to a mail (many mail servers refuse more
/// than 10–25 MB); the mail links to it instead.
pub const MAIL_ATTACH_MAX: i64 = 10 * 1024 * 1024;
/// What a report whose instance stopped while making it says.
pub const INTERRUPTED: &str = "Making this report was interrupted. Make it again.";
pub const FAILED: &str = "This report could not be made. Make it again; if it fails again, tell your administrator.";

/// Photos one report places: 500 at 4 a page is 125 pages, far more than a draw
/// request needs, and keeps one report's PDF well under ~150 MB.
pub const MAX_PHOTOS: usize = 500;
pub const MAX_PAIRS: usize = 20;
/// Ids in a hand-picked set or a milestone filter: more than the photo cap is never needed.
const MAX_IDS: usize = 1_000;
/// A preview names the photos of its first pages only, and says how many there are.
pub const PREVIEW_PHOTOS: usize = 12;
const PREVIEW_CHANGES: usize = 30;
/// Timeline entries a report's closing pages list, newest kept.
const MAX_CHANGES: usize = 400;
/// A report being made moves at least this often; one that has not is its instance's
/// that stopped.
pub const STALE_AFTER: Duration = Duration::from_secs(180);
/// How often a report's progress is written and announced.
const PROGRESS_EVERY: Duration = Duration::from_millis(400);
/// How often a report being made (or waiting for the worker) says it is still alive.
const HEARTBEAT: Duration = Duration::from_secs(30);

/// What a report shows, the photo on its cover, and where each photo's display
/// image is stored.
#[derive(Debug, Clone)]
pub struct Plan {
    pub content: ReportContent,
    pub cover: Option<String>,
    pub display_keys: HashMap<String, String>,
}

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, REPORT_NOT_FOUND)
}

/// The maker's choices, checked: the period's first and last days.
pub fn check(options: &ReportOptions) -> Result<(Option<String>, Option<String>)> {
    if ![1, 2, 4].contains(&options.per_page) {
        return Err(Error::field("perPage", BAD_PER_PAGE));
    }
    let day = |field: &str, raw: &Option<String>| match raw.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(None),
        Some(d) => parse_date(d).map(Some).ok_or_else(|| Error::field(field, BAD_DAY)),
    };
    let (from, to) = (day("from", &options.from)?, day("to", &options.to)?);
    if let (Some(f), Some(t)) = (&from, &to) {
        if t < f {
            return Err(Error::field("to", BAD_PERIOD));
        }
    }
    if options.photos == ReportPhotos::Picked && options.picked.is_empty() {
        return Err(Error::field("picked", NOTHING_PICKED));
    }
    if options.picked.len() > MAX_IDS || options.milestone_ids.len() > MAX_IDS {
        return Err(Error::field("photos", TOO_MANY_PHOTOS));
    }
    if options.pairs.len() > MAX_PAIRS {
        return Err(Error::field("pairs", TOO_MANY_PAIRS));
    }
    Ok((from, to))
}

/// Whether the actor may make a report with these choices: the homeowner, of their
/// favourites only.
pub fn may_make(actor: &Actor, project: &ProjectRow, options: &ReportOptions) -> Result<()> {
    let target = Target::Project(project_ref(project));
    if policy::allows(actor, Action::MakeReport, target) {
        return Ok(());
    }
    if !policy::allows(actor, Action::MakeFavouritesReport, target) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    if options.photos != ReportPhotos::Favourites || !options.pairs.is_empty() {
        return Err(Error::field("photos", FAVOURITES_ONLY));
    }
    Ok(())
}

/// The day a photo shows (taken, else uploaded), as the gallery dates it.
fn shown_day(photo: &ImageRow) -> String {
    day_of(shown_at(photo))
}

fn shown_at(photo: &ImageRow) -> i64 {
    photo.taken_at.unwrap_or(photo.created_at)
}

/// Where each milestone stands on `today` (`YYYY-MM-DD`): the first not done is current.
pub fn milestone_states(plan: &[crate::store::milestones::MilestoneRow], today: &str) -> Vec<ReportMilestone> {
    let current = plan.iter().position(|m| m.done_date.is_none());
    plan.iter()
        .enumerate()
        .map(|(i, m)| {
            let done = m.done_date.is_some();
            let late = !done && m.target_date.as_deref().is_some_and(|t| t < today);
            let state = if done {
                ReportMilestoneState::Done
            } else if Some(i) == current {
                ReportMilestoneState::Current
            } else if late {
                ReportMilestoneState::Late
            } else {
                ReportMilestoneState::Upcoming
            };
            ReportMilestone { name: m.name.clone(), state, late, target_date: m.target_date.clone(), done_date: m.done_date.clone() }
        })
        .collect()
}

/// The chosen photos in sections, oldest first: by site visit (photos sent together;
/// one without a visit stands on its own day) or by milestone in the plan's order,
/// untagged last.
pub fn group(chosen: &[ImageRow], grouping: ReportGrouping, plan: &[crate::store::milestones::MilestoneRow]) -> Vec<(Option<String>, Vec<usize>)> {
    let mut sections: Vec<(String, Vec<usize>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, photo) in chosen.iter().enumerate() {
        let key = match grouping {
            ReportGrouping::Visit => match &photo.batch_id {
                Some(batch) => format!("v:{batch}"),
                None => format!("d:{}", shown_day(photo)),
            },
            ReportGrouping::Milestone => {
                photo.milestone_id.as_ref().filter(|m| plan.iter().any(|p| &p.id == *m)).map_or("m:".to_owned(), |m| format!("m:{m}"))
            }
        };
        match index.get(&key) {
            Some(at) => sections[*at].1.push(i),
            None => {
                index.insert(key.clone(), sections.len());
                sections.push((key, vec![i]));
            }
        }
    }
    if grouping == ReportGrouping::Milestone {
        let rank = |key: &str| key.strip_prefix("m:").and_then(|id| plan.iter().position(|m| m.id == id)).unwrap_or(usize::MAX);
        sections.sort_by_key(|(key, _)| rank(key));
    }
    sections
        .into_iter()
        .map(|(key, photos)| {
            let milestone = key.strip_prefix("m:").and_then(|id| plan.iter().find(|m| m.id == id)).map(|m| m.name.clone());
            (milestone, photos)
        })
        .collect()
}

async fn report_photo(svc: &Services, row: &ImageRow, options: &ReportOptions) -> Result<ReportPhoto> {
    let comments: Vec<Comment> = if options.comments && row.comment_count > 0 {
        comments::list_for_image(svc.store.pool(), &row.id).await?.iter().map(views::comment).collect()
    } else {
        Vec::new()
    };
    let shapes: Vec<Shape> =
        if options.markup && row.markup_count > 0 { markup::shapes_of(svc, &row.id).await?.1 } else { Vec::new() };
    Ok(ReportPhoto { photo: views::image(row), comments, shapes })
}

/// What changed in the period, oldest first (at most `MAX_CHANGES`, the newest).
async fn changes(svc: &Services, project_id: &str, from: Option<i64>, to: Option<i64>) -> Result<Vec<TimelineEntry>> {
    let mut entries = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let (page, next) = timeline::page(svc, project_id, before.as_deref()).await?;
        let older_than_period = page.last().is_some_and(|e| from.is_some_and(|f| e.created_at < f));
        entries.extend(
            page.into_iter().filter(|e| from.is_none_or(|f| e.created_at >= f) && to.is_none_or(|t| e.created_at < t)),
        );
        if older_than_period || entries.len() >= MAX_CHANGES {
            break;
        }
        match next {
            Some(cursor) => before = Some(cursor),
            None => break,
        }
    }
    entries.truncate(MAX_CHANGES);
    entries.reverse();
    Ok(entries)
}

fn day_start(day: &str) -> Option<i64> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(day, format).ok().map(|d| d.midnight().assume_utc().unix_timestamp() * 1000)
}

/// Everything a report with these choices shows, as of `now`.
pub async fn assemble(svc: &Services, actor: &Actor, project: &ProjectRow, options: &ReportOptions, now: i64) -> Result<Plan> {
    let (from, to) = check(options)?;
    let pool = svc.store.pool();
    let plan = milestones::list(pool, &project.id).await?;
    if options.milestone_ids.iter().any(|id| !plan.iter().any(|m| &m.id == id)) {
        return Err(Error::field("milestoneIds", NOT_A_MILESTONE));
    }
    let all = images::list_for_project(pool, &project.id).await?;
    let favourites: HashSet<String> = if options.photos == ReportPhotos::Favourites {
        images::favourite_ids(pool, &actor.id, &project.id).await?.into_iter().collect()
    } else {
        HashSet::new()
    };
    let picked: HashSet<&str> = options.picked.iter().map(String::as_str).collect();
    let milestone_ids: HashSet<&str> = options.milestone_ids.iter().map(String::as_str).collect();
    let mut chosen: Vec<ImageRow> = all
        .iter()
        .filter(|p| {
            let day = shown_day(p);
            from.as_deref().is_none_or(|f| day.as_str() >= f)
                && to.as_deref().is_none_or(|t| day.as_str() <= t)
                && (milestone_ids.is_empty() || p.milestone_id.as_deref().is_some_and(|m| milestone_ids.contains(m)))
                && match options.photos {
                    ReportPhotos::All => true,
                    ReportPhotos::Favourites => favourites.contains(&p.id),
                    ReportPhotos::Picked => picked.contains(p.id.as_str()),
                }
        })
        .cloned()
        .collect();
    if chosen.len() > MAX_PHOTOS {
        return Err(Error::field("photos", TOO_MANY_PHOTOS));
    }
    // A report reads forward in time.
    chosen.sort_by(|a, b| shown_at(a).cmp(&shown_at(b)).then(a.created_at.cmp(&b.created_at)).then(a.id.cmp(&b.id)));

    let by_id: HashMap<&str, &ImageRow> = all.iter().map(|p| (p.id.as_str(), p)).collect();
    let mut pairs = Vec::with_capacity(options.pairs.len());
    for pair in &options.pairs {
        let (Some(before), Some(after)) = (by_id.get(pair.before.as_str()), by_id.get(pair.after.as_str())) else {
            return Err(Error::field("pairs", PAIR_NOT_HERE));
        };
        pairs.push(ReportPairView { before: report_photo(svc, before, options).await?, after: report_photo(svc, after, options).await? });
    }

    let mut sections = Vec::new();
    for (milestone, members) in group(&chosen, options.group_by, &plan) {
        let first = &chosen[members[0]];
        let mut photos = Vec::with_capacity(members.len());
        for i in &members {
            photos.push(report_photo(svc, &chosen[*i], options).await?);
        }
        let note = members.iter().find_map(|i| chosen[*i].visit_note.clone()).filter(|n| !n.trim().is_empty());
        sections.push(ReportSection {
            milestone: if options.group_by == ReportGrouping::Milestone { milestone } else { None },
            date: Some(shown_at(first)),
            note: if options.group_by == ReportGrouping::Visit { note } else { None },
            photos,
        });
    }

    // The period as chosen, or as its photos span it.
    let from_day = from.clone().or_else(|| chosen.first().map(shown_day));
    let to_day = to.clone().or_else(|| chosen.last().map(shown_day));
    // What changed follows the period the report states (its photos' span when no
    // days were chosen), so its closing pages never reach outside its cover's dates.
    let changes_from = from_day.as_deref().and_then(day_start);
    let changes_to = to_day.as_deref().and_then(day_start).map(|t| t + 24 * 60 * 60 * 1000);
    let mut content = ReportContent {
        project: views::project(project),
        from: from_day,
        to: to_day,
        generated_at: now,
        per_page: options.per_page,
        milestones: milestone_states(&plan, &day_of(now)),
        sections,
        pairs,
        changes: changes(svc, &project.id, changes_from, changes_to).await?,
    };
    cut_to_itself(&mut content, options);
    let display_keys = all.iter().map(|p| (p.id.clone(), photo_keys(&p.storage_key, extension_for(&p.content_type)).display)).collect();
    Ok(Plan { content, cover: project.thumbnail_image_id.clone().filter(|id| by_id.contains_key(id.as_str())), display_keys })
}

/// What a report with these choices would show: its first pages' photos, and how many
/// photos and pages it would have.
pub async fn preview(svc: &Services, actor: &Actor, input: &PreviewReport) -> Result<(ReportContent, i32, i32)> {
    let project = visible(svc, actor, &input.project_id).await?;
    may_make(actor, &project, &input.options)?;
    let Plan { mut content, .. } = assemble(svc, actor, &project, &input.options, now_ms()).await?;
    let photos = layout::photo_count(&content);
    let pages = layout::paginate(&content).len();
    let mut room = PREVIEW_PHOTOS;
    for section in &mut content.sections {
        section.photos.truncate(room);
        room -= section.photos.len();
    }
    content.sections.retain(|s| !s.photos.is_empty());
    content.pairs.truncate(2);
    content.changes.truncate(PREVIEW_CHANGES);
    Ok((content, i32::try_from(photos).unwrap_or(i32::MAX), i32::try_from(pages).unwrap_or(i32::MAX)))
}

/// A report as its list shows it.
pub async fn view(store: &Store, row: &ReportRow) -> Result<Report> {
    let options = options_of(row)?;
    let created_by = match &row.created_by {
        Some(id) => users::find_by_id(store.pool(), id).await?.map(|u| views::summary(&u)),
        None => None,
    };
    Ok(Report {
        id: row.id.clone(),
        project_id: row.project_id.clone(),
        options,
        status: row.status,
        done: row.done,
        total: row.total,
        pages: row.pages,
        byte_size: row.byte_size,
        error: row.error.clone(),
        created_at: row.created_at,
        created_by,
        finished_at: row.finished_at,
        mailed_at: row.mailed_at,
        mailed_to: row.mailed_to.clone(),
    })
}

/// A report as it reads now, for an instance publishing another's change.
pub async fn current_in(store: &Store, id: &str) -> Result<Option<Report>> {
    match reports::find(store.pool(), id).await? {
        Some(row) => Ok(Some(view(store, &row).await?)),
        None => Ok(None),
    }
}

/// Starts a report: its row in the project's turn (one being made per project), then
/// its PDF on the image workers; the project's open pages watch it move on.
pub async fn make<T: Turns>(svc: &Services, turns: &T, actor: &Actor, input: &MakeReport) -> Result<Report> {
    let project = visible(svc, actor, &input.project_id).await?;
    may_make(actor, &project, &input.options)?;
    let now = now_ms();
    let plan = assemble(svc, actor, &project, &input.options, now).await?;
    let total = layout::photo_count(&plan.content);
    if total == 0 {
        return Err(Error::field("photos", NO_PHOTOS));
    }
    let options = serde_json::to_string(&input.options).map_err(|e| Error::internal(format!("report options: {e}")))?;
    let content = serde_json::to_string(&plan.content).map_err(|e| Error::internal(format!("report content: {e}")))?;
    let row = ReportRow {
        id: new_id(),
        project_id: project.id.clone(),
        created_by: Some(actor.id.clone()),
        options,
        status: ReportStatus::Generating,
        done: 0,
        total: i32::try_from(total).unwrap_or(i32::MAX),
        pages: None,
        byte_size: None,
        storage_key: None,
        error: None,
        created_at: now,
        updated_at: now,
        finished_at: None,
        mailed_at: None,
        mailed_to: None,
    };
    let (store, step_row) = (svc.store.clone(), row.clone());
    let step = Box::pin(async move {
        match reports::insert(store.pool(), &step_row, &content).await {
            Err(StoreError::UniqueViolation) => return Err(Error::new(ErrorCode::RateLimited, BUSY)),
            other => other?,
        }
        let report = view(&store, &step_row).await?;
        Ok((report, vec![Change::Report { id: step_row.id.clone(), project_id: step_row.project_id.clone() }]))
    });
    let report = turns.take(&project.id, step).await?;
    tokio::spawn(generate(svc.clone(), turns.clone(), row, plan));
    Ok(report)
}

/// The photos in the order the pages ask for them, with their markup.
fn photo_order(plan: &Plan) -> Vec<(String, Vec<Shape>)> {
    let cover = plan.cover.iter().map(|id| (id.clone(), Vec::new()));
    let sections = plan.content.sections.iter().flat_map(|s| s.photos.iter()).map(|p| (p.photo.id.clone(), p.shapes.clone()));
    let pairs = plan
        .content
        .pairs
        .iter()
        .flat_map(|p| [&p.before, &p.after])
        .map(|p| (p.photo.id.clone(), p.shapes.clone()));
    cover.chain(sections).chain(pairs).collect()
}

/// A photo on its way to the report: the display image and the markup to draw on it.
struct Incoming {
    id: String,
    display: Option<Bytes>,
    shapes: Vec<Shape>,
}

/// The generator's side of the photo stream: takes each photo as its page asks, draws
/// its markup on, and reports what is placed.
struct Feed {
    photos: mpsc::Receiver<Incoming>,
    placed: mpsc::UnboundedSender<usize>,
    /// Set when the report was deleted while it was made: the rest is skipped.
    dropped: Arc<AtomicBool>,
}

impl PhotoSource for Feed {
    fn jpeg(&mut self, photo_id: &str) -> Option<Vec<u8>> {
        if self.dropped.load(Ordering::Relaxed) {
            return None;
        }
        // The feeder sends in page order; anything else would be a bug, skipped past.
        while let Some(next) = self.photos.blocking_recv() {
            if next.id != photo_id {
                tracing::error!(expected = photo_id, got = %next.id, "a report's photos arrived out of order");
                continue;
            }
            let display = next.display?;
            if next.shapes.is_empty() {
                return Some(display.to_vec());
            }
            return match crate::media::markup::flatten(&display, &next.shapes) {
                Ok(flat) => Some(flat),
                Err(err) => {
                    tracing::warn!(photo = photo_id, error = %err, "a report photo's markup could not be drawn; shown without it");
                    Some(display.to_vec())
                }
            };
        }
        None
    }

    fn placed(&mut self, done: usize) {
        let _ = self.placed.send(done);
    }
}

async fn generate<T: Turns>(svc: Services, turns: T, row: ReportRow, plan: Plan) {
    let started = std::time::Instant::now();
    let (id, project_id) = (row.id.clone(), row.project_id.clone());
    let outcome = run(&svc, &turns, &row, plan).await;
    let (svc2, id2) = (svc.clone(), id.clone());
    let step = match outcome {
        Ok((pages, key, size)) => {
            tracing::info!(report = %id, pages, bytes = size, seconds = started.elapsed().as_secs_f64(), "report made");
            Box::pin(async move {
                let pages = i32::try_from(pages).unwrap_or(i32::MAX);
                if !reports::finish(svc2.store.pool(), &id2, pages, size, &key, now_ms()).await? {
                    // Deleted while it was made: its PDF goes too.
                    svc2.delete_files(std::slice::from_ref(&key)).await;
                    return Ok(((), Vec::new()));
                }
                Ok(((), vec![Change::Report { id: id2.clone(), project_id: project_id.clone() }]))
            }) as crate::domain::shared::turns::Step<()>
        }
        Err(err) => {
            err.log("making a report");
            Box::pin(async move {
                reports::fail(svc2.store.pool(), &id2, FAILED, now_ms()).await?;
                Ok(((), vec![Change::Report { id: id2.clone(), project_id: project_id.clone() }]))
            })
        }
    };
    if let Err(err) = turns.take(&row.project_id, step).await {
        err.log("recording a report's end");
    }
}

/// Lays the report out on a worker while the photos stream in; stores the PDF.
/// Answers its pages, stored key and size.
async fn run<T: Turns>(svc: &Services, turns: &T, row: &ReportRow, plan: Plan) -> Result<(usize, String, i64)> {
    let order: Vec<(String, Option<String>, Vec<Shape>)> =
        photo_order(&plan).into_iter().map(|(id, shapes)| (id.clone(), plan.display_keys.get(&id).cloned(), shapes)).collect();
    let (photo_tx, photo_rx) = mpsc::channel::<Incoming>(2);
    let (placed_tx, mut placed_rx) = mpsc::unbounded_channel::<usize>();
    let dropped = Arc::new(AtomicBool::new(false));
    let feed = Feed { photos: photo_rx, placed: placed_tx, dropped: dropped.clone() };

    // The feeder reads each photo's display image as the generator takes the one before.
    let store = svc.photos.clone();
    let feeder = tokio::spawn(async move {
        for (id, key, shapes) in order {
            let display = match key {
                Some(key) => match store.get(&key).await {
                    Ok(bytes) => Some(bytes),
                    Err(err) => {
                        tracing::warn!(photo = %id, error = %err, "a report photo's display image could not be read");
                        None
                    }
                },
                None => None,
            };
            if photo_tx.send(Incoming { id, display, shapes }).await.is_err() {
                break;
            }
        }
    });

    // Progress, written and announced at most every PROGRESS_EVERY, and written again
    // every HEARTBEAT while nothing moves (waiting for the worker behind another
    // report), so only a report whose instance stopped ever looks stale.
    let (svc2, turns2, id, project_id) = (svc.clone(), turns.clone(), row.id.clone(), row.project_id.clone());
    let progress = tokio::spawn(async move {
        let mut last = std::time::Instant::now();
        let mut latest = 0;
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.tick().await;
        loop {
            let done = tokio::select! {
                placed = placed_rx.recv() => match placed {
                    Some(done) => done,
                    None => break,
                },
                _ = heartbeat.tick() => latest,
            };
            latest = done;
            if last.elapsed() < PROGRESS_EVERY {
                continue;
            }
            last = std::time::Instant::now();
            let (svc3, id3, project3) = (svc2.clone(), id.clone(), project_id.clone());
            let step = Box::pin(async move {
                let moved = reports::progress(svc3.store.pool(), &id3, i32::try_from(done).unwrap_or(i32::MAX), now_ms()).await?;
                let changes = if moved { vec![Change::Report { id: id3, project_id: project3 }] } else { Vec::new() };
                Ok((moved, changes))
            });
            match turns2.take(&project_id, step).await {
                Ok(true) => {}
                Ok(false) => dropped.store(true, Ordering::Relaxed),
                Err(err) => err.log("recording a report's progress"),
            }
        }
    });

    let content = plan.content;
    let cover = plan.cover;
    let rendered = svc
        .images
        .long(move || {
            let mut feed = feed;
            pdf::render(&content, cover.as_deref(), &mut feed)
        })
        .await
        .map_err(|_| Error::internal("the report worker failed"))?
        .map_err(|e| Error::internal(e.to_string()))?;
    feeder.abort();
    let _ = progress.await;
    let key = format!("reports/{}/{}.pdf", row.project_id, row.id);
    let size = i64::try_from(rendered.bytes.len()).unwrap_or(i64::MAX);
    svc.photos
        .put(&key, Bytes::from(rendered.bytes), "application/pdf")
        .await
        .map_err(|e| Error::internal(format!("storing a report: {e}")))?;
    Ok((rendered.pages, key, size))
}

/// A project's reports, newest first.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<Vec<Report>> {
    let project = visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::ViewReports, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED));
    }
    let rows = reports::list_for_project(svc.store.pool(), &project.id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(view(&svc.store, row).await?);
    }
    Ok(out)
}

/// A report the actor may see, with its project.
async fn visible_report(svc: &Services, actor: &Actor, id: &str) -> Result<(ReportRow, ProjectRow)> {
    if !crate::domain::shared::validation::could_be_id(id) {
        return Err(not_found());
    }
    let row = reports::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    let project = visible(svc, actor, &row.project_id).await.map_err(|_| not_found())?;
    if !policy::allows(actor, Action::ViewReports, Target::Project(project_ref(&project))) {
        return Err(not_found());
    }
    Ok((row, project))
}

/// Deletes a report and its PDF: its maker or an admin.
pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let (row, project) = visible_report(svc, actor, id).await?;
    let target = ReportRef { project: project_ref(&project), maker_id: row.created_by.as_deref() };
    if !policy::allows(actor, Action::DeleteReport, Target::Report(target)) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DELETE));
    }
    // Its links go with it (the rows by cascade); their open pages close.
    let links = guest_links::ids_for_report(svc.store.pool(), &row.id).await?;
    let Some(key) = reports::delete(svc.store.pool(), &row.id).await? else { return Err(not_found()) };
    if let Some(key) = key {
        if let Err(err) = svc.photos.delete(&key).await {
            tracing::warn!(%key, error = %err, "could not delete a report's PDF; it is left unreferenced");
        }
    }
    let mut changes: Vec<Change> =
        links.into_iter().map(|link_id| Change::GuestLinkEnded { link_id, project_id: row.project_id.clone() }).collect();
    changes.push(Change::ReportDeleted { id: row.id, project_id: row.project_id });
    Ok(changes)
}

/// A ready report's PDF and the name to save it under.
pub async fn pdf(svc: &Services, actor: &Actor, id: &str) -> Result<(Bytes, String)> {
    let (row, project) = visible_report(svc, actor, id).await?;
    stored_pdf(svc, &row, &project).await
}

/// A ready report's stored file key, or `NOT_READY`.
fn ready_key(row: &ReportRow) -> Result<&str> {
    match (row.status, &row.storage_key) {
        (ReportStatus::Ready, Some(key)) => Ok(key),
        _ => Err(Error::new(ErrorCode::Conflict, NOT_READY)),
    }
}

async fn stored_pdf(svc: &Services, row: &ReportRow, project: &ProjectRow) -> Result<(Bytes, String)> {
    let key = ready_key(row)?;
    // A file that is gone reads as the report being gone (as photo bytes do); only a
    // store that fails is the server's error.
    let bytes = svc.photos.get(key).await.map_err(|e| match e {
        crate::media::StorageError::NotFound(_) => {
            tracing::warn!(report = %row.id, "a ready report's PDF is missing from the store");
            not_found()
        }
        other => Error::internal(format!("reading a report: {other}")),
    })?;
    Ok((bytes, file_name(&project.title, row.created_at)))
}

/// The report a guest's report link shows, with its project, when the link may still
/// show it; anything else reads as not found.
async fn linked_report(svc: &Services, guest: &Guest, id: &str) -> Result<(ReportRow, ProjectRow)> {
    if !crate::domain::shared::validation::could_be_id(id) {
        return Err(not_found());
    }
    let row = reports::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    let project = crate::store::projects::find(svc.store.pool(), &row.project_id).await?.ok_or_else(not_found)?;
    if !policy::guest_sees_report(guest, &row.id, LinkedRef { id: &project.id, project: project_ref(&project) }) {
        return Err(not_found());
    }
    Ok((row, project))
}

/// A report link's PDF, for its guest.
pub async fn pdf_for_guest(svc: &Services, guest: &Guest, id: &str) -> Result<(Bytes, String)> {
    let (row, project) = linked_report(svc, guest, id).await?;
    stored_pdf(svc, &row, &project).await
}

/// Where a report's PDF is downloaded from.
pub fn pdf_url(id: &str) -> String {
    format!("/api/reports/{id}/pdf")
}

/// A report shows nothing it does not cover: its "what changed" keeps only what is
/// about its own photos (sections, pairs, cover), comments only when it shows comments
/// and markup only when it shows markup (`timeline::seen_by`, the rule guests' pages
/// follow). Made reports are cut when assembled; a report link's page cuts what was
/// stored before this rule, too.
pub fn cut_to_itself(content: &mut ReportContent, options: &ReportOptions) {
    let ids = photo_ids(content);
    let seen = timeline::Seen { photo: |id: &str| ids.contains(id), comments: options.comments, markup: options.markup };
    let changes = std::mem::take(&mut content.changes);
    content.changes = changes.into_iter().filter_map(|e| timeline::seen_by(e, &seen)).collect();
}

/// A report's content as a guest reads it: no addresses for names, no photo locations.
pub fn for_guests(mut content: ReportContent) -> ReportContent {
    let photo = |p: &mut ReportPhoto| {
        p.photo = views::for_guests(p.photo.clone());
        for c in &mut p.comments {
            c.author = views::person_for_guests(c.author.clone());
        }
    };
    content.project = views::redact_for_guest(content.project);
    content.sections.iter_mut().flat_map(|s| s.photos.iter_mut()).for_each(photo);
    content.pairs.iter_mut().flat_map(|p| [&mut p.before, &mut p.after]).for_each(photo);
    content
}

/// The report a guest's report link shows, for their page's first frame.
pub async fn shared(svc: &Services, guest: &Guest) -> Result<SharedReport> {
    let id = guest.report_id.as_deref().ok_or_else(not_found)?;
    let (row, _) = linked_report(svc, guest, id).await?;
    ready_key(&row)?;
    let made_by = match &row.created_by {
        Some(id) => users::find_by_id(svc.store.pool(), id).await?.and_then(|u| views::person_for_guests(views::summary(&u)).name),
        None => None,
    };
    Ok(SharedReport {
        id: row.id.clone(),
        pages: row.pages.unwrap_or(0),
        byte_size: row.byte_size.unwrap_or(0),
        created_at: row.created_at,
        made_by,
        content: match stored_content(svc, &row.id).await? {
            Some(mut content) => {
                cut_to_itself(&mut content, &options_of(&row)?);
                Some(for_guests(content))
            }
            None => None,
        },
        pdf_url: pdf_url(&row.id),
    })
}

/// A link that shows one ready report to anyone who has it (a guest link to the
/// report): whoever may share the project and see its reports.
pub async fn share(svc: &Services, actor: &Actor, input: &ShareReport) -> Result<(GuestLink, String)> {
    let (row, project) = visible_report(svc, actor, &input.report_id).await?;
    if !policy::allows(actor, Action::ShareReport, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_SHARE));
    }
    ready_key(&row)?;
    crate::domain::sharing::guests::create_for_report(svc, actor, &project, &row.id, input.expires_in_days).await
}

/// Mails a ready report to the project's homeowner: the PDF attached when it is at most
/// `MAIL_ATTACH_MAX`, and a link to the project's reports. The mail is queued with the
/// report's "mailed" mark in one transaction, so both happen or neither.
pub async fn mail<T: Turns>(svc: &Services, turns: &T, actor: &Actor, id: &str) -> Result<Report> {
    let (row, project) = visible_report(svc, actor, id).await?;
    if !policy::allows(actor, Action::MailReport, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_MAIL));
    }
    let key = ready_key(&row)?.to_owned();
    let pool = svc.store.pool();
    let homeowner = users::find_by_id(pool, &project.homeowner_id).await?.ok_or_else(|| Error::field("id", NO_HOMEOWNER_MAIL))?;
    let sender = users::find_by_id(pool, &actor.id).await?.map(|u| views::summary(&u));
    let sender = sender.and_then(|s| s.name).unwrap_or_else(|| "Sitecast".to_owned());
    let recipient = views::summary(&homeowner).name.unwrap_or_else(|| homeowner.email.clone());
    let content = stored_content(svc, &row.id).await?;
    let period = match content.as_ref().map(|c| (c.from.as_deref(), c.to.as_deref())) {
        Some((Some(from), Some(to))) if from != to => format!("{from} to {to}"),
        Some((Some(day), _)) | Some((None, Some(day))) => day.to_owned(),
        _ => day_of(row.created_at),
    };
    let attachment = (row.byte_size.unwrap_or(i64::MAX) <= MAIL_ATTACH_MAX).then(|| Attachment {
        key,
        name: file_name(&project.title, row.created_at),
        content_type: "application/pdf".to_owned(),
    });
    let link = svc.auth.link(&format!("/projects/{}?tab=reports", project.id));
    let mail = templates::report(ReportMail {
        to: &homeowner.email,
        name: &recipient,
        sender: &sender,
        project: &project.title,
        period: &period,
        pages: row.pages.unwrap_or(0),
        link: &link,
        attachment,
    });
    let (svc2, id2, project_id) = (svc.clone(), row.id.clone(), row.project_id.clone());
    let step = Box::pin(async move {
        let mut tx = svc2.store.begin_write().await?;
        if !reports::mark_mailed(&mut *tx, &id2, &recipient, now_ms()).await? {
            return Err(not_found());
        }
        svc2.auth.outbox.enqueue(&mut *tx, &mail).await?;
        tx.commit().await?;
        svc2.auth.outbox.wake();
        let report = current_in(&svc2.store, &id2).await?.ok_or_else(not_found)?;
        Ok((report, vec![Change::Report { id: id2, project_id }]))
    });
    turns.take(&row.project_id, step).await
}

/// "Maple Street Residence – progress report 2026-11-25.pdf", safe in any file system.
pub fn file_name(title: &str, created_at: i64) -> String {
    let clean: String = title
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.' | ',' | '&' | '\'') { c } else { ' ' })
        .collect();
    let clean = clean.split_whitespace().collect::<Vec<_>>().join(" ");
    let clean: String = clean.chars().take(80).collect();
    let title = if clean.is_empty() { "Project".to_owned() } else { clean };
    format!("{title} - progress report {}.pdf", day_of(created_at))
}

/// Reports left "being made" by an instance that stopped: failed, so their makers can
/// make them again (run at start-up and now and then).
pub async fn fail_stale(svc: &Services) -> Result<Vec<Change>> {
    let now = now_ms();
    let before = now - i64::try_from(STALE_AFTER.as_millis()).unwrap_or(i64::MAX);
    let stale = reports::fail_stale(svc.store.pool(), before, INTERRUPTED, now).await?;
    Ok(stale.into_iter().map(|(id, project_id)| Change::Report { id, project_id }).collect())
}
