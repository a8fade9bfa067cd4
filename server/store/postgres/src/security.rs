//! Second factors, passkeys, sign-in challenges and known devices.

use sitecast_store_core::{ChallengeRow, DeviceRow, PasskeyRow, Result, TotpRow};
use sqlx::PgConnection;

use crate::convert::{at, id as uid, ms, opt_at, opt_id, opt_ms, opt_text, text};

/// Rows as Postgres types them, each converted in one place.
struct PgPasskey {
    id: uuid::Uuid,
    user_id: uuid::Uuid,
    credential_id: String,
    name: String,
    credential: String,
    created_at: time::OffsetDateTime,
    last_used_at: Option<time::OffsetDateTime>,
}

impl From<PgPasskey> for PasskeyRow {
    fn from(r: PgPasskey) -> PasskeyRow {
        PasskeyRow {
            id: text(r.id),
            user_id: text(r.user_id),
            credential_id: r.credential_id,
            name: r.name,
            credential: r.credential,
            created_at: ms(r.created_at),
            last_used_at: opt_ms(r.last_used_at),
        }
    }
}

struct PgChallenge {
    id: String,
    kind: String,
    user_id: Option<uuid::Uuid>,
    session_id: Option<uuid::Uuid>,
    state: Option<String>,
    created_at: time::OffsetDateTime,
    expires_at: time::OffsetDateTime,
}

impl From<PgChallenge> for ChallengeRow {
    fn from(r: PgChallenge) -> ChallengeRow {
        ChallengeRow {
            id: r.id,
            kind: r.kind,
            user_id: opt_text(r.user_id),
            session_id: opt_text(r.session_id),
            state: r.state,
            created_at: ms(r.created_at),
            expires_at: ms(r.expires_at),
        }
    }
}

pub async fn totp(c: &mut PgConnection, user_id: &str) -> Result<Option<TotpRow>> {
    let row = sqlx::query!("SELECT secret, confirmed_at, last_step FROM totp_factors WHERE user_id = $1", uid(user_id))
        .fetch_optional(c)
        .await?;
    Ok(row.map(|r| TotpRow { secret: r.secret, confirmed_at: opt_ms(r.confirmed_at), last_step: r.last_step }))
}

/// A new secret waiting for its first code; never replaces a confirmed one.
pub async fn put_pending_totp(c: &mut PgConnection, user_id: &str, secret: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO totp_factors (user_id, secret, confirmed_at, last_step, created_at) VALUES ($1, $2, NULL, 0, $3)
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = excluded.created_at
         WHERE totp_factors.confirmed_at IS NULL",
        uid(user_id),
        secret,
        at(now),
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn confirm_totp(c: &mut PgConnection, user_id: &str, step: i64, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE totp_factors SET confirmed_at = $2, last_step = $3 WHERE user_id = $1 AND confirmed_at IS NULL",
        uid(user_id),
        at(now),
        step,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Accepts a code's time step once: only a step later than every accepted one moves
/// `last_step`, in one statement, so two instances cannot both accept a code.
pub async fn use_totp_step(c: &mut PgConnection, user_id: &str, step: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE totp_factors SET last_step = $2 WHERE user_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2",
        uid(user_id),
        step,
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_totp(c: &mut PgConnection, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM totp_factors WHERE user_id = $1", uid(user_id)).execute(c).await?;
    Ok(done.rows_affected() > 0)
}

pub async fn replace_recovery_codes(c: &mut PgConnection, user_id: &str, hashes: &[String], now: i64) -> Result<()> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = $1", uid(user_id)).execute(&mut *c).await?;
    sqlx::query!(
        "INSERT INTO recovery_codes (user_id, code_hash, used_at, created_at) SELECT $1, h, NULL, $3 FROM UNNEST($2::text[]) AS h",
        uid(user_id),
        hashes,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// Spends a recovery code: true for the one request that does.
pub async fn use_recovery_code(c: &mut PgConnection, user_id: &str, hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
        uid(user_id),
        hash,
        at(now),
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn recovery_codes_left(c: &mut PgConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!" FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL"#,
        uid(user_id)
    )
    .fetch_one(c)
    .await?)
}

pub async fn delete_recovery_codes(c: &mut PgConnection, user_id: &str) -> Result<()> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = $1", uid(user_id)).execute(c).await?;
    Ok(())
}

pub async fn insert_passkey(c: &mut PgConnection, p: &PasskeyRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO passkeys (id, user_id, credential_id, name, credential, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7)",
        uid(&p.id),
        uid(&p.user_id),
        p.credential_id,
        p.name,
        p.credential,
        at(p.created_at),
        opt_at(p.last_used_at),
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn passkeys(c: &mut PgConnection, user_id: &str) -> Result<Vec<PasskeyRow>> {
    let rows = sqlx::query_as!(
        PgPasskey,
        r#"SELECT id, user_id, credential_id, name, credential::text AS "credential!", created_at, last_used_at
           FROM passkeys WHERE user_id = $1 ORDER BY created_at, id"#,
        uid(user_id)
    )
    .fetch_all(c)
    .await?;
    Ok(rows.into_iter().map(PasskeyRow::from).collect())
}

pub async fn passkey_by_credential(c: &mut PgConnection, credential_id: &str) -> Result<Option<PasskeyRow>> {
    let row = sqlx::query_as!(
        PgPasskey,
        r#"SELECT id, user_id, credential_id, name, credential::text AS "credential!", created_at, last_used_at
           FROM passkeys WHERE credential_id = $1"#,
        credential_id
    )
    .fetch_optional(c)
    .await?;
    Ok(row.map(PasskeyRow::from))
}

/// After a sign-in with it: its counter as the authenticator last reported it.
pub async fn passkey_used(c: &mut PgConnection, id: &str, credential: &str, now: i64) -> Result<()> {
    sqlx::query!(
        "UPDATE passkeys SET credential = $2::text::jsonb, last_used_at = $3 WHERE id = $1",
        uid(id),
        credential,
        at(now)
    )
    .execute(c)
    .await?;
    Ok(())
}

pub async fn rename_passkey(c: &mut PgConnection, id: &str, user_id: &str, name: &str) -> Result<bool> {
    let done = sqlx::query!("UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2", uid(id), uid(user_id), name)
        .execute(c)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_passkey(c: &mut PgConnection, id: &str, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM passkeys WHERE id = $1 AND user_id = $2", uid(id), uid(user_id))
        .execute(c)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn delete_passkeys(c: &mut PgConnection, user_id: &str) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM passkeys WHERE user_id = $1", uid(user_id)).execute(c).await?;
    Ok(done.rows_affected())
}

/// Whether the account has a second factor: an app that is on, or a passkey.
pub async fn has_factor(c: &mut PgConnection, user_id: &str) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT (EXISTS (SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL)
               OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1)) AS "has!""#,
        uid(user_id)
    )
    .fetch_one(c)
    .await?)
}

