//! Account security (docs/SECURITY.md, "Two-factor sign-in"): authenticator-app codes
//! (RFC 6238) with one-time recovery codes, passkeys (WebAuthn, with webauthn-rs), the
//! session's assurance level and the fresh second factor that sensitive actions want,
//! and the account's signed-in devices.
//!
//! Everything a step needs between two requests lives in the database (a sign-in's
//! ticket, a WebAuthn ceremony's state), so each step may land on any instance, and
//! every "once" (a code's time step, a recovery code, a ticket) is one conditional
//! write: two instances cannot both accept it.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use protocol::{CompanyRole, DeviceSession, ErrorCode, PasskeyInfo, Role, Security, TotpEnrolment};
use rand::Rng;
use totp_rs::{Builder as TotpBuilder, Secret, Totp};
use uuid::Uuid;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyAuthentication, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Webauthn,
};

use crate::domain::shared::changes::Change;
use crate::domain::identity::devices;
use crate::domain::shared::policy::{self, Action, Actor, Target, UserRef};
use crate::domain::shared::secrets::{hash_token, new_token};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::mail::templates;
use crate::store::security::{self as store, ChallengeRow, PasskeyRow};
use crate::store::users::UserRow;
use crate::store::sessions::SessionRow;
use crate::store::{new_id, now_ms, sessions, settings, users, Store, Tx};

/// A second factor proved longer ago than this does not count for sensitive actions.
pub const FRESH_FACTOR_MS: i64 = 15 * 60 * 1000;
/// How long a sign-in waits for its second step, and a WebAuthn ceremony for its answer.
const TICKET_TTL_MS: i64 = 5 * 60 * 1000;
const CEREMONY_TTL_MS: i64 = 5 * 60 * 1000;
const RECOVERY_CODES: usize = 10;
use crate::domain::shared::auth::ISSUER;

pub const INVALID_CODE: &str = "Invalid verification code";
pub const FACTOR_REQUIRED: &str = "Confirm it's you with your authenticator app or a passkey to continue.";
pub const ENROL_REQUIRED: &str = "Your administrator requires two-factor sign-in: set up an authenticator app or a passkey to continue.";
pub const SIGN_IN_EXPIRED: &str = "This sign-in has expired. Please sign in again.";
pub const CEREMONY_EXPIRED: &str = "That took too long. Please try again.";
pub const PASSKEY_FAILED: &str = "That passkey could not be used. Please try again.";
pub const UNKNOWN_PASSKEY: &str = "This passkey is not set up for any Sitecast account.";
pub const PASSKEYS_UNAVAILABLE: &str = "Passkeys need Sitecast to be served from a domain name.";
pub const STILL_REQUIRED: &str =
    "Your administrator requires a second factor: add another one before removing this one.";
pub const CONFIRM_WITH_PASSWORD: &str = "Enter your password to confirm.";
pub const WRONG_PASSWORD: &str = "Your password is not right.";
pub const TOTP_ALREADY_ON: &str = "An authenticator app is already set up. Remove it first to set up another.";
pub const TOTP_NOT_STARTED: &str = "Start setting up the app again: this code is for a setup that has ended.";
pub const TOTP_NEEDED_FOR_CODES: &str = "Recovery codes come with an authenticator app: set one up first.";
pub const NAME_REQUIRED: &str = "Give the passkey a name.";
pub const NOT_YOURS: &str = "That is not one of your sessions.";
pub const USE_SIGN_OUT: &str = "To end this session, sign out.";
pub const ADMINS_ONLY: &str = "Only administrators can reset another user's sign-in factors.";

/// How a second factor was proved; kept on the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactorKind {
    Totp,
    Recovery,
    Passkey,
}

impl FactorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FactorKind::Totp => "totp",
            FactorKind::Recovery => "recovery",
            FactorKind::Passkey => "passkey",
        }
    }
}

/// What a challenge row is waiting for.
mod kind {
    /// A sign-in whose password was right, waiting for its second factor.
    pub const SIGN_IN: &str = "sign_in";
    /// A passkey as the second step of that sign-in.
    pub const SIGN_IN_PASSKEY: &str = "sign_in_passkey";
    /// A passkey sign-in without a password (discoverable credential).
    pub const PASSKEY_SIGN_IN: &str = "passkey_sign_in";
    /// Adding a passkey to a signed-in account.
    pub const REGISTER: &str = "passkey_register";
    /// A passkey proving a fresh factor in a signed-in session.
    pub const STEP_UP: &str = "passkey_step_up";
}

/// Who the installation requires to have a second factor.
pub fn factor_required(user: &UserRow, rules: &settings::SettingsRow) -> bool {
    match user.role {
        Role::Admin => rules.require_factor_admins,
        Role::Builder => {
            rules.require_factor_company_leads
                && matches!(user.company_role, Some(CompanyRole::Owner | CompanyRole::Manager))
        }
        Role::Homeowner => false,
    }
}

