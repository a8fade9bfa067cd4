//! Fan-out: N sockets of one homeowner watch their project while an admin changes its
//! progress at a fixed rate (or, with `--comments`, comments on one of its photos, which
//! reaches the sockets subscribed to the project). Every receiver records the delay
//! from the admin's send to its receipt; missing and out-of-order events are counted
//! (they must be zero).
//!
//!   cargo run --release -p sitecast-loadtest --bin fanout -- --url http://127.0.0.1:8080 --subscribers 1000

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use hdrhistogram::Histogram;
use futures_util::StreamExt;
use protocol::{Event, Request, ServerMsg, UpdateProject};
use sitecast_loadtest::{connect, login, next, send, session};
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    #[arg(long, default_value_t = 1000)]
    subscribers: usize,
    /// Status changes to send.
    #[arg(long, default_value_t = 50)]
    events: u32,
    /// Changes per second.
    #[arg(long, default_value_t = 10)]
    rate: u32,
    #[arg(long, default_value = "admin@sitecast.demo")]
    admin: String,
    #[arg(long, default_value = "homeowner@sitecast.demo")]
    homeowner: String,
    #[arg(long, default_value = "sitecast-demo")]
    password: String,
    /// Also print each change's p50, p99 and last delivery (is the tail one slow
    /// change, or every change's last sockets?).
    #[arg(long)]
    per_change: bool,
    /// Logins per second while the changes are sent (0: none), the demo accounts in
    /// turn: does a login burst slow the live path? (The k6 login scenario measures
    /// the same with k6's own CPU on the box; this client's logins cost it little.)
    #[arg(long, default_value_t = 0)]
    logins: u32,
    #[arg(long, value_delimiter = ',', default_value = "admin@sitecast.demo,builder@sitecast.demo,homeowner@sitecast.demo")]
    accounts: Vec<String>,
    /// Comments instead of status changes: every socket subscribes to the project and
    /// the admin comments on its newest photo (a comment's fan-out).
    #[arg(long)]
    comments: bool,
    /// Drive a peer (`loadtest/peers`: a bare broadcaster without accounts) instead of
    /// Sitecast: no logins, the same sockets, changes and measurement.
    #[arg(long)]
    peer: bool,
    /// The server's process id: report its CPU time (user + system, all threads)
    /// from the first change sent to the last delivery, per delivery.
    #[arg(long)]
    server_pid: Option<u32>,
}

/// Sends a request and reads until its reply, skipping events.
async fn ask(ws: &mut sitecast_loadtest::Socket, id: u32, request: Request) -> anyhow::Result<protocol::Response> {
    send(ws, id, request).await?;
    loop {
        match next(ws).await? {
            ServerMsg::Reply { id: got, response } if got == id => return Ok(response),
            ServerMsg::Error { id: Some(got), error } if got == id => anyhow::bail!("{}", error.message),
            _ => {}
        }
    }
}

