//! Progress reports (docs/FEATURES.md, "Progress reports") over the socket and as PDFs:
//! who may make, see and delete them, what bad choices get, progress reaching everyone
//! with the project open, the one-at-a-time rule, interrupted reports, and the PDF itself
//! read back with poppler (its text, its page count, the markup drawn on its photos).

use std::process::Command;
use std::time::Duration;

use awc::http::StatusCode;
use protocol::{ErrorCode, Event, Project, Report, ReportContent, ReportOptions, ReportPair, ReportPhotos, ReportStatus, Request, Response};
use sitecast::domain::sharing::reports::{
    BAD_DAY, BAD_PERIOD, BAD_PER_PAGE, BUSY, FAVOURITES_ONLY, INTERRUPTED, NOTHING_PICKED, NOT_ALLOWED_DELETE,
    NO_PHOTOS, PAIR_NOT_HERE,
};

use crate::markup::{arrow, save};
use crate::support::{for_each_backend, Options, TestServer, TestSql, World, WorldSpec, WsClient, ORIGIN};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// The first homeowner's project with four photos, its plan and a comment, and a second
/// homeowner's project, so there is someone who may see none of the first.
async fn report_world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 2, photos: 4, homeowners: 2, ..WorldSpec::default() }).await
}

/// The world's first project, as a Hello has it.
fn first_project(world: &World, hello: &protocol::Hello) -> Project {
    hello.snapshot.projects.iter().find(|p| p.id == world.projects[0].id).expect("the world's project").clone()
}

fn options(per_page: u8) -> ReportOptions {
    ReportOptions { per_page, markup: true, comments: true, ..ReportOptions::default() }
}

async fn preview(ws: &mut WsClient, id: u32, project: &str, options: ReportOptions) -> Result<(ReportContent, i32, i32), protocol::ApiError> {
    match ws.request(id, Request::PreviewReport(protocol::PreviewReport { project_id: project.to_owned(), options })).await? {
        Response::ReportPreview { content, photos, pages } => Ok((content, photos, pages)),
        other => panic!("expected a preview, got {other:?}"),
    }
}

async fn make(ws: &mut WsClient, id: u32, project: &str, options: ReportOptions) -> Result<Report, protocol::ApiError> {
    match ws.request(id, Request::MakeReport(protocol::MakeReport { project_id: project.to_owned(), options })).await? {
        Response::Report { report } => Ok(report),
        other => panic!("expected a report, got {other:?}"),
    }
}

async fn list(ws: &mut WsClient, id: u32, project: &str) -> Result<Vec<Report>, protocol::ApiError> {
    match ws.request(id, Request::ListReports(protocol::ListReports { project_id: project.to_owned() })).await? {
        Response::Reports { reports, .. } => Ok(reports),
        other => panic!("expected reports, got {other:?}"),
    }
}

/// The report's events on this socket until it is no longer being made: its `done`
/// counts, and the report as it ended.
async fn until_made(ws: &mut WsClient, id: &str) -> (Vec<i32>, Report) {
    let mut done = Vec::new();
    loop {
        let report = tokio::time::timeout(
            Duration::from_secs(120),
            ws.event(|e| match e {
                Event::ReportChanged { report } if report.id == id => Some(report.clone()),
                _ => None,
            }),
        )
        .await
        .expect("the report moves on within two minutes");
        done.push(report.done);
        if report.status != ReportStatus::Generating {
            return (done, report);
        }
    }
}

fn field_error(err: &protocol::ApiError) -> (ErrorCode, &str, &str) {
    let field = err.fields.first().map_or(("", ""), |f| (f.field.as_str(), f.message.as_str()));
    (err.code, field.0, field.1)
}

/// Poppler's tools when this machine has them; in CI they must be there.
pub(crate) fn poppler() -> bool {
    let here = Command::new("pdftotext").arg("-v").output().is_ok() && Command::new("pdftoppm").arg("-v").output().is_ok();
    assert!(here || std::env::var("CI").is_err(), "CI needs poppler-utils (scripts/test-deps.sh installs it)");
    here
}

pub(crate) fn pdf_text(dir: &std::path::Path, pdf: &[u8]) -> String {
    let path = dir.join("report.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext").args(["-layout"]).arg(&path).arg("-").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn pdf_pages(dir: &std::path::Path, pdf: &[u8]) -> usize {
    let path = dir.join("info.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdfinfo").arg(&path).output().unwrap();
    let info = String::from_utf8_lossy(&out.stdout).into_owned();
    info.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("{info}"))
}