/// Whether the account's authenticator app is on (set up and confirmed by a code).
async fn totp_on(store: &Store, user_id: &str) -> Result<bool> {
    Ok(store::totp(store.pool(), user_id).await?.is_some_and(|t| t.confirmed_at.is_some()))
}

async fn has_factor(store: &Store, user_id: &str) -> Result<bool> {
    Ok(store::has_factor(store.pool(), user_id).await?)
}

/// The methods a sign-in's second step may use: none for an account without a second factor.
pub async fn methods(store: &Store, user_id: &str) -> Result<Vec<&'static str>> {
    let pool = store.pool();
    let mut methods = Vec::new();
    if totp_on(store, user_id).await? {
        methods.push("totp");
        if store::recovery_codes_left(pool, user_id).await? > 0 {
            methods.push("recovery");
        }
    }
    if !store::passkeys(pool, user_id).await?.is_empty() {
        methods.push("passkey");
    }
    Ok(methods)
}

// ---- sign-in tickets and challenges

/// A ticket for the second step of a sign-in whose password was right.
pub async fn issue_sign_in_ticket(store: &Store, user_id: &str) -> Result<String> {
    let ticket = new_token();
    put_challenge(store, &ticket, kind::SIGN_IN, Some(user_id), None, None, TICKET_TTL_MS).await?;
    Ok(ticket)
}

async fn put_challenge(
    store: &Store,
    token: &str,
    kind: &str,
    user_id: Option<&str>,
    session_id: Option<&str>,
    state: Option<String>,
    ttl: i64,
) -> Result<()> {
    let now = now_ms();
    let mut conn = store.begin_write().await?;
    // Old ones go as new ones come, so the table holds only live ceremonies.
    store::delete_expired_challenges(&mut *conn, now).await?;
    store::insert_challenge(
        &mut *conn,
        &ChallengeRow {
            id: hash_token(token),
            kind: kind.to_owned(),
            user_id: user_id.map(str::to_owned),
            session_id: session_id.map(str::to_owned),
            state,
            created_at: now,
            expires_at: now + ttl,
        },
    )
    .await?;
    conn.commit().await?;
    Ok(())
}

/// The sign-in a ticket stands for, without spending it (a wrong code may be retried).
pub async fn sign_in_user(store: &Store, ticket: &str) -> Result<UserRow> {
    let row = store::find_challenge(store.pool(), &hash_token(ticket), now_ms()).await?;
    let Some(row) = row.filter(|r| r.kind == kind::SIGN_IN) else {
        return Err(Error::new(ErrorCode::InvalidToken, SIGN_IN_EXPIRED));
    };
    let user_id = row.user_id.ok_or_else(|| Error::new(ErrorCode::InvalidToken, SIGN_IN_EXPIRED))?;
    users::find_by_id(store.pool(), &user_id).await?.ok_or_else(|| Error::new(ErrorCode::InvalidToken, SIGN_IN_EXPIRED))
}

/// Spends a sign-in ticket inside the caller's transaction: true for the one request
/// that does (a second one, on any instance, waits for the first and finds it gone).
pub async fn spend_ticket_in(tx: &mut Tx, ticket: &str) -> Result<bool> {
    Ok(store::take_challenge(&mut **tx, &hash_token(ticket), now_ms()).await?.is_some_and(|r| r.kind == kind::SIGN_IN))
}

/// Takes a ceremony's challenge of `kind` (single use), with its WebAuthn state.
async fn take_ceremony(store: &Store, challenge_id: &str, kind: &str) -> Result<ChallengeRow> {
    let row = store::take_challenge(store.pool(), &hash_token(challenge_id), now_ms()).await?;
    row.filter(|r| r.kind == kind).ok_or_else(|| Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED))
}

// ---- authenticator-app codes

fn totp_for(secret: &str, account: &str) -> Result<Totp> {
    let secret = Secret::try_from_base32(secret).map_err(|_| Error::internal("a stored TOTP secret is not base32"))?;
    TotpBuilder::new()
        .with_secret(secret)
        .with_account_name(account)
        .with_issuer(Some(ISSUER))
        .build()
        .map_err(|e| Error::internal(format!("TOTP: {e}")))
}

fn now_secs() -> u64 {
    u64::try_from(now_ms() / 1000).unwrap_or(0)
}

/// The time step a code is for (now's, or one either side for a clock that drifts).
fn code_step(totp: &Totp, code: &str) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    totp.check(&code, now_secs()).and_then(|step| i64::try_from(step).ok())
}

/// A recovery code as typed: case, spaces and dashes do not matter.
fn normalize_recovery(code: &str) -> String {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect()
}

fn recovery_hash(user_id: &str, code: &str) -> String {
    hash_token(&format!("recovery:{user_id}:{}", normalize_recovery(code)))
}