/// The sequence number a change carries: a status change in the project's
/// description, a comment in its body ("fanout N").
fn sequence(text: &str) -> Option<u32> {
    text.strip_prefix("fanout ").and_then(|s| s.parse::<u32>().ok())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let homeowner = session(&args.url, &args.homeowner, &args.password, args.peer).await?;
    let admin = session(&args.url, &args.admin, &args.password, args.peer).await?;
    let (mut admin_ws, _) = connect(&args.url, &admin).await?;

    let mut sockets = Vec::with_capacity(args.subscribers);
    let mut project_id = None;
    for _ in 0..args.subscribers {
        let (mut ws, hello) = connect(&args.url, &homeowner).await?;
        let pid = project_id.get_or_insert_with(|| hello.snapshot.projects[0].id.clone()).clone();
        if args.comments {
            ask(&mut ws, 1, Request::Subscribe(protocol::Subscribe { id: pid })).await?;
        }
        sockets.push(ws);
    }
    let project_id = project_id.unwrap_or_default();
    let photo_id = if args.comments {
        match ask(&mut admin_ws, 1, Request::ListPhotos(protocol::ListPhotos::first(project_id.clone()))).await? {
            protocol::Response::Photos { photos, .. } => photos.first().map(|p| p.id.clone()).context("the project has no photo")?,
            other => anyhow::bail!("unexpected reply {other:?}"),
        }
    } else {
        String::new()
    };
    let comments = args.comments;
    eprintln!("{} sockets connected; sending {} changes at {}/s", sockets.len(), args.events, args.rate);

    // Send times by sequence number; a receiver reads the sequence from the description.
    let start = Instant::now();
    // Microseconds since `start` (0: not sent yet); atomics, so ten thousand receivers
    // reading them do not queue on a lock inside the measurement.
    let sent_at: Arc<Vec<AtomicU64>> = Arc::new((0..=args.events).map(|_| AtomicU64::new(0)).collect());
    let mut receivers = Vec::new();
    for mut ws in sockets {
        let (pid, sent_at, events) = (project_id.clone(), sent_at.clone(), args.events);
        receivers.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(events as usize);
            let (mut last, mut last_version, mut out_of_order) = (0u32, 0i64, 0u32);
            while last < events {
                let Ok(Ok(msg)) = tokio::time::timeout(Duration::from_secs(10), next(&mut ws)).await else { break };
                if comments {
                    if let ServerMsg::Event { event: Event::CommentAdded { comment, .. } } = msg {
                        let Some(seq) = sequence(&comment.body) else { continue };
                        let now = start.elapsed();
                        if seq <= last {
                            out_of_order += 1;
                            continue;
                        }
                        last = seq;
                        if let Some(at) = sent_at.get(seq as usize).map(|at| at.load(Ordering::Acquire)).filter(|at| *at > 0) {
                            latencies.push((seq, now.saturating_sub(Duration::from_micros(at))));
                        }
                    }
                    continue;
                }
                if let ServerMsg::Event { event: Event::ProjectUpdated { project, .. } } = msg {
                    if project.id != pid {
                        continue;
                    }
                    let Some(seq) = sequence(&project.description) else {
                        continue;
                    };
                    let now = start.elapsed();
                    // Versions must rise; a description seen before is another change
                    // to the project (a new photo's thumbnail), not a delivery.
                    if project.version <= last_version || seq < last {
                        out_of_order += 1;
                        continue;
                    }
                    last_version = project.version;
                    if seq == last {
                        continue;
                    }
                    last = seq;
                    match sent_at.get(seq as usize).map(|at| at.load(Ordering::Acquire)) {
                        Some(at) if at > 0 => latencies.push((seq, now.saturating_sub(Duration::from_micros(at)))),
                        _ => {}
                    }
                }
            }
            // The socket goes back with the results: closing it now would put this
            // client's and the server's teardown of the sockets already done in front
            // of the deliveries still on their way to the rest (it made the last change
            // three times slower than the others).
            (latencies, out_of_order, ws)
        }));
    }

    // The admin's socket hears every change too (admins see all): read it throughout,
    // or the server rightly cuts it off as a peer that stopped reading. Refused changes
    // (e.g. more than eight in flight) are counted: their events never exist, so
    // receivers report them missing.
    let (mut admin_tx, mut admin_rx) = admin_ws.split();
    let refused = Arc::new(AtomicU64::new(0));
    let drain = tokio::spawn({
        let refused = refused.clone();
        async move {
            while let Some(Ok(frame)) = admin_rx.next().await {
                if let Message::Binary(bytes) = frame {
                    if let Ok(ServerMsg::Error { error, .. }) = protocol::decode(&bytes) {
                        refused.fetch_add(1, Ordering::Relaxed);
                        eprintln!("change refused: {}", error.message);
                    }
                }
            }
        }
    });

    let period = Duration::from_secs_f64(1.0 / f64::from(args.rate.max(1)));
    let logins = (args.logins > 0).then(|| {
        let until = Instant::now() + period * args.events;
        tokio::spawn(login_burst(args.url.clone(), args.accounts.clone(), args.password.clone(), args.logins, until))
    });
    let mut tick = tokio::time::interval(period);
    let cpu_before = args.server_pid.and_then(sitecast_loadtest::cpu_time);
    for seq in 1..=args.events {
        tick.tick().await;
        sent_at[seq as usize].store(start.elapsed().as_micros().max(1) as u64, Ordering::Release);
        let request = if args.comments {
            Request::AddComment(protocol::AddComment { image_id: photo_id.clone(), body: format!("fanout {seq}") })
        } else {
            Request::UpdateProject(UpdateProject {
                id: project_id.clone(),
                description: Some(format!("fanout {seq}")),
                progress: Some(((seq % 20) * 5) as i32),
                ..UpdateProject::default()
            })
        };
        // Ids above the list request's (1).
        send(&mut admin_tx, seq + 1, request).await?;
    }
    let mut hist = Histogram::<u64>::new(3)?;
    let mut per_change = (0..=args.events).map(|_| Histogram::<u64>::new(3)).collect::<Result<Vec<_>, _>>()?;
    let (mut received, mut out_of_order) = (0u64, 0u64);
    let mut finished = Vec::with_capacity(receivers.len());
    for r in receivers {
        let (latencies, ooo, ws) = r.await?;
        finished.push(ws);
        received += latencies.len() as u64;
        out_of_order += u64::from(ooo);
        for (seq, l) in latencies {
            hist.record(l.as_micros() as u64)?;
            if let Some(h) = per_change.get_mut(seq as usize) {
                h.record(l.as_micros() as u64)?;
            }
        }
    }
    let cpu_after = args.server_pid.and_then(sitecast_loadtest::cpu_time);
    drain.abort();
    drop(finished);
    if let Some(logins) = logins {
        let (hist, failed) = logins.await??;
        let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
        println!(
            "logins rate={}/s done={} failed={failed} p50={:.1}ms p99={:.1}ms max={:.1}ms",
            args.logins,
            hist.len(),
            ms(0.5),
            ms(0.99),
            hist.max() as f64 / 1000.0
        );
    }
    if args.per_change {
        for (seq, h) in per_change.iter().enumerate().skip(1) {
            let ms = |us: u64| us as f64 / 1000.0;
            eprintln!(
                "change {seq}: delivered={} p50={:.1}ms p99={:.1}ms last={:.1}ms",
                h.len(),
                ms(h.value_at_quantile(0.5)),
                ms(h.value_at_quantile(0.99)),
                ms(h.max())
            );
        }
    }
    let expected = u64::from(args.events) * args.subscribers as u64;
    let cpu = match (cpu_before, cpu_after) {
        (Some(before), Some(after)) if received > 0 => {
            let spent = after.saturating_sub(before);
            format!(" server_cpu={:.0}ms cpu_per_delivery={:.2}us", spent.as_secs_f64() * 1e3, spent.as_secs_f64() * 1e6 / received as f64)
        }
        _ => String::new(),
    };
    let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "fanout kind={} subscribers={} events={} rate={}/s delivered={}/{} missing={} out_of_order={} refused={} \
         p50={:.1}ms p95={:.1}ms p99={:.1}ms max={:.1}ms{cpu}",
        if args.comments { "comment" } else { "status" },
        args.subscribers,
        args.events,
        args.rate,
        received,
        expected,
        expected - received,
        out_of_order,
        refused.load(Ordering::Relaxed),
        ms(0.50),
        ms(0.95),
        ms(0.99),
        hist.max() as f64 / 1000.0
    );
    Ok(())
}

/// Logs in at `rate` a second until `until`, each login on its own task (a constant
/// arrival rate: a slow login does not delay the next), and returns their durations
/// and the number that failed.
async fn login_burst(
    url: String,
    accounts: Vec<String>,
    password: String,
    rate: u32,
    until: Instant,
) -> anyhow::Result<(Histogram<u64>, u64)> {
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(rate)));
    let mut logins = Vec::new();
    let mut n = 0usize;
    while Instant::now() < until {
        tick.tick().await;
        let (url, email, password) = (url.clone(), accounts[n % accounts.len()].clone(), password.clone());
        n += 1;
        logins.push(tokio::spawn(async move {
            let started = Instant::now();
            login(&url, &email, &password).await.map(|_| started.elapsed())
        }));
    }
    let mut hist = Histogram::<u64>::new(3)?;
    let mut failed = 0;
    for l in logins {
        match l.await? {
            Ok(took) => hist.record(took.as_micros() as u64)?,
            Err(e) => {
                failed += 1;
                eprintln!("login failed: {e:#}");
            }
        }
    }
    Ok((hist, failed))
}