/// Pixels of the markup's red (#E53935, the arrow) over every page, rendered small.
fn red_pixels(dir: &std::path::Path, pdf: &[u8]) -> usize {
    let path = dir.join("pixels.pdf");
    std::fs::write(&path, pdf).unwrap();
    let prefix = dir.join("page");
    let out = Command::new("pdftoppm").args(["-png", "-r", "40"]).arg(&path).arg(&prefix).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut red = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = entry.unwrap().path();
        if !file.file_name().unwrap().to_string_lossy().starts_with("page") {
            continue;
        }
        let img = image::open(&file).unwrap().to_rgb8();
        red += img.pixels().filter(|p| p[0] > 200 && p[1] < 90 && p[2] < 90).count();
        std::fs::remove_file(file).unwrap();
    }
    red
}

#[actix_web::test]
async fn a_builder_makes_a_report_that_everyone_on_the_project_watches_and_downloads() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = report_world(&server).await;
        let dir = tempfile::TempDir::new().unwrap();
        let (mut builder, _) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, hello) = server.connect_as(&world.users["homeowner"].session).await;
        let (mut admin, admin_hello) = server.connect_as(&world.users["admin"].session).await;
        let maple = first_project(&world, &hello);
        let other = admin_hello.snapshot.projects.iter().find(|p| p.homeowner_id != maple.homeowner_id).unwrap().clone();
        let photos = match builder.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap() {
            Response::Subscribed { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        home.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap();
        assert!(photos.len() >= 3, "the world's project has photos");

        // The preview: every photo of the project, oldest first, and the page count.
        let (content, count, pages) = preview(&mut builder, 2, &maple.id, options(2)).await.unwrap();
        assert_eq!(count as usize, photos.len());
        let previewed: Vec<&str> = content.sections.iter().flat_map(|s| s.photos.iter()).map(|p| p.photo.id.as_str()).collect();
        assert_eq!(previewed.len(), photos.len().min(12));
        let shown = |id: &str| {
            let p = photos.iter().find(|p| p.id == id).unwrap();
            p.taken_at.unwrap_or(p.created_at)
        };
        assert!(previewed.windows(2).all(|w| shown(w[0]) <= shown(w[1])), "oldest first");
        assert_eq!(content.project.id, maple.id);
        assert!(pages > 2);

        // A report without markup first (the control for the pixel test below).
        let plain = make(&mut builder, 3, &maple.id, ReportOptions { markup: false, ..options(1) }).await.unwrap();
        assert_eq!((plain.status, plain.done, plain.total), (ReportStatus::Generating, 0, photos.len() as i32));
        let (_, plain) = until_made(&mut builder, &plain.id).await;
        assert_eq!(plain.status, ReportStatus::Ready, "{plain:?}");

        // The builder draws on the newest photo, then makes the real report.
        save(&mut builder, 5, &photos[0].id, 0, vec![arrow("a1")]).await.unwrap();
        let made = make(&mut builder, 6, &maple.id, options(1)).await.unwrap();
        assert_eq!(made.created_by.as_ref().map(|u| u.email.as_str()), Some(world.users["owner"].email.as_str()));
        // The homeowner's open page watches it move on, never back, to ready.
        let (done, ready) = until_made(&mut home, &made.id).await;
        assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
        assert_eq!((ready.status, ready.done, ready.total), (ReportStatus::Ready, made.total, made.total));
        let (_, _, pages_one) = preview(&mut builder, 7, &maple.id, options(1)).await.unwrap();
        assert_eq!(ready.pages, Some(pages_one));
        assert_eq!(list(&mut home, 8, &maple.id).await.unwrap().iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), [made.id.as_str(), plain.id.as_str()]);

        // The PDF: to the homeowner too, as an attachment named for the project.
        let cookie = server.login(&world.users["homeowner"].email, &world.password).await;
        let resp = server.get(&format!("/api/reports/{}/pdf", made.id), Some(&cookie)).await;
        assert_eq!(resp.status, StatusCode::OK);
        assert_eq!(resp.headers.get("content-type").unwrap(), "application/pdf");
        let disposition = resp.headers.get("content-disposition").unwrap().to_str().unwrap().to_owned();
        assert!(disposition.starts_with("attachment") && disposition.contains(&format!("{} - progress report", maple.title)), "{disposition}");
        assert!(resp.bytes.starts_with(b"%PDF-"));
        assert_eq!(ready.byte_size, Some(resp.bytes.len() as i64));
        let inline = server.get(&format!("/api/reports/{}/pdf?inline=1", made.id), Some(&cookie)).await;
        assert!(inline.headers.get("content-disposition").unwrap().to_str().unwrap().starts_with("inline"));
        if poppler() {
            let text = pdf_text(dir.path(), &resp.bytes);
            assert_eq!(pdf_pages(dir.path(), &resp.bytes), pages_one as usize);
            assert!(text.contains(&maple.title) && text.contains(&maple.address), "{text}");
            assert!(text.contains("PROGRESS REPORT") && text.contains(&format!("Page 1 of {pages_one}")), "{text}");
            for photo in &photos {
                if let Some(caption) = &photo.caption {
                    let start: String = caption.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
                    assert!(text.contains(&start), "caption {caption:?} in\n{text}");
                }
            }
            // The arrow is drawn on its photo in the report, and only where asked for.
            let with = red_pixels(dir.path(), &resp.bytes);
            let plain_pdf = server.get(&format!("/api/reports/{}/pdf", plain.id), Some(&cookie)).await.bytes;
            let without = red_pixels(dir.path(), &plain_pdf);
            assert!(with > without + 20, "markup's red: {with} with, {without} without");
        }

        // Someone else's project: as if there were no report.
        let err = list(&mut home, 9, &other.id).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        let stranger = server.login(&world.users["homeowner2"].email, &world.password).await;
        let resp = server.get(&format!("/api/reports/{}/pdf", made.id), Some(&stranger)).await;
        assert!(matches!(resp.status, StatusCode::NOT_FOUND | StatusCode::UNAUTHORIZED), "{:?}", resp.status);
        assert_eq!(server.get(&format!("/api/reports/{}/pdf", made.id), None).await.status, StatusCode::UNAUTHORIZED);
        assert_eq!(server.get("/api/reports/no-such-report/pdf", Some(&cookie)).await.status, StatusCode::NOT_FOUND);

        // Deleting: not someone else's report (the homeowner), the maker's own, and
        // every open page hears of it.
        let del = |id: &str| Request::DeleteReport(protocol::DeleteReport { id: id.to_owned() });
        let err = home.request(10, del(&made.id)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, NOT_ALLOWED_DELETE));
        builder.request(11, del(&made.id)).await.unwrap();
        let gone = home
            .event(|e| match e {
                Event::ReportDeleted { id, .. } => Some(id.clone()),
                _ => None,
            })
            .await;
        assert_eq!(gone, made.id);
        assert_eq!(server.get(&format!("/api/reports/{}/pdf", made.id), Some(&cookie)).await.status, StatusCode::NOT_FOUND);
        admin.request(1, del(&plain.id)).await.unwrap();
        assert!(list(&mut home, 12, &maple.id).await.unwrap().is_empty());
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn bad_choices_and_the_wrong_people_are_refused_and_nothing_is_made() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = report_world(&server).await;
        let (mut builder, hello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, _) = server.connect_as(&world.users["homeowner"].session).await;
        let maple = first_project(&world, &hello);
        let cases: Vec<(ReportOptions, &str, &str)> = vec![
            (options(3), "perPage", BAD_PER_PAGE),
            (ReportOptions { from: Some("2026-13-01".into()), ..options(2) }, "from", BAD_DAY),
            (ReportOptions { from: Some("2026-05-02".into()), to: Some("2026-05-01".into()), ..options(2) }, "to", BAD_PERIOD),
            (ReportOptions { photos: ReportPhotos::Picked, ..options(2) }, "picked", NOTHING_PICKED),
            (ReportOptions { from: Some("1999-01-01".into()), to: Some("1999-12-31".into()), ..options(2) }, "photos", NO_PHOTOS),
            (
                ReportOptions { pairs: vec![ReportPair { before: "nope".into(), after: "nope".into() }], ..options(2) },
                "pairs",
                PAIR_NOT_HERE,
            ),
        ];
        for (i, (bad, field, message)) in cases.into_iter().enumerate() {
            let err = make(&mut builder, 10 + i as u32, &maple.id, bad).await.unwrap_err();
            assert_eq!(field_error(&err), (ErrorCode::Validation, field, message), "case {i}");
        }
        // The homeowner makes reports of their favourites only; with none, none is made.
        let err = make(&mut home, 1, &maple.id, options(2)).await.unwrap_err();
        assert_eq!(field_error(&err), (ErrorCode::Validation, "photos", FAVOURITES_ONLY));
        let favourites = ReportOptions { photos: ReportPhotos::Favourites, ..options(2) };
        let err = make(&mut home, 2, &maple.id, favourites.clone()).await.unwrap_err();
        assert_eq!(field_error(&err), (ErrorCode::Validation, "photos", NO_PHOTOS));
        assert!(list(&mut home, 3, &maple.id).await.unwrap().is_empty());
        // Another homeowner, not of this project: refused before anything is read.
        let (mut stranger, _) = server.connect_as(&world.users["homeowner2"].session).await;
        let err = make(&mut stranger, 1, &maple.id, favourites).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        server.stop().await;
        db
    })
    .await;
}