/// Ten codes of ten characters from an alphabet without look-alikes (50 bits each),
/// shown as "abcde-fghij", and the hashes kept of them.
fn new_recovery_codes(user_id: &str) -> (Vec<String>, Vec<String>) {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rngs::OsRng;
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| {
            let chars: String = (0..10).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect();
            format!("{}-{}", &chars[..5], &chars[5..])
        })
        .collect();
    let hashes = codes.iter().map(|c| recovery_hash(user_id, c)).collect();
    (codes, hashes)
}

/// Checks a code or recovery code against the account and spends it; the factor it
/// proved, or None when it is not right (or was already used, here or elsewhere).
pub async fn verify_code(store: &Store, user: &UserRow, code: &str) -> Result<Option<FactorKind>> {
    let mut tx = store.begin_write().await?;
    let kind = verify_code_in(&mut tx, user, code).await?;
    tx.commit().await?;
    Ok(kind)
}

/// `verify_code` inside the caller's transaction: what it uses up (a time step, a
/// recovery code) is used up only if the transaction commits.
pub async fn verify_code_in(tx: &mut Tx, user: &UserRow, code: &str) -> Result<Option<FactorKind>> {
    let Some(totp) = store::totp(&mut **tx, &user.id).await?.filter(|t| t.confirmed_at.is_some()) else {
        return Ok(None);
    };
    let code = code.trim();
    if code.len() > 64 {
        return Ok(None);
    }
    if let Some(step) = code_step(&totp_for(&totp.secret, &user.email)?, code) {
        return Ok(store::use_totp_step(&mut **tx, &user.id, step).await?.then_some(FactorKind::Totp));
    }
    let used = store::use_recovery_code(&mut **tx, &user.id, &recovery_hash(&user.id, code), now_ms()).await?;
    Ok(used.then_some(FactorKind::Recovery))
}

// ---- the signed-in account's security

/// The actor's sign-in security, seen from this session.
pub async fn overview(svc: &Services, actor: &Actor, session_id: &str) -> Result<Security> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let pool = svc.store.pool();
    let totp = totp_on(&svc.store, &actor.id).await?;
    let recovery_codes_left = if totp { store::recovery_codes_left(pool, &actor.id).await? } else { 0 };
    let passkeys = store::passkeys(pool, &actor.id).await?.into_iter().map(passkey_info).collect();
    let mut devices: Vec<DeviceSession> = store::devices(pool, &actor.id)
        .await?
        .into_iter()
        .map(|d| devices::describe(&d, d.id == session_id, &svc.auth.places))
        .collect();
    devices.sort_by_key(|d| !d.current);
    let user = users::find_by_id(pool, &actor.id).await?.ok_or_else(Error::unauthorized)?;
    let required = factor_required(&user, &settings::get(pool).await?);
    let factor_at = sessions::find_by_id(pool, session_id).await?.and_then(|s| s.factor_at);
    Ok(Security { totp, recovery_codes_left, passkeys, devices, required, factor_at })
}

/// Sessions that had to enrol first hold that on their sockets: they reconnect, and
/// find the whole app open. Nothing else on a socket depends on the factors.
fn reconnect_enrolled(sessions: u64, user_id: String) -> Vec<Change> {
    if sessions > 0 {
        vec![Change::Reconnect { user_id }]
    } else {
        Vec::new()
    }
}

fn passkey_info(row: PasskeyRow) -> PasskeyInfo {
    PasskeyInfo { id: row.id, name: row.name, created_at: row.created_at, last_used_at: row.last_used_at }
}

pub(crate) fn allowed(actor: &Actor, action: Action) -> Result<()> {
    if policy::allows(actor, action, Target::Nothing) {
        Ok(())
    } else {
        Err(Error::new(ErrorCode::Forbidden, crate::domain::shared::policy::NOT_ALLOWED))
    }
}

/// For an action that wants it (`Action::wants_fresh_factor`): an account with a second
/// factor must have proved one in this session in the last 15 minutes. An account
/// without one has nothing to prove.
pub async fn require_fresh_factor(svc: &Services, actor: &Actor, session_id: &str, action: Action) -> Result<()> {
    // Someone whose role never may do it is refused by the action itself, not asked
    // to prove a factor first.
    if !action.wants_fresh_factor() || policy::scope(actor, action) == policy::Scope::Never {
        return Ok(());
    }
    if !has_factor(&svc.store, &actor.id).await? {
        return Ok(());
    }
    let session = sessions::find_by_id(svc.store.pool(), session_id).await?;
    if session.as_ref().is_some_and(proved_lately) {
        Ok(())
    } else {
        Err(Error::new(ErrorCode::FactorRequired, FACTOR_REQUIRED))
    }
}

/// Whether the session proved a second factor in the last 15 minutes.
fn proved_lately(session: &SessionRow) -> bool {
    session.factor_at.is_some_and(|at| now_ms() - at < FRESH_FACTOR_MS)
}

