//! Where mail goes: one small trait, picked once at start-up.

use std::path::PathBuf;

use async_trait::async_trait;
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

#[async_trait]
pub trait MailTransport: Send + Sync {
    async fn send(&self, message: Message) -> Result<(), String>;
    /// For the start-up log line.
    fn describe(&self) -> String;
    /// Whether mail stays on this machine (links are then logged for the developer).
    fn is_local(&self) -> bool;
}

/// Writes each mail as an `.eml` file into a folder (the embedded default).
pub struct OutboxFolder {
    dir: PathBuf,
    inner: AsyncFileTransport<Tokio1Executor>,
}

impl OutboxFolder {
    pub fn new(dir: PathBuf) -> std::io::Result<OutboxFolder> {
        std::fs::create_dir_all(&dir)?;
        Ok(OutboxFolder { inner: AsyncFileTransport::new(&dir), dir })
    }
}

#[async_trait]
impl MailTransport for OutboxFolder {
    async fn send(&self, message: Message) -> Result<(), String> {
        self.inner.send(message).await.map(|_| ()).map_err(|e| e.to_string())
    }

    fn describe(&self) -> String {
        format!("outbox folder {}", self.dir.display())
    }

    fn is_local(&self) -> bool {
        true
    }
}

pub struct Smtp {
    inner: AsyncSmtpTransport<Tokio1Executor>,
    host: String,
}

impl Smtp {
    /// `smtp://host:port` (plain), `smtp://…?tls=required` (STARTTLS), `smtps://…` (TLS).
    pub fn from_url(url: &str) -> Result<Smtp, String> {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(|h| format!("{h}:{}", u.port().unwrap_or(0))))
            .unwrap_or_default();
        let inner = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| e.to_string())?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        Ok(Smtp { inner, host })
    }
}

#[async_trait]
impl MailTransport for Smtp {
    async fn send(&self, message: Message) -> Result<(), String> {
        self.inner.send(message).await.map(|_| ()).map_err(|e| e.to_string())
    }

    fn describe(&self) -> String {
        format!("SMTP {}", self.host)
    }

    fn is_local(&self) -> bool {
        false
    }
}
