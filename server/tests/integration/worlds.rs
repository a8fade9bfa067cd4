//! Test worlds (`domain::seeding::world`): each test's own people and projects, signed in, seen
//! by each person exactly as the policy allows; and the switch that serves them over
//! HTTP, which a server with a public address refuses.

use awc::http::StatusCode;
use clap::Parser;
use serde_json::json;

use crate::support::{for_each_backend, Options, TestServer, WorldSpec};

fn project_ids(hello: &protocol::Hello) -> Vec<String> {
    let mut ids: Vec<String> = hello.snapshot.projects.iter().map(|p| p.id.clone()).collect();
    ids.sort();
    ids
}

fn sorted(ids: &[&str]) -> Vec<String> {
    let mut ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    ids.sort();
    ids
}

#[actix_web::test]
async fn each_person_of_a_world_is_signed_in_and_sees_what_their_role_allows() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let spec = WorldSpec { projects: 2, photos: 2, homeowners: 3, stranger_project: true, ..WorldSpec::default() };
        let world = server.world(spec).await;
        let (first, second) = (&world.projects[0], &world.projects[1]);
        let stranger = world.stranger_project.as_ref().expect("the stranger project asked for");
        assert_eq!((first.photos.len(), second.photos.len()), (2, 2));
        assert!(first.title.contains(&world.tag) && world.company.name.contains(&world.tag));

        let expect = [
            ("admin", sorted(&[&first.id, &second.id, &stranger.id])),
            ("owner", sorted(&[&first.id, &second.id])),
            ("manager", sorted(&[&first.id, &second.id])),
            // Crew see the projects they are on: the first only.
            ("crew", sorted(&[&first.id])),
            ("homeowner", sorted(&[&first.id])),
            ("homeowner2", sorted(&[&second.id])),
            ("homeowner3", Vec::new()),
        ];
        for (who, projects) in expect {
            let person = &world.users[who];
            let (_ws, hello) = server.connect_as(&person.session).await;
            assert_eq!(hello.user.email, person.email, "{who}'s session is {who}'s");
            assert_eq!(project_ids(&hello), projects, "what {who} sees");
        }

        // The owner's project shows the world's photos, milestones and comment.
        let (_ws, hello) = server.connect_as(&world.users["owner"].session).await;
        let shown = hello.snapshot.projects.iter().find(|p| p.id == first.id).expect("the first project");
        assert_eq!(shown.builder_name.as_deref(), Some(world.company.name.as_str()));
        assert_eq!(first.milestones.iter().filter(|m| m.done).count(), 2);
        assert_eq!(first.comments.len(), 1);

        // A second world on the same server shares nothing with the first.
        let other = server.world(WorldSpec::default()).await;
        assert_ne!(other.tag, world.tag);
        let (_ws, hello) = server.connect_as(&other.users["owner"].session).await;
        assert_eq!(project_ids(&hello), sorted(&[&other.projects[0].id]));
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn a_world_beyond_its_limits_is_refused_and_nothing_is_made() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        let too_many = WorldSpec { photos: 1_000, ..WorldSpec::default() };
        let made = sitecast::domain::seeding::world::make(&server.state.store, server.state.photos.as_ref(), &server.state.auth.passwords, &too_many).await;
        assert!(made.is_err(), "a world of 1,000 photos per project is refused");
        let users: i64 = crate::support::TestSql::new("SELECT COUNT(*) FROM users").scalar(&server.state.store).await.unwrap();
        assert_eq!(users, 0, "nothing was written");
        server.stop().await;
        db
    })
    .await;
}

fn extra(pairs: &[(&str, &str)]) -> Options {
    Options { extra: pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(), ..Options::default() }
}

#[actix_web::test]
async fn the_world_route_answers_only_with_the_switch_on() {
    for_each_backend(|db| async move {
        // Off (the default): the route is the API's ordinary 404.
        let server = TestServer::start(&db.url, Options::default()).await;
        let r = server.post("/api/testing/world", json!({}), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
        assert_eq!(r.body["code"], "not_found");
        server.stop().await;

        // On, with a loopback public address: a world, and its sessions sign in.
        let site = "http://127.0.0.1:8099";
        let server = TestServer::start(&db.url, extra(&[("public-url", site), ("test-worlds", "true")])).await;
        let r = server.post_with("/api/testing/world", json!({ "photos": 1 }), &[("Origin", site)]).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(r.body["cookie"], "sitecast_session");
        let owner = &r.body["world"]["users"]["owner"];
        let me = server.get("/api/auth/me", owner["session"].as_str()).await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.body);
        assert_eq!(me.body["user"]["email"], owner["email"]);

        // A spec with a misspelt field is refused, not read as the defaults.
        let r = server.post_with("/api/testing/world", json!({ "fotos": 3 }), &[("Origin", site)]).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
        assert!(r.body["message"].as_str().unwrap_or_default().contains("fotos"), "{}", r.body);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn a_server_with_a_public_address_refuses_to_start_with_test_worlds() {
    let dir = tempfile::TempDir::new().unwrap();
    for public in ["https://sitecast.example.com", "http://192.168.1.20:8080"] {
        let cli = sitecast::config::Cli::try_parse_from([
            "sitecast".to_owned(),
            format!("--data-dir={}", dir.path().display()),
            format!("--public-url={public}"),
            "--demo=false".to_owned(),
            "--test-worlds=true".to_owned(),
        ])
        .expect("the flags parse");
        let refused = sitecast::app::build_state(cli.config).await.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("SITECAST_TEST_WORLDS"), "{public}: {refused:?}");
    }
}
