//! Big data on demand: `sitecast seed` fills a database with as many projects, photos
//! and people as a benchmark or a test of big projects needs — a year of site visits on
//! each project, a company that runs them, and thousands of homeowners
//! (docs/OPERATIONS.md, "Big data"). It adds to whatever is there: every name carries a
//! fresh tag, so it can run beside the demo or twice on one database.
//!
//! Each photo has its own files (deleting one must not break another), copied from a
//! small pool of drawn pictures rendered once, so twenty thousand photos take seconds of
//! CPU rather than hours of encoding.

use bytes::Bytes;
use futures_util::{stream, StreamExt, TryStreamExt};
use protocol::{CompanyRole, ImageCategory, ProgressMode, ProjectStatus, Role, TimelineDetail};

use crate::domain::projects::timeline::{self, Who};
use crate::domain::shared::passwords::Passwords;
use crate::error::{Error, Result};
use crate::media::demo_art::{self, Stage};
use crate::media::{photo_keys, photo_prefix, renditions, PhotoStore};
use crate::store::images::ImageRow;
use crate::store::projects::ProjectFields;
use crate::store::users::NewUser;
use crate::store::{activity, companies, images, new_id, now_ms, projects, users, Store};

/// The password of every account `seed` makes.
pub const BULK_PASSWORD: &str = "sitecast-bulk";

/// Bounds that keep a mistyped number from filling the disk: a year of daily 50-photo
/// visits is 18,250 photos, and the biggest installations run hundreds of projects.
pub const MAX_PROJECTS: usize = 5_000;
pub const MAX_PHOTOS_PER_PROJECT: usize = 50_000;
pub const MAX_USERS: usize = 100_000;
pub const MAX_PHOTOS: usize = 200_000;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// Rows written per transaction: SQLite's one writer (a running server too) waits for
/// at most one chunk.
const CHUNK: usize = 1_000;
/// Files written at once.
const PUTS_AT_ONCE: usize = 32;
const POOL: u32 = 10;
const STAGES: [(Stage, &str, ImageCategory); 5] = [
    (Stage::Site, "Site work", ImageCategory::General),
    (Stage::Foundation, "Foundation", ImageCategory::Structural),
    (Stage::Framing, "Framing", ImageCategory::Structural),
    (Stage::Roofing, "Roofing", ImageCategory::Structural),
    (Stage::Finished, "Exterior", ImageCategory::Exterior),
];

#[derive(Debug, Clone, Copy)]
pub struct BulkSpec {
    pub projects: usize,
    pub photos_per_project: usize,
    /// Homeowners; projects are shared among them round-robin.
    pub users: usize,
    /// Photos per site visit; visits are spread evenly over `days` before now.
    pub visit_size: usize,
    pub days: u32,
}

impl BulkSpec {
    fn check(&self) -> Result<()> {
        let photos = self.projects.saturating_mul(self.photos_per_project);
        if self.projects > MAX_PROJECTS || self.photos_per_project > MAX_PHOTOS_PER_PROJECT || self.users > MAX_USERS || photos > MAX_PHOTOS {
            return Err(Error::field(
                "seed",
                &format!("At most {MAX_PROJECTS} projects, {MAX_PHOTOS_PER_PROJECT} photos a project, {MAX_PHOTOS} photos in all and {MAX_USERS} users"),
            ));
        }
        if self.projects > 0 && self.users == 0 {
            return Err(Error::field("users", "Projects need at least one homeowner"));
        }
        if self.visit_size == 0 || self.days == 0 {
            return Err(Error::field("visit_size", "A visit has at least one photo and the visits span at least one day"));
        }
        Ok(())
    }
}

/// What was made: the accounts to sign in with and where the photos are.
#[derive(Debug, Clone)]
pub struct Bulk {
    pub tag: String,
    pub admin_email: String,
    pub owner_email: String,
    /// The first homeowner, who owns the first project.
    pub homeowner_email: String,
    pub project_ids: Vec<String>,
    pub photos: usize,
}

/// One drawn picture's three files, shared by reference among the photos that copy it.
pub(crate) struct Pooled {
    original: Bytes,
    display: Bytes,
    thumb: Bytes,
    width: i32,
    height: i32,
}

