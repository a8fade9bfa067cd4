//! The project's story (docs/FEATURES.md, "The project's story") over the socket and
//! HTTP, on each backend: milestone rules and the progress that follows them, timeline
//! entries written with the change they record and delivered live, paging by cursor,
//! photo tags and site visits.

use std::collections::HashSet;

use awc::http::StatusCode;
use protocol::{
    AddMilestone, CreateProject, CreateUser, ErrorCode, Event, MilestonePlan, MilestoneStart, ProgressMode, Project,
    ProjectImage, ProjectStatus, Request, Response, Role, SetMilestoneDone, TimelineDetail, TimelineEntry, UpdateMilestone,
    UpdatePhoto, UpdateProject,
};
use serde_json::json;

use crate::support::{for_each_backend, link_token, Options, TestServer, TestSql, World, WorldSpec, WsClient};
use crate::uploads::{photo, Tus};

const NOT_ALLOWED: &str = "Only administrators and the project's builder can change milestones.";
const FOLLOWS: &str = "Progress follows the milestones. Switch to manual progress to set it by hand.";

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// A company with a project of each of two homeowners (so one of theirs the first
/// homeowner may not see), with no photos, plan or comments of its own: the tests make
/// the projects whose story they tell.
async fn story_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 2, photos: 0, homeowners: 2, milestones: false, comments: false, ..WorldSpec::default() }).await
}

/// A new project of the world's homeowner and company, from the residential template,
/// its progress following the milestones (or set by hand).
async fn new_project(admin: &mut WsClient, id: u32, homeowner: &str, builder: &str, mode: ProgressMode) -> Project {
    let create = CreateProject {
        title: format!("Story House {id}"),
        description: String::new(),
        address: format!("{id} Story Lane"),
        homeowner_id: homeowner.to_owned(),
        builder_id: Some(builder.to_owned()),
        status: ProjectStatus::Planning,
        progress: 0,
        progress_mode: Some(mode),
        milestones: Some(MilestoneStart::Residential),
    };
    match admin.request(id, Request::CreateProject(create)).await.unwrap() {
        Response::Project { project } => project,
        other => panic!("expected a project, got {other:?}"),
    }
}

async fn plan_of(ws: &mut WsClient, id: u32, request: Request) -> Result<MilestonePlan, protocol::ApiError> {
    match ws.request(id, request).await? {
        Response::Milestones { plan } => Ok(plan),
        other => panic!("expected milestones, got {other:?}"),
    }
}

async fn timeline(ws: &mut WsClient, id: u32, project: &str, before: Option<String>) -> Result<(Vec<TimelineEntry>, Option<String>), protocol::ApiError> {
    match ws.request(id, Request::ListTimeline(protocol::ListTimeline { project_id: project.to_owned(), before })).await? {
        Response::Timeline { entries, next, .. } => Ok((entries, next)),
        other => panic!("expected a timeline, got {other:?}"),
    }
}

async fn subscribe(ws: &mut WsClient, id: u32, project: &str) -> (Vec<ProjectImage>, MilestonePlan) {
    match ws.request(id, Request::Subscribe(protocol::Subscribe { id: project.to_owned() })).await.unwrap() {
        Response::Subscribed { photos, milestones, .. } => (photos, milestones),
        other => panic!("expected subscribed, got {other:?}"),
    }
}

/// `sql`'s one number for a project (bound as `$1`).
async fn count(server: &TestServer, sql: TestSql, project: &str) -> i64 {
    sql.bind(project).scalar(server.state.store.pool()).await.unwrap()
}

async fn milestone_rows(server: &TestServer, project: &str) -> i64 {
    let sql = TestSql::per_backend(
        "SELECT COUNT(*) FROM milestones WHERE project_id = $1",
        "SELECT COUNT(*) FROM milestones WHERE project_id = $1::uuid",
    );
    count(server, sql, project).await
}

