//! Photo pipeline figures.
//!
//! `photos renditions`: how many 12-megapixel JPEGs per second the rendition code
//! turns into a display image and a thumbnail, on `--threads` threads (in process).
//!
//! `photos upload`: a builder uploads `--photos` 12-megapixel JPEGs over tus
//! (`/api/uploads`, as the web app does: one site visit per `--batch` files, three
//! files at a time, each created then sent in one PATCH) while `--watchers` homeowner
//! sockets watch the project; records upload throughput and, per photo, the delay from
//! the creation of its upload to each watcher's `photo_added` (upload-to-visible).
//!
//! `photos resumable`: the same builder uploads `--photos` phone photos one after another
//! over tus (`/api/uploads`) while the connection is cut every `--cut-mb` megabytes
//! sent; each cut file resumes from the server's offset (HEAD). Records bytes sent ÷
//! bytes stored and, per photo, the delay from its creation to each watcher's
//! `photo_added`.
//!
//! `photos markup`: how many display-size photos per second get a markup drawn on for a
//! "with markup" download, on `--threads` threads (in process): a 12 MP photo's
//! display rendition with `--shapes` shapes of every kind (labels, pins, freehand).
//!
//! `photos bomb`: sends `--count` 8000×8000 16-bit RGBA PNGs (0.5 MB each, 512 MB of
//! samples) as one site visit, every file at once, and reads the server's peak RSS
//! (`--pid`).
//!
//! `photos report`: the builder makes progress reports of the newest
//! `--photos` photos of the demo homeowner's project; seconds to ready, pages, size and
//! the server's peak RSS (`--pid`) while each is made.
//!
//! `photos pages`: a homeowner opens a big project (`sitecast seed`) and reads every
//! page of its photos, `--rounds` times over: per request, the time to the reply and
//! its size on the wire, and a page of a month a year back (`before`) each round
//! (docs/FEATURES.md, "Big projects").
//!
//! `photos people`: an admin of a big installation (`sitecast seed --projects 1000
//! --users 10000`) connects and reads every page of projects, then searches the
//! homeowners' table for one person by name and pages it, `--rounds` times over: the
//! hello's size and time, and per request the time to the reply and its size.
//!
//!   cargo run --release -p sitecast-loadtest --bin photos -- renditions --seconds 10
//!   cargo run --release -p sitecast-loadtest --bin photos -- upload --url http://127.0.0.1:8090

use std::io::Cursor;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use futures_util::StreamExt;
use hdrhistogram::Histogram;
use protocol::{Event, Request, ServerMsg};
use sitecast_loadtest::{connect, login, next, send};

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Renditions {
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Defaults to the number of cores.
        #[arg(long)]
        threads: Option<usize>,
        /// Sensor noise, 1–256: 36 makes a 4.2 MB file like a phone's; 100 a 7.5 MB
        /// worst case (entropy decoding grows with the file).
        #[arg(long, default_value_t = 36)]
        grain: u32,
        /// Full-resolution chroma (4:4:4), as the rows before 2026-11-22's ⑮ were
        /// measured: 28 then makes 4.2 MB, 48 7.6 MB.
        #[arg(long)]
        full_chroma: bool,
        /// Render this file instead of a generated one (the peer comparison renders
        /// the same file with sharp: `loadtest/compare.sh renditions`).
        #[arg(long)]
        file: Option<std::path::PathBuf>,
        /// Write the generated photo here and exit (for the peer to read).
        #[arg(long)]
        save: Option<std::path::PathBuf>,
    },
    Upload {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[arg(long, default_value_t = 40)]
        photos: usize,
        /// Photos per site visit (a batch of tus uploads).
        #[arg(long, default_value_t = 10)]
        batch: usize,
        #[arg(long, default_value_t = 10)]
        watchers: usize,
        /// Every photo its own picture (made as it is sent, so slower), as a report
        /// measurement needs; by default four pictures take turns.
        #[arg(long)]
        distinct: bool,
        #[arg(long, default_value = "builder@sitecast.demo")]
        builder: String,
        #[arg(long, default_value = "homeowner@sitecast.demo")]
        homeowner: String,
        #[arg(long, default_value = "sitecast-demo")]
        password: String,
    },
    Resumable {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[arg(long, default_value_t = 40)]
        photos: usize,
        /// The connection is cut each time this many megabytes have been sent on it.
        #[arg(long, default_value_t = 5)]
        cut_mb: usize,
        #[arg(long, default_value_t = 10)]
        watchers: usize,
        #[arg(long, default_value = "builder@sitecast.demo")]
        builder: String,
        #[arg(long, default_value = "homeowner@sitecast.demo")]
        homeowner: String,
        #[arg(long, default_value = "sitecast-demo")]
        password: String,
    },
    Markup {
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Defaults to the number of cores.
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 20)]
        shapes: usize,
    },
    Bomb {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// The server's process id, to read its peak resident memory.
        #[arg(long)]
        pid: u32,
        #[arg(long, default_value_t = 2)]
        count: usize,
        #[arg(long, default_value = "builder@sitecast.demo")]
        builder: String,
        #[arg(long, default_value = "sitecast-demo")]
        password: String,
    },
    /// The builder makes progress reports of the demo homeowner's project
    /// (the newest `--photos` of its photos, hand-picked) back to back, `--count`
    /// times; each one's seconds from request to ready, its pages and size, and the
    /// server's resident memory before and at its peak while it was made.
    Pages {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// A homeowner `sitecast seed` printed; their first project is read.
        #[arg(long)]
        homeowner: String,
        #[arg(long, default_value = "sitecast-bulk")]
        password: String,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    People {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// The tag `sitecast seed` printed: its admin is admin.TAG@bulk.test.
        #[arg(long)]
        tag: String,
        /// How many homeowners it made (searched for by number).
        #[arg(long, default_value_t = 10_000)]
        users: usize,
        #[arg(long, default_value = "sitecast-bulk")]
        password: String,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
    },
    Report {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// The server's process id, to read its resident memory.
        #[arg(long)]
        pid: u32,
        #[arg(long, default_value_t = 20)]
        photos: usize,
        #[arg(long, default_value_t = 1)]
        per_page: u8,
        /// Draw each photo's markup on (the photos need some for this to cost anything).
        #[arg(long)]
        markup: bool,
        #[arg(long, default_value_t = 1)]
        count: usize,
        #[arg(long, default_value = "builder@sitecast.demo")]
        builder: String,
        #[arg(long, default_value = "homeowner@sitecast.demo")]
        homeowner: String,
        #[arg(long, default_value = "sitecast-demo")]
        password: String,
    },
}