#[actix_web::test]
async fn a_report_its_instance_left_unfinished_is_failed_and_frees_the_project() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, slow_beats()).await;
        let world = report_world(&server).await;
        let (mut builder, hello) = server.connect_as(&world.users["owner"].session).await;
        let maple = first_project(&world, &hello);
        // A report another instance was making when it stopped, four minutes ago.
        let stale = "0190a0b4-7d2e-7abc-8def-0123456789ab";
        let at = sitecast::store::now_ms() - 4 * 60 * 1000;
        TestSql::per_backend(
            "INSERT INTO reports (id, project_id, options, status, total, created_at, updated_at) VALUES ($1, $2, $3, 'generating', 5, $4, $4)",
            "INSERT INTO reports (id, project_id, options, status, total, created_at, updated_at) \
             VALUES ($1::uuid, $2::uuid, $3::jsonb, 'generating', 5, TIMESTAMPTZ 'epoch' + $4 * INTERVAL '1 millisecond', \
             TIMESTAMPTZ 'epoch' + $4 * INTERVAL '1 millisecond')",
        )
        .bind(stale)
        .bind(&maple.id)
        .bind(serde_json::to_string(&options(2)).unwrap())
        .bind(at)
        .execute(&server.state.store)
        .await
        .unwrap();
        // One report of a project is made at a time, whichever instance makes it.
        let err = make(&mut builder, 1, &maple.id, options(2)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::RateLimited, BUSY));
        // One being made now is left alone; the stale one fails with its reason.
        let changes = sitecast::domain::sharing::reports::fail_stale(&server.state.svc).await.unwrap();
        assert_eq!(changes.len(), 1);
        let listed = list(&mut builder, 2, &maple.id).await.unwrap();
        assert_eq!((listed[0].status, listed[0].error.as_deref()), (ReportStatus::Failed, Some(INTERRUPTED)));
        builder.request(4, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap();
        let made = make(&mut builder, 3, &maple.id, options(4)).await.unwrap();
        assert!(sitecast::domain::sharing::reports::fail_stale(&server.state.svc).await.unwrap().is_empty());
        let (_, ready) = until_made(&mut builder, &made.id).await;
        assert_eq!(ready.status, ReportStatus::Ready);
        server.stop().await;
        db
    })
    .await;
}

