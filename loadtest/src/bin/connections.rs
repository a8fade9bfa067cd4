//! Connections: opens N authenticated sockets (spread over several 127.0.0.x source
//! addresses, past the ephemeral-port limit of one), holds them while the server's
//! heartbeats flow, and reports how many stayed open and the server's memory per
//! socket (from its /proc status, given `--server-pid`).
//!
//!   target/release/connections --url http://127.0.0.1:8090 --sockets 50000 --hold 60 --server-pid $PID

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use futures_util::StreamExt;
use sitecast_loadtest::session;
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser)]
struct Args {
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// Seconds to hold every socket open once all are up.
    #[arg(long, default_value_t = 30)]
    hold: u64,
    /// Source addresses 127.0.0.2 … 127.0.0.(1+N), about 25,000 sockets each.
    #[arg(long, default_value_t = 4)]
    source_ips: u8,
    /// Sockets opened at once.
    #[arg(long, default_value_t = 200)]
    concurrency: usize,
    #[arg(long)]
    server_pid: Option<u32>,
    #[arg(long, default_value = "homeowner@sitecast.demo")]
    email: String,
    #[arg(long, default_value = "sitecast-demo")]
    password: String,
    /// Hold sockets on a peer (`loadtest/peers`, no accounts) instead of Sitecast.
    #[arg(long)]
    peer: bool,
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let cookie = session(&args.url, &args.email, &args.password, args.peer).await?;
    let url = url::Url::parse(&args.url)?;
    let host = url.host_str().context("no host")?.to_owned();
    let port = url.port_or_known_default().context("no port")?;
    let server: SocketAddr = format!("{host}:{port}").parse()?;
    let ws_url = format!("ws://{host}:{port}/ws");
    let before = args.server_pid.and_then(rss_kib);

    let open = Arc::new(AtomicUsize::new(0));
    let pings = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let permits = Arc::new(tokio::sync::Semaphore::new(args.concurrency));
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(args.sockets);
    for i in 0..args.sockets {
        let source = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i % usize::from(args.source_ips.max(1))) as u8));
        let (cookie, ws_url, open, pings, failed, permits) =
            (cookie.clone(), ws_url.clone(), open.clone(), pings.clone(), failed.clone(), permits.clone());
        let origin = args.url.clone();
        tasks.push(tokio::spawn(async move {
            let connected = async {
                let _permit = permits.acquire().await?;
                let socket = TcpSocket::new_v4()?;
                socket.bind(SocketAddr::new(source, 0))?;
                let stream = socket.connect(server).await?;
                let mut req = ws_url.into_client_request()?;
                if !cookie.is_empty() {
                    req.headers_mut().insert("cookie", cookie.parse()?);
                }
                req.headers_mut().insert("origin", origin.parse()?);
                let (ws, _) = tokio_tungstenite::client_async_with_config(req, stream, Some(sitecast_loadtest::ws_config())).await?;
                anyhow::Ok(ws)
            }
            .await;
            let mut ws = match connected {
                Ok(ws) => ws,
                Err(_) => {
                    failed.fetch_add(1, Ordering::Relaxed);
                    return;
                }
            };
            open.fetch_add(1, Ordering::Relaxed);
            // Reading is what answers the server's pings (tungstenite queues the pong).
            while let Some(msg) = ws.next().await {
                match msg {
                    Ok(Message::Ping(_)) => {
                        pings.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Message::Close(_)) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            open.fetch_sub(1, Ordering::Relaxed);
        }));
        if i % 5000 == 4999 {
            eprintln!("{} sockets opening/open after {:.1}s", i + 1, start.elapsed().as_secs_f64());
        }
    }
    // Wait until every socket is up or failed.
    while open.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < args.sockets {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if start.elapsed() > Duration::from_secs(600) {
            break;
        }
    }
    let ramp = start.elapsed().as_secs_f64();
    let up = open.load(Ordering::Relaxed);
    eprintln!("{up} sockets up after {ramp:.1}s ({} failed); holding {} s", failed.load(Ordering::Relaxed), args.hold);
    tokio::time::sleep(Duration::from_secs(args.hold)).await;
    let held = open.load(Ordering::Relaxed);
    let at_hold = args.server_pid.and_then(rss_kib);
    let per_socket = match (before, at_hold) {
        (Some(b), Some(h)) if held > 0 => format!("{:.1}", (h.saturating_sub(b)) as f64 / held as f64),
        _ => "n/a".to_owned(),
    };
    println!(
        "connections requested={} up={up} held={held} failed={} ramp={ramp:.1}s hold={}s pings_answered={} \
         server_rss_before={}KiB server_rss_held={}KiB rss_per_socket={per_socket}KiB",
        args.sockets,
        failed.load(Ordering::Relaxed),
        args.hold,
        pings.load(Ordering::Relaxed),
        before.map(|v| v.to_string()).unwrap_or_default(),
        at_hold.map(|v| v.to_string()).unwrap_or_default(),
    );
    for t in tasks {
        t.abort();
    }
    Ok(())
}
