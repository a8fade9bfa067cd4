//! Shared pieces of the native load clients: log in over HTTP, open sockets with the
//! session cookie, speak MessagePack with correlation ids.

use anyhow::{bail, Context};
use futures_util::{Sink, SinkExt, StreamExt};
use protocol::{ClientMsg, Request, ServerMsg};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Logs in and returns the `Cookie` header value for the session; against a peer
/// (`peer`: a bare broadcaster in `loadtest/peers`, which has no accounts), nothing.
pub async fn session(base: &str, email: &str, password: &str, peer: bool) -> anyhow::Result<String> {
    if peer {
        return Ok(String::new());
    }
    login(base, email, password).await
}

/// Logs in and returns the `Cookie` header value for the session.
pub async fn login(base: &str, email: &str, password: &str) -> anyhow::Result<String> {
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/auth/login"))
        .json(&serde_json::json!({ "email": email, "password": password }))
        .send()
        .await?;
    if !resp.status().is_success() {
        bail!("login of {email} failed: {}", resp.status());
    }
    let cookie = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.split(';').next().filter(|kv| kv.contains("sitecast_session")))
        .context("no session cookie")?
        .to_owned();
    Ok(cookie)
}

/// Socket settings for load clients: tungstenite zero-fills its read buffer up to
/// `read_buffer_size` before every read (128 KiB by default), which made 60% of a
/// 10,000-socket client's CPU memset; our frames are a few hundred bytes.
pub fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(4096)
}

/// Opens a socket with the session cookie (none for a peer: an empty string) and
/// reads its Hello.
pub async fn connect(base: &str, cookie: &str) -> anyhow::Result<(Socket, protocol::Hello)> {
    let url = format!("{}/ws", base.replacen("http", "ws", 1));
    let mut req = url.into_client_request()?;
    if !cookie.is_empty() {
        req.headers_mut().insert("cookie", cookie.parse()?);
    }
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(ws_config()), false).await?;
    loop {
        match next(&mut ws).await? {
            ServerMsg::Hello(hello) => return Ok((ws, hello)),
            _ => continue,
        }
    }
}

/// The next server message (pings are answered by tungstenite itself).
pub async fn next(ws: &mut Socket) -> anyhow::Result<ServerMsg> {
    loop {
        match ws.next().await.context("socket closed")?? {
            Message::Binary(bytes) => return Ok(protocol::decode(&bytes)?),
            Message::Close(frame) => bail!("socket closed: {frame:?}"),
            _ => continue,
        }
    }
}

/// A process's CPU time so far, user and system, all its threads (`/proc/PID/stat`).
pub fn cpu_time(pid: u32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces, so split after its ')'):
    // utime and stime are the 14th and 15th fields of the line, in clock ticks.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok().filter(|t| *t > 0)?;
    Some(std::time::Duration::from_nanos(ticks * 1_000_000_000 / per_second))
}

/// Sends a request on a socket, or on its sending half once it is split for reading.
pub async fn send<S>(ws: &mut S, id: u32, request: Request) -> anyhow::Result<()>
where
    S: Sink<Message, Error = tokio_tungstenite::tungstenite::Error> + Unpin,
{
    let bytes = protocol::encode(&ClientMsg { id, request })?;
    ws.send(Message::Binary(bytes.into())).await?;
    Ok(())
}
