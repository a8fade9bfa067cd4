//! Test worlds: a company with its owner, site manager and crew, homeowners, an admin,
//! and projects with photos, milestones and comments, all named uniquely, made in one
//! call with signed-in sessions. Each test makes the world it needs, so tests running
//! side by side on one server never read or write each other's data (nor the demo's).
//!
//! The server's integration tests call [`make`] in-process; the browser tests reach it
//! through `POST /api/testing/world`, which is routed only when the server runs with
//! `--test-worlds`, a switch `config` refuses unless the public URL is a loopback one.

use std::collections::BTreeMap;

use protocol::{CompanyRole, ImageCategory, ProgressMode, ProjectStatus, Role, TimelineDetail};
use serde::{Deserialize, Serialize};

use crate::domain::identity::auth::SESSION_ABSOLUTE_MS;
use crate::domain::seeding::bulk;
use crate::domain::seeding::demo::store_drawn_photo;
use crate::domain::projects::milestones;
use crate::domain::shared::passwords::Passwords;
use crate::domain::shared::secrets::{hash_token, new_token};
use crate::domain::projects::timeline::{self, Who};
use crate::error::{Error, Result};
use crate::media::demo_art::{self, Stage};
use crate::media::{photo_keys, photo_prefix, PhotoStore};
use crate::store::images::ImageRow;
use crate::store::milestones as store_milestones;
use crate::store::projects::ProjectFields;
use crate::store::sessions::NewSession;
use crate::store::users::NewUser;
use crate::store::{activity, comments, companies, images, new_id, now_ms, projects, sessions, users, Store};

/// Every world account's password, for the tests that sign in through the form.
pub const WORLD_PASSWORD: &str = "sitecast-world";

/// The most of each thing one world may ask for: enough for paging tests, small enough
/// that a mistaken request cannot fill the machine.
const MAX_PROJECTS: usize = 30;
const MAX_PHOTOS: usize = 80;
/// More than a user table's page (`protocol::USER_PAGE`), for its paging and search.
const MAX_HOMEOWNERS: usize = 80;
const MAX_YEAR_OF_PHOTOS: usize = 5_000;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// What a test asks for. Every field has a default, so `{}` is a small useful world.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WorldSpec {
    /// Projects of the company, each with its own homeowner (homeowners are shared
    /// round-robin when there are fewer of them).
    pub projects: usize,
    /// Photos on each project, oldest first, each a site visit of its own.
    pub photos: usize,
    /// Homeowners; one more than there are projects leaves one with no project.
    pub homeowners: usize,
    /// The residential milestone plan on each project, its first two steps done.
    pub milestones: bool,
    /// A comment by the homeowner on each project's newest photo.
    pub comments: bool,
    /// A project of a second company nobody in this world may see (policy tests).
    pub stranger_project: bool,
    /// A year of site visits on each project besides `photos`: this many photos made
    /// the way `sitecast seed` makes them (a few drawn pictures copied, visits of 25
    /// spread over the last year), for tests of big projects.
    pub year_of_photos: usize,
}

