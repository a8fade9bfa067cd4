//! Demo accounts and a small demo dataset for the embedded default (SPEC.md §6: one
//! account per role sharing one password). Seeding runs at every start and does
//! nothing when the accounts already exist, so data survives restarts.

use bytes::Bytes;
use protocol::{CompanyRole, ImageCategory, ProgressMode, ProjectStatus, Role, TimelineDetail};

use crate::domain::projects::milestones;
use crate::domain::shared::passwords::Passwords;
use crate::domain::projects::timeline::{self, Who};
use crate::error::{Error, Result};
use crate::media::demo_art::{self, Stage};
use crate::media::{photo_keys, photo_prefix, renditions, PhotoStore};
use crate::store::images::ImageRow;
use crate::store::milestones::{self as store_milestones, MilestoneRow};
use crate::store::projects::ProjectFields;
use crate::store::users::NewUser;
use crate::store::{activity, companies, images, new_id, now_ms, projects, users, Store};

pub const DEMO_PASSWORD: &str = "sitecast-demo";

pub struct DemoAccount {
    pub role: Role,
    pub email: &'static str,
    pub first_name: Option<&'static str>,
    pub last_name: Option<&'static str>,
    pub name: &'static str,
    pub phone: &'static str,
}

pub const ACCOUNTS: [DemoAccount; 3] = [
    DemoAccount {
        role: Role::Admin,
        email: "admin@sitecast.demo",
        first_name: Some("Alex"),
        last_name: Some("Morgan"),
        name: "Alex Morgan",
        phone: "(555) 010-0001",
    },
    DemoAccount {
        role: Role::Builder,
        email: "builder@sitecast.demo",
        first_name: None,
        last_name: None,
        name: "Summit Homes",
        phone: "(555) 010-0002",
    },
    DemoAccount {
        role: Role::Homeowner,
        email: "homeowner@sitecast.demo",
        first_name: Some("Jamie"),
        last_name: Some("Carter"),
        name: "Jamie Carter",
        phone: "(555) 010-0003",
    },
];

/// The demo builder's company (docs/FEATURES.md, "Builder companies"): its owner is the
/// builder account above (a builder from before companies, named as their company), with
/// a site manager and a crew member who is on Maple Street only. Both sign in with the
/// demo password.
pub const COMPANY: &str = "Summit Homes";
pub const MEMBERS: [(DemoAccount, CompanyRole); 2] = [
    (
        DemoAccount {
            role: Role::Builder,
            email: "dana.ortiz@sitecast.demo",
            first_name: None,
            last_name: None,
            name: "Dana Ortiz",
            phone: "(555) 010-0005",
        },
        CompanyRole::Manager,
    ),
    (
        DemoAccount {
            role: Role::Builder,
            email: "luis.romero@sitecast.demo",
            first_name: None,
            last_name: None,
            name: "Luis Romero",
            phone: "(555) 010-0006",
        },
        CompanyRole::Crew,
    ),
];

/// A second homeowner (no login), so admins and the builder see more than one client
/// and the demo homeowner can be shown what they may not see.
const NEIGHBOUR: DemoAccount = DemoAccount {
    role: Role::Homeowner,
    email: "priya.shah@sitecast.demo",
    first_name: Some("Priya"),
    last_name: Some("Shah"),
    name: "Priya Shah",
    phone: "(555) 010-0004",
};

struct DemoProject {
    title: &'static str,
    description: &'static str,
    address: &'static str,
    /// Index into ACCOUNTS, or None for the neighbour.
    homeowner: Option<usize>,
    with_builder: bool,
    status: ProjectStatus,
    /// Set by hand; a project that follows its milestones shows their share instead.
    progress: i32,
    /// How many of the residential milestones are done, in order.
    milestones_done: usize,
    /// Whether progress follows the milestones. Two projects show it; the ones the
    /// live tests set progress on by hand (Maple, Oak Lane) keep manual progress.
    follows_milestones: bool,
    /// Whether the first open milestone is past its target date.
    late: bool,
    /// (stage, category, caption, days ago)
    photos: &'static [(Stage, ImageCategory, &'static str, i64)],
}