/// The password again, or a passkey used in this session in the last minutes: what
/// turning a factor off takes.
async fn confirm_identity(svc: &Services, user: &UserRow, session_id: &str, password: &str) -> Result<()> {
    if password.is_empty() {
        let session = sessions::find_by_id(svc.store.pool(), session_id).await?;
        let by_passkey =
            session.is_some_and(|s| s.factor_kind.as_deref() == Some(FactorKind::Passkey.as_str()) && proved_lately(&s));
        return if by_passkey { Ok(()) } else { Err(Error::field("password", CONFIRM_WITH_PASSWORD)) };
    }
    validation::texts(&[("password", password, validation::PASSWORD)])?;
    if svc.auth.passwords.verify(password, user.password_hash.as_deref()).await? {
        Ok(())
    } else {
        Err(Error::field("password", WRONG_PASSWORD))
    }
}

/// Refuses to take away the last factor of someone the installation requires one of:
/// `another_remains` says whether one would be left.
async fn keep_a_required_factor(svc: &Services, user: &UserRow, another_remains: bool) -> Result<()> {
    if !another_remains && factor_required(user, &settings::get(svc.store.pool()).await?) {
        return Err(Error::new(ErrorCode::Conflict, STILL_REQUIRED));
    }
    Ok(())
}

async fn me(svc: &Services, actor: &Actor) -> Result<UserRow> {
    users::find_by_id(svc.store.pool(), &actor.id).await?.ok_or_else(Error::unauthorized)
}

/// A new secret, waiting for a code from it (a pending one is replaced).
pub async fn start_totp(svc: &Services, actor: &Actor, session_id: &str) -> Result<TotpEnrolment> {
    allowed(actor, Action::ChangeOwnFactors)?;
    require_fresh_factor(svc, actor, session_id, Action::ChangeOwnFactors).await?;
    let user = me(svc, actor).await?;
    let secret = Secret::from(rand::rngs::OsRng.gen::<[u8; 20]>()).to_base32();
    if !store::put_pending_totp(svc.store.pool(), &user.id, &secret, now_ms()).await? {
        return Err(Error::new(ErrorCode::Conflict, TOTP_ALREADY_ON));
    }
    let uri = totp_for(&secret, &user.email)?.to_url().map_err(|e| Error::internal(format!("TOTP URL: {e}")))?;
    let qr_svg = qrcode::QrCode::new(uri.as_bytes())
        .map_err(|e| Error::internal(format!("QR code: {e}")))?
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(220, 220)
        .quiet_zone(true)
        .build();
    Ok(TotpEnrolment { secret, uri, qr_svg })
}

/// The first code from the app: it is on, this session has proved it, and ten recovery
/// codes are made (returned this once).
pub async fn confirm_totp(svc: &Services, actor: &Actor, session_id: &str, code: &str) -> Result<(Vec<String>, Vec<Change>)> {
    allowed(actor, Action::ChangeOwnFactors)?;
    let user = me(svc, actor).await?;
    let pool = svc.store.pool();
    let pending = store::totp(pool, &user.id).await?;
    let Some(pending) = pending.filter(|t| t.confirmed_at.is_none()) else {
        return Err(Error::new(ErrorCode::Conflict, TOTP_NOT_STARTED));
    };
    let Some(step) = code_step(&totp_for(&pending.secret, &user.email)?, code) else {
        return Err(Error::field("code", INVALID_CODE));
    };
    let (codes, hashes) = new_recovery_codes(&user.id);
    let now = now_ms();
    let mut tx = svc.store.begin_write().await?;
    if !store::confirm_totp(&mut *tx, &user.id, step, now).await? {
        return Err(Error::new(ErrorCode::Conflict, TOTP_NOT_STARTED));
    }
    store::replace_recovery_codes(&mut *tx, &user.id, &hashes, now).await?;
    // Counted before this session's own flag is cleared with its factor below.
    let enrolled = store::clear_enrol_required(&mut *tx, &user.id).await?;
    store::session_factor(&mut *tx, session_id, now, FactorKind::Totp.as_str()).await?;
    tx.commit().await?;
    tracing::info!(user = %user.id, "authenticator app turned on");
    Ok((codes, reconnect_enrolled(enrolled, user.id)))
}

pub async fn remove_totp(svc: &Services, actor: &Actor, session_id: &str, password: &str) -> Result<(Security, Vec<Change>)> {
    allowed(actor, Action::ChangeOwnFactors)?;
    let user = me(svc, actor).await?;
    confirm_identity(svc, &user, session_id, password).await?;
    require_fresh_factor(svc, actor, session_id, Action::ChangeOwnFactors).await?;
    let passkeys = store::passkeys(svc.store.pool(), &user.id).await?.len();
    keep_a_required_factor(svc, &user, passkeys > 0).await?;
    let mut tx = svc.store.begin_write().await?;
    store::delete_totp(&mut *tx, &user.id).await?;
    store::delete_recovery_codes(&mut *tx, &user.id).await?;
    tx.commit().await?;
    tracing::info!(user = %user.id, "authenticator app turned off");
    Ok((overview(svc, actor, session_id).await?, Vec::new()))
}

