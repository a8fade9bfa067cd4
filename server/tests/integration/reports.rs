//! Progress reports (issue 28) over the socket and as PDFs: who may make, see and
//! delete them, what bad choices get, progress reaching everyone with the project
//! open, the one-at-a-time rule, interrupted reports, and the PDF itself read back
//! with poppler (its text, its page count, the markup drawn on its photos).

use std::process::Command;
use std::time::Duration;

use awc::http::StatusCode;
use protocol::{ErrorCode, Event, Project, Report, ReportContent, ReportOptions, ReportPair, ReportPhotos, ReportStatus, Request, Response};
use sitecast::domain::reports::{
    BAD_DAY, BAD_PERIOD, BAD_PER_PAGE, BUSY, FAVOURITES_ONLY, INTERRUPTED, NOTHING_PICKED, NOT_ALLOWED_DELETE,
    NO_PHOTOS, PAIR_NOT_HERE,
};

use crate::markup::{arrow, save};
use crate::support::{for_each_backend, Options, TestServer, TestSql, WsClient};

const ADMIN: &str = "admin@sitecast.demo";
const BUILDER: &str = "builder@sitecast.demo";
const HOMEOWNER: &str = "homeowner@sitecast.demo";
const PASSWORD: &str = "sitecast-demo";

fn demo() -> Options {
    Options { demo: true, ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
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

/// Another homeowner (of Hillcrest), given the demo password so they can sign in.
async fn neighbour(server: &TestServer) -> &'static str {
    let email = "priya.shah@sitecast.demo";
    let user = sitecast::store::users::find_by_email(server.state.store.pool(), email).await.unwrap().unwrap();
    let hash = server.state.auth.passwords.hash(PASSWORD).await.unwrap();
    sitecast::store::users::set_password(server.state.store.pool(), &user.id, &hash, 1).await.unwrap();
    email
}

fn field_error(err: &protocol::ApiError) -> (ErrorCode, &str, &str) {
    let field = err.fields.first().map_or(("", ""), |f| (f.field.as_str(), f.message.as_str()));
    (err.code, field.0, field.1)
}

/// Poppler's tools when this machine has them; in CI they must be there.
fn poppler() -> bool {
    let here = Command::new("pdftotext").arg("-v").output().is_ok() && Command::new("pdftoppm").arg("-v").output().is_ok();
    assert!(here || std::env::var("CI").is_err(), "CI needs poppler-utils (scripts/test-deps.sh installs it)");
    here
}

fn pdf_text(dir: &std::path::Path, pdf: &[u8]) -> String {
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
        let server = TestServer::start(&db.url, demo()).await;
        let dir = tempfile::TempDir::new().unwrap();
        let (mut builder, _) = server.connect(BUILDER).await;
        let (mut home, hello) = server.connect(HOMEOWNER).await;
        let (mut admin, admin_hello) = server.connect(ADMIN).await;
        let maple: Project = hello.snapshot.projects.iter().find(|p| p.title == "Maple Street Residence").unwrap().clone();
        let other = admin_hello.snapshot.projects.iter().find(|p| p.homeowner_id != maple.homeowner_id).unwrap().clone();
        let photos = match builder.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap() {
            Response::Subscribed { photos, .. } => photos,
            other => panic!("{other:?}"),
        };
        home.request(1, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap();
        assert!(photos.len() >= 3, "the demo project has photos");

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
        assert_eq!(made.created_by.as_ref().map(|u| u.email.as_str()), Some(BUILDER));
        // The homeowner's open page watches it move on, never back, to ready.
        let (done, ready) = until_made(&mut home, &made.id).await;
        assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
        assert_eq!((ready.status, ready.done, ready.total), (ReportStatus::Ready, made.total, made.total));
        let (_, _, pages_one) = preview(&mut builder, 7, &maple.id, options(1)).await.unwrap();
        assert_eq!(ready.pages, Some(pages_one));
        assert_eq!(list(&mut home, 8, &maple.id).await.unwrap().iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), [made.id.as_str(), plain.id.as_str()]);

        // The PDF: to the homeowner too, as an attachment named for the project.
        let cookie = server.login(HOMEOWNER, PASSWORD).await;
        let resp = server.get(&format!("/api/reports/{}/pdf", made.id), Some(&cookie)).await;
        assert_eq!(resp.status, StatusCode::OK);
        assert_eq!(resp.headers.get("content-type").unwrap(), "application/pdf");
        let disposition = resp.headers.get("content-disposition").unwrap().to_str().unwrap().to_owned();
        assert!(disposition.starts_with("attachment") && disposition.contains("Maple Street Residence - progress report"), "{disposition}");
        assert!(resp.bytes.starts_with(b"%PDF-"));
        assert_eq!(ready.byte_size, Some(resp.bytes.len() as i64));
        let inline = server.get(&format!("/api/reports/{}/pdf?inline=1", made.id), Some(&cookie)).await;
        assert!(inline.headers.get("content-disposition").unwrap().to_str().unwrap().starts_with("inline"));
        if poppler() {
            let text = pdf_text(dir.path(), &resp.bytes);
            assert_eq!(pdf_pages(dir.path(), &resp.bytes), pages_one as usize);
            assert!(text.contains("Maple Street Residence") && text.contains(&maple.address), "{text}");
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
        let stranger = server.login(neighbour(&server).await, PASSWORD).await;
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
        let server = TestServer::start(&db.url, demo()).await;
        let (mut builder, hello) = server.connect(BUILDER).await;
        let (mut home, _) = server.connect(HOMEOWNER).await;
        let maple = hello.snapshot.projects.iter().find(|p| p.title == "Maple Street Residence").unwrap().clone();
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
        let (mut stranger, _) = server.connect(neighbour(&server).await).await;
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
        let server = TestServer::start(&db.url, demo()).await;
        let (mut builder, hello) = server.connect(BUILDER).await;
        let maple = hello.snapshot.projects.iter().find(|p| p.title == "Maple Street Residence").unwrap().clone();
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
        let changes = sitecast::domain::reports::fail_stale(&server.state.svc).await.unwrap();
        assert_eq!(changes.len(), 1);
        let listed = list(&mut builder, 2, &maple.id).await.unwrap();
        assert_eq!((listed[0].status, listed[0].error.as_deref()), (ReportStatus::Failed, Some(INTERRUPTED)));
        builder.request(4, Request::Subscribe(protocol::Subscribe { id: maple.id.clone() })).await.unwrap();
        let made = make(&mut builder, 3, &maple.id, options(4)).await.unwrap();
        assert!(sitecast::domain::reports::fail_stale(&server.state.svc).await.unwrap().is_empty());
        let (_, ready) = until_made(&mut builder, &made.id).await;
        assert_eq!(ready.status, ReportStatus::Ready);
        server.stop().await;
        db
    })
    .await;
}
