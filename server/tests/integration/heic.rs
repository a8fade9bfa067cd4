//! iPhone photos (docs/FEATURES.md, "Photos"): HEIC files made here by libheif's own
//! encoder (heif-enc), uploaded through tus, appear live upright with their capture date
//! and place; the original is kept as uploaded. A damaged or hostile HEIC is refused with
//! a reason, a decoder that crashes takes only its own worker process, and the server
//! goes on serving. The 48-megapixel decode's peak memory is measured in the worker
//! itself.

use std::io::Write;
use std::process::{Command, Stdio};

use awc::http::StatusCode;
use protocol::{Event, Request, Response};
use sitecast::domain::media::photos::REASON_UNREADABLE;
use sitecast::media::fixtures::{app1, gps_app1, heic_from_jpeg, heif_with_rotation, jpeg_with_exif};
use sitecast::media::heif_worker::{frame, Answer, Ask, BYTES_PER_PIXEL};
use sitecast::media::renditions::{encode_jpeg, RENDITION_BYTES};

use crate::support::{for_each_backend, Options, TestServer, World, WorldSpec};
use crate::uploads::{photo, Tus};

fn slow_beats() -> Options {
    Options { ws_ping_secs: 60, ws_timeout_secs: 600, ..Options::default() }
}

/// A company with one project and no photos: the tests upload the photos.
async fn world(server: &TestServer) -> World {
    server.world(WorldSpec { projects: 1, photos: 0, milestones: false, comments: false, ..WorldSpec::default() }).await
}

/// `w`×`h`, the left half red and the right half blue, as a camera JPEG with `exif`.
fn halves(w: u32, h: u32, exif: &[u8]) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        // A little texture, so the encoder has something to keep.
        let t = ((x / 7 + y / 5) % 4) as u8 * 6;
        if x < w / 2 { image::Rgb([210 + t, 30, 30]) } else { image::Rgb([30, 30, 210 + t]) }
    });
    jpeg_with_exif(&encode_jpeg(&img, 90).unwrap(), exif)
}

/// An upright iPhone photo: landscape pixels, turned by its irot box (EXIF says 6 too).
fn iphone_heic(w: u32, h: u32, taken: &str) -> Vec<u8> {
    let heic = heic_from_jpeg(&halves(w, h, &app1(6, taken, None))).expect("heif-enc (scripts/test-deps.sh installs it)");
    heif_with_rotation(&heic, 3).expect("heif-enc's layout")
}

async fn upload(tus: &Tus<'_>, project_id: &str, name: &str, bytes: &[u8]) -> crate::uploads::Answer {
    let created = tus.create(bytes.len(), &[("projectId", project_id), ("filename", name)]).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let location = created.header("location").expect("Location");
    let mut offset = 0usize;
    let mut last = None;
    // In 8 MB requests, as the web app sends them.
    for chunk in bytes.chunks(8 * 1024 * 1024) {
        let answer = tus.patch(&location, offset as u64, chunk).await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT, "{}", answer.body);
        offset += chunk.len();
        last = Some(answer);
    }
    last.expect("at least one chunk")
}