fn token_of(url: &str) -> String {
    url.rsplit_once("/guest/").map(|(_, t)| t.to_owned()).expect("a guest URL")
}

async fn share(ws: &mut WsClient, id: u32, report: &str, days: Option<u32>) -> Result<(protocol::GuestLink, String), protocol::ApiError> {
    let input = protocol::ShareReport { report_id: report.to_owned(), expires_in_days: days };
    match ws.request(id, Request::ShareReport(input)).await? {
        Response::GuestLinkCreated { link, url } => Ok((link, token_of(&url))),
        other => panic!("expected a link, got {other:?}"),
    }
}

async fn report_guest(server: &TestServer, token: &str) -> (WsClient, protocol::GuestHello) {
    let mut ws = server.guest_ws(Some(token), Some(ORIGIN)).await.expect("the report link's socket opens");
    match ws.next_msg().await {
        protocol::ServerMsg::GuestHello(hello) => (ws, hello),
        other => panic!("expected GuestHello first, got {other:?}"),
    }
}

async fn link_ended(ws: &mut WsClient) {
    let reason = ws.event(|e| match e {
        Event::SessionEnded { reason } => Some(reason.clone()),
        _ => None,
    });
    assert_eq!(reason.await, "link_inactive");
    assert_eq!(ws.close_code().await, Some(4401));
}

