//! The bare Rust peer of Sitecast's live fan-out: a tokio-tungstenite broadcaster that
//! speaks just enough of the protocol for the native clients (`fanout --peer`,
//! `connections --peer`) to drive it exactly as they drive Sitecast. A socket gets a
//! Hello with one project; a client's `update_project` changes that project and the
//! `project_updated` event goes to every socket, encoded once. No auth, no database,
//! no policy: what a broadcaster costs when it does nothing else.
//!
//! The usual shape: a task per socket reading, a task per socket writing from a bounded
//! queue (a reader that stops reading is cut off, never buffered without limit), a
//! ping every 15 s and a close after 30 s of silence.
//!
//!   target/release/tungstenite_peer --port 8091
//!   target/release/tungstenite_peer --write-frames DIR   # the frames the Node peer sends

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use protocol::{Event, Hello, Profile, Project, ProjectStatus, ProgressMode, Request, Role, ServerMsg, Snapshot, PROTOCOL_VERSION};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::{Bytes, Message};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value_t = 8091)]
    port: u16,
    /// Write `hello.msgpack` and `project_updated.msgpack` into this folder and exit.
    #[arg(long)]
    write_frames: Option<PathBuf>,
}

/// Frames a socket may have queued before it counts as not reading (Sitecast's limit).
const QUEUE: usize = 256;
const PING_EVERY: Duration = Duration::from_secs(15);
const SILENT_FOR: Duration = Duration::from_secs(30);

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

fn project() -> Project {
    Project {
        id: "00000000-0000-4000-8000-000000000001".to_owned(),
        title: "Maple Street Residence".to_owned(),
        description: "Two-storey family home".to_owned(),
        address: "12 Maple Street".to_owned(),
        homeowner_id: "00000000-0000-4000-8000-000000000002".to_owned(),
        homeowner_name: "Hana Homeowner".to_owned(),
        homeowner_first_name: Some("Hana".to_owned()),
        homeowner_last_name: Some("Homeowner".to_owned()),
        builder_id: None,
        builder_name: None,
        crew: Vec::new(),
        status: ProjectStatus::InProgress,
        progress: 40,
        progress_mode: ProgressMode::Manual,
        thumbnail_url: None,
        thumbnail_pinned: false,
        created_at: now_ms(),
        updated_at: now_ms(),
        version: 1,
    }
}

fn hello(project: Project) -> Hello {
    Hello {
        protocol_version: PROTOCOL_VERSION,
        server_time: now_ms(),
        user: Profile {
            id: project.homeowner_id.clone(),
            email: "homeowner@sitecast.demo".to_owned(),
            role: Role::Homeowner,
            name: Some("Hana Homeowner".to_owned()),
            first_name: Some("Hana".to_owned()),
            last_name: Some("Homeowner".to_owned()),
            phone: None,
            builder_id: None,
            company_id: None,
            company_name: None,
            company_role: None,
            all_projects: false,
            email_confirmed_at: None,
            last_sign_in_at: None,
            created_at: now_ms(),
            version: 1,
        },
        snapshot: Snapshot { projects: vec![project], project_count: 1, next_projects: None, users: Vec::new(), online: Vec::new(), companies: Vec::new() },
    }
}

fn updated(project: Project) -> ServerMsg {
    ServerMsg::Event { event: Event::ProjectUpdated { project, actor: None } }
}

struct Shared {
    project: Mutex<Project>,
    sockets: Mutex<HashMap<u64, mpsc::Sender<Message>>>,
    next: AtomicU64,
}

impl Shared {
    /// Applies a change and sends its event to every socket: one encode, one shared
    /// buffer; a socket whose queue is full is dropped (its writer then closes it).
    fn change(&self, change: &protocol::UpdateProject) -> anyhow::Result<()> {
        let frame = {
            let mut project = self.project.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
            if let Some(d) = &change.description {
                project.description.clone_from(d);
            }
            if let Some(p) = change.progress {
                project.progress = p;
            }
            project.version += 1;
            project.updated_at = now_ms();
            Bytes::from(protocol::encode(&updated(project.clone()))?)
        };
        let mut sockets = self.sockets.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
        sockets.retain(|_, tx| tx.try_send(Message::Binary(frame.clone())).is_ok());
        Ok(())
    }
}

async fn serve(stream: TcpStream, shared: Arc<Shared>) -> anyhow::Result<()> {
    stream.set_nodelay(true)?;
    let ws = tokio_tungstenite::accept_async_with_config(stream, Some(sitecast_loadtest::ws_config())).await?;
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::channel::<Message>(QUEUE);
    let hello = {
        let project = shared.project.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.clone();
        protocol::encode(&ServerMsg::Hello(hello(project)))?
    };
    tx.try_send(Message::Binary(hello.into()))?;
    let id = shared.next.fetch_add(1, Ordering::Relaxed);
    shared.sockets.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.insert(id, tx.clone());
    let writer = tokio::spawn(async move {
        while let Some(msg) = rx.recv().await {
            if sink.send(msg).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            msg = stream.next() => {
                let Some(Ok(msg)) = msg else { break };
                heard = Instant::now();
                if let Message::Binary(bytes) = msg {
                    if let Ok(protocol::ClientMsg { request: Request::UpdateProject(change), .. }) = protocol::decode_client_msg(&bytes) {
                        shared.change(&change)?;
                    }
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() > SILENT_FOR || tx.try_send(Message::Ping(Bytes::new())).is_err() {
                    break;
                }
            }
        }
    }
    shared.sockets.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.remove(&id);
    drop(tx);
    writer.abort();
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(dir) = args.write_frames {
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("hello.msgpack"), protocol::encode(&ServerMsg::Hello(hello(project())))?)?;
        std::fs::write(dir.join("project_updated.msgpack"), protocol::encode(&updated(project()))?)?;
        return Ok(());
    }
    let shared = Arc::new(Shared { project: Mutex::new(project()), sockets: Mutex::new(HashMap::new()), next: AtomicU64::new(1) });
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], args.port))).await?;
    println!("listening on http://127.0.0.1:{}", args.port);
    loop {
        let (stream, _) = listener.accept().await?;
        let shared = shared.clone();
        tokio::spawn(async move {
            let _ = serve(stream, shared).await;
        });
    }
}
