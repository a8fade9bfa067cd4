//! Sends one queued mail through the transport: builds the message (text and HTML
//! parts, the RFC 8058 unsubscribe headers, the attachment read now) and hands it over.
//! Whether and when a mail that did not go is tried again is the outbox worker's
//! (`worker`): for mail, always, with backoff.

use std::sync::Arc;

use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::Message;

use super::templates::links;
use super::transport::MailTransport;
use crate::media::PhotoStore;
use crate::store::outbox::QueuedMail;

pub struct MailSender {
    pub transport: Arc<dyn MailTransport>,
    /// Where attachments are read from (the photo store, which keeps reports' PDFs).
    pub files: Arc<dyn PhotoStore>,
    pub from: Mailbox,
}

impl MailSender {
    /// For the start-up log line.
    pub fn describe(&self) -> String {
        self.transport.describe()
    }

    /// Sends one mail; the error says why it did not go.
    pub async fn send(&self, mail: &QueuedMail) -> Result<(), String> {
        let attachment = self.attachment(mail).await;
        let result = match self.build(mail, attachment) {
            Ok(message) => self.transport.send(message).await,
            Err(e) => Err(e),
        };
        let counted = if result.is_ok() { "sent" } else { "failed" };
        metrics::counter!(crate::metric_names::MAIL_SENT, "result" => counted).increment(1);
        if result.is_ok() {
            if self.transport.is_local() {
                tracing::info!(to = %mail.to_address, subject = %mail.subject, links = ?links(&mail.body_text), "mail written to outbox folder");
            } else {
                tracing::info!(to = %mail.to_address, subject = %mail.subject, "mail sent");
            }
        }
        result
    }

    /// The file a mail carries, read now. One that is gone (its report was deleted
    /// meanwhile) is left off: the mail's link still says where the report was.
    async fn attachment(&self, mail: &QueuedMail) -> Option<(String, ContentType, Vec<u8>)> {
        let (key, name) = (mail.attachment_key.as_deref()?, mail.attachment_name.clone()?);
        let content_type = mail.attachment_type.as_deref().and_then(|t| ContentType::parse(t).ok())?;
        match self.files.get(key).await {
            Ok(bytes) => Some((name, content_type, bytes.to_vec())),
            Err(err) => {
                tracing::warn!(%key, error = %err, "a mail's attachment could not be read; sent without it");
                None
            }
        }
    }

    fn build(&self, mail: &QueuedMail, attachment: Option<(String, ContentType, Vec<u8>)>) -> Result<Message, String> {
        let to: Mailbox = mail.to_address.parse().map_err(|e| format!("bad recipient: {e}"))?;
        let mut builder = Message::builder().from(self.from.clone()).to(to).subject(mail.subject.clone());
        if let Some(url) = &mail.list_unsubscribe {
            // RFC 8058: a one-click unsubscribe the mail client POSTs to, no sign-in.
            builder = builder
                .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe"), format!("<{url}>")))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        let body = MultiPart::alternative_plain_html(mail.body_text.clone(), mail.body_html.clone());
        let body = match attachment {
            Some((name, content_type, bytes)) => {
                MultiPart::mixed().multipart(body).singlepart(Attachment::new(name).body(bytes, content_type))
            }
            None => body,
        };
        builder.multipart(body).map_err(|e| e.to_string())
    }
}