const PROJECTS: [DemoProject; 5] = [
    DemoProject {
        title: "Maple Street Residence",
        description: "Two-storey, four-bedroom family home with an open-plan kitchen and a covered back porch.",
        address: "1428 Maple Street, Springfield",
        homeowner: Some(2),
        with_builder: true,
        status: ProjectStatus::InProgress,
        progress: 45,
        milestones_done: 4,
        follows_milestones: false,
        late: true,
        photos: &[
            (Stage::Site, ImageCategory::General, "Site staked out and cleared", 41),
            (Stage::Foundation, ImageCategory::Structural, "Foundation slab poured", 27),
            (Stage::Framing, ImageCategory::Structural, "Wall framing and first roof truss", 9),
            (Stage::Framing, ImageCategory::Structural, "Framing inspection passed", 2),
        ],
    },
    DemoProject {
        title: "Lakeview Cottage",
        description: "Single-storey lakeside cottage with vaulted ceilings and a wraparound deck.",
        address: "77 Shoreline Drive, Lake Geneva",
        homeowner: Some(2),
        with_builder: true,
        status: ProjectStatus::Completed,
        progress: 100,
        milestones_done: 9,
        follows_milestones: true,
        late: false,
        photos: &[
            (Stage::Framing, ImageCategory::Structural, "Framing complete", 58),
            (Stage::Roofing, ImageCategory::Exterior, "Roof on, windows framed", 36),
            (Stage::Finished, ImageCategory::Exterior, "Exterior paint finished", 14),
            (Stage::Finished, ImageCategory::Finishes, "Handover day", 6),
        ],
    },
    DemoProject {
        title: "Cedar Ridge Garage & Studio",
        description: "Detached two-car garage with a studio apartment above.",
        address: "9 Cedar Ridge Road, Springfield",
        homeowner: Some(2),
        with_builder: true,
        status: ProjectStatus::Planning,
        progress: 10,
        milestones_done: 1,
        follows_milestones: false,
        late: false,
        photos: &[
            (Stage::Site, ImageCategory::General, "Survey pegs in", 5),
            (Stage::Site, ImageCategory::General, "Soil test pit", 1),
        ],
    },
    DemoProject {
        title: "Hillcrest Family Home",
        description: "Three-bedroom craftsman home on a sloping lot.",
        address: "310 Hillcrest Avenue, Fairview",
        homeowner: None,
        with_builder: true,
        status: ProjectStatus::OnHold,
        progress: 60,
        milestones_done: 5,
        follows_milestones: true,
        late: false,
        photos: &[
            (Stage::Foundation, ImageCategory::Structural, "Footings and slab", 49),
            (Stage::Framing, ImageCategory::Structural, "Framing up", 30),
            (Stage::Roofing, ImageCategory::Exterior, "Roof dried in; waiting on windows", 12),
        ],
    },
    DemoProject {
        title: "Oak Lane Duplex",
        description: "Side-by-side duplex with two mirrored three-bedroom units.",
        address: "52 Oak Lane, Fairview",
        homeowner: None,
        with_builder: false,
        status: ProjectStatus::InProgress,
        progress: 30,
        milestones_done: 3,
        follows_milestones: false,
        late: false,
        photos: &[
            (Stage::Site, ImageCategory::General, "Lot cleared", 20),
            (Stage::Foundation, ImageCategory::Structural, "Slab poured for both units", 4),
        ],
    },
];

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The residential plan of a demo project: the first `milestones_done` completed on
/// days spread from its start to two days ago (each by noon), the next one its current
/// step (late when the project says so), the rest upcoming a few weeks apart.
fn demo_milestones(project_id: &str, p: &DemoProject, started: i64, now: i64) -> Vec<MilestoneRow> {
    let mut ids = new_id;
    let mut plan = milestones::template_rows(project_id, 0, started, &mut ids);
    let span = (now - 2 * DAY_MS - started).max(DAY_MS);
    let done = p.milestones_done.min(plan.len());
    for (i, m) in plan.iter_mut().enumerate() {
        if i < done {
            let at = started + span * (i as i64 + 1) / done as i64;
            let day = at - at.rem_euclid(DAY_MS) + DAY_MS / 2;
            m.target_date = Some(milestones::day_of(day + (i as i64 % 3 - 1) * DAY_MS));
            m.done_date = Some(milestones::day_of(day));
            m.updated_at = day;
        } else {
            let ahead = (i - done) as i64;
            let first_open = if p.late { -6 } else { 10 };
            m.target_date = Some(milestones::day_of(now + (first_open + 21 * ahead) * DAY_MS));
        }
    }
    plan
}

/// The step of the residential plan a demo photo's stage shows.
fn stage_step(stage: Stage) -> usize {
    match stage {
        Stage::Site => 0,
        Stage::Foundation => 1,
        Stage::Framing => 2,
        Stage::Roofing => 3,
        Stage::Finished => 6,
    }
}


