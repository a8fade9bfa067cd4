//! Second factors, passkeys, sign-in challenges and known devices.

use sitecast_store_core::{ChallengeRow, DeviceRow, PasskeyRow, Result, TotpRow};
use sqlx::SqliteConnection;

pub async fn totp(c: &mut SqliteConnection, user_id: &str) -> Result<Option<TotpRow>> {
    Ok(sqlx::query_as!(
        TotpRow,
        "SELECT secret, confirmed_at, last_step FROM totp_factors WHERE user_id = $1",
        user_id
    )
    .fetch_optional(c)
    .await?)
}

/// A new secret waiting for its first code; never replaces a confirmed one.
pub async fn put_pending_totp(c: &mut SqliteConnection, user_id: &str, secret: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO totp_factors (user_id, secret, confirmed_at, last_step, created_at) VALUES ($1, $2, NULL, 0, $3)
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
         WHERE totp_factors.confirmed_at IS NULL",
        user_id,
        secret,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn confirm_totp(c: &mut SqliteConnection, user_id: &str, step: i64, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE totp_factors SET confirmed_at = $2, last_step = $3 WHERE user_id = $1 AND confirmed_at IS NULL",
        user_id,
        now,
        step,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Accepts a code's time step once: only a step later than every accepted one moves
/// `last_step`, in one statement, so two instances cannot both accept a code.
pub async fn use_totp_step(c: &mut SqliteConnection, user_id: &str, step: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE totp_factors SET last_step = $2 WHERE user_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2",
        user_id,
        step,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_totp(c: &mut SqliteConnection, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM totp_factors WHERE user_id = $1", user_id).execute(c).await?;
    Ok(done.rows_affected() > 0)
}

pub async fn replace_recovery_codes(c: &mut SqliteConnection, user_id: &str, hashes: &[String], now: i64) -> Result<()> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = $1", user_id).execute(&mut *c).await?;
    for hash in hashes {
        sqlx::query!(
            "INSERT INTO recovery_codes (user_id, code_hash, used_at, created_at) VALUES ($1, $2, NULL, $3)",
            user_id,
            hash,
            now,
        )
        .execute(&mut *c)
        .await?;
    }
    Ok(())
}

/// Spends a recovery code: true for the one request that does.
pub async fn use_recovery_code(c: &mut SqliteConnection, user_id: &str, hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
        user_id,
        hash,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn recovery_codes_left(c: &mut SqliteConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!: i64" FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL"#,
        user_id
    )
    .fetch_one(c)
    .await?)
}

pub async fn delete_recovery_codes(c: &mut SqliteConnection, user_id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = $1", user_id).execute(c).await?;
    Ok(())
}

pub async fn insert_passkey(c: &mut SqliteConnection, p: &PasskeyRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO passkeys (id, user_id, credential_id, name, credential, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        p.id,
        p.user_id,
        p.credential_id,
        p.name,
        p.credential,
        p.created_at,
        p.last_used_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn passkeys(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<PasskeyRow>> {
    Ok(sqlx::query_as!(
        PasskeyRow,
        r#"SELECT id AS "id!", user_id, credential_id, name, credential, created_at, last_used_at
           FROM passkeys WHERE user_id = $1 ORDER BY created_at, id"#,
        user_id
    )
    .fetch_all(c)
    .await?)
}

pub async fn passkey_by_credential(c: &mut SqliteConnection, credential_id: &str) -> Result<Option<PasskeyRow>> {
    Ok(sqlx::query_as!(
        PasskeyRow,
        r#"SELECT id AS "id!", user_id, credential_id, name, credential, created_at, last_used_at
           FROM passkeys WHERE credential_id = $1"#,
        credential_id
    )
    .fetch_optional(c)
    .await?)
}

/// After a sign-in with it: its counter as the authenticator last reported it.
pub async fn passkey_used(c: &mut SqliteConnection, id: &str, credential: &str, now: i64) -> Result<()> {
    sqlx::query!("UPDATE passkeys SET credential = $2, last_used_at = $3 WHERE id = $1", id, credential, now)
        .execute(c)
        .await?;
    Ok(())
}

pub async fn rename_passkey(c: &mut SqliteConnection, id: &str, user_id: &str, name: &str) -> Result<bool> {
    let done = sqlx::query!("UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2", id, user_id, name)
        .execute(c)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_passkey(c: &mut SqliteConnection, id: &str, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM passkeys WHERE id = $1 AND user_id = $2", id, user_id).execute(c).await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_passkeys(c: &mut SqliteConnection, user_id: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM passkeys WHERE user_id = $1", user_id).execute(c).await?;
    Ok(done.rows_affected())
}

/// Whether the account has a second factor: an app that is on, or a passkey.
pub async fn has_factor(c: &mut SqliteConnection, user_id: &str) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT (EXISTS (SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL)
               OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1)) AS "has!: bool""#,
        user_id
    )
    .fetch_one(c)
    .await?)
}

