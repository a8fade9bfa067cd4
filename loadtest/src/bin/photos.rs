//! Photo pipeline figures.
//!
//! `photos renditions`: how many 12-megapixel JPEGs per second the rendition code
//! turns into a display image and a thumbnail, on `--threads` threads (in process).
//!
//! `photos upload`: a builder uploads `--photos` 12-megapixel JPEGs (one request per
//! `--batch`) while `--watchers` homeowner sockets watch the project; records upload
//! throughput and, per photo, the delay from the start of its request to each
//! watcher's `photo_added` (upload-to-visible).
//!
//! `photos resumable`: the same builder uploads `--photos` phone photos one after another
//! over tus (`/api/uploads`) while the connection is cut every `--cut-mb` megabytes
//! sent; each cut file resumes from the server's offset (HEAD). Records bytes sent ÷
//! bytes stored and, per photo, the delay from its creation to each watcher's
//! `photo_added`.
//!
//! `photos bomb`: sends `--count` 8000×8000 16-bit RGBA PNGs (0.5 MB each, 512 MB of
//! samples) in one multipart request and reads the server's peak RSS (`--pid`).
//!
//!   cargo run --release -p sitecast-loadtest --bin photos -- renditions --seconds 10
//!   cargo run --release -p sitecast-loadtest --bin photos -- upload --url http://127.0.0.1:8090

use std::io::Cursor;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
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
    },
    Upload {
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[arg(long, default_value_t = 40)]
        photos: usize,
        /// Photos per upload request (a site visit's batch).
        #[arg(long, default_value_t = 10)]
        batch: usize,
        #[arg(long, default_value_t = 10)]
        watchers: usize,
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

fn renditions(seconds: u64, threads: usize, grain: u32, full_chroma: bool) -> anyhow::Result<()> {
    let photo = Arc::new(twelve_megapixel_jpeg(1, grain, full_chroma)?);
    eprintln!("12 MP JPEG of {:.1} MB; rendering on {threads} threads for {seconds} s", photo.len() as f64 / 1e6);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let photo = photo.clone();
            std::thread::spawn(move || {
                let mut done = 0u64;
                while Instant::now() < deadline {
                    if sitecast::media::renditions::render(&photo).is_ok() {
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
    let secs = start.elapsed().as_secs_f64();
    println!(
        "renditions threads={threads} photos={total} seconds={secs:.1} per_second={:.2} ms_per_photo_per_thread={:.0}",
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
        send(&mut ws, i as u32 + 1, Request::Subscribe { id }).await?;
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
        let mut form = reqwest::multipart::Form::new();
        let request_start = start.elapsed();
        for _ in 0..batch.min(photos - n) {
            let data = files[n % files.len()].clone();
            bytes_sent += data.len();
            let name = format!("load-{n}.jpg");
            started.insert(format!("load-{n}"), request_start);
            form = form.part("photos", reqwest::multipart::Part::bytes(data).file_name(name).mime_str("image/jpeg")?);
            n += 1;
        }
        let resp = client
            .post(format!("{url}/api/projects/{project}/photos"))
            .header("cookie", &builder_cookie)
            .header("origin", url)
            .multipart(form)
            .send()
            .await?;
        if resp.status().as_u16() != 201 {
            bail!("upload failed: {} {}", resp.status(), resp.text().await.unwrap_or_default());
        }
    }
    let upload_secs = start.elapsed().as_secs_f64();
    let mut hist = Histogram::<u64>::new(3)?;
    let mut visible = 0;
    for w in watchers_done {
        for (caption, at) in w.await? {
            if let Some(sent) = started.get(&caption) {
                hist.record(at.saturating_sub(*sent).as_micros() as u64)?;
                visible += 1;
            }
        }
    }
    let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "upload photos={photos} batch={batch} watchers={watchers} seconds={upload_secs:.1} photos_per_second={:.2} \
         MB_per_second={:.1} visible={visible}/{} request_start_to_visible p50={:.0}ms p95={:.0}ms max={:.0}ms",
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
        send(&mut ws, i as u32 + 1, Request::Subscribe { id }).await?;
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
    let batch = format!("load-{}", start.elapsed().as_nanos() ^ u128::from(std::process::id()));
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
    let mut form = reqwest::multipart::Form::new();
    for i in 0..count {
        form = form.part("photos", reqwest::multipart::Part::bytes(png.clone()).file_name(format!("bomb-{i}.png")).mime_str("image/png")?);
    }
    let start = Instant::now();
    let resp = reqwest::Client::new()
        .post(format!("{url}/api/projects/{project}/photos"))
        .header("cookie", &cookie)
        .header("origin", url)
        .multipart(form)
        .send()
        .await?;
    let status = resp.status();
    let body = resp.text().await.unwrap_or_default();
    let peak = status_kib(pid, "VmHWM:")?;
    println!(
        "bomb count={count} file={:.2}MB status={status} seconds={:.1} rss_before={}MB peak_rss={}MB peak_growth={}MB",
        png.len() as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        before / 1024,
        peak / 1024,
        peak.saturating_sub(before) / 1024
    );
    if !status.is_success() {
        bail!("upload answered {status}: {body}");
    }
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Args::parse().command {
        Command::Renditions { seconds, threads, grain, full_chroma } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
            renditions(seconds, threads, grain, full_chroma)
        }
        Command::Upload { url, photos, batch, watchers, builder, homeowner, password } => {
            upload(&url, photos, batch, watchers, &builder, &homeowner, &password).await
        }
        Command::Resumable { url, photos, cut_mb, watchers, builder, homeowner, password } => {
            resumable(&url, photos, cut_mb * 1_000_000, watchers, &builder, &homeowner, &password).await
        }
        Command::Bomb { url, pid, count, builder, password } => bomb(&url, pid, count, &builder, &password).await,
    }
}
