//! Sends queued mail. Each due row is leased, sent, and marked sent; a failure records
//! the error and retries with exponential backoff (30 s doubling, at most hourly), for
//! as long as it takes: an SMTP outage delays mail, it never drops it.

use std::sync::Arc;
use std::time::Duration;

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::Message;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::templates::links;
use super::transport::MailTransport;
use crate::store::outbox::{self, OutboxRow};
use crate::media::PhotoStore;
use crate::store::{now_ms, Store};

/// How long a worker owns a claimed mail before another may retry it.
const LEASE_MS: i64 = 2 * 60 * 1000;
const BATCH: i64 = 20;
/// Upper bound on idle sleep, so mail enqueued by another instance is picked up.
const MAX_IDLE: Duration = Duration::from_secs(15);

pub fn retry_delay_ms(attempts: i32) -> i64 {
    let exp = attempts.clamp(1, 8) - 1;
    (30_000i64 << exp).min(3_600_000)
}

pub struct MailWorker {
    pub store: Store,
    pub transport: Arc<dyn MailTransport>,
    /// Where attachments are read from (the photo store, which keeps reports' PDFs).
    pub files: Arc<dyn PhotoStore>,
    pub from: Mailbox,
    pub wake: Arc<Notify>,
    /// Cancelled when the instance stops: the worker finishes the send in progress
    /// and returns (`ops::drain`).
    pub stop: CancellationToken,
}

impl MailWorker {
    /// Runs until stopped.
    pub async fn run(self) {
        tracing::info!(transport = %self.transport.describe(), "mail worker started");
        while !self.stop.is_cancelled() {
            let sleep = match self.drain().await {
                Ok(()) => self.idle_time().await,
                Err(err) => {
                    tracing::warn!(error = %err, "mail outbox unavailable; retrying");
                    Duration::from_secs(5)
                }
            };
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(sleep) => {}
                _ = self.stop.cancelled() => {}
            }
        }
        tracing::info!("mail worker stopped");
    }

    /// Sends every mail that is due now.
    pub async fn drain(&self) -> crate::store::Result<()> {
        loop {
            let now = now_ms();
            let ids = outbox::due_ids(self.store.pool(), now, BATCH).await?;
            if ids.is_empty() {
                return Ok(());
            }
            for id in ids {
                // Stopping: what is left stays in the outbox for the next instance.
                if self.stop.is_cancelled() {
                    return Ok(());
                }
                if let Some(row) = outbox::claim(self.store.pool(), &id, now, now + LEASE_MS).await? {
                    self.deliver(row).await?;
                }
            }
        }
    }

    async fn deliver(&self, row: OutboxRow) -> crate::store::Result<()> {
        let attachment = self.attachment(&row).await;
        let result = match self.build(&row, attachment) {
            Ok(message) => self.transport.send(message).await,
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => {
                metrics::counter!(crate::metric_names::MAIL_SENT, "result" => "sent").increment(1);
                outbox::mark_sent(self.store.pool(), &row.id, now_ms()).await?;
                if self.transport.is_local() {
                    tracing::info!(to = %row.to_address, subject = %row.subject, links = ?links(&row.body_text), "mail written to outbox folder");
                } else {
                    tracing::info!(to = %row.to_address, subject = %row.subject, "mail sent");
                }
            }
            Err(error) => {
                metrics::counter!(crate::metric_names::MAIL_SENT, "result" => "failed").increment(1);
                let next = now_ms() + retry_delay_ms(row.attempts);
                tracing::warn!(to = %row.to_address, attempts = row.attempts, %error, "mail not sent; will retry");
                outbox::mark_failed(self.store.pool(), &row.id, &error, next).await?;
            }
        }
        Ok(())
    }

    /// The file a mail carries, read now. One that is gone (its report was deleted
    /// meanwhile) is left off: the mail's link still says where the report was.
    async fn attachment(&self, row: &OutboxRow) -> Option<(String, ContentType, Vec<u8>)> {
        let (key, name) = (row.attachment_key.as_deref()?, row.attachment_name.clone()?);
        let content_type = row.attachment_type.as_deref().and_then(|t| ContentType::parse(t).ok())?;
        match self.files.get(key).await {
            Ok(bytes) => Some((name, content_type, bytes.to_vec())),
            Err(err) => {
                tracing::warn!(%key, error = %err, "a mail's attachment could not be read; sent without it");
                None
            }
        }
    }

    fn build(&self, row: &OutboxRow, attachment: Option<(String, ContentType, Vec<u8>)>) -> Result<Message, String> {
        let to: Mailbox = row.to_address.parse().map_err(|e| format!("bad recipient: {e}"))?;
        let mut builder = Message::builder().from(self.from.clone()).to(to).subject(row.subject.clone());
        if let Some(url) = &row.list_unsubscribe {
            // RFC 8058: a one-click unsubscribe the mail client POSTs to, no sign-in.
            builder = builder
                .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe"), format!("<{url}>")))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        let body = MultiPart::alternative_plain_html(row.body_text.clone(), row.body_html.clone());
        let body = match attachment {
            Some((name, content_type, bytes)) => {
                MultiPart::mixed().multipart(body).singlepart(Attachment::new(name).body(bytes, content_type))
            }
            None => body,
        };
        builder.multipart(body).map_err(|e| e.to_string())
    }

    async fn idle_time(&self) -> Duration {
        match outbox::next_due_at(self.store.pool()).await {
            Ok(Some(at)) => Duration::from_millis((at - now_ms()).clamp(50, MAX_IDLE.as_millis() as i64) as u64),
            _ => MAX_IDLE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::retry_delay_ms;

    #[test]
    fn backoff_doubles_and_caps() {
        assert_eq!(retry_delay_ms(1), 30_000);
        assert_eq!(retry_delay_ms(2), 60_000);
        assert_eq!(retry_delay_ms(4), 240_000);
        assert_eq!(retry_delay_ms(8), 3_600_000);
        assert_eq!(retry_delay_ms(50), 3_600_000);
    }
}
