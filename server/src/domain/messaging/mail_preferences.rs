//! Mail preferences ("Email me about" in Profile & Settings; docs/FEATURES.md,
//! "Comments, notifications and mail") and the one-click unsubscribe every such mail
//! carries (RFC 8058). An unsubscribe link names the user and the kind of mail and is
//! signed with a key only the server knows, so it works without signing in and a forged
//! one is refused.

use hmac::{Hmac, Mac};
use protocol::{ErrorCode, MailPreferences};
use sha2::Sha256;

use crate::domain::shared::policy::Actor;
use crate::domain::shared::secrets::new_token;
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::mail::templates::Footer;
use crate::store::{keys, now_ms, users, MailPreferencesRow};

pub const INVALID_LINK: &str = "This unsubscribe link is invalid.";
/// A link from a mail sent before the user last chose their preferences: their later
/// choice wins.
pub const SUPERSEDED_LINK: &str =
    "You have changed your email preferences since this mail was sent, so this link no longer changes them. Manage them in Profile & Settings.";
const KEY_NAME: &str = "unsubscribe";

/// The kinds of mail a user may turn off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    NewPhotos,
    Comments,
    StatusChanges,
}

impl MailKind {
    pub const ALL: [MailKind; 3] = [MailKind::NewPhotos, MailKind::Comments, MailKind::StatusChanges];

    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::NewPhotos => "new_photos",
            MailKind::Comments => "comments",
            MailKind::StatusChanges => "status_changes",
        }
    }

    pub fn parse(s: &str) -> Option<MailKind> {
        MailKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    fn get(self, p: &MailPreferences) -> bool {
        match self {
            MailKind::NewPhotos => p.new_photos,
            MailKind::Comments => p.comments,
            MailKind::StatusChanges => p.status_changes,
        }
    }

    fn off(self, mut p: MailPreferences) -> MailPreferences {
        match self {
            MailKind::NewPhotos => p.new_photos = false,
            MailKind::Comments => p.comments = false,
            MailKind::StatusChanges => p.status_changes = false,
        }
        p
    }
}

/// HMAC takes a key of any length, so this is `None` only in theory.
fn mac(key: &[u8], payload: &str) -> Option<Hmac<Sha256>> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).ok()?;
    mac.update(payload.as_bytes());
    Some(mac)
}

/// `{user}.{kind}.{issued ms}.{hex HMAC-SHA256 of "{user}.{kind}.{issued ms}"}`:
/// URL-safe as it is (user ids are UUIDs). The issue time lets a later choice of the
/// user's outrank an old mail's link.
pub fn sign(key: &[u8], user_id: &str, kind: MailKind, issued_at: i64) -> Option<String> {
    let payload = format!("{user_id}.{}.{issued_at}", kind.as_str());
    let tag = hex::encode(mac(key, &payload)?.finalize().into_bytes());
    Some(format!("{payload}.{tag}"))
}

/// The user, kind and issue time a token names, when its signature is ours (checked
/// in constant time). Links mailed before issue times existed read as issued at 0:
/// any preference the user has chosen since outranks them.
pub fn verify(key: &[u8], token: &str) -> Option<(String, MailKind, i64)> {
    let (payload, tag) = token.rsplit_once('.')?;
    let tag = hex::decode(tag).ok()?;
    mac(key, payload)?.verify_slice(&tag).ok()?;
    let (user_id, rest) = payload.split_once('.')?;
    let (kind, issued_at) = match rest.split_once('.') {
        Some((kind, issued)) => (kind, issued.parse().ok()?),
        None => (rest, 0),
    };
    Some((user_id.to_owned(), MailKind::parse(kind)?, issued_at))
}

/// Creates the signing key at start-up, so that mails queued inside a transaction only
/// read it.
pub async fn ensure_key(svc: &Services) -> Result<()> {
    key(svc).await.map(|_| ())
}

async fn key(svc: &Services) -> Result<Vec<u8>> {
    Ok(keys::get_or_create(svc.store.pool(), KEY_NAME, &new_token()).await?.into_bytes())
}