pub async fn new_recovery_codes_for(svc: &Services, actor: &Actor, session_id: &str) -> Result<Vec<String>> {
    allowed(actor, Action::ChangeOwnFactors)?;
    require_fresh_factor(svc, actor, session_id, Action::ChangeOwnFactors).await?;
    if !totp_on(&svc.store, &actor.id).await? {
        return Err(Error::new(ErrorCode::Conflict, TOTP_NEEDED_FOR_CODES));
    }
    let (codes, hashes) = new_recovery_codes(&actor.id);
    store::replace_recovery_codes(svc.store.pool(), &actor.id, &hashes, now_ms()).await?;
    Ok(codes)
}

/// A code (or recovery code) proves a fresh factor in this session.
pub async fn verify_factor(svc: &Services, actor: &Actor, session_id: &str, code: &str) -> Result<()> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let user = me(svc, actor).await?;
    // Wrong codes here count toward the same lock as at sign-in.
    let attempt = crate::domain::identity::login_limit::admit(&svc.store, &user.email, &format!("session:{session_id}")).await?;
    let Some(kind) = verify_code(&svc.store, &user, code).await? else {
        return Err(Error::field("code", INVALID_CODE));
    };
    crate::domain::identity::login_limit::succeeded(&svc.store, attempt).await?;
    store::session_factor(svc.store.pool(), session_id, now_ms(), kind.as_str()).await?;
    Ok(())
}

// ---- passkeys

fn relying(svc: &Services) -> Result<&Webauthn> {
    svc.auth.webauthn.as_deref().ok_or_else(|| Error::new(ErrorCode::Conflict, PASSKEYS_UNAVAILABLE))
}

fn user_handle(user_id: &str) -> Uuid {
    use sha2::{Digest, Sha256};
    Uuid::parse_str(user_id).unwrap_or_else(|_| {
        let digest = Sha256::digest(user_id.as_bytes());
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        Uuid::from_bytes(bytes)
    })
}

fn stored_passkey(row: &PasskeyRow) -> Result<Passkey> {
    serde_json::from_str(&row.credential).map_err(|e| Error::internal(format!("a stored passkey: {e}")))
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::internal(format!("WebAuthn state: {e}")))
}

fn from_json<T: serde::de::DeserializeOwned>(text: Option<&str>) -> Result<T> {
    serde_json::from_str(text.unwrap_or("null")).map_err(|_| Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED))
}

/// The browser's answer, as it sent it: a malformed one is the user's bad request.
fn credential<T: serde::de::DeserializeOwned>(json: &str) -> Result<T> {
    if json.len() > 64 * 1024 {
        return Err(Error::new(ErrorCode::BadRequest, PASSKEY_FAILED));
    }
    serde_json::from_str(json).map_err(|_| Error::new(ErrorCode::BadRequest, PASSKEY_FAILED))
}

fn credential_id_text(id: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

/// A passkey's name as typed, trimmed: required, and within its limit.
fn passkey_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::field("name", NAME_REQUIRED));
    }
    validation::texts(&[("name", name, validation::PASSKEY_NAME)])?;
    Ok(name)
}

/// The account passkey an assertion was made with, found by its credential id.
async fn passkey_of(svc: &Services, answer: &PublicKeyCredential) -> Result<Option<PasskeyRow>> {
    Ok(store::passkey_by_credential(svc.store.pool(), &credential_id_text(answer.get_credential_id())).await?)
}

/// Creation options for a new passkey; the account's passkeys are excluded, so one
/// authenticator is not added twice.
pub async fn start_passkey(svc: &Services, actor: &Actor, session_id: &str) -> Result<(String, String)> {
    allowed(actor, Action::ChangeOwnFactors)?;
    require_fresh_factor(svc, actor, session_id, Action::ChangeOwnFactors).await?;
    let webauthn = relying(svc)?;
    let user = me(svc, actor).await?;
    let existing = store::passkeys(svc.store.pool(), &user.id).await?;
    let exclude = existing.iter().map(stored_passkey).map(|p| p.map(|p| p.cred_id().clone())).collect::<Result<Vec<_>>>()?;
    let name = views::display_name(user.first_name.as_deref(), user.last_name.as_deref(), user.name.as_deref(), &user.email);
    let (options, state) = webauthn
        .start_passkey_registration(user_handle(&user.id), &user.email, &name, Some(exclude))
        .map_err(|e| Error::internal(format!("WebAuthn registration: {e}")))?;
    // Ask for a discoverable credential where the authenticator can keep one, so the
    // passkey can also sign in without an email typed first (webauthn-rs asks for
    // none; what it checks in the answer does not depend on it).
    let mut options = serde_json::to_value(&options).map_err(Error::internal)?;
    if let Some(selection) = options.pointer_mut("/publicKey/authenticatorSelection").and_then(|s| s.as_object_mut()) {
        selection.insert("residentKey".to_owned(), serde_json::Value::from("preferred"));
    }
    let challenge_id = new_token();
    put_challenge(&svc.store, &challenge_id, kind::REGISTER, Some(&user.id), Some(session_id), Some(to_json(&state)?), CEREMONY_TTL_MS)
        .await?;
    Ok((challenge_id, to_json(&options)?))
}