async fn entry_rows(server: &TestServer, project: &str) -> i64 {
    let sql = TestSql::per_backend(
        "SELECT COUNT(*) FROM project_activity WHERE project_id = $1",
        "SELECT COUNT(*) FROM project_activity WHERE project_id = $1::uuid",
    );
    count(server, sql, project).await
}

async fn photo_rows(server: &TestServer, project: &str) -> i64 {
    let sql = TestSql::per_backend(
        "SELECT COUNT(*) FROM project_images WHERE project_id = $1",
        "SELECT COUNT(*) FROM project_images WHERE project_id = $1::uuid",
    );
    count(server, sql, project).await
}

async fn version_of(server: &TestServer, project: &str) -> i64 {
    let sql = TestSql::per_backend("SELECT version FROM projects WHERE id = $1", "SELECT version FROM projects WHERE id = $1::uuid");
    count(server, sql, project).await
}

fn names(plan: &MilestonePlan) -> Vec<&str> {
    plan.milestones.iter().map(|m| m.name.as_str()).collect()
}

fn dense(plan: &MilestonePlan) -> bool {
    plan.milestones.iter().enumerate().all(|(i, m)| m.position == i as i32)
}

fn set_done(id: &str, done: bool) -> Request {
    Request::SetMilestoneDone(SetMilestoneDone { id: id.to_owned(), done, done_date: None })
}

