//! The public contact form (SPEC.md §2 Contact, §5): stored, then mailed to the team.

use protocol::FieldError;

use crate::domain::shared::limiter::{minutes, Limiter};
use crate::domain::shared::validation::{is_valid_email, non_blank, CONTACT_MESSAGE, EMAIL, INVALID_EMAIL, NAME, NAME_REQUIRED, PHONE};
use crate::error::{Error, Result};
use crate::mail::{templates, Outbox};
use crate::store::{contact, new_id, now_ms, Store};

pub const MESSAGE_REQUIRED: &str = "Message is required";
pub const SENT: &str = "Message sent successfully!";

pub struct ContactForm<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
    pub message: &'a str,
}

pub fn validate(form: &ContactForm<'_>) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut push = |field: &str, message: String| errors.push(FieldError { field: field.into(), message });
    if form.name.trim().is_empty() {
        push("name", NAME_REQUIRED.into());
    } else if let Some(message) = NAME.problem(form.name) {
        push("name", message);
    }
    if let Some(message) = EMAIL.problem(form.email) {
        push("email", message);
    } else if !is_valid_email(form.email.trim()) {
        push("email", INVALID_EMAIL.into());
    }
    if let Some(message) = PHONE.problem(form.phone) {
        push("phone", message);
    }
    if form.message.trim().is_empty() {
        push("message", MESSAGE_REQUIRED.into());
    } else if let Some(message) = CONTACT_MESSAGE.problem(form.message) {
        push("message", message);
    }
    errors
}

pub struct Contact {
    store: Store,
    outbox: Outbox,
    team_address: String,
    /// Five messages per address per 15 minutes: plenty for a person, dull for a bot.
    limiter: Limiter,
}

impl Contact {
    pub fn new(store: Store, outbox: Outbox, team_address: String) -> Contact {
        Contact { store, outbox, team_address, limiter: Limiter::new(5, std::time::Duration::from_secs(15 * 60)) }
    }

    pub async fn submit(&self, form: &ContactForm<'_>, address: &str) -> Result<&'static str> {
        let errors = validate(form);
        if !errors.is_empty() {
            return Err(Error::validation(errors));
        }
        self.limiter.hit(address).map_err(|wait| {
            Error::rate_limited(format!("Too many messages. Please try again in {} minutes.", minutes(wait)), wait)
        })?;
        let (name, email, message) = (form.name.trim(), form.email.trim(), form.message.trim());
        let phone = non_blank(form.phone);
        let mut tx = self.store.begin_write().await?;
        contact::insert(
            &mut *tx,
            &contact::NewContactMessage { id: &new_id(), name, email, phone: phone.as_deref(), message, now: now_ms() },
        )
        .await?;
        let mail = templates::contact_message(&self.team_address, name, email, phone.as_deref(), message);
        self.outbox.enqueue(&mut *tx, &mail).await?;
        tx.commit().await?;
        self.outbox.wake();
        Ok(SENT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_rules() {
        let ok = ContactForm { name: "Ana", email: "ana@example.com", phone: "", message: "Hello" };
        assert!(validate(&ok).is_empty());
        let bad = ContactForm { name: " ", email: "nope", phone: "", message: "" };
        let msgs: Vec<_> = validate(&bad).into_iter().map(|e| (e.field, e.message)).collect();
        assert_eq!(
            msgs,
            vec![
                ("name".to_owned(), NAME_REQUIRED.to_owned()),
                ("email".to_owned(), INVALID_EMAIL.to_owned()),
                ("message".to_owned(), MESSAGE_REQUIRED.to_owned())
            ]
        );
        let long = "x".repeat(30_000);
        let msgs: Vec<_> = validate(&ContactForm { name: &long, phone: &long, message: &long, ..ok })
            .into_iter()
            .map(|e| (e.field, e.message))
            .collect();
        assert_eq!(
            msgs,
            vec![
                ("name".to_owned(), "Name must be at most 200 characters.".to_owned()),
                ("phone".to_owned(), "Phone must be at most 40 characters.".to_owned()),
                ("message".to_owned(), "Message must be at most 5000 characters.".to_owned())
            ]
        );
        assert!(validate(&ContactForm { message: &"x".repeat(5_000), ..ok }).is_empty());
        // The message is many lines; the rest are one (docs/LIMITS.md).
        let msgs: Vec<_> = validate(&ContactForm { name: "Dana\r\nBcc: x@evil.example", phone: "555\u{0}", message: "Hi\u{1b}[2J", ..ok })
            .into_iter()
            .map(|e| (e.field, e.message))
            .collect();
        assert_eq!(
            msgs,
            vec![
                ("name".to_owned(), "Name cannot contain line breaks or control characters.".to_owned()),
                ("phone".to_owned(), "Phone cannot contain line breaks or control characters.".to_owned()),
                ("message".to_owned(), "Message cannot contain control characters.".to_owned())
            ]
        );
        assert!(validate(&ContactForm { message: "Two lines:\r\nhere\tand there", ..ok }).is_empty());
    }
}