pub async fn add_passkey(
    svc: &Services,
    actor: &Actor,
    session_id: &str,
    input: &protocol::AddPasskey,
) -> Result<(Security, Vec<Change>)> {
    allowed(actor, Action::ChangeOwnFactors)?;
    let name = passkey_name(&input.name)?;
    let webauthn = relying(svc)?;
    let row = take_ceremony(&svc.store, &input.challenge_id, kind::REGISTER).await?;
    if row.user_id.as_deref() != Some(actor.id.as_str()) {
        return Err(Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED));
    }
    let state: PasskeyRegistration = from_json(row.state.as_deref())?;
    let answer: RegisterPublicKeyCredential = credential(&input.credential)?;
    let passkey = webauthn.finish_passkey_registration(&answer, &state).map_err(|e| {
        tracing::info!(user = %actor.id, error = %e, "a passkey registration was refused");
        Error::new(ErrorCode::BadRequest, PASSKEY_FAILED)
    })?;
    let now = now_ms();
    let mut tx = svc.store.begin_write().await?;
    store::insert_passkey(
        &mut *tx,
        &PasskeyRow {
            id: new_id(),
            user_id: actor.id.clone(),
            credential_id: credential_id_text(passkey.cred_id()),
            name: name.to_owned(),
            credential: to_json(&passkey)?,
            created_at: now,
            last_used_at: None,
        },
    )
    .await
    .map_err(|e| match e {
        crate::store::StoreError::UniqueViolation => Error::new(ErrorCode::Conflict, "This passkey is already set up."),
        other => other.into(),
    })?;
    // Making a passkey asked for the user's verification on the authenticator: this
    // session has proved a second factor.
    let enrolled = store::clear_enrol_required(&mut *tx, &actor.id).await?;
    store::session_factor(&mut *tx, session_id, now, FactorKind::Passkey.as_str()).await?;
    tx.commit().await?;
    tracing::info!(user = %actor.id, "passkey added");
    Ok((overview(svc, actor, session_id).await?, reconnect_enrolled(enrolled, actor.id.clone())))
}

pub async fn rename_passkey(svc: &Services, actor: &Actor, session_id: &str, id: &str, name: &str) -> Result<Security> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let name = passkey_name(name)?;
    if !store::rename_passkey(svc.store.pool(), id, &actor.id, name).await? {
        return Err(Error::new(ErrorCode::NotFound, "Passkey not found."));
    }
    overview(svc, actor, session_id).await
}

pub async fn remove_passkey(
    svc: &Services,
    actor: &Actor,
    session_id: &str,
    id: &str,
    password: &str,
) -> Result<(Security, Vec<Change>)> {
    allowed(actor, Action::ChangeOwnFactors)?;
    let user = me(svc, actor).await?;
    let pool = svc.store.pool();
    let keys = store::passkeys(pool, &user.id).await?;
    if !keys.iter().any(|k| k.id == id) {
        return Err(Error::new(ErrorCode::NotFound, "Passkey not found."));
    }
    confirm_identity(svc, &user, session_id, password).await?;
    require_fresh_factor(svc, actor, session_id, Action::ChangeOwnFactors).await?;
    let totp = totp_on(&svc.store, &user.id).await?;
    keep_a_required_factor(svc, &user, totp || keys.len() > 1).await?;
    store::delete_passkey(pool, id, &user.id).await?;
    tracing::info!(user = %user.id, "passkey removed");
    Ok((overview(svc, actor, session_id).await?, Vec::new()))
}

/// Request options for proving a fresh factor with one of the account's passkeys.
pub async fn start_factor_passkey(svc: &Services, actor: &Actor, session_id: &str) -> Result<(String, String)> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let (options, state) = passkey_request(svc, &actor.id).await?;
    let challenge_id = new_token();
    let state = Some(to_json(&state)?);
    put_challenge(&svc.store, &challenge_id, kind::STEP_UP, Some(&actor.id), Some(session_id), state, CEREMONY_TTL_MS).await?;
    Ok((challenge_id, options))
}

pub async fn verify_factor_passkey(svc: &Services, actor: &Actor, session_id: &str, challenge_id: &str, answer: &str) -> Result<()> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let row = take_ceremony(&svc.store, challenge_id, kind::STEP_UP).await?;
    if row.user_id.as_deref() != Some(actor.id.as_str()) || row.session_id.as_deref() != Some(session_id) {
        return Err(Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED));
    }
    let state: PasskeyAuthentication = from_json(row.state.as_deref())?;
    finish_passkey_request(svc, &actor.id, &state, answer).await?;
    store::session_factor(svc.store.pool(), session_id, now_ms(), FactorKind::Passkey.as_str()).await?;
    Ok(())
}

