//! Sign-up, email confirmation, login, logout, password reset and invitations
//! (SPEC.md §2, §5, §8; DESIGN.md §5).

use protocol::{CompanyRole, ErrorCode, Profile, Role};

pub use crate::domain::shared::auth::Auth;
use crate::domain::shared::changes::Change;
use crate::domain::shared::limiter::minutes;
use crate::domain::identity::login_limit;
use crate::domain::shared::secrets::{hash_token, new_token};
use crate::domain::{identity::devices, identity::security};
use crate::store::security as security_store;
use crate::store::settings;
use crate::domain::shared::validation::{self, non_blank, normalize_email, SignUp};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::mail::templates;
use crate::store::users::{NewUser, UserRow};
use crate::store::{companies, new_id, now_ms, sessions, tokens, users, StoreError};

pub const INVALID_CREDENTIALS: &str = "Invalid login credentials";
pub const EMAIL_NOT_CONFIRMED: &str = "Email not confirmed";
pub const USER_EXISTS: &str =
    "This email is already registered but not confirmed. Please check your email or try logging in.";
pub const RESET_SENT: &str = "If an account exists for this email, a password reset link has been sent.";
pub const PASSWORD_UPDATED: &str = "You can now log in with your new password.";
pub const INVALID_TOKEN: &str = "This link is invalid or has expired. Please request a new one.";

const HOUR_MS: i64 = 60 * 60 * 1000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// A session ends after a week without use, or a month after login, whichever is first.
pub const SESSION_IDLE_MS: i64 = 7 * DAY_MS;
pub const SESSION_ABSOLUTE_MS: i64 = 30 * DAY_MS;
/// `last_seen_at` is written at most this often, so browsing is not a stream of writes.
const SESSION_TOUCH_MS: i64 = HOUR_MS;
const CONFIRM_TTL_MS: i64 = DAY_MS;
const RESET_TTL_MS: i64 = HOUR_MS;
const INVITE_TTL_MS: i64 = 7 * DAY_MS;

pub use crate::store::TokenKind;

/// What a successful login hands to the transport: the cookie value and the user.
pub struct LoginOutcome {
    pub token: String,
    pub user: Profile,
    /// The session must enrol a second factor before anything else (docs/SECURITY.md,
    /// "Two-factor sign-in").
    pub enrol_required: bool,
}

/// A password that checked out: a session, or a second step to take first.
pub enum SignIn {
    Session(Box<LoginOutcome>),
    /// The ticket for the second step, and the factors it may use.
    SecondFactor { ticket: String, methods: Vec<&'static str> },
}

pub struct InviteInput<'a> {
    pub email: &'a str,
    pub role: Role,
    pub name: &'a str,
    /// When the form had them; otherwise derived from `name`.
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub builder_id: Option<&'a str>,
    /// A builder's company (docs/FEATURES.md, "Builder companies"): a new one named after
    /// them, or one they join.
    pub company: Option<CompanyJoin<'a>>,
}

/// Where a new builder belongs (docs/FEATURES.md, "Builder companies").
#[derive(Debug, Clone, Copy)]
pub enum CompanyJoin<'a> {
    /// A one-member company of their name, which they own (a builder who signs up, or
    /// whom an admin invites as a builder: what a builder account always was).
    Own,
    /// An existing company, in a role.
    Member { company_id: &'a str, company_name: &'a str, role: CompanyRole, all_projects: bool },
}

/// Puts a new builder in their company, in the transaction that makes their account,
/// and fills in the row's company fields to match.
async fn join_company(tx: &mut crate::store::Tx, user: &mut UserRow, join: CompanyJoin<'_>) -> Result<()> {
    let (company_id, company_name, role, all) = match join {
        CompanyJoin::Own => {
            let id = new_id();
            let name = views::display_name(None, None, user.name.as_deref(), &user.email);
            companies::insert(&mut **tx, &id, &name, user.created_at).await?;
            (id, name, CompanyRole::Owner, false)
        }
        CompanyJoin::Member { company_id, company_name, role, all_projects } => {
            (company_id.to_owned(), company_name.to_owned(), role, all_projects && role == CompanyRole::Crew)
        }
    };
    users::set_membership(&mut **tx, &user.id, Some((&company_id, role, all)), user.created_at).await?;
    companies::touch(&mut **tx, &company_id, None, user.created_at).await?;
    user.version += 1;
    user.company_id = Some(company_id);
    user.company_name = Some(company_name);
    user.company_role = Some(role);
    user.all_projects = all;
    Ok(())
}