impl Default for WorldSpec {
    fn default() -> Self {
        WorldSpec { projects: 1, photos: 3, homeowners: 1, milestones: true, comments: true, stranger_project: false, year_of_photos: 0 }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct World {
    /// Short and unique: in every name and email of this world.
    pub tag: String,
    pub password: String,
    pub company: WorldCompany,
    /// `admin`, `owner`, `manager`, `crew`, `homeowner`, `homeowner2`…
    pub users: BTreeMap<String, WorldUser>,
    pub projects: Vec<WorldProject>,
    /// The project of another company (when asked for), with one photo.
    pub stranger_project: Option<WorldProject>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldCompany {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldUser {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub company_role: Option<CompanyRole>,
    /// A signed-in session's cookie value.
    pub session: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldProject {
    pub id: String,
    pub title: String,
    pub address: String,
    /// The key of its homeowner in `World::users`.
    pub homeowner: String,
    /// Oldest first.
    pub photos: Vec<WorldPhoto>,
    pub milestones: Vec<WorldMilestone>,
    pub comments: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldPhoto {
    pub id: String,
    pub caption: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldMilestone {
    pub id: String,
    pub name: String,
    pub done: bool,
}

const STREETS: [&str; 6] = ["Birch Lane", "Willow Court", "Aspen Way", "Juniper Road", "Sycamore Drive", "Hazel Grove"];
const STAGES: [Stage; 5] = [Stage::Site, Stage::Foundation, Stage::Framing, Stage::Roofing, Stage::Finished];

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Site => "Site work",
        Stage::Foundation => "Foundation",
        Stage::Framing => "Framing",
        Stage::Roofing => "Roofing",
        Stage::Finished => "Exterior",
    }
}

/// `homeowner`, `homeowner2`, `homeowner3`…
fn homeowner_key(index: usize) -> String {
    if index == 0 { "homeowner".to_owned() } else { format!("homeowner{}", index + 1) }
}

struct Account {
    key: String,
    email: String,
    name: String,
    first_last: Option<(String, String)>,
    role: Role,
    company_role: Option<CompanyRole>,
}

/// Makes a world as `spec` asks, in one transaction after its photo files are stored.
pub async fn make(store: &Store, photos: &dyn PhotoStore, passwords: &Passwords, spec: &WorldSpec) -> Result<World> {
    let all_photos = spec.projects.saturating_mul(spec.photos.saturating_add(spec.year_of_photos));
    if spec.projects > MAX_PROJECTS
        || spec.photos > MAX_PHOTOS
        || spec.homeowners > MAX_HOMEOWNERS
        || spec.year_of_photos > MAX_YEAR_OF_PHOTOS
        || all_photos > MAX_YEAR_OF_PHOTOS + MAX_PHOTOS
    {
        return Err(Error::field("world", &format!(
            "A world has at most {MAX_PROJECTS} projects, {MAX_PHOTOS} photos each (a year of {MAX_YEAR_OF_PHOTOS}), {} photos in all and {MAX_HOMEOWNERS} homeowners",
            MAX_YEAR_OF_PHOTOS + MAX_PHOTOS
        )));
    }
    if spec.projects > 0 && spec.homeowners == 0 {
        return Err(Error::field("homeowners", "A world with projects needs a homeowner"));
    }
    let tag = new_id().replace('-', "")[..8].to_owned();
    let hash = passwords.hash(WORLD_PASSWORD).await?;
    let now = now_ms();

    let mut accounts = vec![
        Account { key: "admin".into(), email: format!("admin.{tag}@world.test"), name: format!("Avery Admin {tag}"), first_last: Some(("Avery".into(), format!("Admin {tag}"))), role: Role::Admin, company_role: None },
        Account { key: "owner".into(), email: format!("owner.{tag}@world.test"), name: format!("Olivia Owner {tag}"), first_last: None, role: Role::Builder, company_role: Some(CompanyRole::Owner) },
        Account { key: "manager".into(), email: format!("manager.{tag}@world.test"), name: format!("Max Manager {tag}"), first_last: None, role: Role::Builder, company_role: Some(CompanyRole::Manager) },
        Account { key: "crew".into(), email: format!("crew.{tag}@world.test"), name: format!("Casey Crew {tag}"), first_last: None, role: Role::Builder, company_role: Some(CompanyRole::Crew) },
    ];
    for (i, first) in ["Harper", "Rowan", "Quinn", "Sage"].into_iter().cycle().enumerate().take(spec.homeowners) {
        let key = homeowner_key(i);
        let last = format!("Home{} {tag}", i + 1);
        accounts.push(Account {
            email: format!("{key}.{tag}@world.test"),
            name: format!("{first} {last}"),
            first_last: Some((first.to_owned(), last)),
            key,
            role: Role::Homeowner,
            company_role: None,
        });
    }
    let ids: Vec<String> = accounts.iter().map(|_| new_id()).collect();
    let id_of = |key: &str| accounts.iter().position(|a| a.key == key).map(|i| ids[i].clone());
    let owner_id = id_of("owner").unwrap_or_default();
    let crew_id = id_of("crew").unwrap_or_default();
    let company = WorldCompany { id: new_id(), name: format!("Keystone Builders {tag}") };

    // Photo files first, rows after: a failure in between leaves only files no row
    // names, which the orphan sweep removes.
    let mut planned = Vec::new();
    for p in 0..spec.projects {
        let street = STREETS[p % STREETS.len()];
        let homeowner = homeowner_key(p % spec.homeowners);
        let project_id = new_id();
        let rows = art_photos(photos, &project_id, &owner_id, spec.photos, p as u32, now).await?;
        // Past the streets, the same streets again with a number.
        let title = if p < STREETS.len() { format!("{street} Residence {tag}") } else { format!("{street} Residence {tag} {}", p + 1) };
        planned.push((project_id, title, format!("{} {street}, Springfield", 100 + p * 11), homeowner, rows));
    }
    let stranger = if spec.stranger_project {
        let project_id = new_id();
        let rows = art_photos(photos, &project_id, &owner_id, 1, 9, now).await?;
        Some((project_id, rows))
    } else {
        None
    };

    let mut tx = store.begin_write().await?;
    let mut users_out = BTreeMap::new();
    for (account, id) in accounts.iter().zip(&ids) {
        users::insert(
            &mut *tx,
            &NewUser {
                id,
                email: &account.email,
                role: account.role,
                name: Some(&account.name),
                first_name: account.first_last.as_ref().map(|(f, _)| f.as_str()),
                last_name: account.first_last.as_ref().map(|(_, l)| l.as_str()),
                phone: Some("(555) 010-0100"),
                builder_id: (account.role == Role::Homeowner).then_some(owner_id.as_str()),
                password_hash: Some(&hash),
                email_confirmed_at: Some(now - 30 * DAY_MS),
                now: now - 30 * DAY_MS,
            },
        )
        .await?;
        let token = new_token();
        sessions::insert(
            &mut *tx,
            &NewSession { id: &new_id(), user_id: id, token_hash: &hash_token(&token), now, expires_at: now + SESSION_ABSOLUTE_MS, user_agent: None, ip: Some("127.0.0.1") },
        )
        .await?;
        users_out.insert(
            account.key.clone(),
            WorldUser { id: id.clone(), email: account.email.clone(), name: account.name.clone(), role: account.role, company_role: account.company_role, session: token },
        );
    }
    companies::insert(&mut *tx, &company.id, &company.name, now - 30 * DAY_MS).await?;
    for (account, id) in accounts.iter().zip(&ids) {
        if let Some(role) = account.company_role {
            users::set_membership(&mut *tx, id, Some((&company.id, role, false)), now - 30 * DAY_MS).await?;
        }
    }

    let admin = Who { id: id_of("admin"), name: Some(accounts[0].name.clone()), role: Some(Role::Admin) };
    let builder = Who { id: Some(owner_id.clone()), name: Some(accounts[1].name.clone()), role: Some(Role::Builder) };
    let mut projects_out = Vec::new();
    for (index, (project_id, title, address, homeowner, rows)) in planned.iter().enumerate() {
        let started = now - 20 * DAY_MS;
        let homeowner_id = users_out.get(homeowner).map(|u| u.id.clone()).unwrap_or_default();
        let plan = if spec.milestones { plan(project_id, started, now) } else { Vec::new() };
        projects::insert(
            &mut *tx,
            project_id,
            &ProjectFields {
                title,
                description: "A two-storey family home with a covered porch.",
                address,
                homeowner_id: &homeowner_id,
                company_id: Some(&company.id),
                status: ProjectStatus::InProgress,
                progress: 40,
                thumbnail_image_id: None,
                thumbnail_pinned: false,
                progress_mode: ProgressMode::Manual,
            },
            started,
        )
        .await?;
        activity::insert(&mut *tx, &timeline::entry(project_id, &admin, &TimelineDetail::ProjectCreated, None, started)?).await?;
        for m in &plan {
            store_milestones::insert(&mut *tx, m).await?;
        }
        // The crew member works on the first project only, as crews do.
        if index == 0 {
            projects::set_crew(&mut *tx, project_id, std::slice::from_ref(&crew_id), started).await?;
        }
        for row in rows {
            images::insert(&mut *tx, row).await?;
            let detail = TimelineDetail::PhotosAdded { count: 1, photos: vec![timeline::photo(&row.id)], note: None };
            activity::insert(&mut *tx, &timeline::entry(project_id, &builder, &detail, row.batch_id.as_deref(), row.created_at)?).await?;
        }
        if let Some(newest) = rows.last() {
            projects::set_thumbnail(&mut *tx, project_id, Some(&newest.id), newest.created_at).await?;
        }
        let mut comment_ids = Vec::new();
        if let (true, Some(newest)) = (spec.comments, rows.last()) {
            let id = new_id();
            let body = format!("Looking great, thank you! ({tag})");
            let c = comments::NewComment { id: &id, image_id: &newest.id, project_id, author_id: &homeowner_id, body: &body, now: newest.created_at + 60_000 };
            comments::insert(&mut tx, &c).await?;
            comment_ids.push(id);
        }
        projects_out.push(WorldProject {
            id: project_id.clone(),
            title: title.clone(),
            address: address.clone(),
            homeowner: homeowner.clone(),
            photos: rows.iter().map(|r| WorldPhoto { id: r.id.clone(), caption: r.caption.clone().unwrap_or_default() }).collect(),
            milestones: plan.iter().map(|m| WorldMilestone { id: m.id.clone(), name: m.name.clone(), done: m.done_date.is_some() }).collect(),
            comments: comment_ids,
        });
    }

    let stranger_out = match stranger {
        Some((project_id, rows)) => {
            // Its own company and homeowner, neither of which any world account can see.
            let (other_company, other_owner) = (new_id(), new_id());
            companies::insert(&mut *tx, &other_company, &format!("Elsewhere Homes {tag}"), now).await?;
            let email = format!("elsewhere.{tag}@world.test");
            let name = format!("Elliot Elsewhere {tag}");
            users::insert(
                &mut *tx,
                &NewUser { id: &other_owner, email: &email, role: Role::Homeowner, name: Some(&name), first_name: None, last_name: None, phone: None, builder_id: None, password_hash: None, email_confirmed_at: Some(now), now },
            )
            .await?;
            let (title, address) = (format!("Elsewhere House {tag}"), "1 Elsewhere Road, Shelbyville".to_owned());
            projects::insert(
                &mut *tx,
                &project_id,
                &ProjectFields { title: &title, description: "", address: &address, homeowner_id: &other_owner, company_id: Some(&other_company), status: ProjectStatus::InProgress, progress: 10, thumbnail_image_id: None, thumbnail_pinned: false, progress_mode: ProgressMode::Manual },
                now,
            )
            .await?;
            for row in &rows {
                images::insert(&mut *tx, row).await?;
            }
            Some(WorldProject {
                id: project_id,
                title,
                address,
                homeowner: String::new(),
                photos: rows.iter().map(|r| WorldPhoto { id: r.id.clone(), caption: r.caption.clone().unwrap_or_default() }).collect(),
                milestones: Vec::new(),
                comments: Vec::new(),
            })
        }
        None => None,
    };
    tx.commit().await?;
    if spec.year_of_photos > 0 {
        let pool = bulk::pool()?;
        for (index, project) in projects_out.iter_mut().enumerate() {
            let visits = bulk::Visits { count: spec.year_of_photos, visit_size: 25, days: 365, now: now - DAY_MS, variant: index };
            let rows = bulk::add_visits(store, photos, &pool, &project.id, &builder, &visits).await?;
            let mut all: Vec<WorldPhoto> = rows.iter().map(|r| WorldPhoto { id: r.id.clone(), caption: r.caption.clone().unwrap_or_default() }).collect();
            all.append(&mut project.photos);
            project.photos = all;
        }
    }
    Ok(World { tag, password: WORLD_PASSWORD.to_owned(), company, users: users_out, projects: projects_out, stranger_project: stranger_out })
}

/// `count` drawn photos of a project, a day apart and oldest first, their files stored.
async fn art_photos(photos: &dyn PhotoStore, project_id: &str, uploader: &str, count: usize, seed: u32, now: i64) -> Result<Vec<ImageRow>> {
    let mut rows = Vec::with_capacity(count);
    for i in 0..count {
        let stage = STAGES[i * STAGES.len() / count.max(1)];
        // Small, so a world of many photos is quick to make; renditions still come from
        // the real pipeline, as an upload's do.
        let art = demo_art::render(stage, seed * 100 + i as u32, 480, 360);
        let image_id = new_id();
        let prefix = photo_prefix(project_id, &image_id);
        let (size, r) = store_drawn_photo(photos, &photo_keys(&prefix, "jpg"), &art, 85).await?;
        let at = now - (count - i) as i64 * DAY_MS;
        let caption = format!("Visit {} · {}", i + 1, stage_name(stage));
        rows.push(ImageRow {
            id: image_id,
            project_id: project_id.to_owned(),
            uploaded_by: Some(uploader.to_owned()),
            category: if matches!(stage, Stage::Site) { ImageCategory::General } else { ImageCategory::Structural },
            caption: Some(caption.clone()),
            original_name: format!("visit-{}.jpg", i + 1),
            content_type: "image/jpeg".to_owned(),
            byte_size: size,
            width: r.width as i32,
            height: r.height as i32,
            taken_at: Some(at),
            storage_key: prefix,
            created_at: at,
            updated_at: at,
            version: 1,
            comment_count: 0,
            visit_note: None,
            batch_id: Some(new_id()),
            milestone_id: None,
            markup_count: 0,
            tags: vec![stage_name(stage).to_owned()],
            location: None,
            uploader: None,
        });
    }
    Ok(rows)
}

/// The residential plan, its first two steps done in the past, the rest ahead.
fn plan(project_id: &str, started: i64, now: i64) -> Vec<store_milestones::MilestoneRow> {
    let mut ids = new_id;
    let mut plan = milestones::template_rows(project_id, 0, started, &mut ids);
    for (i, m) in plan.iter_mut().enumerate() {
        if i < 2 {
            let day = started + (i as i64 + 1) * 5 * DAY_MS;
            m.done_date = Some(milestones::day_of(day));
            m.target_date = Some(milestones::day_of(day));
            m.updated_at = day;
        } else {
            m.target_date = Some(milestones::day_of(now + (i as i64 - 1) * 14 * DAY_MS));
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_request_is_a_small_useful_world() {
        let spec: WorldSpec = serde_json::from_str("{}").unwrap_or_default();
        assert_eq!((spec.projects, spec.photos, spec.homeowners, spec.milestones, spec.comments), (1, 3, 1, true, true));
    }

    #[test]
    fn unknown_fields_are_refused_rather_than_ignored() {
        assert!(serde_json::from_str::<WorldSpec>(r#"{"fotos": 3}"#).is_err());
    }

    #[test]
    fn the_plan_has_two_steps_done_and_the_rest_ahead() {
        let now = 1_800_000_000_000;
        let rows = plan("p", now - 20 * DAY_MS, now);
        assert!(rows.len() > 2);
        assert!(rows[..2].iter().all(|m| m.done_date.is_some()));
        assert!(rows[2..].iter().all(|m| m.done_date.is_none() && m.target_date.as_deref() > Some(milestones::day_of(now).as_str())));
    }
}