/// Another builder, invited and signed up: they see none of the world builder's projects.
async fn other_builder(server: &TestServer, admin: &mut WsClient) -> WsClient {
    const PASSWORD: &str = "second-builder-pass";
    let email = "second.builder@example.com";
    let input = CreateUser {
        role: Role::Builder,
        email: email.into(),
        first_name: String::new(),
        last_name: String::new(),
        name: "Second Builders".into(),
        phone: "555-0101".into(),
        builder_id: None,
    };
    admin.request(900, Request::CreateUser(input)).await.unwrap();
    let token = link_token(&server.wait_for_mail(email, "You're invited to Sitecast").await);
    let r = server.post("/api/auth/reset", json!({"token": token, "password": PASSWORD, "confirmPassword": PASSWORD}), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    server.connect_with(email, PASSWORD).await.0
}

/// The next event about a project's story on a socket: milestones, or a timeline entry.
async fn next_entry(ws: &mut WsClient) -> TimelineEntry {
    ws.event(|e| match e {
        Event::TimelineAdded { entry } => Some(entry.clone()),
        _ => None,
    })
    .await
}

/// What a completed milestone tells a subscriber: the plan, the project's (progress,
/// version) and the timeline entry. The project event comes through the hub, the
/// others through the project's actor: their relative order is not fixed.
async fn milestone_change_seen(ws: &mut WsClient, project: &str) -> (MilestonePlan, (i32, i64), TimelineEntry) {
    let (mut plan, mut progress, mut entry) = (None, None, None);
    while plan.is_none() || progress.is_none() || entry.is_none() {
        match ws.next_any().await {
            protocol::ServerMsg::Event { event: Event::MilestonesChanged { plan: p } } => plan = Some(p),
            protocol::ServerMsg::Event { event: Event::ProjectUpdated { project: p, .. } } if p.id == project => {
                progress = Some((p.progress, p.version))
            }
            protocol::ServerMsg::Event { event: Event::TimelineAdded { entry: e } } => entry = Some(e),
            _ => {}
        }
    }
    (plan.unwrap(), progress.unwrap(), entry.unwrap())
}

#[actix_web::test]
async fn milestones_are_kept_by_admins_and_the_builder_and_progress_follows_them() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = story_world(&server).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, bhello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, hhello) = server.connect_as(&world.users["homeowner"].session).await;
        let project = new_project(&mut admin, 1, &hhello.user.id, bhello.user.company_id.as_deref().unwrap(), ProgressMode::Milestones).await;
        assert_eq!((project.progress, project.progress_mode), (0, ProgressMode::Milestones));

        // The template, in order, for everyone who sees the project (and in the subscription).
        let (_, subscribed) = subscribe(&mut home, 1, &project.id).await;
        assert_eq!(names(&subscribed), sitecast::domain::projects::milestones::RESIDENTIAL);
        assert!(dense(&subscribed));
        assert_eq!(subscribed.version, project.version);
        let plan = plan_of(&mut builder, 1, Request::ListMilestones(protocol::ListMilestones { project_id: project.id.clone() })).await.unwrap();
        assert_eq!(plan, subscribed);

        // Homeowners and other builders may not change them; nothing is written.
        let (rows, version) = (milestone_rows(&server, &project.id).await, version_of(&server, &project.id).await);
        let add = |name: &str, date: Option<&str>| {
            Request::AddMilestone(AddMilestone { project_id: project.id.clone(), name: name.into(), target_date: date.map(Into::into) })
        };
        let err = plan_of(&mut home, 2, add("Pool", None)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, NOT_ALLOWED));
        let err = plan_of(&mut home, 3, set_done(&plan.milestones[0].id, true)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, NOT_ALLOWED));
        let mut stranger = other_builder(&server, &mut admin).await;
        let err = plan_of(&mut stranger, 1, add("Pool", None)).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        let err = plan_of(&mut stranger, 2, set_done(&plan.milestones[0].id, true)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::NotFound, "Milestone not found"));
        let err = plan_of(&mut stranger, 3, Request::DeleteMilestone(protocol::DeleteMilestone { id: plan.milestones[0].id.clone() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        let err = timeline(&mut stranger, 4, &project.id, None).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        assert_eq!((milestone_rows(&server, &project.id).await, version_of(&server, &project.id).await), (rows, version));

        // The builder completes one: the plan, the project's progress (1 of 9) and a
        // timeline entry reach the subscribed homeowner.
        let first = plan.milestones[0].clone();
        let after = plan_of(&mut builder, 4, set_done(&first.id, true)).await.unwrap();
        assert!(after.milestones[0].done_date.is_some());
        assert_eq!(after.version, version + 1);
        let (plan_seen, progress, entry) = milestone_change_seen(&mut home, &project.id).await;
        assert_eq!(plan_seen, after);
        assert_eq!(progress, (11, version + 1));
        assert!(matches!(&entry.detail, TimelineDetail::MilestoneCompleted { milestone_id, name } if *milestone_id == first.id && name == "Site preparation"));
        assert_eq!((entry.actor_name.as_deref(), entry.actor_role), (Some(format!("{} · {}", world.users["owner"].name, world.company.name).as_str()), Some(Role::Builder)));

        // In milestones mode progress is not set by hand.
        let by_hand = UpdateProject { id: project.id.clone(), progress: Some(80), ..UpdateProject::default() };
        let err = admin.request(5, Request::UpdateProject(by_hand.clone())).await.unwrap_err();
        assert_eq!((err.code, err.fields[0].field.as_str(), err.fields[0].message.as_str()), (ErrorCode::Validation, "progress", FOLLOWS));

        // Moving keeps positions dense; deleting recounts the progress (1 of 8).
        let last = after.milestones[8].clone();
        let moved = plan_of(&mut admin, 6, Request::MoveMilestone(protocol::MoveMilestone { id: last.id.clone(), position: 1 })).await.unwrap();
        assert_eq!(names(&moved)[..3], ["Site preparation", "Handover", "Foundation"]);
        assert!(dense(&moved));
        let err = plan_of(&mut admin, 7, Request::MoveMilestone(protocol::MoveMilestone { id: last.id.clone(), position: 9 })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
        let deleted = plan_of(&mut builder, 8, Request::DeleteMilestone(protocol::DeleteMilestone { id: last.id.clone() })).await.unwrap();
        assert_eq!(deleted.milestones.len(), 8);
        assert!(dense(&deleted) && !names(&deleted).contains(&"Handover"));
        let Response::Project { project: now } = admin.request(9, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else { panic!() };
        assert_eq!(now.progress, 13);

        // Names and dates are checked; a rename and a date change only what they name.
        let err = plan_of(&mut builder, 10, add("  ", None)).await.unwrap_err();
        assert_eq!(err.fields[0].message, "Milestone name is required.");
        let err = plan_of(&mut builder, 11, add("Landscaping", Some("2026-02-30"))).await.unwrap_err();
        assert_eq!(err.fields[0].field, "targetDate");
        let added = plan_of(&mut builder, 12, add(" Landscaping ", Some("2026-09-30"))).await.unwrap();
        let landscaping = added.milestones.last().unwrap().clone();
        assert_eq!((landscaping.name.as_str(), landscaping.position, landscaping.target_date.as_deref()), ("Landscaping", 8, Some("2026-09-30")));
        let rename = UpdateMilestone { id: landscaping.id.clone(), name: Some("Landscaping & fencing".into()), target_date: None };
        let renamed = plan_of(&mut builder, 13, Request::UpdateMilestone(rename)).await.unwrap();
        let m = renamed.milestones.last().unwrap();
        assert_eq!((m.name.as_str(), m.target_date.as_deref()), ("Landscaping & fencing", Some("2026-09-30")));

        // Manual mode: milestones no longer move the progress; back to milestones
        // takes their share at once (2 of 9).
        let manual = UpdateProject { id: project.id.clone(), progress_mode: Some(ProgressMode::Manual), ..UpdateProject::default() };
        admin.request(14, Request::UpdateProject(manual)).await.unwrap();
        let done = SetMilestoneDone { id: landscaping.id.clone(), done: true, done_date: Some("2026-09-28".into()) };
        plan_of(&mut builder, 15, Request::SetMilestoneDone(done)).await.unwrap();
        let Response::Project { project: now } = admin.request(16, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else { panic!() };
        assert_eq!((now.progress, now.progress_mode), (11, ProgressMode::Manual));
        let by_hand = UpdateProject { progress: Some(30), ..by_hand };
        let Response::Project { project: now } = admin.request(17, Request::UpdateProject(by_hand)).await.unwrap() else { panic!() };
        assert_eq!(now.progress, 30, "set by hand in manual mode");
        let follow = UpdateProject { id: project.id.clone(), progress_mode: Some(ProgressMode::Milestones), ..UpdateProject::default() };
        let Response::Project { project: now } = admin.request(18, Request::UpdateProject(follow)).await.unwrap() else { panic!() };
        assert_eq!((now.progress, now.progress_mode), (22, ProgressMode::Milestones));
        // Builders choose neither the mode nor the progress.
        let manual = UpdateProject { id: project.id.clone(), progress_mode: Some(ProgressMode::Manual), ..UpdateProject::default() };
        assert_eq!(builder.request(19, Request::UpdateProject(manual)).await.unwrap_err().code, ErrorCode::Forbidden);

        // The template appends; a reopened milestone recounts (1 of 18).
        let more = plan_of(&mut admin, 20, Request::AddMilestoneTemplate(protocol::AddMilestoneTemplate { project_id: project.id.clone() })).await.unwrap();
        assert_eq!(more.milestones.len(), 18);
        assert!(dense(&more));
        plan_of(&mut admin, 21, set_done(&first.id, false)).await.unwrap();
        let Response::Project { project: now } = admin.request(22, Request::GetProject(protocol::GetProject { id: project.id.clone() })).await.unwrap() else { panic!() };
        assert_eq!(now.progress, 6);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn timeline_entries_are_written_with_their_change_and_reach_subscribers_live() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = story_world(&server).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, bhello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, hhello) = server.connect_as(&world.users["homeowner"].session).await;
        let project = new_project(&mut admin, 1, &hhello.user.id, bhello.user.company_id.as_deref().unwrap(), ProgressMode::Manual).await;
        subscribe(&mut home, 1, &project.id).await;
        subscribe(&mut builder, 1, &project.id).await;
        let (entries, next) = timeline(&mut home, 2, &project.id, None).await.unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(next, None);
        assert_eq!(entries[0].detail, TimelineDetail::ProjectCreated);
        assert_eq!((entries[0].actor_name.as_deref(), entries[0].actor_role), (Some(world.users["admin"].name.as_str()), Some(Role::Admin)));

        // A status and a progress change: two entries in the same commit as the change,
        // pushed to the subscribed homeowner.
        let change = UpdateProject {
            id: project.id.clone(),
            status: Some(ProjectStatus::InProgress),
            progress: Some(15),
            ..UpdateProject::default()
        };
        admin.request(2, Request::UpdateProject(change)).await.unwrap();
        let status = next_entry(&mut home).await;
        let progress = next_entry(&mut home).await;
        assert_eq!(status.detail, TimelineDetail::StatusChanged { from: ProjectStatus::Planning, to: ProjectStatus::InProgress });
        assert_eq!(progress.detail, TimelineDetail::ProgressChanged { from: 0, to: 15 });
        let (entries, _) = timeline(&mut home, 3, &project.id, None).await.unwrap();
        assert_eq!(entries[..2], [progress.clone(), status.clone()], "newest first, as delivered");
        assert_eq!(entry_rows(&server, &project.id).await, 3);

        // Changes that fail write no entry.
        let refused = UpdateProject { id: project.id.clone(), status: Some(ProjectStatus::OnHold), ..UpdateProject::default() };
        assert_eq!(builder.request(4, Request::UpdateProject(refused)).await.unwrap_err().code, ErrorCode::Forbidden);
        let invalid = UpdateProject { id: project.id.clone(), progress: Some(101), ..UpdateProject::default() };
        assert_eq!(admin.request(5, Request::UpdateProject(invalid)).await.unwrap_err().code, ErrorCode::Validation);
        let unchanged = UpdateProject { id: project.id.clone(), progress: Some(15), ..UpdateProject::default() };
        assert_eq!(admin.request(6, Request::UpdateProject(unchanged)).await.unwrap_err().code, ErrorCode::NoChanges);
        assert_eq!(entry_rows(&server, &project.id).await, 3);
        // A details change is not a timeline event.
        let title = UpdateProject { id: project.id.clone(), title: Some("Story House, renamed".into()), ..UpdateProject::default() };
        builder.request(7, Request::UpdateProject(title)).await.unwrap();
        assert_eq!(entry_rows(&server, &project.id).await, 3);

        // A photo batch, then a comment on one of its photos: their entries arrive live;
        // the comment's goes with it.
        let r = server.upload(&project.id, &world.users["owner"].session, &[("a.jpg", &photo(64, 48)), ("b.jpg", &photo(48, 64))]).await;
        assert!(r.all_stored(), "{r}");
        let visit = next_entry(&mut home).await;
        let TimelineDetail::PhotosAdded { count, photos, note } = &visit.detail else { panic!("{visit:?}") };
        let uploaded: Vec<&str> = r.photos.iter().map(|p| p.id.as_str()).collect();
        assert_eq!((*count, note.clone()), (2, None));
        // In the order they were stored (two are rendered at once, so either may be first).
        let strip: HashSet<&str> = photos.iter().map(|p| p.id.as_str()).collect();
        assert_eq!((photos.len(), strip), (2, uploaded.iter().copied().collect()));
        assert_eq!(photos[0].thumb_url, format!("/media/images/{}/thumb", photos[0].id));
        let batch = r.photos[0].batch_id.clone().expect("a site visit");
        assert_eq!(r.photos[1].batch_id.as_deref(), Some(batch.as_str()), "one selection, one site visit");

        let body = "Is the   north wall\nsheathing done?".to_owned();
        let add = Request::AddComment(protocol::AddComment { image_id: uploaded[1].to_owned(), body });
        let Response::Comment { comment } = home.request(8, add).await.unwrap() else { panic!() };
        let said = builder
            .event(|e| match e {
                Event::TimelineAdded { entry } if matches!(entry.detail, TimelineDetail::Comment { .. }) => Some(entry.clone()),
                _ => None,
            })
            .await;
        assert_eq!(said.detail, TimelineDetail::Comment {
            comment_id: comment.id.clone(),
            excerpt: "Is the north wall sheathing done?".into(),
            photo: protocol::TimelinePhoto { id: uploaded[1].to_owned(), thumb_url: format!("/media/images/{}/thumb", uploaded[1]) },
        });
        assert_eq!((said.actor_name.as_deref(), said.actor_role), (Some(world.users["homeowner"].name.as_str()), Some(Role::Homeowner)));
        home.request(9, Request::DeleteComment(protocol::DeleteComment { id: comment.id.clone() })).await.unwrap();
        let removed = builder
            .event(|e| match e {
                Event::TimelineRemoved { id, project_id } => Some((id.clone(), project_id.clone())),
                _ => None,
            })
            .await;
        assert_eq!(removed, (said.id.clone(), project.id.clone()));
        let (entries, _) = timeline(&mut builder, 10, &project.id, None).await.unwrap();
        assert!(!entries.iter().any(|e| e.id == said.id));
        assert_eq!(entries[0].id, visit.id);

        // The strip shows only photos still there: an admin deletes one of the visit's.
        admin.request(11, Request::DeletePhoto(protocol::DeletePhoto { id: uploaded[0].to_owned() })).await.unwrap();
        let (entries, _) = timeline(&mut home, 12, &project.id, None).await.unwrap();
        let TimelineDetail::PhotosAdded { count, photos, .. } = &entries[0].detail else { panic!() };
        assert_eq!((*count, photos.iter().map(|p| p.id.as_str()).collect::<Vec<_>>()), (2, vec![uploaded[1]]));
        // A comment's entry also goes when its photo does.
        let add = Request::AddComment(protocol::AddComment { image_id: uploaded[1].to_owned(), body: "Looks good".into() });
        home.request(13, add).await.unwrap();
        let before = entry_rows(&server, &project.id).await;
        admin.request(14, Request::DeletePhoto(protocol::DeletePhoto { id: uploaded[1].to_owned() })).await.unwrap();
        assert_eq!(entry_rows(&server, &project.id).await, before - 1);

        // A malformed cursor is refused; a homeowner reads no one else's timeline.
        let err = timeline(&mut home, 15, &project.id, Some("yesterday".into())).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::BadRequest, "Invalid timeline cursor."));
        let neighbours = hhello.snapshot.projects.len();
        let (_, ahello) = server.connect_as(&world.users["admin"].session).await;
        let foreign = ahello.snapshot.projects.iter().find(|p| p.homeowner_id != hhello.user.id).unwrap();
        assert_eq!(timeline(&mut home, 16, &foreign.id, None).await.unwrap_err().code, ErrorCode::Forbidden);
        assert!(neighbours > 0);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn the_timeline_pages_by_cursor_without_gaps_or_repeats() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = story_world(&server).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (_, bhello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, hhello) = server.connect_as(&world.users["homeowner"].session).await;
        let project = new_project(&mut admin, 1, &hhello.user.id, bhello.user.company_id.as_deref().unwrap(), ProgressMode::Manual).await;
        // 44 progress changes and the creation: 45 entries.
        for n in 1..=44 {
            let change = UpdateProject { id: project.id.clone(), progress: Some(n), ..UpdateProject::default() };
            admin.request(1 + n as u32, Request::UpdateProject(change)).await.unwrap();
        }
        let all: Vec<TimelineEntry> = {
            let mut all = Vec::new();
            let mut before = None;
            for page in 0.. {
                let (entries, next) = timeline(&mut home, 100 + page, &project.id, before.clone()).await.unwrap();
                all.extend(entries);
                match next {
                    Some(next) => before = Some(next),
                    None => break,
                }
            }
            all
        };
        assert_eq!(all.len(), 45);
        assert_eq!(all.last().map(|e| &e.detail), Some(&TimelineDetail::ProjectCreated));
        assert_eq!(all[0].detail, TimelineDetail::ProgressChanged { from: 43, to: 44 });
        assert!(all.windows(2).all(|w| (w[0].created_at, &w[0].id) > (w[1].created_at, &w[1].id)), "newest first, strictly");

        // Paging while entries are added: the first page, then a new entry, then the
        // rest. Every old entry is read exactly once; the new one is on a fresh first page.
        let (first, next) = timeline(&mut home, 200, &project.id, None).await.unwrap();
        assert_eq!(first.len(), 20);
        let change = UpdateProject { id: project.id.clone(), progress: Some(50), ..UpdateProject::default() };
        admin.request(201, Request::UpdateProject(change)).await.unwrap();
        let (second, next) = timeline(&mut home, 202, &project.id, next).await.unwrap();
        let (third, next) = timeline(&mut home, 203, &project.id, next).await.unwrap();
        assert_eq!((second.len(), third.len(), next), (20, 5, None));
        let read: Vec<&str> = first.iter().chain(&second).chain(&third).map(|e| e.id.as_str()).collect();
        assert_eq!(read, all.iter().map(|e| e.id.as_str()).collect::<Vec<_>>());
        assert_eq!(read.iter().collect::<HashSet<_>>().len(), 45, "no repeats");
        let (fresh, _) = timeline(&mut home, 204, &project.id, None).await.unwrap();
        assert_eq!(fresh[0].detail, TimelineDetail::ProgressChanged { from: 44, to: 50 });
        assert_eq!(fresh[1].id, all[0].id);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn photos_are_tagged_with_milestones_when_uploaded_or_later() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = story_world(&server).await;
        let (mut admin, _) = server.connect_as(&world.users["admin"].session).await;
        let (mut builder, bhello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, hhello) = server.connect_as(&world.users["homeowner"].session).await;
        let project = new_project(&mut admin, 1, &hhello.user.id, bhello.user.company_id.as_deref().unwrap(), ProgressMode::Milestones).await;
        let other = new_project(&mut admin, 2, &hhello.user.id, bhello.user.company_id.as_deref().unwrap(), ProgressMode::Manual).await;
        let (_, plan) = subscribe(&mut home, 1, &project.id).await;
        let (_, other_plan) = subscribe(&mut builder, 1, &other.id).await;
        let (framing, roofing) = (plan.milestones[2].clone(), plan.milestones[3].clone());

        // A site visit's photos tagged with a milestone in their metadata: every one is.
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let visit = uuid::Uuid::new_v4().to_string();
        let mut tagged_ids = Vec::new();
        for name in ["a.jpg", "b.jpg"] {
            let file = photo(64, 48);
            let meta = [("projectId", project.id.as_str()), ("filename", name), ("milestoneId", &framing.id), ("batchId", &visit), ("batchSize", "2")];
            let created = tus.create(file.len(), &meta).await;
            assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
            let done = tus.patch(&created.header("location").unwrap(), 0, &file).await;
            tagged_ids.push(done.header("sitecast-photo").expect("stored"));
        }
        for id in &tagged_ids {
            let added = home
                .event(|e| match e {
                    Event::PhotoAdded { photo } if photo.id == *id => Some(photo.clone()),
                    _ => None,
                })
                .await;
            assert_eq!(added.milestone_id.as_deref(), Some(framing.id.as_str()));
        }
        let tagged = tagged_ids[0].clone();

        // A resumable upload tagged in its metadata, in a batch: the batch is its visit.
        let tus = Tus::new(&server, &world.users["owner"].session).await;
        let file = photo(80, 60);
        let batch = uuid::Uuid::new_v4().to_string();
        let created = tus
            .create(file.len(), &[("projectId", &project.id), ("filename", "r.jpg"), ("milestoneId", &roofing.id), ("batchId", &batch), ("batchSize", "1")])
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let done = tus.patch(&created.header("location").unwrap(), 0, &file).await;
        let resumed = done.header("sitecast-photo").expect("stored");
        let added = home
            .event(|e| match e {
                Event::PhotoAdded { photo } if photo.id == resumed => Some(photo.clone()),
                _ => None,
            })
            .await;
        assert_eq!((added.milestone_id.as_deref(), added.batch_id.as_deref()), (Some(roofing.id.as_str()), Some(batch.as_str())));
        // Another project's milestone is refused up front, and nothing is stored.
        let photos_before = photo_rows(&server, &project.id).await;
        let foreign = tus.create(file.len(), &[("projectId", &project.id), ("milestoneId", &other_plan.milestones[0].id)]).await;
        assert_eq!(foreign.status, StatusCode::BAD_REQUEST, "{}", foreign.body);
        assert_eq!(foreign.body["fields"][0]["message"], "That milestone is not in this project.");
        assert_eq!(photo_rows(&server, &project.id).await, photos_before);

        // Tagging later, over the socket: builders and admins; clearing with "".
        let tag = |id: &str, milestone: &str| {
            Request::UpdatePhoto(UpdatePhoto { id: id.to_owned(), milestone_id: Some(milestone.to_owned()), ..UpdatePhoto::default() })
        };
        let Response::Photo { photo: p } = builder.request(2, tag(&tagged, &roofing.id)).await.unwrap() else { panic!() };
        assert_eq!(p.milestone_id.as_deref(), Some(roofing.id.as_str()));
        let err = builder.request(3, tag(&tagged, &other_plan.milestones[0].id)).await.unwrap_err();
        assert_eq!((err.code, err.fields[0].field.as_str(), err.fields[0].message.as_str()), (ErrorCode::Validation, "milestoneId", "That milestone is not in this project."));
        assert_eq!(home.request(2, tag(&tagged, "")).await.unwrap_err().code, ErrorCode::Forbidden);
        let Response::Photo { photo: p } = admin.request(3, tag(&tagged, "")).await.unwrap() else { panic!() };
        assert_eq!(p.milestone_id, None);

        // Deleting a milestone untags its photos, each announced with a new version.
        let before = added.version;
        plan_of(&mut builder, 4, Request::DeleteMilestone(protocol::DeleteMilestone { id: roofing.id.clone() })).await.unwrap();
        let untagged = home
            .event(|e| match e {
                Event::PhotoUpdated { photo } if photo.id == resumed => Some(photo.clone()),
                _ => None,
            })
            .await;
        assert_eq!((untagged.milestone_id, untagged.version), (None, before + 1));
        server.stop().await;
        db
    })
    .await;
}