pub async fn insert_challenge(c: &mut PgConnection, ch: &ChallengeRow) -> Result<()> {
    sqlx::query!(
        "INSERT INTO auth_challenges (id, kind, user_id, session_id, state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7)",
        ch.id,
        ch.kind,
        opt_id(ch.user_id.as_deref()),
        opt_id(ch.session_id.as_deref()),
        ch.state,
        at(ch.created_at),
        at(ch.expires_at),
    )
    .execute(c)
    .await?;
    Ok(())
}

/// Takes a challenge that has not expired: it is gone for every later request.
pub async fn take_challenge(c: &mut PgConnection, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    let row = sqlx::query_as!(
        PgChallenge,
        r#"DELETE FROM auth_challenges WHERE id = $1 AND expires_at > $2
           RETURNING id, kind, user_id, session_id, state::text AS state, created_at, expires_at"#,
        id,
        at(now)
    )
    .fetch_optional(c)
    .await?;
    Ok(row.map(ChallengeRow::from))
}

pub async fn delete_expired_challenges(c: &mut PgConnection, now: i64) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM auth_challenges WHERE expires_at <= $1", at(now)).execute(c).await?;
    Ok(done.rows_affected())
}

/// Remembers a device; true when the account had not signed in from it before.
pub async fn add_known_device(c: &mut PgConnection, user_id: &str, device_hash: &str, now: i64) -> Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO known_devices (user_id, device_hash, first_seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        uid(user_id),
        device_hash,
        at(now),
    )
    .execute(c)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn known_device_count(c: &mut PgConnection, user_id: &str) -> Result<i64> {
    Ok(sqlx::query_scalar!(r#"SELECT COUNT(*) AS "n!" FROM known_devices WHERE user_id = $1"#, uid(user_id))
        .fetch_one(c)
        .await?)
}

pub async fn devices(c: &mut PgConnection, user_id: &str) -> Result<Vec<DeviceRow>> {
    let rows = sqlx::query!(
        "SELECT id, created_at, last_seen_at, user_agent, ip FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC, id",
        uid(user_id)
    )
    .fetch_all(c)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| DeviceRow {
            id: text(r.id),
            created_at: ms(r.created_at),
            last_seen_at: ms(r.last_seen_at),
            user_agent: r.user_agent,
            ip: r.ip,
        })
        .collect())
}

/// This session proved a second factor now.
pub async fn session_factor(c: &mut PgConnection, session_id: &str, when: i64, kind: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE sessions SET factor_at = $2, factor_kind = $3, enrol_required = false WHERE id = $1",
        uid(session_id),
        at(when),
        kind,
    )
    .execute(c)
    .await?;
    Ok(())
}

/// No session of the account has to enrol any more (it has a factor now); how many had to.
pub async fn clear_enrol_required(c: &mut PgConnection, user_id: &str) -> Result<u64> {
    let done = sqlx::query!("UPDATE sessions SET enrol_required = false WHERE user_id = $1 AND enrol_required", uid(user_id))
        .execute(c)
        .await?;
    Ok(done.rows_affected())
}

pub async fn set_enrol_required(c: &mut PgConnection, session_id: &str) -> Result<()> {
    sqlx::query!("UPDATE sessions SET enrol_required = true WHERE id = $1", uid(session_id)).execute(c).await?;
    Ok(())
}

/// Ends one of the account's sessions; false when it is not theirs (or gone).
pub async fn delete_session_of(c: &mut PgConnection, session_id: &str, user_id: &str) -> Result<bool> {
    let done = sqlx::query!("DELETE FROM sessions WHERE id = $1 AND user_id = $2", uid(session_id), uid(user_id))
        .execute(c)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A challenge that has not expired, left in place.
pub async fn find_challenge(c: &mut PgConnection, id: &str, now: i64) -> Result<Option<ChallengeRow>> {
    let row = sqlx::query_as!(
        PgChallenge,
        r#"SELECT id, kind, user_id, session_id, state::text AS state, created_at, expires_at
           FROM auth_challenges WHERE id = $1 AND expires_at > $2"#,
        id,
        at(now)
    )
    .fetch_optional(c)
    .await?;
    Ok(row.map(ChallengeRow::from))
}