/// Request options naming the account's passkeys, and the state to finish with.
async fn passkey_request(svc: &Services, user_id: &str) -> Result<(String, PasskeyAuthentication)> {
    let webauthn = relying(svc)?;
    let keys = store::passkeys(svc.store.pool(), user_id).await?;
    if keys.is_empty() {
        return Err(Error::new(ErrorCode::Conflict, "There is no passkey on this account."));
    }
    let keys = keys.iter().map(stored_passkey).collect::<Result<Vec<_>>>()?;
    let (options, state) =
        webauthn.start_passkey_authentication(&keys).map_err(|e| Error::internal(format!("WebAuthn request: {e}")))?;
    Ok((to_json(&options)?, state))
}

/// Checks an assertion from one of `user_id`'s passkeys and records its use.
async fn finish_passkey_request(svc: &Services, user_id: &str, state: &PasskeyAuthentication, answer: &str) -> Result<()> {
    let webauthn = relying(svc)?;
    let answer: PublicKeyCredential = credential(answer)?;
    let Some(row) = passkey_of(svc, &answer).await?.filter(|r| r.user_id == user_id) else {
        return Err(Error::new(ErrorCode::InvalidCredentials, UNKNOWN_PASSKEY));
    };
    let result = webauthn.finish_passkey_authentication(&answer, state).map_err(|e| {
        tracing::info!(user = %user_id, error = %e, "a passkey assertion was refused");
        Error::new(ErrorCode::InvalidCredentials, PASSKEY_FAILED)
    })?;
    record_use(svc, &row.id, stored_passkey(&row)?, &result).await
}

/// Keeps the counter the authenticator last reported, and when the passkey was used.
async fn record_use(svc: &Services, id: &str, mut passkey: Passkey, result: &webauthn_rs::prelude::AuthenticationResult) -> Result<()> {
    passkey.update_credential(result);
    store::passkey_used(svc.store.pool(), id, &to_json(&passkey)?, now_ms()).await?;
    Ok(())
}

/// What a sign-in's passkey step keeps between its two requests: the sign-in it is
/// the second step of, and the WebAuthn state.
#[derive(serde::Serialize, serde::Deserialize)]
struct SignInPasskey {
    ticket: String,
    state: PasskeyAuthentication,
}

/// Options for a passkey as the second step of a sign-in (its ticket), or, without a
/// ticket, for signing in with a passkey alone (the browser offers the passkeys it
/// has for this site).
pub async fn start_sign_in_passkey(svc: &Services, ticket: Option<&str>) -> Result<(String, String)> {
    let challenge_id = new_token();
    match ticket {
        Some(ticket) => {
            let user = sign_in_user(&svc.store, ticket).await?;
            let (options, state) = passkey_request(svc, &user.id).await?;
            let state = to_json(&SignInPasskey { ticket: ticket.to_owned(), state })?;
            put_challenge(&svc.store, &challenge_id, kind::SIGN_IN_PASSKEY, Some(&user.id), None, Some(state), CEREMONY_TTL_MS).await?;
            Ok((challenge_id, options))
        }
        None => {
            let webauthn = relying(svc)?;
            let (mut options, state) = webauthn
                .start_discoverable_authentication()
                .map_err(|e| Error::internal(format!("WebAuthn request: {e}")))?;
            // A button press, not the autofill prompt webauthn-rs prepares this for.
            options.mediation = None;
            put_challenge(&svc.store, &challenge_id, kind::PASSKEY_SIGN_IN, None, None, Some(to_json(&state)?), CEREMONY_TTL_MS)
                .await?;
            Ok((challenge_id, to_json(&options)?))
        }
    }
}

/// The user a passkey sign-in is for, its assertion checked.
pub async fn finish_sign_in_passkey(svc: &Services, challenge_id: &str, answer: &str) -> Result<UserRow> {
    let row = store::take_challenge(svc.store.pool(), &hash_token(challenge_id), now_ms()).await?;
    let Some(row) = row else {
        return Err(Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED));
    };
    let user_id = match row.kind.as_str() {
        kind::SIGN_IN_PASSKEY => {
            let user_id = row.user_id.clone().ok_or_else(|| Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED))?;
            let saved: SignInPasskey = from_json(row.state.as_deref())?;
            finish_passkey_request(svc, &user_id, &saved.state, answer).await?;
            // The sign-in it was the second step of is spent with it.
            let mut tx = svc.store.begin_write().await?;
            if !spend_ticket_in(&mut tx, &saved.ticket).await? {
                return Err(Error::new(ErrorCode::InvalidToken, SIGN_IN_EXPIRED));
            }
            tx.commit().await?;
            user_id
        }
        kind::PASSKEY_SIGN_IN => {
            let webauthn = relying(svc)?;
            let state: DiscoverableAuthentication = from_json(row.state.as_deref())?;
            let answer: PublicKeyCredential = credential(answer)?;
            let Some(key) = passkey_of(svc, &answer).await? else {
                return Err(Error::new(ErrorCode::InvalidCredentials, UNKNOWN_PASSKEY));
            };
            let passkey = stored_passkey(&key)?;
            let result = webauthn.finish_discoverable_authentication_v2(&answer, state, &passkey).map_err(|e| {
                tracing::info!(user = %key.user_id, error = %e, "a passkey sign-in was refused");
                Error::new(ErrorCode::InvalidCredentials, PASSKEY_FAILED)
            })?;
            record_use(svc, &key.id, passkey, &result).await?;
            key.user_id
        }
        _ => return Err(Error::new(ErrorCode::InvalidToken, CEREMONY_EXPIRED)),
    };
    users::find_by_id(svc.store.pool(), &user_id).await?.ok_or_else(|| Error::new(ErrorCode::InvalidToken, SIGN_IN_EXPIRED))
}