/// A fresh demo tells a story: milestones done with dates, a late one, and a timeline
/// of the project's creation, status, progress and site visits.
#[actix_web::test]
async fn the_demo_projects_have_milestones_and_a_timeline() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options { demo: true, ..slow_beats() }).await;
        let (mut home, hello) = server.connect("homeowner@sitecast.demo").await;
        let project = |title: &str| hello.snapshot.projects.iter().find(|p| p.title == title).unwrap().clone();
        let maple = project("Maple Street Residence");
        let (photos, plan) = subscribe(&mut home, 1, &maple.id).await;
        assert_eq!(plan.milestones.len(), 9);
        assert_eq!(plan.milestones.iter().filter(|m| m.done_date.is_some()).count(), 4);
        let current = &plan.milestones[4];
        let today = sitecast::domain::projects::milestones::day_of(sitecast::store::now_ms());
        assert!(current.done_date.is_none() && current.target_date.as_deref().is_some_and(|d| d < today.as_str()), "late: {current:?}");
        assert!(photos.iter().all(|p| p.batch_id.is_some() && p.milestone_id.is_some()));
        let lakeview = project("Lakeview Cottage");
        assert_eq!((lakeview.progress_mode, lakeview.progress), (ProgressMode::Milestones, 100));
        let (entries, _) = timeline(&mut home, 2, &maple.id, None).await.unwrap();
        let kinds: HashSet<&str> = entries.iter().map(|e| sitecast::domain::projects::timeline::kind(&e.detail)).collect();
        for kind in ["project_created", "status_changed", "progress_changed", "milestone_completed", "photos_added"] {
            assert!(kinds.contains(kind), "{kind} in {kinds:?}");
        }
        assert!(entries.windows(2).all(|w| w[0].created_at >= w[1].created_at));
        server.stop().await;
        db
    })
    .await;
}