/// A 4000×3000 JPEG with a phone photo's mix of smooth areas and fine detail, at a
/// phone camera's quality and, like a phone's, with chroma at half resolution each way
/// (4:2:0): 4.2 MB with `grain` 36, 7.5 MB with 100. `full_chroma` writes 4:4:4, as
/// `image`'s encoder does, which decodes twice the chroma samples of a phone photo.
fn twelve_megapixel_jpeg(seed: u32, grain: u32, full_chroma: bool) -> anyhow::Result<Vec<u8>> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let img = image::RgbImage::from_fn(4000, 3000, |x, y| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let grain = (state % grain.clamp(1, 256)) as u8;
        let sky = (y * 200 / 3000) as u8;
        image::Rgb([sky.saturating_add(grain), ((x / 16 + y / 16) % 180) as u8 + grain / 2, (x * 255 / 4000) as u8])
    });
    if full_chroma {
        let mut out = Cursor::new(Vec::new());
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92).encode_image(&img)?;
        return Ok(out.into_inner());
    }
    Ok(sitecast::media::renditions::encode_jpeg(&img, 92)?)
}

/// Runs `work` on `threads` threads for `seconds`, as often as each can; answers how
/// many runs succeeded and the seconds it took.
fn on_threads(seconds: u64, threads: usize, work: impl Fn() -> bool + Send + Sync + 'static) -> anyhow::Result<(u64, f64)> {
    let work = Arc::new(work);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let work = work.clone();
            std::thread::spawn(move || {
                let mut done = 0u64;
                while Instant::now() < deadline {
                    if work() {
                        done += 1;
                    }
                }
                done
            })
        })
        .collect();
    let mut total = 0;
    for w in workers {
        total += w.join().map_err(|_| anyhow::anyhow!("worker panicked"))?;
    }
    Ok((total, start.elapsed().as_secs_f64()))
}

fn renditions(photo: Vec<u8>, seconds: u64, threads: usize) -> anyhow::Result<()> {
    let photo = Arc::new(photo);
    sitecast::media::renditions::render(&photo).context("the photo does not render")?;
    eprintln!("JPEG of {:.1} MB; rendering on {threads} threads for {seconds} s", photo.len() as f64 / 1e6);
    let (total, secs) = on_threads(seconds, threads, move || sitecast::media::renditions::render(&photo).is_ok())?;
    println!(
        "renditions threads={threads} photos={total} seconds={secs:.1} per_second={:.2} ms_per_photo_per_thread={:.0}",
        total as f64 / secs,
        secs * 1000.0 * threads as f64 / total.max(1) as f64
    );
    Ok(())
}