/// The footer of a mail of `kind` to `user_id`: preferences and unsubscribe links.
pub async fn footer(svc: &Services, user_id: &str, kind: MailKind) -> Result<Footer> {
    let token = sign(&key(svc).await?, user_id, kind, now_ms()).ok_or_else(|| Error::internal("could not sign an unsubscribe link"))?;
    Ok(Footer {
        preferences: svc.auth.link("/profile-settings#email"),
        unsubscribe_page: svc.auth.link(&format!("/unsubscribe?token={token}")),
        one_click: svc.auth.link(&format!("/api/mail/unsubscribe?token={token}")),
    })
}

pub async fn of_user(svc: &Services, user_id: &str) -> Result<MailPreferences> {
    let row = users::mail_preferences(svc.store.pool(), user_id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, "User not found"))?;
    Ok(preferences(&row))
}

fn preferences(row: &MailPreferencesRow) -> MailPreferences {
    MailPreferences {
        new_photos: row.new_photos,
        comments: row.comments,
        status_changes: row.status_changes,
        push_new_photos: row.push_new_photos,
        push_comments: row.push_comments,
        push_status_changes: row.push_status_changes,
    }
}

/// Whether `user_id` wants mail of `kind`; false once the account is gone.
pub async fn wants(svc: &Services, user_id: &str, kind: MailKind) -> Result<bool> {
    Ok(match users::mail_preferences(svc.store.pool(), user_id).await? {
        Some(row) => kind.get(&preferences(&row)),
        None => false,
    })
}

pub async fn get(svc: &Services, actor: &Actor) -> Result<MailPreferences> {
    of_user(svc, &actor.id).await
}

pub async fn update(svc: &Services, actor: &Actor, prefs: &MailPreferences) -> Result<MailPreferences> {
    users::set_mail_preferences(svc.store.pool(), &actor.id, (prefs.new_photos, prefs.comments, prefs.status_changes), now_ms()).await?;
    // Which kinds are pushed is chosen on the same card.
    users::set_push_preferences(svc.store.pool(), &actor.id, (prefs.push_new_photos, prefs.push_comments, prefs.push_status_changes)).await?;
    of_user(svc, &actor.id).await
}

/// Turns off the kind of mail a signed link names; unsubscribing twice succeeds. A
/// link older than the user's latest choice of preferences changes nothing: replaying
/// an old mail's link must not undo what they chose since.
pub async fn unsubscribe(svc: &Services, token: &str) -> Result<MailKind> {
    let invalid = || Error::new(ErrorCode::InvalidToken, INVALID_LINK);
    let (user_id, kind, issued_at) = verify(&key(svc).await?, token).ok_or_else(invalid)?;
    let current = users::mail_preferences(svc.store.pool(), &user_id).await?.ok_or_else(invalid)?;
    let prefs = preferences(&current);
    if !kind.get(&prefs) {
        return Ok(kind);
    }
    if current.changed_at.is_some_and(|changed| changed > issued_at) {
        return Err(Error::new(ErrorCode::InvalidToken, SUPERSEDED_LINK));
    }
    let next = kind.off(prefs);
    users::set_mail_preferences(svc.store.pool(), &user_id, (next.new_photos, next.comments, next.status_changes), now_ms()).await?;
    tracing::info!(user = %user_id, kind = kind.as_str(), "unsubscribed by link");
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_links_verify_and_forged_ones_do_not() {
        let key = b"0123456789abcdef";
        let token = sign(key, "u-1", MailKind::Comments, 42).unwrap();
        assert_eq!(verify(key, &token), Some(("u-1".to_owned(), MailKind::Comments, 42)));
        assert_eq!(verify(b"another key", &token), None, "signed with another key");
        let forged = token.replace("u-1", "u-2");
        assert_eq!(verify(key, &forged), None, "another user");
        let forged = token.replace("comments", "new_photos");
        assert_eq!(verify(key, &forged), None, "another kind");
        let forged = token.replace(".42.", ".43.");
        assert_eq!(verify(key, &forged), None, "another issue time");
        assert_eq!(verify(key, "u-1.comments.00"), None);
        // A link from before issue times: signed over "{user}.{kind}" alone.
        let old = format!("u-1.comments.{}", hex::encode(mac(key, "u-1.comments").unwrap().finalize().into_bytes()));
        assert_eq!(verify(key, &old), Some(("u-1".to_owned(), MailKind::Comments, 0)));
        assert_eq!(verify(key, "garbage"), None);
    }
}