/// A session resolved from a cookie.
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub session_id: String,
    pub user: UserRow,
    /// The session must enrol a second factor before anything else (docs/SECURITY.md,
    /// "Two-factor sign-in").
    pub enrol_required: bool,
}

impl Auth {
    pub async fn sign_up(&self, input: &SignUp<'_>, address: &str) -> Result<String> {
        let (role, errors) = validation::sign_up(input);
        let Some(role) = role.filter(|_| errors.is_empty()) else {
            return Err(Error::validation(errors));
        };
        self.limit_mail(address)?;
        let email = normalize_email(input.email);

        if let Some(existing) = users::find_by_email(self.store.pool(), &email).await? {
            // SPEC.md §8 "User Exists". An unconfirmed self-registered account gets a
            // fresh confirmation link, so a lost first mail is not a dead end.
            if existing.email_confirmed_at.is_none() && existing.password_hash.is_some() {
                let mut tx = self.store.begin_write().await?;
                self.send_confirmation(&mut tx, &existing).await?;
                tx.commit().await?;
                self.outbox.wake();
            }
            return Err(Error::new(ErrorCode::UserExists, USER_EXISTS));
        }

        let hash = self.passwords.hash(input.password).await?;
        let (first, last, name) = match role {
            Role::Builder => (None, None, non_blank(input.name)),
            _ => {
                let (f, l) = (non_blank(input.first_name), non_blank(input.last_name));
                let full = format!("{} {}", f.as_deref().unwrap_or(""), l.as_deref().unwrap_or(""));
                (f, l, non_blank(&full))
            }
        };
        let now = now_ms();
        let id = new_id();
        let user = UserRow {
            id: id.clone(),
            email: email.clone(),
            role,
            name,
            first_name: first,
            last_name: last,
            phone: non_blank(input.phone),
            builder_id: None,
            password_hash: Some(hash),
            email_confirmed_at: None,
            last_sign_in_at: None,
            created_at: now,
            updated_at: now,
            version: 1,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        };
        let mut user = user;
        let mut tx = self.store.begin_write().await?;
        match users::insert(&mut *tx, &new_user(&user)).await {
            Err(StoreError::UniqueViolation) => return Err(Error::new(ErrorCode::UserExists, USER_EXISTS)),
            other => other?,
        }
        // A builder who signs up starts their own company (docs/FEATURES.md,
        // "Builder companies").
        if role == Role::Builder {
            join_company(&mut tx, &mut user, CompanyJoin::Own).await?;
        }
        self.send_confirmation(&mut tx, &user).await?;
        tx.commit().await?;
        self.outbox.wake();
        Ok(email)
    }

    async fn send_confirmation(&self, tx: &mut crate::store::Tx, user: &UserRow) -> Result<()> {
        let token = self.issue_token(tx, &user.id, TokenKind::ConfirmEmail).await?;
        let link = self.link(&format!("/api/auth/confirm?token={token}"));
        let name = views::display_name(user.first_name.as_deref(), None, user.name.as_deref(), &user.email);
        self.outbox.enqueue(&mut **tx, &templates::confirm_email(&user.email, &name, &link)).await?;
        Ok(())
    }

    async fn issue_token(&self, tx: &mut crate::store::Tx, user_id: &str, kind: TokenKind) -> Result<String> {
        let ttl = match kind {
            TokenKind::Invite => INVITE_TTL_MS,
            TokenKind::Reset => RESET_TTL_MS,
            TokenKind::ConfirmEmail => CONFIRM_TTL_MS,
        };
        let token = new_token();
        let now = now_ms();
        tokens::insert(&mut **tx, &hash_token(&token), user_id, kind.as_str(), now, now + ttl).await?;
        Ok(token)
    }

