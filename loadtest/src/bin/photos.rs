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
    }
}
