//! Builder companies (docs/FEATURES.md, "Builder companies"), over the socket on each
//! backend: who sees what in a company, invitations through the invite mail, crews,
//! attribution, role changes, removal, and an admin's companies (create, rename, move a
//! project, delete).

use std::io::Cursor;

use protocol::{
    ApiError, Company, CompanyRole, CreateCompany, ErrorCode, Event, InviteMember, Project, RemoveMember, Request, Response,
    SetProjectCrew, Subscribe, UpdateCompany, UpdateMember, UpdateProject,
};
use serde_json::json;

use crate::support::{for_each_backend, link_token, Options, TestServer, WorldSpec, WsClient, ORIGIN};

fn jpeg() -> Vec<u8> {
    let img = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 3, y as u8 * 5, 90])));
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

async fn company_of(ws: &mut WsClient, id: u32, request: Request) -> Result<Company, ApiError> {
    match ws.request(id, request).await? {
        Response::Company { company } => Ok(company),
        other => panic!("expected a company, got {other:?}"),
    }
}

async fn project_of(ws: &mut WsClient, id: u32, request: Request) -> Result<Project, ApiError> {
    match ws.request(id, request).await? {
        Response::Project { project } => Ok(project),
        other => panic!("expected a project, got {other:?}"),
    }
}

fn titles(projects: &[Project]) -> Vec<String> {
    let mut t: Vec<String> = projects.iter().map(|p| p.title.clone()).collect();
    t.sort();
    t
}

fn invite(company_id: &str, email: &str, name: &str, role: CompanyRole) -> Request {
    Request::InviteMember(InviteMember {
        company_id: company_id.into(),
        email: email.into(),
        name: name.into(),
        phone: String::new(),
        company_role: role,
        all_projects: false,
    })
}

/// Accepts the invitation mailed to `email`: sets a password through its link.
async fn accept(server: &TestServer, email: &str, password: &str) -> String {
    let mail = server.wait_for_mail(email, "You're invited to Sitecast").await;
    let token = link_token(&mail);
    let r = server.post("/api/auth/reset", json!({"token": token, "password": password, "confirmPassword": password}), None).await;
    assert_eq!(r.status, awc::http::StatusCode::OK, "{:?}", r.body);
    server.login(email, password).await
}

async fn open(server: &TestServer, cookie: &str) -> (WsClient, protocol::Hello) {
    let mut ws = server.ws(Some(cookie), Some(ORIGIN)).await.expect("socket opens");
    match ws.next_msg().await {
        protocol::ServerMsg::Hello(hello) => (ws, hello),
        other => panic!("expected Hello first, got {other:?}"),
    }
}