// ---- signed-in devices

/// Signs out one of the account's other sessions, on every instance.
pub async fn end_session(svc: &Services, actor: &Actor, session_id: &str, id: &str) -> Result<(Security, Vec<Change>)> {
    allowed(actor, Action::ManageOwnSecurity)?;
    if id == session_id {
        return Err(Error::new(ErrorCode::BadRequest, USE_SIGN_OUT));
    }
    if !store::delete_session_of(svc.store.pool(), id, &actor.id).await? {
        return Err(Error::new(ErrorCode::NotFound, NOT_YOURS));
    }
    tracing::info!(user = %actor.id, "signed out a session from the device list");
    let changes = vec![Change::EndSession { session_id: id.to_owned(), reason: "signed_out_elsewhere".to_owned() }];
    Ok((overview(svc, actor, session_id).await?, changes))
}

pub async fn end_other_sessions(svc: &Services, actor: &Actor, session_id: &str) -> Result<(Security, Vec<Change>)> {
    allowed(actor, Action::ManageOwnSecurity)?;
    let ended = sessions::delete_others(svc.store.pool(), &actor.id, session_id).await?;
    tracing::info!(user = %actor.id, ended, "signed out every other session");
    let changes = vec![Change::EndSessions {
        user_id: actor.id.clone(),
        keep_session: Some(session_id.to_owned()),
        reason: "signed_out_elsewhere".to_owned(),
    }];
    Ok((overview(svc, actor, session_id).await?, changes))
}

// ---- recovery by an administrator

/// Removes a user's app, recovery codes and passkeys; logged, and mailed to the user.
pub async fn reset_factors(svc: &Services, actor: &Actor, session_id: &str, user_id: &str) -> Result<Vec<Change>> {
    let target = users::find_by_id(svc.store.pool(), user_id).await?;
    let Some(target) = target else {
        return Err(Error::new(ErrorCode::NotFound, "User not found."));
    };
    let builders = target.builder_id.iter().cloned().collect::<Vec<_>>();
    let user_ref = UserRef { id: &target.id, role: target.role, builders: &builders };
    if !policy::allows(actor, Action::ResetFactors, Target::User(user_ref)) {
        return Err(Error::new(ErrorCode::Forbidden, ADMINS_ONLY));
    }
    require_fresh_factor(svc, actor, session_id, Action::ResetFactors).await?;
    let admin = me(svc, actor).await?;
    let admin_name = views::display_name(admin.first_name.as_deref(), admin.last_name.as_deref(), admin.name.as_deref(), &admin.email);
    remove_factors(svc, &target, &format!("{admin_name}, an administrator,")).await?;
    tracing::warn!(admin = %actor.id, user = %target.id, "an administrator reset a user's sign-in factors");
    Ok(Vec::new())
}

/// The operator's way back in (`sitecast reset-factors`): for the last administrator,
/// whom no other administrator can reset.
pub async fn reset_factors_of(svc: &Services, email: &str) -> Result<()> {
    let email = validation::normalize_email(email);
    let Some(target) = users::find_by_email(svc.store.pool(), &email).await? else {
        return Err(Error::new(ErrorCode::NotFound, "User not found."));
    };
    remove_factors(svc, &target, "the operator of this Sitecast installation").await?;
    tracing::warn!(user = %target.id, "the operator reset a user's sign-in factors from the command line");
    Ok(())
}

/// Removes the app, recovery codes and passkeys, and mails the user who did it.
async fn remove_factors(svc: &Services, target: &UserRow, by: &str) -> Result<()> {
    let name = views::display_name(target.first_name.as_deref(), None, target.name.as_deref(), &target.email);
    let mut tx = svc.store.begin_write().await?;
    store::delete_totp(&mut *tx, &target.id).await?;
    store::delete_recovery_codes(&mut *tx, &target.id).await?;
    store::delete_passkeys(&mut *tx, &target.id).await?;
    let mail = templates::factors_reset(&target.email, &name, by, &svc.auth.link("/profile-settings#security"));
    svc.auth.outbox.enqueue(&mut *tx, &mail).await?;
    tx.commit().await?;
    svc.auth.outbox.wake();
    Ok(())
}