#[actix_web::test]
async fn an_iphone_heic_arrives_live_upright_with_its_date_and_place() {
    let taken = "2025:06:14 09:30:00";
    let heic = iphone_heic(1200, 800, taken);
    let with_gps = heic_from_jpeg(&halves(600, 400, &gps_app1(47.6062, -122.3321))).unwrap();
    for_each_backend(|db| {
        let (heic, with_gps) = (heic.clone(), with_gps.clone());
        async move {
            let server = TestServer::start(&db.url, slow_beats()).await;
            let world = world(&server).await;
            let (mut watcher, _) = server.connect_as(&world.users["homeowner"].session).await;
            let project = &world.projects[0];
            match watcher.request(1, Request::Subscribe(protocol::Subscribe { id: project.id.clone() })).await.unwrap() {
                Response::Subscribed { .. } => {}
                other => panic!("expected subscribed, got {other:?}"),
            }
            let tus = Tus::new(&server, &world.users["owner"].session).await;
            let done = upload(&tus, &project.id, "IMG_4012.HEIC", &heic).await;
            assert_eq!(done.header("sitecast-refused"), None);
            let added = watcher
                .event(|e| match e {
                    Event::PhotoAdded { photo } if photo.original_name == "IMG_4012.HEIC" => Some(photo.clone()),
                    _ => None,
                })
                .await;
            // Upright: the portrait the phone was held in, from its irot box.
            assert_eq!((added.width, added.height), (800, 1200));
            // 2025-06-14T09:30:00, the camera's clock, from the HEIF's EXIF item.
            assert_eq!(added.taken_at, Some(1_749_893_400_000));
            let cookie = server.login(&world.users["owner"].email, &world.password).await;
            let display = server.get(&added.display_url, Some(&cookie)).await;
            assert_eq!(display.status, StatusCode::OK);
            let shown = image::load_from_memory(&display.bytes).unwrap().to_rgb8();
            assert_eq!(shown.dimensions(), (800, 1200));
            let (top, bottom) = (shown.get_pixel(400, 200).0, shown.get_pixel(400, 1000).0);
            assert!(top[0] > 170 && top[2] < 90, "top is red: {top:?}");
            assert!(bottom[2] > 170 && bottom[0] < 90, "bottom is blue: {bottom:?}");
            // The original, byte for byte, as an iPhone photo.
            let original = server.get(&added.download_url, Some(&cookie)).await;
            assert_eq!(original.status, StatusCode::OK);
            assert_eq!(original.headers.get("content-type").unwrap(), "image/heic");
            assert!(original.bytes == heic, "the original is kept as uploaded");

            // Where it was taken, from its EXIF GPS.
            upload(&tus, &project.id, "IMG_4013.HEIC", &with_gps).await;
            let placed = watcher
                .event(|e| match e {
                    Event::PhotoAdded { photo } if photo.original_name == "IMG_4013.HEIC" => Some(photo.clone()),
                    _ => None,
                })
                .await;
            let at = placed.location.expect("a location");
            assert!((at.lat - 47.6062).abs() < 1e-4 && (at.lon + 122.3321).abs() < 1e-4, "{at:?}");
            server.stop().await;
            db
        }
    })
    .await;
}