/// Sharing a report (docs/FEATURES.md, "Progress reports"): a report link shows one
/// report to anyone holding it — its content as made, its photos and its PDF, nothing
/// else of the project — until it is revoked or the report deleted; and a report mailed
/// to the homeowner arrives through a real SMTP server with the PDF attached, everyone's
/// page showing it was mailed.
#[actix_web::test]
async fn a_report_is_shared_by_a_link_that_shows_only_it_and_mailed_to_the_homeowner_with_its_pdf() {
    for_each_backend(|db| async move {
        let dir = tempfile::TempDir::new().unwrap();
        let maildir = dir.path().join("maildir");
        let port = crate::support::free_port();
        let _smtp = crate::support::Helper::smtp(port, &maildir).await;
        let server = TestServer::start(&db.url, Options { smtp_url: Some(format!("smtp://127.0.0.1:{port}")), ..slow_beats() }).await;
        let world = report_world(&server).await;
        let homeowner = &world.users["homeowner"];
        let (mut builder, hello) = server.connect_as(&world.users["owner"].session).await;
        let (mut home, _) = server.connect_as(&homeowner.session).await;
        let maple = first_project(&world, &hello);
        let photos = match builder.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap() {
            Response::Subscribed { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        home.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap();
        assert!(photos.len() >= 3);
        // Two hand-picked photos; the others stay out of the report and out of its link.
        let picked = vec![photos[1].id.clone(), photos[2].id.clone()];
        let chosen = ReportOptions { photos: ReportPhotos::Picked, picked: picked.clone(), ..options(2) };
        let made = make(&mut builder, 2, &maple.id, chosen).await.unwrap();
        let (_, ready) = until_made(&mut builder, &made.id).await;
        assert_eq!(ready.status, ReportStatus::Ready);

        // Who may share: the builder and the homeowner; another homeowner's is as if
        // there were no report; expiries as for guest links.
        let (link, token) = share(&mut builder, 3, &made.id, Some(7)).await.unwrap();
        assert_eq!((link.report_id.as_deref(), link.project_id.as_str()), (Some(made.id.as_str()), maple.id.as_str()));
        let (home_link, home_token) = share(&mut home, 2, &made.id, None).await.unwrap();
        let err = share(&mut builder, 4, &made.id, Some(3)).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
        let (mut stranger, _) = server.connect_as(&world.users["homeowner2"].session).await;
        assert_eq!(share(&mut stranger, 1, &made.id, None).await.unwrap_err().code, ErrorCode::NotFound);
        let Ok(Response::GuestLinks { links, .. }) =
            builder.request(5, Request::ListGuestLinks(protocol::ListGuestLinks { project_id: maple.id.clone() })).await
        else {
            panic!("list")
        };
        assert!(links.iter().any(|l| l.id == link.id && l.report_id.as_deref() == Some(made.id.as_str())));

        // Opening it: the access names the report; the hello carries the report as made
        // and none of the project's photos, milestones or people's addresses.
        let opened = server.post("/api/guest/open", serde_json::json!({"token": token}), None).await;
        assert_eq!(opened.status, StatusCode::OK, "{:?}", opened.body);
        assert_eq!(opened.body["access"]["reportId"].as_str(), Some(made.id.as_str()));
        let (mut guest, hello) = report_guest(&server, &token).await;
        let shared = hello.report.expect("a report link's hello carries its report");
        assert_eq!((shared.id.as_str(), shared.pages, shared.byte_size), (made.id.as_str(), ready.pages.unwrap(), ready.byte_size.unwrap()));
        assert_eq!(shared.made_by.as_deref(), made.created_by.as_ref().and_then(|u| u.name.as_deref()));
        assert!(hello.photos.is_empty() && hello.milestones.milestones.is_empty());
        let content = shared.content.expect("the content as made");
        let mut shown: Vec<String> = content.sections.iter().flat_map(|s| s.photos.iter()).map(|p| p.photo.id.clone()).collect();
        shown.sort();
        let mut want = picked.clone();
        want.sort();
        assert_eq!(shown, want);
        assert!(!serde_json::to_string(&content).unwrap().contains("@world.test"), "no addresses reach a guest");
        // No days were chosen: the period is the photos' span, and what changed keeps to it.
        let (from, to) = (content.from.clone().unwrap(), content.to.clone().unwrap());
        for change in &content.changes {
            let day = sitecast::domain::projects::milestones::day_of(change.created_at);
            assert!(from <= day && day <= to, "{day} outside {from}..{to}");
        }

        // Its photos and its PDF, and nothing else: not another photo, not the project's
        // timeline, not another link's report.
        let thumb = server.guest_get(&format!("/media/images/{}/display", picked[0]), &token).await;
        assert_eq!(thumb.status, StatusCode::OK);
        let other_photo = photos.iter().find(|p| !picked.contains(&p.id) && Some(p.id.as_str()) != sitecast::domain::shared::views::thumbnail_photo_id(&content.project)).unwrap();
        assert_eq!(server.guest_get(&other_photo.thumb_url, &token).await.status, StatusCode::NOT_FOUND);
        assert_eq!(server.guest_get(&format!("/media/images/{}/original", picked[0]), &token).await.status, StatusCode::NOT_FOUND);
        let pdf = server.guest_get(&shared.pdf_url, &token).await;
        assert_eq!(pdf.status, StatusCode::OK);
        assert!(pdf.bytes.starts_with(b"%PDF-") && pdf.bytes.len() as i64 == ready.byte_size.unwrap());
        let err = guest.request(1, Request::ListTimeline(protocol::ListTimeline { project_id: maple.id.clone(), before: None })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        let err = guest.request(2, Request::ListMilestones(protocol::ListMilestones { project_id: maple.id.clone() })).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::Forbidden);
        let input = protocol::CreateGuestLink { project_id: maple.id.clone(), photos: protocol::GuestPhotos::All, downloads: true, expires_in_days: None };
        let Ok(Response::GuestLinkCreated { url, .. }) = home.request(3, Request::CreateGuestLink(input)).await else { panic!("project link") };
        let project_token = token_of(&url);
        assert_eq!(server.guest_get(&shared.pdf_url, &project_token).await.status, StatusCode::NOT_FOUND, "a project link opens no report");

        // Mailing: not the homeowner; the builder, through SMTP, with the PDF attached.
        let mail = |id: &str| Request::MailReport(protocol::MailReport { id: id.to_owned() });
        let err = home.request(4, mail(&made.id)).await.unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (ErrorCode::Forbidden, sitecast::domain::sharing::reports::NOT_ALLOWED_MAIL));
        let Ok(Response::Report { report: mailed }) = builder.request(6, mail(&made.id)).await else { panic!("mail") };
        assert_eq!(mailed.mailed_to.as_deref(), Some(homeowner.name.as_str()));
        assert!(mailed.mailed_at.is_some());
        let heard = home
            .event(|e| match e {
                Event::ReportChanged { report } if report.mailed_at.is_some() => Some(report.clone()),
                _ => None,
            })
            .await;
        assert_eq!(heard.mailed_to.as_deref(), Some(homeowner.name.as_str()));
        let mut message = String::new();
        for _ in 0..300 {
            if let Some(m) = crate::support::maildir_messages(&maildir).into_iter().find(|m| m.contains(&format!("Progress report: {}", maple.title))) {
                message = m;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(message.contains(&format!("To: {}", homeowner.email)), "{message}");
        assert!(message.contains("Content-Type: application/pdf"), "the PDF is attached");
        assert!(message.contains(&format!("{} - progress report", maple.title)), "named for the project");
        // The body is quoted-printable: soft line breaks and `=` escaped.
        let body = message.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
        assert!(body.contains(&format!("/projects/{}?tab=reports", maple.id)), "a link to the report in the app: {body}");

        // Revoking one link closes its page; deleting the report closes the other's.
        builder.request(7, Request::RevokeGuestLink(protocol::RevokeGuestLink { id: link.id.clone() })).await.unwrap();
        link_ended(&mut guest).await;
        assert_eq!(server.guest_get(&shared.pdf_url, &token).await.status, StatusCode::UNAUTHORIZED);
        let (mut home_guest, _) = report_guest(&server, &home_token).await;
        builder.request(8, Request::DeleteReport(protocol::DeleteReport { id: made.id.clone() })).await.unwrap();
        link_ended(&mut home_guest).await;
        let again = server.post("/api/guest/open", serde_json::json!({"token": home_token}), None).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST);
        let _ = home_link;
        server.stop().await;
        db
    })
    .await;
}