/// A markup of `count` shapes cycling through every kind, colour and width, with a
/// 60-point freehand line, a two-line label and a pin with a note among them.
fn sample_markup(count: usize) -> Vec<protocol::Shape> {
    use protocol::{Geometry, MarkupColor, Point, Shape, StrokeWidth};
    let colors = [MarkupColor::Red, MarkupColor::Orange, MarkupColor::Yellow, MarkupColor::Green, MarkupColor::Blue, MarkupColor::White, MarkupColor::Black];
    let widths = [StrokeWidth::Thin, StrokeWidth::Medium, StrokeWidth::Thick];
    (0..count)
        .map(|i| {
            let f = (i % 10) as f32 / 10.0;
            let (a, b) = (Point { x: 0.05 + f * 0.8, y: 0.1 + f * 0.5 }, Point { x: 0.15 + f * 0.7, y: 0.3 + f * 0.6 });
            let geometry = match i % 7 {
                0 => Geometry::Arrow { from: a, to: b },
                1 => Geometry::Line { from: a, to: b },
                2 => Geometry::Rect { from: a, to: b },
                3 => Geometry::Ellipse { from: a, to: b },
                4 => Geometry::Pen { points: (0..60).map(|k| Point { x: a.x + k as f32 / 600.0, y: a.y + ((k as f32) / 5.0).sin() * 0.03 }).collect() },
                5 => Geometry::Text { at: a, text: "Crack in slab\nsee pin 2".into() },
                _ => Geometry::Pin { at: a, note: "Is this the outlet height we agreed?".into() },
            };
            Shape { id: format!("s{i}"), color: colors[i % colors.len()], width: widths[i % widths.len()], geometry, author_id: String::new() }
        })
        .collect()
}

fn markup(seconds: u64, threads: usize, shapes: usize) -> anyhow::Result<()> {
    let renditions = sitecast::media::renditions::render(&twelve_megapixel_jpeg(1, 36, false)?)?;
    let display = Arc::new(renditions.display);
    let drawing = Arc::new(sample_markup(shapes));
    eprintln!("display JPEG of {:.0} KB, {shapes} shapes; drawing on {threads} threads for {seconds} s", display.len() as f64 / 1e3);
    let (total, secs) = on_threads(seconds, threads, move || sitecast::media::markup::flatten(&display, &drawing).is_ok())?;
    println!(
        "markup threads={threads} shapes={shapes} photos={total} seconds={secs:.1} per_second={:.2} ms_per_photo_per_thread={:.1}",
        total as f64 / secs,
        secs * 1000.0 * threads as f64 / total.max(1) as f64
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn upload(
    url: &str,
    photos: usize,
    batch: usize,
    watchers: usize,
    distinct: bool,
    builder: &str,
    homeowner: &str,
    password: &str,
) -> anyhow::Result<()> {
    let files: Vec<Vec<u8>> = (0..4).map(|i| twelve_megapixel_jpeg(i + 1, 36, false)).collect::<anyhow::Result<_>>()?;
    let home = login(url, homeowner, password).await?;
    let builder_cookie = login(url, builder, password).await?;
    let mut sockets = Vec::new();
    let mut project = None;
    for i in 0..watchers {
        let (mut ws, hello) = connect(url, &home).await?;
        let id = project.get_or_insert_with(|| hello.snapshot.projects[0].id.clone()).clone();
        send(&mut ws, i as u32 + 1, Request::Subscribe(protocol::Subscribe { id })).await?;
        sockets.push(ws);
    }
    let project = project.context("the homeowner has no project")?;
    let start = Instant::now();
    // Per watcher: when each photo (by caption) became visible.
    let watchers_done: Vec<_> = sockets
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut seen = Vec::new();
                while seen.len() < photos {
                    let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_secs(60), next(&mut ws)).await else { break };
                    if let ServerMsg::Event { event: Event::PhotoAdded { photo } } = msg {
                        seen.push((photo.caption.unwrap_or_default(), start.elapsed()));
                    }
                }
                seen
            })
        })
        .collect();
    let client = reqwest::Client::new();
    let mut started = std::collections::HashMap::new();
    let mut bytes_sent = 0usize;
    let mut n = 0;
    while n < photos {
        // Site-visit ids are UUIDs (the server refuses anything else).
        let visit = uuid::Uuid::new_v4().to_string();
        let files_in_visit = batch.min(photos - n);
        let mut sends = Vec::new();
        for _ in 0..files_in_visit {
            let data = if distinct { twelve_megapixel_jpeg(n as u32 + 5, 36, false)? } else { files[n % files.len()].clone() };
            bytes_sent += data.len();
            let caption = format!("load-{n}");
            let (client, cookie, project, visit) = (&client, &builder_cookie, &project, &visit);
            sends.push(async move {
                let file = TusFile { name: format!("{caption}.jpg"), caption: Some(caption.clone()), data };
                let at = start.elapsed();
                let sent = tus_send(client, url, cookie, project, Some((visit, files_in_visit)), &file).await;
                (caption, at, sent)
            });
            n += 1;
        }
        // Three files at a time, as the web app sends them.
        let mut sending = futures_util::stream::iter(sends).buffer_unordered(TUS_PARALLEL);
        while let Some((caption, at, sent)) = sending.next().await {
            sent?;
            started.insert(caption, at);
        }
    }
    let upload_secs = start.elapsed().as_secs_f64();
    let mut hist = Histogram::<u64>::new(3)?;
    let mut visible = 0;
    for w in watchers_done {
        for (caption, at) in w.await? {
            if let Some(created) = started.get(&caption) {
                hist.record(at.saturating_sub(*created).as_micros() as u64)?;
                visible += 1;
            }
        }
    }
    let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "upload photos={photos} batch={batch} watchers={watchers} seconds={upload_secs:.1} photos_per_second={:.2} \
         MB_per_second={:.1} visible={visible}/{} creation_to_visible p50={:.0}ms p95={:.0}ms max={:.0}ms",
        photos as f64 / upload_secs,
        bytes_sent as f64 / 1e6 / upload_secs,
        photos * watchers,
        ms(0.5),
        ms(0.95),
        hist.max() as f64 / 1000.0
    );
    Ok(())
}

