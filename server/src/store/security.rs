//! Second factors, passkeys, sign-in challenges and known devices
//! (docs/SECURITY.md, "Two-factor sign-in").

use super::{Db, Result};

pub use sitecast_store_core::{ChallengeRow, DeviceRow, PasskeyRow, TotpRow};

pub async fn totp<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Option<TotpRow>> {
    backend!(db, security::totp(user_id))
}

/// A new secret waiting for its first code; never replaces a confirmed one.
pub async fn put_pending_totp<'a>(db: impl Into<Db<'a>>, user_id: &str, secret: &str, now: i64) -> Result<bool> {
    backend!(db, security::put_pending_totp(user_id, secret, now))
}

pub async fn confirm_totp<'a>(db: impl Into<Db<'a>>, user_id: &str, step: i64, now: i64) -> Result<bool> {
    backend!(db, security::confirm_totp(user_id, step, now))
}

/// Accepts a code's time step once: only a step later than every accepted one moves
/// `last_step`, in one statement, so two instances cannot both accept a code.
pub async fn use_totp_step<'a>(db: impl Into<Db<'a>>, user_id: &str, step: i64) -> Result<bool> {
    backend!(db, security::use_totp_step(user_id, step))
}

pub async fn delete_totp<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<bool> {
    backend!(db, security::delete_totp(user_id))
}

pub async fn replace_recovery_codes<'a>(db: impl Into<Db<'a>>, user_id: &str, hashes: &[String], now: i64) -> Result<()> {
    backend!(db, security::replace_recovery_codes(user_id, hashes, now))
}

/// Spends a recovery code: true for the one request that does.
pub async fn use_recovery_code<'a>(db: impl Into<Db<'a>>, user_id: &str, hash: &str, now: i64) -> Result<bool> {
    backend!(db, security::use_recovery_code(user_id, hash, now))
}

pub async fn recovery_codes_left<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<i64> {
    backend!(db, security::recovery_codes_left(user_id))
}

pub async fn delete_recovery_codes<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<()> {
    backend!(db, security::delete_recovery_codes(user_id))
}

pub async fn insert_passkey<'a>(db: impl Into<Db<'a>>, p: &PasskeyRow) -> Result<()> {
    backend!(db, security::insert_passkey(p))
}

pub async fn passkeys<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<PasskeyRow>> {
    backend!(db, security::passkeys(user_id))
}

pub async fn passkey_by_credential<'a>(db: impl Into<Db<'a>>, credential_id: &str) -> Result<Option<PasskeyRow>> {
    backend!(db, security::passkey_by_credential(credential_id))
}

/// After a sign-in with it: its counter as the authenticator last reported it.
pub async fn passkey_used<'a>(db: impl Into<Db<'a>>, id: &str, credential: &str, now: i64) -> Result<()> {
    backend!(db, security::passkey_used(id, credential, now))
}

pub async fn rename_passkey<'a>(db: impl Into<Db<'a>>, id: &str, user_id: &str, name: &str) -> Result<bool> {
    backend!(db, security::rename_passkey(id, user_id, name))
}

pub async fn delete_passkey<'a>(db: impl Into<Db<'a>>, id: &str, user_id: &str) -> Result<bool> {
    backend!(db, security::delete_passkey(id, user_id))
}

pub async fn delete_passkeys<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<u64> {
    backend!(db, security::delete_passkeys(user_id))
}

/// Whether the account has a second factor: an app that is on, or a passkey.
pub async fn has_factor<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<bool> {
    backend!(db, security::has_factor(user_id))
}

pub async fn insert_challenge<'a>(db: impl Into<Db<'a>>, ch: &ChallengeRow) -> Result<()> {
    backend!(db, security::insert_challenge(ch))
}

/// Takes a challenge that has not expired: it is gone for every later request.
pub async fn take_challenge<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    backend!(db, security::take_challenge(id, now))
}

pub async fn delete_expired_challenges<'a>(db: impl Into<Db<'a>>, now: i64) -> Result<u64> {
    backend!(db, security::delete_expired_challenges(now))
}

/// Remembers a device; true when the account had not signed in from it before.
pub async fn add_known_device<'a>(db: impl Into<Db<'a>>, user_id: &str, device_hash: &str, now: i64) -> Result<bool> {
    backend!(db, security::add_known_device(user_id, device_hash, now))
}

pub async fn known_device_count<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<i64> {
    backend!(db, security::known_device_count(user_id))
}

pub async fn devices<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<Vec<DeviceRow>> {
    backend!(db, security::devices(user_id))
}

/// This session proved a second factor now.
pub async fn session_factor<'a>(db: impl Into<Db<'a>>, session_id: &str, when: i64, kind: &str) -> Result<()> {
    backend!(db, security::session_factor(session_id, when, kind))
}

/// No session of the account has to enrol any more (it has a factor now); how many had to.
pub async fn clear_enrol_required<'a>(db: impl Into<Db<'a>>, user_id: &str) -> Result<u64> {
    backend!(db, security::clear_enrol_required(user_id))
}

pub async fn set_enrol_required<'a>(db: impl Into<Db<'a>>, session_id: &str) -> Result<()> {
    backend!(db, security::set_enrol_required(session_id))
}

/// Ends one of the account's sessions; false when it is not theirs (or gone).
pub async fn delete_session_of<'a>(db: impl Into<Db<'a>>, session_id: &str, user_id: &str) -> Result<bool> {
    backend!(db, security::delete_session_of(session_id, user_id))
}

/// A challenge that has not expired, left in place.
pub async fn find_challenge<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    backend!(db, security::find_challenge(id, now))
}