/// The drawn pictures photos copy, rendered once per seeding.
pub(crate) fn pool() -> Result<Vec<Pooled>> {
    (0..POOL)
        .map(|variant| {
            let stage = STAGES[variant as usize % STAGES.len()].0;
            let original = renditions::encode_jpeg(&demo_art::render(stage, 7_000 + variant, 480, 360), 80).map_err(Error::internal)?;
            let r = renditions::render(&original).map_err(Error::internal)?;
            Ok(Pooled { original: Bytes::from(original), display: Bytes::from(r.display), thumb: Bytes::from(r.thumb), width: r.width as i32, height: r.height as i32 })
        })
        .collect()
}

/// Makes the company, its owner, an admin, the homeowners and the projects `spec` asks
/// for; `progress` hears each project as it is done.
pub async fn seed(store: &Store, photos: &dyn PhotoStore, passwords: &Passwords, spec: &BulkSpec, progress: &mut dyn FnMut(usize, usize)) -> Result<Bulk> {
    spec.check()?;
    let tag = new_id().replace('-', "")[..8].to_owned();
    let hash = passwords.hash(BULK_PASSWORD).await?;
    let now = now_ms();
    let joined = now - (i64::from(spec.days) + 30) * DAY_MS;
    let company_id = new_id();
    let (admin_id, owner_id) = (new_id(), new_id());
    let admin_email = format!("admin.{tag}@bulk.test");
    let owner_email = format!("owner.{tag}@bulk.test");

    let mut tx = store.begin_write().await?;
    companies::insert(&mut *tx, &company_id, &format!("Summit Homes {tag}"), joined).await?;
    users::insert(&mut *tx, &account(&admin_id, &admin_email, Role::Admin, &format!("Bulk Admin {tag}"), &hash, joined)).await?;
    users::insert(&mut *tx, &account(&owner_id, &owner_email, Role::Builder, &format!("Summit Owner {tag}"), &hash, joined)).await?;
    users::set_membership(&mut *tx, &owner_id, Some((&company_id, CompanyRole::Owner, false)), joined).await?;
    tx.commit().await?;

    let homeowners: Vec<(String, String)> = (0..spec.users).map(|i| (new_id(), format!("homeowner{}.{tag}@bulk.test", i + 1))).collect();
    for (c, chunk) in homeowners.chunks(CHUNK).enumerate() {
        let mut tx = store.begin_write().await?;
        for (i, (id, email)) in chunk.iter().enumerate() {
            let n = c * CHUNK + i;
            let (first, last) = (FIRST[n % FIRST.len()], format!("Homeowner{} {tag}", n + 1));
            let name = format!("{first} {last}");
            let user = NewUser { first_name: Some(first), last_name: Some(&last), builder_id: Some(&owner_id), ..account(id, email, Role::Homeowner, &name, &hash, joined) };
            users::insert(&mut *tx, &user).await?;
        }
        tx.commit().await?;
    }

    let pool = pool()?;
    let builder = Who { id: Some(owner_id.clone()), name: Some(format!("Summit Owner {tag}")), role: Some(Role::Builder) };
    let mut project_ids = Vec::with_capacity(spec.projects);
    for p in 0..spec.projects {
        let project_id = new_id();
        let started = now - i64::from(spec.days) * DAY_MS - DAY_MS;
        let status = STATUSES[p % STATUSES.len()];
        let mut tx = store.begin_write().await?;
        let (title, address) = (format!("{} Residence {tag}-{}", STREETS[p % STREETS.len()], p + 1), format!("{} {}, Springfield", 100 + p, STREETS[p % STREETS.len()]));
        projects::insert(
            &mut *tx,
            &project_id,
            &ProjectFields {
                title: &title,
                description: "A family home, documented visit by visit.",
                address: &address,
                homeowner_id: &homeowners[p % homeowners.len()].0,
                company_id: Some(&company_id),
                status,
                progress: if status == ProjectStatus::Completed { 100 } else { (p * 37 % 90) as i32 + 5 },
                thumbnail_image_id: None,
                thumbnail_pinned: false,
                progress_mode: ProgressMode::Manual,
            },
            started,
        )
        .await?;
        activity::insert(&mut *tx, &timeline::entry(&project_id, &builder, &TimelineDetail::ProjectCreated, None, started)?).await?;
        tx.commit().await?;
        let visits = Visits { count: spec.photos_per_project, visit_size: spec.visit_size, days: spec.days, now, variant: p };
        add_visits(store, photos, &pool, &project_id, &builder, &visits).await?;
        project_ids.push(project_id);
        progress(p + 1, spec.projects);
    }
    Ok(Bulk {
        admin_email,
        owner_email,
        homeowner_email: homeowners.first().map(|h| h.1.clone()).unwrap_or_default(),
        project_ids,
        photos: spec.projects * spec.photos_per_project,
        tag,
    })
}