/// Standard base64 with padding (tus metadata values).
fn base64(input: &str) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in input.as_bytes().chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ABC[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// Files the web app sends at once (`web/src/store/uploads.ts`).
const TUS_PARALLEL: usize = 3;

/// One file as a tus upload sends it.
struct TusFile {
    name: String,
    caption: Option<String>,
    data: Vec<u8>,
}

/// Creates an upload for `file` (in a site visit of `(id, files)` when given) and sends
/// it whole in one PATCH; fails unless it was stored as a photo.
async fn tus_send(
    client: &reqwest::Client,
    url: &str,
    cookie: &str,
    project: &str,
    visit: Option<(&str, usize)>,
    file: &TusFile,
) -> anyhow::Result<()> {
    let mut metadata = vec![("projectId", project.to_owned()), ("filename", file.name.clone())];
    if let Some(caption) = &file.caption {
        metadata.push(("caption", caption.clone()));
    }
    if let Some((id, files)) = visit {
        metadata.extend([("batchId", id.to_owned()), ("batchSize", files.to_string())]);
    }
    let metadata = metadata.iter().map(|(k, v)| format!("{k} {}", base64(v))).collect::<Vec<_>>().join(",");
    let created = client
        .post(format!("{url}/api/uploads"))
        .header("cookie", cookie)
        .header("origin", url)
        .header("tus-resumable", "1.0.0")
        .header("upload-length", file.data.len().to_string())
        .header("upload-metadata", metadata)
        .send()
        .await?;
    if created.status().as_u16() != 201 {
        bail!("creation answered {}: {}", created.status(), created.text().await.unwrap_or_default());
    }
    let location = created.headers().get("location").context("no Location")?.to_str()?.to_owned();
    let done = client
        .patch(format!("{url}{location}"))
        .header("cookie", cookie)
        .header("origin", url)
        .header("tus-resumable", "1.0.0")
        .header("upload-offset", "0")
        .header("content-type", "application/offset+octet-stream")
        .body(file.data.clone())
        .send()
        .await?;
    if done.status().as_u16() != 204 || done.headers().get("sitecast-photo").is_none() {
        let refused = done.headers().get("sitecast-refused").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        bail!("{} answered {} {refused}: {}", file.name, done.status(), done.text().await.unwrap_or_default());
    }
    Ok(())
}

/// One tus PATCH of `data[offset..]`. When more than `budget` bytes remain, the request
/// declares them all but the connection dies after `budget` (written on a raw socket and
/// closed, as a phone leaving coverage). Answers the bytes put on the wire and whether
/// the request completed.
async fn patch(
    client: &reqwest::Client,
    url: &str,
    cookie: &str,
    location: &str,
    data: &[u8],
    offset: usize,
    budget: usize,
) -> anyhow::Result<(usize, bool)> {
    use tokio::io::AsyncWriteExt;
    let rest = &data[offset..];
    if rest.len() <= budget {
        let resp = client
            .patch(format!("{url}{location}"))
            .header("cookie", cookie)
            .header("origin", url)
            .header("tus-resumable", "1.0.0")
            .header("upload-offset", offset.to_string())
            .header("content-type", "application/offset+octet-stream")
            .body(rest.to_vec())
            .send()
            .await?;
        return match resp.status().as_u16() {
            204 => Ok((rest.len(), true)),
            // The server's offset moved on meanwhile (the cut request was still being
            // read when we asked where it was): ask again.
            409 => Ok((rest.len(), false)),
            _ => bail!("PATCH answered {}: {}", resp.status(), resp.text().await.unwrap_or_default()),
        };
    }
    let parsed = url::Url::parse(url)?;
    let host = parsed.host_str().context("no host")?;
    let port = parsed.port_or_known_default().context("no port")?;
    let mut socket = tokio::net::TcpStream::connect((host, port)).await?;
    let head = format!(
        "PATCH {location} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: {cookie}\r\nOrigin: {url}\r\nTus-Resumable: 1.0.0\r\n\
         Upload-Offset: {offset}\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: {}\r\n\r\n",
        rest.len()
    );
    socket.write_all(head.as_bytes()).await?;
    socket.write_all(&rest[..budget]).await?;
    socket.flush().await?;
    drop(socket);
    Ok((budget, false))
}

#[allow(clippy::too_many_arguments)]
async fn resumable(
    url: &str,
    photos: usize,
    cut_every: usize,
    watchers: usize,
    builder: &str,
    homeowner: &str,
    password: &str,
) -> anyhow::Result<()> {
    let files: Vec<Arc<Vec<u8>>> =
        (0..4).map(|i| twelve_megapixel_jpeg(i + 1, 36, false).map(Arc::new)).collect::<anyhow::Result<_>>()?;
    let home = login(url, homeowner, password).await?;
    let cookie = login(url, builder, password).await?;
    let mut sockets = Vec::new();
    let mut project = None;
    for i in 0..watchers {
        let (mut ws, hello) = connect(url, &home).await?;
        let id = project.get_or_insert_with(|| hello.snapshot.projects[0].id.clone()).clone();
        send(&mut ws, i as u32 + 1, Request::Subscribe(protocol::Subscribe { id })).await?;
        sockets.push(ws);
    }
    let project = project.context("the homeowner has no project")?;
    let start = Instant::now();
    let watchers_done: Vec<_> = sockets
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut seen = Vec::new();
                while seen.len() < photos {
                    let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_secs(120), next(&mut ws)).await else { break };
                    if let ServerMsg::Event { event: Event::PhotoAdded { photo } } = msg {
                        seen.push((photo.caption.unwrap_or_default(), start.elapsed()));
                    }
                }
                seen
            })
        })
        .collect();
    let client = reqwest::Client::new();
    // Site-visit ids are UUIDs (the server refuses anything else).
    let batch = uuid::Uuid::new_v4().to_string();
    let (mut sent, mut stored, mut cuts, mut on_this_connection) = (0usize, 0usize, 0usize, 0usize);
    let mut started = std::collections::HashMap::new();
    for n in 0..photos {
        let data = files[n % files.len()].clone();
        let caption = format!("resumable-{n}");
        started.insert(caption.clone(), start.elapsed());
        let metadata = [
            ("projectId", project.as_str()),
            ("filename", &format!("{caption}.jpg")),
            ("caption", &caption),
            ("batchId", &batch),
            ("batchSize", &photos.to_string()),
        ]
        .iter()
        .map(|(k, v)| format!("{k} {}", base64(v)))
        .collect::<Vec<_>>()
        .join(",");
        let created = client
            .post(format!("{url}/api/uploads"))
            .header("cookie", &cookie)
            .header("origin", url)
            .header("tus-resumable", "1.0.0")
            .header("upload-length", data.len().to_string())
            .header("upload-metadata", metadata)
            .send()
            .await?;
        if created.status().as_u16() != 201 {
            bail!("creation answered {}: {}", created.status(), created.text().await.unwrap_or_default());
        }
        let location = created.headers().get("location").context("no Location")?.to_str()?.to_owned();
        let mut offset = 0usize;
        loop {
            let budget = cut_every - on_this_connection;
            let (wrote, finished) = patch(&client, url, &cookie, &location, data.as_slice(), offset, budget).await?;
            sent += wrote;
            if finished {
                on_this_connection += wrote;
                break;
            }
            cuts += 1;
            on_this_connection = 0;
            // Back in coverage a moment later: asked at once, the server may answer
            // before it has read the cut request, and the next PATCH (its whole body
            // sent) is then refused with 409.
            tokio::time::sleep(Duration::from_millis(250)).await;
            // Where the server is: resume from there (what it did not keep is sent again).
            let head = client
                .head(format!("{url}{location}"))
                .header("cookie", &cookie)
                .header("tus-resumable", "1.0.0")
                .send()
                .await?;
            offset = head.headers().get("upload-offset").context("no Upload-Offset")?.to_str()?.parse()?;
            if offset == data.len() {
                break;
            }
        }
        stored += data.len();
    }
    let upload_secs = start.elapsed().as_secs_f64();
    let mut hist = Histogram::<u64>::new(3)?;
    let mut visible = 0;
    for w in watchers_done {
        for (caption, at) in w.await? {
            if let Some(begun) = started.get(&caption) {
                hist.record(at.saturating_sub(*begun).as_micros() as u64)?;
                visible += 1;
            }
        }
    }
    let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "resumable photos={photos} cut_every={:.1}MB cuts={cuts} sent={:.1}MB stored={:.1}MB sent/stored={:.3} \
         seconds={upload_secs:.1} visible={visible}/{} creation_to_visible p50={:.0}ms p95={:.0}ms max={:.0}ms",
        cut_every as f64 / 1e6,
        sent as f64 / 1e6,
        stored as f64 / 1e6,
        sent as f64 / stored.max(1) as f64,
        photos * watchers,
        ms(0.5),
        ms(0.95),
        hist.max() as f64 / 1000.0
    );
    Ok(())
}