/// The demo photos' tags (docs/FEATURES.md, "Tags and search"): an area and a trade for
/// each stage, so the gallery's tag filter and the search have something to find from the
/// start.
fn stage_tags(stage: Stage) -> &'static [&'static str] {
    match stage {
        Stage::Site => &["Driveway", "Site work"],
        Stage::Foundation => &["Foundation", "Concrete"],
        Stage::Framing => &["Framing"],
        Stage::Roofing => &["Roof", "Roofing"],
        Stage::Finished => &["Exterior south", "Painting"],
    }
}
/// Stores a drawn picture as a photo's original JPEG and its renditions (made by the
/// same pipeline as an upload's), under `keys`. Answers the original's size and the
/// renditions' facts. Shared with the test worlds (`world`).
pub(crate) async fn store_drawn_photo(
    photos: &dyn PhotoStore,
    keys: &crate::media::PhotoKeys,
    art: &image::RgbImage,
    quality: u8,
) -> Result<(i64, renditions::Renditions)> {
    let original = renditions::encode_jpeg(art, quality).map_err(Error::internal)?;
    let mut r = renditions::render(&original).map_err(Error::internal)?;
    let size = original.len() as i64;
    photos.put(&keys.original, Bytes::from(original), "image/jpeg").await?;
    photos.put(&keys.display, Bytes::from(std::mem::take(&mut r.display)), "image/jpeg").await?;
    photos.put(&keys.thumb, Bytes::from(std::mem::take(&mut r.thumb)), "image/jpeg").await?;
    Ok((size, r))
}