    /// Consumes an email-confirmation link.
    pub async fn confirm_email(&self, token: &str) -> Result<()> {
        let hash = hash_token(token);
        let row = tokens::find(self.store.pool(), &hash).await?;
        let Some(row) = row.filter(|r| r.kind == TokenKind::ConfirmEmail) else {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        };
        let mut tx = self.store.begin_write().await?;
        if !tokens::consume(&mut *tx, &hash, now_ms()).await? {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        }
        users::confirm_email(&mut *tx, &row.user_id, now_ms()).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn login(
        &self,
        email: &str,
        password: &str,
        address: &str,
        user_agent: Option<&str>,
    ) -> Result<SignIn> {
        let errors = validation::login(email, password);
        if !errors.is_empty() {
            return Err(Error::validation(errors));
        }
        let email = normalize_email(email);
        let attempt = login_limit::admit(&self.store, &email, address).await.inspect_err(|err| {
            if err.api.code == ErrorCode::RateLimited {
                metrics::counter!(crate::metric_names::LOGIN_FAILURES, "reason" => "rate_limited").increment(1);
            }
        })?;

        let user = users::find_by_email(self.store.pool(), &email).await?;
        let hash = user.as_ref().and_then(|u| u.password_hash.as_deref());
        if !self.passwords.verify(password, hash).await? {
            metrics::counter!(crate::metric_names::LOGIN_FAILURES, "reason" => "invalid_credentials").increment(1);
            return Err(Error::new(ErrorCode::InvalidCredentials, INVALID_CREDENTIALS));
        }
        let Some(mut user) = user else {
            return Err(Error::new(ErrorCode::InvalidCredentials, INVALID_CREDENTIALS));
        };
        // An account with a second factor proves it next; until it does, the sign-in is
        // not complete and its failed attempts (wrong codes) stay counted (docs/SECURITY.md,
        // "Two-factor sign-in").
        let methods = security::methods(&self.store, &user.id).await?;
        if methods.is_empty() {
            login_limit::succeeded(&self.store, attempt).await?;
        } else {
            login_limit::passed_first_step(&self.store, attempt).await?;
        }
        // Only after the password checks out, so this answer reveals nothing to a guesser.
        if user.email_confirmed_at.is_none() {
            return Err(Error::new(ErrorCode::EmailNotConfirmed, EMAIL_NOT_CONFIRMED));
        }

        // Hashes made with older settings are replaced while we hold the password.
        if let Some(old) = user.password_hash.clone().filter(|old| self.passwords.needs_rehash(old)) {
            let new = self.passwords.hash(password).await?;
            users::rehash_password(self.store.pool(), &user.id, &old, &new).await?;
        }

        // An account with a second factor proves it next, on a ticket; one the
        // installation requires a factor of, and which has none, is led to enrol.
        if !methods.is_empty() {
            let ticket = security::issue_sign_in_ticket(&self.store, &user.id).await?;
            return Ok(SignIn::SecondFactor { ticket, methods });
        }
        let enrol = security::factor_required(&user, &settings::get(self.store.pool()).await?);
        let outcome = self.open_session(&mut user, address, user_agent, None, enrol).await?;
        Ok(SignIn::Session(Box::new(outcome)))
    }

    /// The second step of a sign-in: a code from the app or a recovery code. A wrong
    /// code counts toward the account's failed-login lock, like a wrong password.
    pub async fn login_with_code(&self, ticket: &str, code: &str, address: &str, user_agent: Option<&str>) -> Result<LoginOutcome> {
        let mut user = security::sign_in_user(&self.store, ticket).await?;
        let attempt = login_limit::admit(&self.store, &user.email, address).await?;
        // The ticket is spent and the code used up together, or neither: of two
        // requests on one ticket (on any instances, with different recovery codes) one
        // signs in and the other uses nothing up.
        let mut tx = self.store.begin_write().await?;
        if !security::spend_ticket_in(&mut tx, ticket).await? {
            return Err(Error::new(ErrorCode::InvalidToken, security::SIGN_IN_EXPIRED));
        }
        let Some(kind) = security::verify_code_in(&mut tx, &user, code).await? else {
            // Rolled back: the ticket stays for another try (a wrong code may be retried).
            drop(tx);
            metrics::counter!(crate::metric_names::LOGIN_FAILURES, "reason" => "invalid_code").increment(1);
            return Err(Error::new(ErrorCode::InvalidCredentials, security::INVALID_CODE));
        };
        tx.commit().await?;
        login_limit::succeeded(&self.store, attempt).await?;
        self.open_session(&mut user, address, user_agent, Some(kind), false).await
    }

    /// A sign-in finished with a passkey (as the second step, or on its own).
    pub async fn login_with_passkey(&self, user: UserRow, address: &str, user_agent: Option<&str>) -> Result<LoginOutcome> {
        let mut user = user;
        if user.email_confirmed_at.is_none() {
            return Err(Error::new(ErrorCode::EmailNotConfirmed, EMAIL_NOT_CONFIRMED));
        }
        login_limit::completed(&self.store, &user.email).await?;
        self.open_session(&mut user, address, user_agent, Some(security::FactorKind::Passkey), false).await
    }

    /// A new session for a user who has proved who they are: its assurance (the factor
    /// proved, or none; whether it must enrol one first), the sign-in recorded, and a
    /// mail when the browser and system are ones the account had not used before.
    async fn open_session(
        &self,
        user: &mut UserRow,
        address: &str,
        user_agent: Option<&str>,
        factor: Option<security::FactorKind>,
        enrol_required: bool,
    ) -> Result<LoginOutcome> {
        let token = new_token();
        let now = now_ms();
        let user_agent = user_agent.map(|ua| validation::USER_AGENT.clean(ua));
        let session_id = new_id();
        let device_key = devices::device_key(user_agent.as_deref());
        let mut tx = self.store.begin_write().await?;
        sessions::insert(
            &mut *tx,
            &sessions::NewSession {
                id: &session_id,
                user_id: &user.id,
                token_hash: &hash_token(&token),
                now,
                expires_at: now + SESSION_ABSOLUTE_MS,
                user_agent: user_agent.as_deref(),
                ip: Some(address),
            },
        )
        .await?;
        if let Some(kind) = factor {
            security_store::session_factor(&mut *tx, &session_id, now, kind.as_str()).await?;
        }
        if enrol_required {
            security_store::set_enrol_required(&mut *tx, &session_id).await?;
        }
        users::record_sign_in(&mut *tx, &user.id, now).await?;
        let new_device = security_store::add_known_device(&mut *tx, &user.id, &device_key, now).await?;
        // The account's first device is where it began, not news.
        if new_device && security_store::known_device_count(&mut *tx, &user.id).await? > 1 {
            let device = devices::device(user_agent.as_deref());
            let what = format!("{} on {}", device.browser, device.system);
            let place = self.places.place(address);
            let name = views::display_name(user.first_name.as_deref(), None, user.name.as_deref(), &user.email);
            let when = devices::mail_time(now);
            let mail = templates::new_sign_in(&user.email, &name, &what, place.as_deref(), &when, &self.link("/profile-settings#security"));
            self.outbox.enqueue(&mut *tx, &mail).await?;
        }
        tx.commit().await?;
        self.outbox.wake();
        user.last_sign_in_at = Some(now);
        Ok(LoginOutcome { token, user: views::profile(user), enrol_required })
    }

    /// Resolves a session cookie; expired sessions are deleted on sight.
    pub async fn authenticate(&self, token: &str) -> Result<Option<Authenticated>> {
        let Some(session) = sessions::find_by_token_hash(self.store.pool(), &hash_token(token)).await? else {
            return Ok(None);
        };
        let now = now_ms();
        if session.expires_at <= now || session.last_seen_at + SESSION_IDLE_MS <= now {
            sessions::delete(self.store.pool(), &session.id).await?;
            return Ok(None);
        }
        let Some(user) = users::find_by_id(self.store.pool(), &session.user_id).await? else {
            return Ok(None);
        };
        if now - session.last_seen_at > SESSION_TOUCH_MS {
            sessions::touch(self.store.pool(), &session.id, now).await?;
        }
        Ok(Some(Authenticated { session_id: session.id, user, enrol_required: session.enrol_required }))
    }

    /// Ends the session; its sockets close on every instance (the change says so).
    pub async fn logout(&self, session_id: &str) -> Result<Vec<Change>> {
        sessions::delete(self.store.pool(), session_id).await?;
        Ok(vec![Change::EndSession { session_id: session_id.to_owned(), reason: "logged_out".to_owned() }])
    }

    /// Always answers the same message, at once: the lookup and the mail happen in the
    /// background, so neither the text nor the timing says whether the account exists.
    pub async fn forgot_password(&self, email: &str, address: &str) -> Result<&'static str> {
        let errors = validation::forgot(email);
        if !errors.is_empty() {
            return Err(Error::validation(errors));
        }
        self.limit_mail(address)?;
        let email = normalize_email(email);
        let auth = self.clone();
        tokio::spawn(async move {
            if let Err(err) = auth.send_reset(&email).await {
                tracing::error!(error = %err, "could not queue a password reset mail");
            }
        });
        Ok(RESET_SENT)
    }

