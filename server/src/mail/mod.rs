//! What leaves the server: mail (templates, and one transport: a folder of .eml files
//! by default, SMTP when configured) and push notifications. Both wait in one durable
//! outbox (`store::outbox`), and one worker (`worker`) claims what is due and hands
//! each message to its kind's sender (`sender` for mail, `push` for pushes), retrying
//! each kind by its own rules.

pub mod push;
pub mod sender;
pub mod templates;
pub mod transport;
pub mod worker;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::store::{new_id, now_ms, outbox, Db, Result};

/// A rendered mail, ready for the outbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// RFC 8058 one-click unsubscribe URL (sent as `List-Unsubscribe` with
    /// `List-Unsubscribe-Post`), for mails a user may turn off.
    pub unsubscribe: Option<String>,
    /// A stored file sent with the mail (a report's PDF), read when it is sent.
    pub attachment: Option<Attachment>,
}

/// A stored file a mail carries: its storage key, the name it is sent under, and its
/// media type.
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    pub key: String,
    pub name: String,
    pub content_type: String,
}

/// What became of one try at sending a message, as its sender saw it; the worker
/// decides from it, by the message's kind, whether it is tried again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tried {
    /// It has left the queue's hands: sent, or (a push) its subscription is gone.
    Finished,
    /// It did not go this time, and another try may do better.
    Failed(String),
    /// It never will: another try would be refused the same way.
    Refused(String),
}

/// Queues mail. Enqueue inside the transaction of the change that causes the mail, so
/// either both happen or neither; then `wake` the worker after the commit.
#[derive(Clone, Default)]
pub struct Outbox {
    wake: Arc<Notify>,
}

impl Outbox {
    pub fn new() -> Outbox {
        Outbox::default()
    }

    pub async fn enqueue<'a>(&self, ex: impl Into<Db<'a>>, mail: &Mail) -> Result<()> {
        outbox::insert_mail(
            ex,
            &outbox::NewMail {
                id: &new_id(),
                to_address: &mail.to,
                subject: &mail.subject,
                body_text: &mail.text,
                body_html: &mail.html,
                list_unsubscribe: mail.unsubscribe.as_deref(),
                attachment: mail.attachment.as_ref().map(|a| outbox::MailAttachment {
                    key: &a.key,
                    name: &a.name,
                    content_type: &a.content_type,
                }),
                now: now_ms(),
            },
        )
        .await
    }

    /// Tells the worker there is new mail (call after the enqueuing transaction commits).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    pub(crate) fn waker(&self) -> Arc<Notify> {
        self.wake.clone()
    }
}