#[actix_web::test]
async fn a_company_s_people_see_what_their_role_and_crew_allow_and_a_removed_member_is_signed_out() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        // Three projects of the company; the crew member is on the first only.
        let world = server.world(WorldSpec { projects: 3, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let (company, people) = (world.company.name.as_str(), &world.users);
        let first_title = world.projects[0].title.as_str();
        let (mut owner, hello) = server.connect_as(&people["owner"].session).await;
        let summit = hello.snapshot.companies.first().cloned().expect("the owner's company");
        assert_eq!(hello.snapshot.companies.len(), 1);
        assert_eq!(summit.name, company);
        let roles: Vec<(String, CompanyRole)> = summit.members.iter().map(|m| (m.name.clone(), m.company_role)).collect();
        assert_eq!(
            roles,
            [
                (people["owner"].name.clone(), CompanyRole::Owner),
                (people["manager"].name.clone(), CompanyRole::Manager),
                (people["crew"].name.clone(), CompanyRole::Crew),
            ]
        );
        let everything = titles(&hello.snapshot.projects);
        assert!(everything.len() >= 3 && everything.contains(&first_title.to_owned()), "{everything:?}");
        let maple = hello.snapshot.projects.iter().find(|p| p.title == first_title).unwrap().clone();
        assert_eq!(maple.builder_id.as_deref(), Some(summit.id.as_str()));
        assert_eq!(maple.builder_name.as_deref(), Some(company));
        let crew_member = summit.members.iter().find(|m| m.company_role == CompanyRole::Crew).unwrap().id.clone();
        assert_eq!(maple.crew, vec![crew_member.clone()]);

        // The manager sees every project of the company; the crew member only theirs.
        let (mut manager, hello) = server.connect_as(&people["manager"].session).await;
        assert_eq!(titles(&hello.snapshot.projects), everything);
        let (mut crew, hello) = server.connect_as(&people["crew"].session).await;
        assert_eq!(titles(&hello.snapshot.projects), [first_title]);
        assert_eq!(hello.user.company_role, Some(CompanyRole::Crew));
        assert_eq!(hello.snapshot.companies.len(), 1, "members see their company");
        let other = hello.snapshot.projects.len();
        assert_eq!(other, 1);
        // Homeowners see no company.
        let (mut home, hello) = server.connect_as(&people["homeowner"].session).await;
        assert!(hello.snapshot.companies.is_empty());
        let r = home.request(1, Request::ListCompanies(protocol::ListCompanies {})).await.unwrap();
        assert!(matches!(r, Response::Companies { companies } if companies.is_empty()));

        // Who invites whom: managers invite crew only; crew nobody; homeowners see no company.
        let e = company_of(&mut manager, 1, invite(&summit.id, "pat@example.com", "Pat Lee", CompanyRole::Manager)).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden);
        let e = company_of(&mut crew, 1, invite(&summit.id, "pat@example.com", "Pat Lee", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden);
        let e = company_of(&mut home, 2, invite(&summit.id, "pat@example.com", "Pat Lee", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::NotFound);
        let e = company_of(&mut owner, 1, invite(&summit.id, "not-an-email", "Pat Lee", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Validation);
        let e = company_of(&mut owner, 2, invite(&summit.id, &people["homeowner"].email, "Harper", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.fields[0].message, "This email belongs to an account that can't join this company.");
        let e = company_of(&mut owner, 3, invite(&summit.id, &people["crew"].email, "Casey", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.fields[0].message, "This person is already a member of this company.");

        // The manager invites Robin as crew: the invite mail names the company and role.
        let after = company_of(&mut manager, 2, invite(&summit.id, "Robin@Example.com", "Robin Nguyen", CompanyRole::Crew)).await.unwrap();
        let robin_member = after.members.iter().find(|m| m.email == "robin@example.com").expect("invited").clone();
        assert!(robin_member.invited && robin_member.company_role == CompanyRole::Crew);
        // Everyone in the company hears of it; the homeowner does not.
        let changed = owner.event(|e| match e {
            Event::CompanyChanged { company } if company.members.len() == 4 => Some(company.clone()),
            _ => None,
        });
        assert_eq!(changed.await.id, summit.id);
        let mail = server.wait_for_mail("robin@example.com", "You're invited to Sitecast").await;
        assert!(mail.contains(&format!("join {company} as crew")), "{mail}");
        let robin_cookie = accept(&server, "robin@example.com", "robin-first-pass").await;
        let (mut robin, hello) = open(&server, &robin_cookie).await;
        assert!(hello.snapshot.projects.is_empty(), "crew on no project see none");
        assert_eq!(hello.user.company_name.as_deref(), Some(company));
        let robin_id = hello.user.id.clone();

        // The owner puts Robin on the project's crew and takes the crew member off: Robin
        // sees it arrive, the crew member sees it go; a crew member of another company
        // cannot be put on it.
        let set = |ids: Vec<String>| Request::SetProjectCrew(SetProjectCrew { project_id: maple.id.clone(), user_ids: ids });
        let e = project_of(&mut crew, 3, set(vec![crew_member.clone()])).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden, "crew do not pick the crew");
        let e = project_of(&mut owner, 4, set(vec![robin_id.clone(), "00000000-0000-4000-8000-000000000000".into()])).await.unwrap_err();
        assert_eq!(e.fields[0].message, "Only members of the project's company can be on its crew.");
        let moved = project_of(&mut owner, 5, set(vec![robin_id.clone()])).await.unwrap();
        assert_eq!(moved.crew, vec![robin_id.clone()]);
        let arrived = robin
            .event(|e| match e {
                Event::ProjectUpdated { project, .. } if project.id == maple.id => Some(project.clone()),
                _ => None,
            })
            .await;
        assert_eq!(arrived.crew, vec![robin_id.clone()]);
        crew.event(|e| matches!(e, Event::ProjectDeleted { id, .. } if *id == maple.id).then_some(())).await;
        let r = crew.request(4, Request::Subscribe(Subscribe { id: maple.id.clone() })).await.unwrap_err();
        assert_eq!(r.code, ErrorCode::Forbidden, "off the crew, off the project");

        // Robin's photo reaches the homeowner's open page with who took it and their company.
        home.request(3, Request::Subscribe(Subscribe { id: maple.id.clone() })).await.unwrap();
        let r = server.upload(&maple.id, &robin_cookie, &[("slab.jpg", &jpeg())]).await;
        assert!(r.all_stored(), "{r}");
        let photo = home
            .event(|e| match e {
                Event::PhotoAdded { photo } => Some(photo.clone()),
                _ => None,
            })
            .await;
        let by = photo.uploaded_by.clone().expect("a byline");
        assert_eq!((by.id.as_str(), by.name.as_str(), by.company.as_deref()), (robin_id.as_str(), "Robin Nguyen", Some(company)));
        // The timeline says who, with their company.
        let timeline = home
            .event(|e| match e {
                Event::TimelineAdded { entry } if entry.project_id == maple.id => Some(entry.clone()),
                _ => None,
            })
            .await;
        assert_eq!(timeline.actor_name, Some(format!("Robin Nguyen · {company}")));

        // Only the owner changes roles: Robin becomes a manager, and her socket
        // reconnects to see the whole company.
        let promote = Request::UpdateMember(UpdateMember { id: robin_id.clone(), company_role: Some(CompanyRole::Manager), all_projects: None });
        assert_eq!(company_of(&mut manager, 5, promote.clone()).await.unwrap_err().code, ErrorCode::Forbidden);
        let after = company_of(&mut owner, 6, promote).await.unwrap();
        assert_eq!(after.members.iter().find(|m| m.id == robin_id).unwrap().company_role, CompanyRole::Manager);
        assert_eq!(robin.close_code().await, Some(1012), "her socket reconnects");
        let (mut robin, hello) = open(&server, &robin_cookie).await;
        assert_eq!(titles(&hello.snapshot.projects), everything);

        // The company keeps an owner.
        let owner_id = summit.members[0].id.clone();
        let e = company_of(&mut owner, 7, Request::RemoveMember(RemoveMember { id: owner_id.clone() })).await.unwrap_err();
        assert_eq!(e.message, "A company needs an owner: make another member its owner first.");
        let demote = Request::UpdateMember(UpdateMember { id: owner_id, company_role: Some(CompanyRole::Crew), all_projects: None });
        assert_eq!(company_of(&mut owner, 8, demote).await.unwrap_err().code, ErrorCode::Conflict);

        // Removing Robin ends her sessions at once and keeps her photo, with her name.
        let after = company_of(&mut owner, 9, Request::RemoveMember(RemoveMember { id: robin_id.clone() })).await.unwrap();
        assert!(after.members.iter().all(|m| m.id != robin_id));
        let reason = robin
            .event(|e| match e {
                Event::SessionEnded { reason } => Some(reason.clone()),
                _ => None,
            })
            .await;
        assert_eq!(reason, "removed_from_company");
        assert_eq!(robin.close_code().await, Some(4401));
        assert_eq!(server.get("/api/auth/me", Some(&robin_cookie)).await.status, awc::http::StatusCode::UNAUTHORIZED);
        let photos = match home.request(4, Request::ListPhotos(protocol::ListPhotos::first(maple.id.clone()))).await.unwrap() {
            Response::Photos { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        let kept = photos.iter().find(|p| p.id == photo.id).expect("her photo stays");
        assert_eq!(kept.uploaded_by.as_ref().map(|b| b.name.as_str()), Some("Robin Nguyen"));
        // Signing in again, she belongs to no company and sees nothing.
        let again = server.login("robin@example.com", "robin-first-pass").await;
        let (_robin, hello) = open(&server, &again).await;
        assert!(hello.snapshot.projects.is_empty() && hello.snapshot.companies.is_empty());
        assert_eq!(hello.user.company_id, None);
        // The company may invite her back: she rejoins with the account she has.
        let back = company_of(&mut owner, 10, invite(&summit.id, "robin@example.com", "Robin Nguyen", CompanyRole::Crew)).await.unwrap();
        let rejoined = back.members.iter().find(|m| m.id == robin_id).expect("a member again");
        assert!(!rejoined.invited, "her password stands");
        let again = server.login("robin@example.com", "robin-first-pass").await;
        let (_robin, hello) = open(&server, &again).await;
        assert_eq!(hello.user.company_name.as_deref(), Some(company));

        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn admins_make_rename_move_to_and_delete_companies_and_the_dialog_says_what_goes() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let world = server.world(WorldSpec { projects: 1, photos: 1, milestones: false, comments: false, ..WorldSpec::default() }).await;
        let (company, people) = (world.company.name.as_str(), &world.users);
        let (mut admin, hello) = server.connect_as(&people["admin"].session).await;
        assert_eq!(hello.snapshot.companies.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), [company]);
        let summit = hello.snapshot.companies[0].clone();
        let maple = hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).unwrap().clone();
        let (mut owner, _) = server.connect_as(&people["owner"].session).await;
        let (mut crew, _) = server.connect_as(&people["crew"].session).await;
        let (mut home, _) = server.connect_as(&people["homeowner"].session).await;

        // Only admins make companies; a name is needed.
        let create = |name: &str| Request::CreateCompany(CreateCompany { name: name.into() });
        assert_eq!(company_of(&mut owner, 1, create("Mine")).await.unwrap_err().code, ErrorCode::Forbidden);
        assert_eq!(company_of(&mut admin, 1, create("  ")).await.unwrap_err().fields[0].message, "Name is required");
        let oakline = company_of(&mut admin, 2, create("Oakline Builders")).await.unwrap();
        assert!(oakline.members.is_empty() && oakline.project_count == 0);
        let oakline = company_of(&mut admin, 3, invite(&oakline.id, "olivia@oakline.example", "Olivia Park", CompanyRole::Owner)).await.unwrap();
        assert_eq!(oakline.members.len(), 1);
        // One company per person.
        let e = company_of(&mut admin, 4, invite(&summit.id, "olivia@oakline.example", "Olivia", CompanyRole::Crew)).await.unwrap_err();
        assert_eq!(e.fields[0].message, "This email belongs to an account that can't join this company.");
        let olivia_cookie = accept(&server, "olivia@oakline.example", "olivia-pass-1").await;
        let (mut olivia, hello) = open(&server, &olivia_cookie).await;
        assert!(hello.snapshot.projects.is_empty());

        // Renaming: the owner may, the homeowner's page shows the new builder name.
        let renamed_to = format!("{company} & Sons");
        let rename = Request::UpdateCompany(UpdateCompany { id: summit.id.clone(), name: renamed_to.clone() });
        assert_eq!(company_of(&mut crew, 1, rename.clone()).await.unwrap_err().code, ErrorCode::Forbidden);
        company_of(&mut owner, 2, rename).await.unwrap();
        let renamed = home
            .event(|e| match e {
                Event::ProjectUpdated { project, .. } if project.id == maple.id => Some(project.clone()),
                _ => None,
            })
            .await;
        assert_eq!(renamed.builder_name.as_deref(), Some(renamed_to.as_str()));

        // Moving the project to Oakline: the company's people (crew included) see it go, Olivia sees
        // it arrive, its crew stays behind. Only admins move projects.
        let mv = Request::UpdateProject(UpdateProject { id: maple.id.clone(), builder_id: Some(oakline.id.clone()), ..UpdateProject::default() });
        assert_eq!(project_of(&mut owner, 3, mv.clone()).await.unwrap_err().code, ErrorCode::Forbidden);
        let moved = project_of(&mut admin, 5, mv).await.unwrap();
        assert_eq!((moved.builder_name.as_deref(), moved.crew.len()), (Some("Oakline Builders"), 0));
        for ws in [&mut owner, &mut crew] {
            ws.event(|e| matches!(e, Event::ProjectDeleted { id, .. } if *id == maple.id).then_some(())).await;
        }
        olivia
            .event(|e| matches!(e, Event::ProjectUpdated { project, .. } if project.id == maple.id).then_some(()))
            .await;

        // The delete dialog's numbers, then the deletion: its project, photos and logins.
        let impact = Request::CompanyDeletionImpact(protocol::CompanyDeletionImpact { id: oakline.id.clone() });
        assert_eq!(owner.request(4, impact.clone()).await.unwrap_err().code, ErrorCode::NotFound, "not theirs to see");
        match admin.request(6, impact).await.unwrap() {
            Response::CompanyDeletionImpact { projects, photos, members } => {
                assert_eq!((projects, members), (1, 1));
                assert!(photos >= 1, "the project's photos");
            }
            other => panic!("{other:?}"),
        }
        admin.request(7, Request::DeleteCompany(protocol::DeleteCompany { id: oakline.id.clone() })).await.unwrap();
        let reason = olivia
            .event(|e| match e {
                Event::SessionEnded { reason } => Some(reason.clone()),
                _ => None,
            })
            .await;
        assert_eq!(reason, "account_deleted");
        home.event(|e| matches!(e, Event::ProjectDeleted { id, .. } if *id == maple.id).then_some(())).await;
        assert_eq!(server.post("/api/auth/login", json!({"email": "olivia@oakline.example", "password": "olivia-pass-1"}), None).await.status, awc::http::StatusCode::UNAUTHORIZED);
        match admin.request(8, Request::ListCompanies(protocol::ListCompanies {})).await.unwrap() {
            Response::Companies { companies } => assert_eq!(companies.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), [renamed_to.as_str()]),
            other => panic!("{other:?}"),
        }

        // Deleting the builder account of a one-member company takes the company and its
        // projects with it (what deleting a builder always did); a member of a larger
        // company goes alone.
        let lone = company_of(&mut admin, 9, create("Solo Build")).await.unwrap();
        company_of(&mut admin, 10, invite(&lone.id, "sam@solo.example", "Sam Solo", CompanyRole::Owner)).await.unwrap();
        let sam = match admin.request(11, Request::ListCompanies(protocol::ListCompanies {})).await.unwrap() {
            Response::Companies { companies } => companies.into_iter().find(|c| c.id == lone.id).unwrap().members[0].id.clone(),
            other => panic!("{other:?}"),
        };
        admin.request(12, Request::DeleteUser(protocol::DeleteUser { id: sam })).await.unwrap();
        admin.event(|e| matches!(e, Event::CompanyDeleted { id, .. } if *id == lone.id).then_some(())).await;
        let manager = summit.members.iter().find(|m| m.company_role == CompanyRole::Manager).unwrap().id.clone();
        admin.request(13, Request::DeleteUser(protocol::DeleteUser { id: manager.clone() })).await.unwrap();
        let summit_now = admin
            .event(|e| match e {
                Event::CompanyChanged { company } if company.id == summit.id => Some(company.clone()),
                _ => None,
            })
            .await;
        assert!(summit_now.members.iter().all(|m| m.id != manager) && summit_now.members.len() == 2);

        server.stop().await;
        db
    })
    .await;
}

/// The ids the migration test's rows have.
const A: &str = "0a000000-0000-4000-8000-000000000001";
const B1: &str = "0b000000-0000-4000-8000-000000000001";
const B2: &str = "0b000000-0000-4000-8000-000000000002";
const H: &str = "0c000000-0000-4000-8000-000000000001";
const P1: &str = "0d000000-0000-4000-8000-000000000001";
const P2: &str = "0d000000-0000-4000-8000-000000000002";
const P3: &str = "0d000000-0000-4000-8000-000000000003";
const I1: &str = "0e000000-0000-4000-8000-000000000001";

/// Rows at the schema before 0014 (written as SQL, since this build's store speaks the
/// new one); `{t}` is a time as the backend stores it.
fn rows_before_companies(t: &str) -> Vec<String> {
    [
        format!("INSERT INTO users (id, email, role, name, first_name, last_name, created_at, updated_at) VALUES ('{A}', 'ada@x.test', 'admin', 'Ada Admin', 'Ada', 'Admin', {t}, {t})"),
        format!("INSERT INTO users (id, email, role, name, created_at, updated_at, version) VALUES ('{B1}', 'bob@x.test', 'builder', 'Bob Builder', {t}, {t}, 4)"),
        format!("INSERT INTO users (id, email, role, name, created_at, updated_at) VALUES ('{B2}', 'nameless@x.test', 'builder', '  ', {t}, {t})"),
        format!("INSERT INTO users (id, email, role, name, first_name, last_name, builder_id, created_at, updated_at) VALUES ('{H}', 'hana@x.test', 'homeowner', 'Hana Li', 'Hana', 'Li', '{B1}', {t}, {t})"),
        format!("INSERT INTO projects (id, title, address, homeowner_id, builder_id, created_at, updated_at, version) VALUES ('{P1}', 'Elm', '1 Elm St', '{H}', '{B1}', {t}, {t}, 5)"),
        format!("INSERT INTO projects (id, title, address, homeowner_id, builder_id, created_at, updated_at) VALUES ('{P2}', 'Oak', '2 Oak St', '{H}', '{B2}', {t}, {t})"),
        format!("INSERT INTO projects (id, title, address, homeowner_id, created_at, updated_at) VALUES ('{P3}', 'Ash', '3 Ash St', '{H}', {t}, {t})"),
        format!(
            "INSERT INTO project_images (id, project_id, uploaded_by, original_name, content_type, byte_size, width, height, storage_key, created_at, updated_at) \
             VALUES ('{I1}', '{P1}', '{B1}', 'slab.jpg', 'image/jpeg', 10, 4, 3, 'projects/{P1}/{I1}', {t}, {t})"
        ),
    ]
    .into()
}

/// Migration 0014 (docs/FEATURES.md, "Builder companies") on a database filled at the
/// schema before it, on each backend: every builder owns a one-member company of their
/// name (their email when they have none) that keeps their id, their projects are its,
/// and nothing else changes.
#[actix_web::test]
async fn a_database_at_the_previous_schema_gives_every_builder_a_company_of_their_own() {
    use sitecast::store::projects::ProjectScope;
    use sitecast::store::{companies, images, projects, users, Store};
    crate::support::for_each_empty_backend(|db| async move {
        match db.name {
            "sqlite" => {
                let opts = db.url.parse::<sqlx::sqlite::SqliteConnectOptions>().unwrap().create_if_missing(true).foreign_keys(true);
                let pool = sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with(opts).await.unwrap();
                sitecast_store_sqlite::MIGRATIONS.run_to(13, &pool).await.unwrap();
                for sql in rows_before_companies("1700000000000") {
                    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
                }
                pool.close().await;
            }
            _ => {
                let pool = sqlx::postgres::PgPoolOptions::new().max_connections(1).connect(&db.url).await.unwrap();
                sitecast_store_postgres::MIGRATIONS.run_to(13, &pool).await.unwrap();
                for sql in rows_before_companies("to_timestamp(1700000000)") {
                    sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&pool).await.unwrap();
                }
                pool.close().await;
            }
        }
        let store = Store::open(&db.url, None, true).await.expect("the database migrates");
        let pool = store.pool();

        let all = companies::list_all(pool).await.unwrap();
        let mut names: Vec<(String, String, i64)> = all.iter().map(|c| (c.id.clone(), c.name.clone(), c.project_count)).collect();
        names.sort();
        assert_eq!(names, [(B1.to_owned(), "Bob Builder".to_owned(), 1), (B2.to_owned(), "nameless@x.test".to_owned(), 1)]);
        for (builder, company) in [(B1, "Bob Builder"), (B2, "nameless@x.test")] {
            let u = users::find_by_id(pool, builder).await.unwrap().unwrap();
            assert_eq!((u.company_id.as_deref(), u.company_role, u.all_projects), (Some(builder), Some(CompanyRole::Owner), false));
            assert_eq!(u.company_name.as_deref(), Some(company));
            assert_eq!(users::members_of(pool, builder).await.unwrap().len(), 1, "a company of one");
        }
        assert_eq!(users::find_by_id(pool, B1).await.unwrap().unwrap().version, 4, "the account is otherwise as it was");
        for other in [A, H] {
            let u = users::find_by_id(pool, other).await.unwrap().unwrap();
            assert_eq!((u.company_id, u.company_role), (None, None), "{other}");
        }
        assert_eq!(users::find_by_id(pool, H).await.unwrap().unwrap().builder_id.as_deref(), Some(B1));

        let p1 = projects::find(pool, P1).await.unwrap().unwrap();
        assert_eq!((p1.company_id.as_deref(), p1.company_name.as_deref(), p1.version), (Some(B1), Some("Bob Builder"), 5));
        assert!(p1.crew.is_empty());
        assert_eq!(projects::find(pool, P3).await.unwrap().unwrap().company_id, None);
        let of = |company: &str| ProjectScope::Company { company_id: company.into(), crew_of: None };
        assert_eq!(projects::list(pool, &of(B1)).await.unwrap().iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), [P1]);
        assert_eq!(projects::list(pool, &of(B2)).await.unwrap().iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), [P2]);
        // Nothing changes for the homeowner: the same three projects, builders named as before.
        let mine = projects::list(pool, &ProjectScope::Homeowner(H.into())).await.unwrap();
        assert_eq!(mine.len(), 3);
        assert_eq!(users::builders_of_homeowner(pool, H).await.unwrap(), [B1.to_owned(), B2.to_owned()]);
        let photo = images::find(pool, I1).await.unwrap().unwrap();
        assert_eq!(photo.uploaded_by.as_deref(), Some(B1));
        assert_eq!(photo.uploader.and_then(|u| u.company_name).as_deref(), Some("Bob Builder"));
        store.close().await;
        db
    })
    .await;
}