pub async fn insert_challenge(c: &mut SqliteConnection, ch: &ChallengeRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO auth_challenges (id, kind, user_id, session_id, state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        ch.id,
        ch.kind,
        ch.user_id,
        ch.session_id,
        ch.state,
        ch.created_at,
        ch.expires_at,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Takes a challenge that has not expired: it is gone for every later request.
pub async fn take_challenge(c: &mut SqliteConnection, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    Ok(sqlx::query_as!(
        ChallengeRow,
        r#"DELETE FROM auth_challenges WHERE id = $1 AND expires_at > $2
           RETURNING id AS "id!", kind AS "kind!", user_id, session_id, state, created_at AS "created_at!", expires_at AS "expires_at!""#,
        id,
        now
    )
    .fetch_optional(c)
    .await?)
}

pub async fn delete_expired_challenges(c: &mut SqliteConnection, now: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM auth_challenges WHERE expires_at <= $1", now).execute(c).await?;
    Ok(done.rows_affected())
}

/// Remembers a device; true when the account had not signed in from it before.
pub async fn add_known_device(c: &mut SqliteConnection, user_id: &str, device_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO known_devices (user_id, device_hash, first_seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        user_id,
        device_hash,
        now,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn known_device_count(c: &mut SqliteConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!: i64" FROM known_devices WHERE user_id = $1"#, user_id)
        .fetch_one(c)
        .await?)
}

pub async fn devices(c: &mut SqliteConnection, user_id: &str) -> Result<Vec<DeviceRow>> {
    Ok(sqlx::query_as!(
        DeviceRow,
        r#"SELECT id AS "id!", created_at, last_seen_at, user_agent, ip FROM sessions
           WHERE user_id = $1 ORDER BY last_seen_at DESC, id"#,
        user_id
    )
    .fetch_all(c)
    .await?)
}

/// This session proved a second factor now.
pub async fn session_factor(c: &mut SqliteConnection, session_id: &str, when: i64, kind: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE sessions SET factor_at = $2, factor_kind = $3, enrol_required = FALSE WHERE id = $1",
        session_id,
        when,
        kind,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// No session of the account has to enrol any more (it has a factor now); how many had to.
pub async fn clear_enrol_required(c: &mut SqliteConnection, user_id: &str) -> Result<u64> {
    let done = sqlx::query!("UPDATE sessions SET enrol_required = FALSE WHERE user_id = $1 AND enrol_required", user_id)
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

pub async fn set_enrol_required(c: &mut SqliteConnection, session_id: &str) -> Result<()> {
    sqlx::query!("UPDATE sessions SET enrol_required = TRUE WHERE id = $1", session_id).execute(c).await?;
    Ok(())
}

/// Ends one of the account's sessions; false when it is not theirs (or gone).
pub async fn delete_session_of(c: &mut SqliteConnection, session_id: &str, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM sessions WHERE id = $1 AND user_id = $2", session_id, user_id)
        .execute(c)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A challenge that has not expired, left in place.
pub async fn find_challenge(c: &mut SqliteConnection, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    Ok(sqlx::query_as!(
        ChallengeRow,
        r#"SELECT id AS "id!", kind, user_id, session_id, state, created_at, expires_at
           FROM auth_challenges WHERE id = $1 AND expires_at > $2"#,
        id,
        now
    )
    .fetch_optional(c)
    .await?)
}