#[actix_web::test]
async fn damaged_and_hostile_heics_are_refused_and_the_server_goes_on() {
    let heic = heic_from_jpeg(&halves(640, 480, &app1(1, "2025:06:14 09:30:00", None))).unwrap();
    // Cut short: the container reads, the picture does not.
    let cut = heic[..heic.len() - 300].to_vec();
    // Claims 30000 × 30000 pixels: refused from its header, before any decoding.
    let ispe = heic.windows(4).position(|w| w == b"ispe").unwrap();
    let mut bomb = heic.clone();
    bomb[ispe + 8..ispe + 12].copy_from_slice(&30_000u32.to_be_bytes());
    bomb[ispe + 12..ispe + 16].copy_from_slice(&30_000u32.to_be_bytes());
    // A HEIF signature, then noise.
    let mut noise = heic[..32].to_vec();
    noise.extend((0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));

    let dir = tempfile::tempdir().unwrap();
    let db = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
    let server = TestServer::start(&db("a.db"), slow_beats()).await;
    let world_a = world(&server).await;
    let project = &world_a.projects[0];
    let tus = Tus::new(&server, &world_a.users["owner"].session).await;
    for (name, file) in [("cut.heic", &cut), ("bomb.heic", &bomb), ("noise.heic", &noise)] {
        let answer = upload(&tus, &project.id, name, file).await;
        let reason = answer.header("sitecast-refused").unwrap_or_else(|| panic!("{name} was refused"));
        let reason = percent_encoding::percent_decode_str(&reason).decode_utf8_lossy().into_owned();
        let expected = [
            REASON_UNREADABLE.to_owned(),
            sitecast::domain::media::photos::reason_damaged("HEIC"),
            sitecast::domain::media::photos::reason_too_many_pixels(),
        ];
        assert!(expected.contains(&reason), "{name}: {reason}");
        if name == "bomb.heic" {
            assert_ne!(reason, REASON_UNREADABLE, "a bomb is refused for its size or as damaged: {reason}");
        }
    }
    // The server still serves, and still takes photos.
    let fine = upload(&tus, &project.id, "fine.jpg", &photo(800, 600)).await;
    assert!(fine.header("sitecast-photo").is_some(), "a JPEG after them is stored");
    assert_eq!(server.get("/api/health", None).await.status, StatusCode::OK);
    server.stop().await;

    // A decoder that crashes on the file (here: one that kills itself) ends only its
    // own process: the photo is refused, the server goes on.
    let crasher = dir.path().join("crashing-decoder");
    std::fs::write(&crasher, "#!/bin/sh\nkill -SEGV $$\n").unwrap();
    std::fs::set_permissions(&crasher, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let opts = Options { extra: vec![("heif-decoder".into(), crasher.display().to_string())], ..slow_beats() };
    let server = TestServer::start(&db("b.db"), opts).await;
    let world_b = world(&server).await;
    let tus = Tus::new(&server, &world_b.users["owner"].session).await;
    let project = &world_b.projects[0];
    let answer = upload(&tus, &project.id, "crash.heic", &heic).await;
    let reason = answer.header("sitecast-refused").expect("refused");
    assert_eq!(percent_encoding::percent_decode_str(&reason).decode_utf8_lossy(), REASON_UNREADABLE);
    let fine = upload(&tus, &project.id, "after-crash.jpg", &photo(800, 600)).await;
    assert!(fine.header("sitecast-photo").is_some());
    server.stop().await;
}

/// The 48-megapixel HEIC: decoded by the worker program itself, whose answer carries
/// its peak resident memory (loadtest/README.md records the figure); it must stay
/// within what the server reserves of the decode budget for it, plus the program.
#[actix_web::test]
async fn a_48_megapixel_heic_decodes_within_its_reservation() {
    let (w, h) = (8000u32, 6000u32);
    let heic = iphone_heic(w, h, "2025:06:14 09:30:00");
    let mut worker = Command::new(env!("CARGO_BIN_EXE_sitecast"))
        .arg("decode-heif")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = worker.stdin.take().unwrap();
    let mut output = worker.stdout.take().unwrap();
    let read = |output: &mut std::process::ChildStdout| -> Answer {
        use std::io::Read;
        let mut len = [0u8; 4];
        output.read_exact(&mut len).unwrap();
        let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
        output.read_exact(&mut body).unwrap();
        rmp_serde::from_slice(&body).unwrap()
    };
    input.write_all(&frame(&Ask::File(heic.clone())).unwrap()).unwrap();
    input.flush().unwrap();
    match read(&mut output) {
        Answer::Size { width, height } => assert_eq!((width, height), (h, w), "upright"),
        other => panic!("expected its size, got {other:?}"),
    }
    input.write_all(&frame(&Ask::Go).unwrap()).unwrap();
    input.flush().unwrap();
    let (width, height, display, peak_rss_kib) = match read(&mut output) {
        Answer::Done { width, height, display, peak_rss_kib, .. } => (width, height, display, peak_rss_kib),
        other => panic!("expected renditions, got {other:?}"),
    };
    assert!(worker.wait().unwrap().success());
    assert_eq!((width, height), (h, w));
    assert_eq!(image::load_from_memory(&display).unwrap().height(), 1600);
    let reserved_kib = (u64::from(w) * u64::from(h) * BYTES_PER_PIXEL + RENDITION_BYTES) / 1024;
    println!(
        "48 MP HEIC ({} KB): worker peak RSS {} MB; reserved of the decode budget {} MB",
        heic.len() / 1024,
        peak_rss_kib / 1024,
        reserved_kib / 1024
    );
    // The program itself (its code and runtime) is the 64 MB above the reservation.
    assert!(peak_rss_kib <= reserved_kib + 64 * 1024, "peak {peak_rss_kib} KiB, reserved {reserved_kib} KiB");
}