/// A year (or `days`) of site visits on one project.
pub(crate) struct Visits {
    pub count: usize,
    pub visit_size: usize,
    pub days: u32,
    pub now: i64,
    /// Which pooled picture the first photo copies, so neighbouring projects differ.
    pub variant: usize,
}

/// Adds `visits.count` photos to an existing project as `builder` uploaded them: their
/// files, their rows, one timeline entry per visit and the cover. Answers the rows,
/// oldest first.
pub(crate) async fn add_visits(store: &Store, photos: &dyn PhotoStore, pool: &[Pooled], project_id: &str, builder: &Who, visits: &Visits) -> Result<Vec<ImageRow>> {
    let uploader = builder.id.clone().unwrap_or_default();
    let spec = BulkSpec { projects: 1, photos_per_project: visits.count, users: 1, visit_size: visits.visit_size.max(1), days: visits.days.max(1) };
    let rows = photo_rows(project_id, &uploader, visits.variant, &spec, visits.now, pool);
    store_files(photos, &rows, visits.variant, pool).await?;
    for chunk in rows.chunks(CHUNK) {
        let mut tx = store.begin_write().await?;
        for row in chunk {
            images::insert(&mut *tx, row).await?;
        }
        tx.commit().await?;
    }
    // One timeline entry per visit, as an upload of that visit makes.
    for visit in rows.chunk_by(|a, b| a.batch_id == b.batch_id).collect::<Vec<_>>().chunks(CHUNK) {
        let mut tx = store.begin_write().await?;
        for photos in visit {
            let strip = photos.iter().take(timeline::REMEMBERED).map(|r| timeline::photo(&r.id)).collect();
            let detail = TimelineDetail::PhotosAdded { count: photos.len() as i32, photos: strip, note: photos[0].visit_note.clone() };
            activity::insert(&mut *tx, &timeline::entry(project_id, builder, &detail, photos[0].batch_id.as_deref(), photos[0].created_at)?).await?;
        }
        tx.commit().await?;
    }
    if let Some(newest) = rows.last() {
        projects::set_thumbnail(store.pool(), project_id, Some(&newest.id), newest.created_at).await?;
    }
    Ok(rows)
}

fn account<'a>(id: &'a str, email: &'a str, role: Role, name: &'a str, hash: &'a str, joined: i64) -> NewUser<'a> {
    NewUser {
        id,
        email,
        role,
        name: Some(name),
        first_name: None,
        last_name: None,
        phone: None,
        builder_id: None,
        password_hash: Some(hash),
        email_confirmed_at: Some(joined),
        now: joined,
    }
}

const FIRST: [&str; 8] = ["Harper", "Rowan", "Quinn", "Sage", "Avery", "Jordan", "Emerson", "Morgan"];
const STREETS: [&str; 6] = ["Birch Lane", "Willow Court", "Aspen Way", "Juniper Road", "Sycamore Drive", "Hazel Grove"];
const STATUSES: [ProjectStatus; 4] = [ProjectStatus::InProgress, ProjectStatus::Planning, ProjectStatus::InProgress, ProjectStatus::Completed];