fn status_kib(pid: u32, field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with(field)).context("no such field")?;
    Ok(line.split_whitespace().nth(1).context("no value")?.parse()?)
}

async fn bomb(url: &str, pid: u32, count: usize, builder: &str, password: &str) -> anyhow::Result<()> {
    let png = sitecast::media::fixtures::png16_rgba(8000, 8000)?;
    let cookie = login(url, builder, password).await?;
    let (_, hello) = connect(url, &cookie).await?;
    let project = hello.snapshot.projects.first().context("the builder has no project")?.id.clone();
    // Peak RSS from now on (Linux: writing 5 to clear_refs resets VmHWM).
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5")?;
    let before = status_kib(pid, "VmRSS:")?;
    let client = reqwest::Client::new();
    let visit = uuid::Uuid::new_v4().to_string();
    let files: Vec<TusFile> =
        (0..count).map(|i| TusFile { name: format!("bomb-{i}.png"), caption: None, data: png.clone() }).collect();
    let start = Instant::now();
    let sends = files.iter().map(|file| tus_send(&client, url, &cookie, &project, Some((&visit, count)), file));
    let failed: Vec<String> = futures_util::future::join_all(sends).await.into_iter().filter_map(|r| r.err()).map(|e| e.to_string()).collect();
    let status = if failed.is_empty() { "stored".to_owned() } else { format!("{} failed", failed.len()) };
    let peak = status_kib(pid, "VmHWM:")?;
    println!(
        "bomb count={count} file={:.2}MB status={status} seconds={:.1} rss_before={}MB peak_rss={}MB peak_growth={}MB",
        png.len() as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        before / 1024,
        peak / 1024,
        peak.saturating_sub(before) / 1024
    );
    if !failed.is_empty() {
        bail!("uploads failed: {failed:?}");
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn report(
    url: &str,
    pid: u32,
    photos: usize,
    per_page: u8,
    markup: bool,
    count: usize,
    builder: &str,
    homeowner: &str,
    password: &str,
) -> anyhow::Result<()> {
    let home = login(url, homeowner, password).await?;
    let (_, hello) = connect(url, &home).await?;
    let homeowner_id = hello.user.id.clone();
    let cookie = login(url, builder, password).await?;
    let (mut ws, hello) = connect(url, &cookie).await?;
    let project = hello.snapshot.projects.iter().find(|p| p.homeowner_id == homeowner_id).context("the homeowner has no project")?.id.clone();
    send(&mut ws, 1, Request::Subscribe(protocol::Subscribe { id: project.clone() })).await?;
    // The reply lists every photo: past the 64 KiB `protocol::decode` allows a client.
    let all = loop {
        let message = ws.next().await.context("socket closed")??;
        if let tokio_tungstenite::tungstenite::Message::Binary(bytes) = message {
            if let ServerMsg::Reply { response: protocol::Response::Subscribed { photos, .. }, .. } = rmp_serde::from_slice(&bytes)? {
                break photos;
            }
        }
    };
    if all.len() < photos {
        bail!("the project has {} photos, fewer than {photos}: upload more first (`photos upload`)", all.len());
    }
    let picked: Vec<String> = all.iter().take(photos).map(|p| p.id.clone()).collect();
    let options = protocol::ReportOptions {
        photos: protocol::ReportPhotos::Picked,
        picked,
        per_page,
        markup,
        ..Default::default()
    };
    for round in 0..count {
        std::fs::write(format!("/proc/{pid}/clear_refs"), "5")?;
        let before = status_kib(pid, "VmRSS:")?;
        let start = Instant::now();
        let id = 10 + round as u32;
        send(&mut ws, id, Request::MakeReport(protocol::MakeReport { project_id: project.clone(), options: options.clone() })).await?;
        let mut report_id = None;
        let ready = loop {
            match next(&mut ws).await? {
                ServerMsg::Reply { id: got, response: protocol::Response::Report { report } } if got == id => report_id = Some(report.id),
                ServerMsg::Error { id: Some(got), error } if got == id => bail!("refused: {}", error.message),
                ServerMsg::Event { event: protocol::Event::ReportChanged { report } }
                    if Some(&report.id) == report_id.as_ref() && report.status != protocol::ReportStatus::Generating =>
                {
                    break report;
                }
                _ => {}
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let peak = status_kib(pid, "VmHWM:")?;
        if ready.status != protocol::ReportStatus::Ready {
            bail!("the report failed: {:?}", ready.error);
        }
        println!(
            "report photos={photos} per_page={per_page} markup={markup} seconds={seconds:.2} pages={} size={:.1}MB rss_before={}MB peak_rss={}MB peak_growth={}MB",
            ready.pages.unwrap_or(0),
            ready.byte_size.unwrap_or(0) as f64 / 1e6,
            before / 1024,
            peak / 1024,
            peak.saturating_sub(before) / 1024
        );
    }
    Ok(())
}

/// The next reply to `id` and its size on the wire; events in between are skipped.
async fn reply_of(ws: &mut sitecast_loadtest::Socket, id: u32) -> anyhow::Result<(protocol::Response, usize)> {
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let Message::Binary(bytes) = ws.next().await.context("socket closed")?? else { continue };
        match protocol::decode::<ServerMsg>(&bytes)? {
            ServerMsg::Reply { id: got, response } if got == id => return Ok((response, bytes.len())),
            ServerMsg::Error { id: Some(got), error } if got == id => bail!("refused: {}", error.message),
            _ => continue,
        }
    }
}

async fn pages(url: &str, homeowner: &str, password: &str, rounds: usize) -> anyhow::Result<()> {
    let cookie = login(url, homeowner, password).await?;
    let (mut ws, hello) = connect(url, &cookie).await?;
    let project = hello.snapshot.projects.first().context("the homeowner has no project")?.id.clone();
    let (mut opening, mut paging, mut year_back) = (Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?);
    let (mut largest_open, mut largest_page, mut photos, mut id) = (0, 0, 0, 0u32);
    let mut paced = Instant::now();
    for _ in 0..rounds {
        id += 1;
        let start = Instant::now();
        send(&mut ws, id, Request::Subscribe(protocol::Subscribe { id: project.clone() })).await?;
        let (reply, size) = reply_of(&mut ws, id).await?;
        opening.record(start.elapsed().as_micros() as u64)?;
        largest_open = largest_open.max(size);
        let protocol::Response::Subscribed { photos: first, next_photos, photo_count, .. } = reply else { bail!("expected subscribed") };
        let mut seen = first.len();
        // A month a year back, as the gallery's Year and Month ask for it: one reply
        // starting at a time, however many photos are newer.
        if let Some(newest) = first.first().map(|p| p.taken_at.unwrap_or(p.created_at)) {
            id += 1;
            let start = Instant::now();
            let before = newest - 335 * 24 * 3600 * 1000;
            let request = protocol::ListPhotos { project_id: project.clone(), after: None, limit: Some(60), before: Some(before) };
            send(&mut ws, id, Request::ListPhotos(request)).await?;
            let (reply, _) = reply_of(&mut ws, id).await?;
            year_back.record(start.elapsed().as_micros() as u64)?;
            let protocol::Response::Photos { .. } = reply else { bail!("expected photos") };
        }
        let mut after = next_photos;
        while let Some(cursor) = after.take() {
            // At most 18 requests a second, under the server's 200 per socket per 10 s
            // (ws::session::MAX_REQUESTS_PER_10S), as the web app keeps to when told.
            tokio::time::sleep_until(tokio::time::Instant::from_std(paced)).await;
            paced = Instant::now() + Duration::from_millis(55);
            id += 1;
            let start = Instant::now();
            send(&mut ws, id, Request::ListPhotos(protocol::ListPhotos { project_id: project.clone(), after: Some(cursor), limit: None, before: None })).await?;
            let (reply, size) = reply_of(&mut ws, id).await?;
            paging.record(start.elapsed().as_micros() as u64)?;
            largest_page = largest_page.max(size);
            let protocol::Response::Photos { photos, next, .. } = reply else { bail!("expected photos") };
            seen += photos.len();
            after = next;
        }
        if seen != photo_count as usize {
            bail!("read {seen} photos of {photo_count}");
        }
        photos = seen;
        id += 1;
        send(&mut ws, id, Request::Unsubscribe(protocol::Unsubscribe { id: project.clone() })).await?;
        reply_of(&mut ws, id).await?;
    }
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "pages photos={photos} rounds={rounds} open_p50={:.1}ms open_p99={:.1}ms open_max_bytes={largest_open} pages={} page_p50={:.1}ms page_p99={:.1}ms page_max={:.1}ms page_max_bytes={largest_page} year_back_p50={:.1}ms year_back_p99={:.1}ms",
        ms(&opening, 0.5),
        ms(&opening, 0.99),
        paging.len(),
        ms(&paging, 0.5),
        ms(&paging, 0.99),
        paging.max() as f64 / 1000.0,
        ms(&year_back, 0.5),
        ms(&year_back, 0.99)
    );
    Ok(())
}

/// Times one request on `ws`, paced under the socket's 200 requests per 10 s.
struct Timed {
    id: u32,
    paced: Instant,
}

impl Timed {
    async fn ask(&mut self, ws: &mut sitecast_loadtest::Socket, request: Request, into: &mut Histogram<u64>) -> anyhow::Result<(protocol::Response, usize)> {
        tokio::time::sleep_until(tokio::time::Instant::from_std(self.paced)).await;
        self.paced = Instant::now() + Duration::from_millis(55);
        self.id += 1;
        let start = Instant::now();
        send(ws, self.id, request).await?;
        let answer = reply_of(ws, self.id).await?;
        into.record(start.elapsed().as_micros() as u64)?;
        Ok(answer)
    }
}

async fn people(url: &str, tag: &str, users: usize, password: &str, rounds: usize) -> anyhow::Result<()> {
    let cookie = login(url, &format!("admin.{tag}@bulk.test"), password).await?;
    let (mut hello_time, mut project_pages, mut searches, mut table_pages) =
        (Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?);
    let (mut hello_bytes, mut largest_page, mut largest_table, mut projects) = (0, 0, 0, 0);
    for round in 0..rounds {
        let start = Instant::now();
        let (mut ws, hello) = connect(url, &cookie).await?;
        hello_time.record(start.elapsed().as_micros() as u64)?;
        hello_bytes = protocol::encode(&ServerMsg::Hello(hello.clone()))?.len();
        let mut timed = Timed { id: 0, paced: Instant::now() };
        let mut seen = hello.snapshot.projects.len();
        let mut after = hello.snapshot.next_projects.clone();
        while let Some(cursor) = after.take() {
            let (reply, size) = timed.ask(&mut ws, Request::ListProjects(protocol::ListProjects { after: Some(cursor) }), &mut project_pages).await?;
            let protocol::Response::Projects { projects, next } = reply else { bail!("expected projects") };
            largest_page = largest_page.max(size);
            seen += projects.len();
            after = next;
        }
        if seen != hello.snapshot.project_count as usize {
            bail!("read {seen} projects of {}", hello.snapshot.project_count);
        }
        projects = seen;
        // One person by name, as typing in the table's search asks for them.
        for n in 0..10 {
            let wanted = 1 + (round * 7919 + n * 104_729) % users.max(1);
            let request = protocol::ListUsers::search(protocol::Role::Homeowner, format!("Homeowner{wanted} "));
            let (reply, _) = timed.ask(&mut ws, Request::ListUsers(request), &mut searches).await?;
            let protocol::Response::UserPage { total, .. } = reply else { bail!("expected a user page") };
            if total == 0 {
                bail!("Homeowner{wanted} not found");
            }
        }
        // The table paged and sorted, as a person clicking through it does.
        for (page, sort) in [(0, protocol::UserSort::Name), (1, protocol::UserSort::Name), (0, protocol::UserSort::Projects), (40, protocol::UserSort::Email)] {
            let request = protocol::ListUsers { page, sort, descending: page == 0, ..protocol::ListUsers::first(protocol::Role::Homeowner) };
            let (_, size) = timed.ask(&mut ws, Request::ListUsers(request), &mut table_pages).await?;
            largest_table = largest_table.max(size);
        }
    }
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "people projects={projects} users={users} rounds={rounds} hello_bytes={hello_bytes} hello_p50={:.1}ms hello_p99={:.1}ms project_pages={} project_page_p50={:.1}ms project_page_p99={:.1}ms project_page_max_bytes={largest_page} search_p50={:.1}ms search_p99={:.1}ms table_page_p50={:.1}ms table_page_p99={:.1}ms table_page_max_bytes={largest_table}",
        ms(&hello_time, 0.5),
        ms(&hello_time, 0.99),
        project_pages.len(),
        ms(&project_pages, 0.5),
        ms(&project_pages, 0.99),
        ms(&searches, 0.5),
        ms(&searches, 0.99),
        ms(&table_pages, 0.5),
        ms(&table_pages, 0.99),
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Args::parse().command {
        Command::Renditions { seconds, threads, grain, full_chroma, file, save } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
            let photo = match file {
                Some(path) => std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
                None => twelve_megapixel_jpeg(1, grain, full_chroma)?,
            };
            if let Some(path) = save {
                std::fs::write(&path, &photo).with_context(|| format!("writing {}", path.display()))?;
                eprintln!("wrote {} ({:.1} MB)", path.display(), photo.len() as f64 / 1e6);
                return Ok(());
            }
            renditions(photo, seconds, threads)
        }
        Command::Upload { url, photos, batch, watchers, distinct, builder, homeowner, password } => {
            upload(&url, photos, batch, watchers, distinct, &builder, &homeowner, &password).await
        }
        Command::Resumable { url, photos, cut_mb, watchers, builder, homeowner, password } => {
            resumable(&url, photos, cut_mb * 1_000_000, watchers, &builder, &homeowner, &password).await
        }
        Command::Markup { seconds, threads, shapes } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
            markup(seconds, threads, shapes)
        }
        Command::Bomb { url, pid, count, builder, password } => bomb(&url, pid, count, &builder, &password).await,
        Command::Pages { url, homeowner, password, rounds } => pages(&url, &homeowner, &password, rounds).await,
        Command::People { url, tag, users, password, rounds } => people(&url, &tag, users, &password, rounds).await,
        Command::Report { url, pid, photos, per_page, markup, count, builder, homeowner, password } => {
            report(&url, pid, photos, per_page, markup, count, &builder, &homeowner, &password).await
        }
    }
}