/// Creates the demo accounts and projects unless they exist. Returns whether it seeded.
pub async fn seed(store: &Store, photos: &dyn PhotoStore, passwords: &Passwords) -> Result<bool> {
    if users::find_by_email(store.pool(), ACCOUNTS[0].email).await?.is_some() {
        return Ok(false);
    }
    let hash = passwords.hash(DEMO_PASSWORD).await?;
    let now = now_ms();
    let ids: Vec<String> = ACCOUNTS.iter().map(|_| new_id()).collect();
    let neighbour_id = new_id();
    let builder_id = ids[1].clone();

    // Photo files first, rows after: a crash in between leaves only unreferenced files,
    // never a row without its files.
    let mut image_rows = Vec::new();
    let mut stages = std::collections::HashMap::new();
    let mut project_rows = Vec::new();
    let mut variant = 0u32;
    for p in &PROJECTS {
        let project_id = new_id();
        for (stage, category, caption, days_ago) in p.photos {
            variant += 1;
            let image_id = new_id();
            let prefix = photo_prefix(&project_id, &image_id);
            let keys = photo_keys(&prefix, "jpg");
            // Drawn small and scaled up: the drawing is per-pixel work in our own
            // (unoptimised in debug builds) code, the scaling is the image crate's.
            let art = image::imageops::resize(
                &demo_art::render(*stage, variant, 800, 600),
                1600,
                1200,
                image::imageops::FilterType::Triangle,
            );
            let (size, r) = store_drawn_photo(photos, &keys, &art, 88).await?;
            let taken = now - days_ago * DAY_MS - i64::from(variant) * 3_600_000;
            stages.insert(image_id.clone(), *stage);
            image_rows.push(ImageRow {
                id: image_id,
                project_id: project_id.clone(),
                uploaded_by: Some(builder_id.clone()),
                category: *category,
                caption: Some((*caption).to_owned()),
                original_name: format!("{}.jpg", caption.to_lowercase().replace([' ', ',', ';'], "-")),
                content_type: "image/jpeg".to_owned(),
                byte_size: size,
                width: r.width as i32,
                height: r.height as i32,
                taken_at: Some(taken),
                storage_key: prefix,
                created_at: taken + 3_600_000,
                updated_at: taken + 3_600_000,
                version: 1,
                comment_count: 0,
                visit_note: None,
                batch_id: None,
                milestone_id: None,
                markup_count: 0,
                tags: stage_tags(*stage).iter().map(|t| (*t).to_owned()).collect(),
                location: None,
                uploader: None,
            });
        }
        project_rows.push((project_id, p));
    }

    let mut tx = store.begin_write().await?;
    let all = ACCOUNTS.iter().zip(ids.iter()).chain(std::iter::once((&NEIGHBOUR, &neighbour_id)));
    for (account, id) in all {
        let is_login = account.email != NEIGHBOUR.email;
        users::insert(
            &mut *tx,
            &NewUser {
                id,
                email: account.email,
                role: account.role,
                name: Some(account.name),
                first_name: account.first_name,
                last_name: account.last_name,
                phone: Some(account.phone),
                builder_id: (account.role == Role::Homeowner).then_some(builder_id.as_str()),
                password_hash: is_login.then_some(hash.as_str()),
                email_confirmed_at: Some(now - 90 * DAY_MS),
                now: now - 90 * DAY_MS,
            },
        )
        .await?;
    }
    // The company, its owner (the builder account) and its other two members.
    let company_id = new_id();
    companies::insert(&mut *tx, &company_id, COMPANY, now - 90 * DAY_MS).await?;
    users::set_membership(&mut *tx, &builder_id, Some((&company_id, CompanyRole::Owner, false)), now - 90 * DAY_MS).await?;
    let mut crew_id = None;
    for (account, role) in &MEMBERS {
        let id = new_id();
        users::insert(
            &mut *tx,
            &NewUser {
                id: &id,
                email: account.email,
                role: account.role,
                name: Some(account.name),
                first_name: account.first_name,
                last_name: account.last_name,
                phone: Some(account.phone),
                builder_id: None,
                password_hash: Some(hash.as_str()),
                email_confirmed_at: Some(now - 60 * DAY_MS),
                now: now - 60 * DAY_MS,
            },
        )
        .await?;
        users::set_membership(&mut *tx, &id, Some((&company_id, *role, false)), now - 60 * DAY_MS).await?;
        if *role == CompanyRole::Crew {
            crew_id = Some(id);
        }
    }
    let admin = Who { id: Some(ids[0].clone()), name: Some(ACCOUNTS[0].name.to_owned()), role: Some(Role::Admin) };
    let builder = Who { id: Some(builder_id.clone()), name: Some(ACCOUNTS[1].name.to_owned()), role: Some(Role::Builder) };
    for (project_id, p) in &project_rows {
        let homeowner = p.homeowner.map(|i| ids[i].as_str()).unwrap_or(neighbour_id.as_str());
        let photos: Vec<&ImageRow> = image_rows.iter().filter(|r| &r.project_id == project_id).collect();
        let started = photos.iter().map(|r| r.created_at).min().unwrap_or(now) - 3 * DAY_MS;
        let plan = demo_milestones(project_id, p, started, now);
        let progress = if p.follows_milestones { milestones::progress_of(&plan) } else { p.progress };
        let mode = if p.follows_milestones { ProgressMode::Milestones } else { ProgressMode::Manual };
        projects::insert(
            &mut *tx,
            project_id,
            &ProjectFields {
                title: p.title,
                description: p.description,
                address: p.address,
                homeowner_id: homeowner,
                company_id: p.with_builder.then_some(company_id.as_str()),
                status: p.status,
                progress,
                thumbnail_image_id: None,
                thumbnail_pinned: false,
                progress_mode: mode,
            },
            started,
        )
        .await?;
        for m in &plan {
            store_milestones::insert(&mut *tx, m).await?;
        }
        // The crew member works on the first project (Maple Street) only.
        if let (Some(crew), true) = (&crew_id, p.title == PROJECTS[0].title) {
            projects::set_crew(&mut *tx, project_id, std::slice::from_ref(crew), started).await?;
        }
        let mut story = Vec::new();
        for row in &photos {
            // Each demo photo is a site visit of its own, tagged with its stage's step.
            let row = ImageRow {
                batch_id: Some(new_id()),
                milestone_id: stages.get(&row.id).and_then(|s| plan.get(stage_step(*s))).map(|m| m.id.clone()),
                markup_count: 0,
                ..(*row).clone()
            };
            images::insert(&mut *tx, &row).await?;
            let detail = TimelineDetail::PhotosAdded { count: 1, photos: vec![timeline::photo(&row.id)], note: None };
            story.push((row.created_at, &builder, detail, row.batch_id.clone()));
        }
        // SPEC.md §4: the project thumbnail is its newest photo.
        let newest = photos.iter().max_by_key(|r| r.created_at);
        if let Some(newest) = newest {
            projects::set_thumbnail(&mut *tx, project_id, Some(&newest.id), newest.created_at).await?;
        }
        // Its story so far: created, started, milestones completed, progress set by
        // hand, and where it stands now.
        story.push((started, &admin, TimelineDetail::ProjectCreated, None));
        if p.status != ProjectStatus::Planning {
            let (from, to) = (ProjectStatus::Planning, ProjectStatus::InProgress);
            story.push((started + 3_600_000, &admin, TimelineDetail::StatusChanged { from, to }, None));
        }
        let last_photo = newest.map(|r| r.created_at).unwrap_or(now - DAY_MS);
        if let to @ (ProjectStatus::OnHold | ProjectStatus::Completed) = p.status {
            story.push((last_photo + 2 * 3_600_000, &admin, TimelineDetail::StatusChanged { from: ProjectStatus::InProgress, to }, None));
        }
        for m in plan.iter().filter(|m| m.done_date.is_some()) {
            let detail = TimelineDetail::MilestoneCompleted { milestone_id: m.id.clone(), name: m.name.clone() };
            story.push((m.updated_at, &builder, detail, Some(m.id.clone())));
        }
        if !p.follows_milestones && p.progress > 0 {
            let half = p.progress / 2;
            let midway = started + (last_photo - started) / 2;
            story.push((midway, &admin, TimelineDetail::ProgressChanged { from: 0, to: half }, None));
            story.push((last_photo + 3_600_000, &admin, TimelineDetail::ProgressChanged { from: half, to: p.progress }, None));
        }
        for (at, who, detail, subject) in story {
            activity::insert(&mut *tx, &timeline::entry(project_id, who, &detail, subject.as_deref(), at)?).await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}