/// A project's photos, oldest first: visits of `visit_size` spread evenly over the last
/// `days`, the newest visit today, photos a minute apart within a visit.
fn photo_rows(project_id: &str, uploader: &str, project: usize, spec: &BulkSpec, now: i64, pool: &[Pooled]) -> Vec<ImageRow> {
    let pool_len = pool.len().max(1);
    let count = spec.photos_per_project;
    let visits = count.div_ceil(spec.visit_size).max(1);
    let span = i64::from(spec.days) * DAY_MS;
    let mut rows = Vec::with_capacity(count);
    let mut batch = String::new();
    for i in 0..count {
        let visit = i / spec.visit_size;
        if i % spec.visit_size == 0 {
            batch = new_id();
        }
        // The visit's stage follows the build: site work first, the exterior last.
        let (_, stage_name, category) = STAGES[(visit * STAGES.len() / visits).min(STAGES.len() - 1)];
        let at = now - span * (visits - 1 - visit) as i64 / (visits - 1).max(1) as i64 + (i % spec.visit_size) as i64 * 60_000 - 2 * 3_600_000;
        let (byte_size, width, height) = pool.get(picture_of(i, project, pool_len)).map_or((0, 0, 0), |p| (p.original.len() as i64, p.width, p.height));
        let image_id = new_id();
        rows.push(ImageRow {
            storage_key: photo_prefix(project_id, &image_id),
            id: image_id,
            project_id: project_id.to_owned(),
            uploaded_by: Some(uploader.to_owned()),
            category,
            caption: Some(format!("Visit {} · {stage_name} {}", visit + 1, i % spec.visit_size + 1)),
            original_name: format!("visit-{}-{}.jpg", visit + 1, i % spec.visit_size + 1),
            content_type: "image/jpeg".to_owned(),
            byte_size,
            width,
            height,
            taken_at: Some(at),
            created_at: at,
            updated_at: at,
            version: 1,
            comment_count: 0,
            visit_note: (i.is_multiple_of(spec.visit_size) && visit.is_multiple_of(3)).then(|| format!("{stage_name}: walked the site, all on schedule.")),
            batch_id: Some(batch.clone()),
            milestone_id: None,
            markup_count: 0,
            tags: vec![stage_name.to_owned()],
            location: None,
            uploader: None,
        });
    }
    rows
}

/// Which pooled picture the `i`th photo of the `project`th project copies: neighbours
/// differ, so a gallery of them does not look like one photo repeated.
fn picture_of(i: usize, project: usize, pool: usize) -> usize {
    (i + project) % pool
}

/// Every row's three files, before any row is written: a failure leaves files no row
/// names (the orphan sweep's to remove), never a row without its files.
async fn store_files(photos: &dyn PhotoStore, rows: &[ImageRow], project: usize, pool: &[Pooled]) -> Result<()> {
    let puts = rows.iter().enumerate().flat_map(|(i, row)| {
        let picture = &pool[picture_of(i, project, pool.len())];
        let keys = photo_keys(&row.storage_key, "jpg");
        [(keys.original, picture.original.clone()), (keys.display, picture.display.clone()), (keys.thumb, picture.thumb.clone())]
    });
    stream::iter(puts).map(|(key, bytes)| async move { photos.put(&key, bytes, "image/jpeg").await }).buffer_unordered(PUTS_AT_ONCE).try_collect::<()>().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(photos: usize, visit_size: usize) -> BulkSpec {
        BulkSpec { projects: 1, photos_per_project: photos, users: 1, visit_size, days: 365 }
    }

    #[test]
    fn visits_span_the_year_oldest_first_and_end_today() {
        let now = 1_800_000_000_000;
        let rows = photo_rows("p", "u", 0, &spec(1_000, 25), now, &[]);
        assert_eq!(rows.len(), 1_000);
        assert!(rows.windows(2).all(|w| w[0].created_at < w[1].created_at), "oldest first, strictly");
        let (first, last) = (rows[0].created_at, rows[999].created_at);
        assert!(now - first > 360 * DAY_MS && now - first <= 366 * DAY_MS, "the first visit is about a year ago");
        assert!(now - last < DAY_MS, "the last visit is today");
        let visits: std::collections::HashSet<_> = rows.iter().map(|r| r.batch_id.clone()).collect();
        assert_eq!(visits.len(), 40);
    }

    #[test]
    fn a_mistyped_number_is_refused() {
        assert!(BulkSpec { projects: MAX_PROJECTS + 1, ..spec(1, 1) }.check().is_err());
        assert!(BulkSpec { projects: 10, photos_per_project: MAX_PHOTOS_PER_PROJECT, ..spec(1, 1) }.check().is_err());
        assert!(BulkSpec { users: 0, ..spec(1, 1) }.check().is_err());
        assert!(spec(20_000, 25).check().is_ok());
    }
}