    async fn send_reset(&self, email: &str) -> Result<()> {
        let Some(user) = users::find_by_email(self.store.pool(), email).await? else {
            return Ok(());
        };
        let mut tx = self.store.begin_write().await?;
        let token = self.issue_token(&mut tx, &user.id, TokenKind::Reset).await?;
        let link = self.link(&format!("/reset-password?token={token}"));
        self.outbox.enqueue(&mut *tx, &templates::reset_password(&user.email, &link)).await?;
        tx.commit().await?;
        self.outbox.wake();
        Ok(())
    }

    /// What a reset or invitation link is for, before the user types a password.
    pub async fn check_token(&self, token: &str) -> Result<(TokenKind, String)> {
        let row = tokens::find(self.store.pool(), &hash_token(token)).await?;
        let kind = match row.as_ref().map(|r| r.kind.as_str()) {
            Some("invite") => TokenKind::Invite,
            Some("reset") => TokenKind::Reset,
            _ => return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN)),
        };
        let row = row.filter(|r| r.used_at.is_none() && r.expires_at > now_ms());
        let Some(row) = row else {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        };
        let user = users::find_by_id(self.store.pool(), &row.user_id).await?;
        let user = user.ok_or_else(|| Error::new(ErrorCode::InvalidToken, INVALID_TOKEN))?;
        Ok((kind, user.email))
    }

    /// Sets a password from a reset or invitation link. The link is single use; every
    /// other open link and every session of the user ends with it, their sockets too.
    pub async fn reset_password(&self, token: &str, password: &str, confirm: &str) -> Result<Vec<Change>> {
        let errors = validation::reset(password, confirm);
        if !errors.is_empty() {
            return Err(Error::validation(errors));
        }
        let hash = hash_token(token);
        let row = tokens::find(self.store.pool(), &hash).await?;
        let row = row.filter(|r| {
            (r.kind == TokenKind::Reset || r.kind == TokenKind::Invite)
                && r.used_at.is_none()
                && r.expires_at > now_ms()
        });
        let Some(row) = row else {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        };
        // The account must still exist; its address keys the login limiter below.
        let Some(user) = users::find_by_id(self.store.pool(), &row.user_id).await? else {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        };
        let password_hash = self.passwords.hash(password).await?;
        let now = now_ms();
        let mut tx = self.store.begin_write().await?;
        if !tokens::consume(&mut *tx, &hash, now).await? {
            return Err(Error::new(ErrorCode::InvalidToken, INVALID_TOKEN));
        }
        users::set_password(&mut *tx, &row.user_id, &password_hash, now).await?;
        tokens::void_for_user(&mut *tx, &row.user_id, now).await?;
        sessions::delete_for_user(&mut *tx, &row.user_id).await?;
        // A fresh password lifts a lock from earlier wrong guesses.
        login_limit::clear_account(&mut tx, &user.email).await?;
        tx.commit().await?;
        let mut changes = vec![Change::EndSessions { user_id: row.user_id, keep_session: None, reason: "password_changed".to_owned() }];
        // A member accepting their invitation is no longer "invited" on their company's pages.
        if let Some(company_id) = user.company_id {
            changes.push(Change::Company { id: company_id, former: Vec::new() });
        }
        Ok(changes)
    }

    /// Puts a builder who belongs to no company (one removed from theirs) into one, and
    /// mails them an invitation as for a new member: its link sets a new password, or
    /// they sign in with the one they have.
    pub async fn rejoin(&self, user: &UserRow, join: CompanyJoin<'_>) -> Result<Profile> {
        let CompanyJoin::Member { company_name, role, .. } = join else {
            return Err(Error::internal("a returning member joins an existing company"));
        };
        let mut user = user.clone();
        let mut tx = self.store.begin_write().await?;
        join_company(&mut tx, &mut user, join).await?;
        let token = self.issue_token(&mut tx, &user.id, TokenKind::Invite).await?;
        let link = self.link(&format!("/reset-password?token={token}"));
        let name = views::display_name(user.first_name.as_deref(), user.last_name.as_deref(), user.name.as_deref(), &user.email);
        self.outbox
            .enqueue(&mut *tx, &templates::invite_to(&user.email, &name, Role::Builder.as_str(), Some((company_name, role.as_str())), &link))
            .await?;
        tx.commit().await?;
        self.outbox.wake();
        Ok(views::profile(&user))
    }

    /// Creates an account without a password and mails a link to set one (the reset
    /// page). Returns the new profile and the link (the CLI prints it).
    pub async fn invite(&self, input: &InviteInput<'_>) -> Result<(Profile, String)> {
        // A name given in one piece is bounded as a whole; one made of first and last
        // name is bounded by its parts.
        let whole_name = if input.first_name.is_none() && input.last_name.is_none() { input.name } else { "" };
        validation::texts(&[
            ("email", input.email, validation::EMAIL),
            ("name", whole_name, validation::NAME),
            ("firstName", input.first_name.unwrap_or(""), validation::FIRST_NAME),
            ("lastName", input.last_name.unwrap_or(""), validation::LAST_NAME),
            ("phone", input.phone.unwrap_or(""), validation::PHONE),
        ])?;
        let email = normalize_email(input.email);
        if !validation::is_valid_email(&email) {
            return Err(Error::field("email", validation::INVALID_EMAIL));
        }
        let Some(name) = non_blank(input.name) else {
            return Err(Error::field("name", validation::NAME_REQUIRED));
        };
        // SPEC.md §5: homeowner and admin names split at the first space on invite.
        let (first, last) = match (input.role, input.first_name, input.last_name) {
            (Role::Builder, _, _) => (None, None),
            (_, Some(f), Some(l)) => (non_blank(f), non_blank(l)),
            _ => match name.split_once(' ') {
                Some((f, l)) => (non_blank(f), non_blank(l)),
                None => (Some(name.clone()), None),
            },
        };
        let now = now_ms();
        let user = UserRow {
            id: new_id(),
            email: email.clone(),
            role: input.role,
            name: Some(name.clone()),
            first_name: first,
            last_name: last,
            phone: input.phone.and_then(non_blank),
            builder_id: input.builder_id.map(str::to_owned),
            password_hash: None,
            email_confirmed_at: None,
            last_sign_in_at: None,
            created_at: now,
            updated_at: now,
            version: 1,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        };
        let mut user = user;
        let exists = || Error::new(ErrorCode::Conflict, format!("User with email {email} already exists."));
        if users::find_by_email(self.store.pool(), &email).await?.is_some() {
            return Err(exists());
        }
        let mut tx = self.store.begin_write().await?;
        match users::insert(&mut *tx, &new_user(&user)).await {
            Err(StoreError::UniqueViolation) => return Err(exists()),
            other => other?,
        }
        let joined = match (input.role, input.company) {
            (Role::Builder, Some(join)) => {
                join_company(&mut tx, &mut user, join).await?;
                match join {
                    CompanyJoin::Member { company_name, role, .. } => Some((company_name, role.as_str())),
                    CompanyJoin::Own => None,
                }
            }
            _ => None,
        };
        let token = self.issue_token(&mut tx, &user.id, TokenKind::Invite).await?;
        let link = self.link(&format!("/reset-password?token={token}"));
        self.outbox
            .enqueue(&mut *tx, &templates::invite_to(&email, &name, input.role.as_str(), joined, &link))
            .await?;
        tx.commit().await?;
        self.outbox.wake();
        Ok((views::profile(&user), link))
    }

    /// A passkey sign-in begun by someone not yet known stores a challenge; an address may
    /// begin sixty a minute (a person begins a few; docs/SECURITY.md, "Two-factor sign-in").
    pub fn limit_passkey_start(&self, address: &str) -> Result<()> {
        self.limits.passkey_address.hit(&format!("passkey:{address}")).map_err(|wait| {
            Error::rate_limited(format!("Too many requests. Please try again in {} minutes.", minutes(wait)), wait)
        })
    }

    fn limit_mail(&self, address: &str) -> Result<()> {
        self.limits.mail_address.hit(&format!("mail:{address}")).map_err(|wait| {
            Error::rate_limited(
                format!("Too many requests. Please try again in {} minutes.", minutes(wait)),
                wait,
            )
        })
    }
}

fn new_user(u: &UserRow) -> NewUser<'_> {
    NewUser {
        id: &u.id,
        email: &u.email,
        role: u.role,
        name: u.name.as_deref(),
        first_name: u.first_name.as_deref(),
        last_name: u.last_name.as_deref(),
        phone: u.phone.as_deref(),
        builder_id: u.builder_id.as_deref(),
        password_hash: u.password_hash.as_deref(),
        email_confirmed_at: u.email_confirmed_at,
        now: u.created_at,
    }
}
