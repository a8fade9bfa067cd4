//! Sign-up, confirmation, login, logout, forgot and reset password over HTTP.

use actix_web::http::header;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::session::{client_address, removal_cookie, session_cookie, session_token, EnrollingSession};
use super::AppState;
use crate::domain::identity::auth::{LoginOutcome, SignIn, TokenKind};
use crate::domain::identity::security;
use crate::domain::shared::validation::SignUp;
use crate::error::Error;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/auth")
            .service(me)
            .service(login)
            .service(login_code)
            .service(passkey_options)
            .service(passkey_login)
            .service(logout)
            .service(signup)
            .service(confirm)
            .service(forgot)
            .service(check_reset)
            .service(reset),
    );
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UserBody {
    user: protocol::Profile,
    /// This session must enrol a second factor before anything else.
    enrol_required: bool,
}

#[get("/me")]
async fn me(EnrollingSession(session): EnrollingSession) -> HttpResponse {
    HttpResponse::Ok().json(UserBody { user: crate::domain::shared::views::profile(&session.user), enrol_required: session.enrol_required })
}

/// Where a sign-in comes from: the client's address (for limits and the devices list)
/// and its user agent (the devices list, the new-device mail).
fn signing_in<'r>(req: &'r HttpRequest, state: &AppState) -> (String, Option<&'r str>) {
    let address = client_address(req, &state.config);
    (address, req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()))
}

fn signed_in(outcome: LoginOutcome, secure: bool) -> HttpResponse {
    HttpResponse::Ok()
        .cookie(session_cookie(outcome.token, secure))
        .json(UserBody { user: outcome.user, enrol_required: outcome.enrol_required })
}

// Absent fields read as empty strings, so a missing field gets the same validation
// message as an empty one.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[derive(Default)]
struct LoginBody {
    email: String,
    password: String,
}

#[post("/login")]
async fn login(req: HttpRequest, state: web::Data<AppState>, body: web::Json<LoginBody>) -> Result<HttpResponse, Error> {
    let (address, user_agent) = signing_in(&req, &state);
    match state.auth.login(&body.email, &body.password, &address, user_agent).await? {
        SignIn::Session(outcome) => Ok(signed_in(*outcome, state.config.secure_cookies())),
        // No cookie yet: the second step answers with one.
        SignIn::SecondFactor { ticket, methods } => {
            Ok(HttpResponse::Ok().json(json!({ "secondFactor": { "ticket": ticket, "methods": methods } })))
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct CodeBody {
    ticket: String,
    code: String,
}

/// A sign-in's second step (docs/SECURITY.md, "Two-factor sign-in"): a code from the app or a
/// recovery code.
#[post("/login/code")]
async fn login_code(req: HttpRequest, state: web::Data<AppState>, body: web::Json<CodeBody>) -> Result<HttpResponse, Error> {
    let (address, user_agent) = signing_in(&req, &state);
    let outcome = state.auth.login_with_code(&body.ticket, &body.code, &address, user_agent).await?;
    Ok(signed_in(outcome, state.config.secure_cookies()))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct PasskeyOptionsBody {
    /// The sign-in this passkey is the second step of; none to sign in with it alone.
    ticket: Option<String>,
}

/// Options for `navigator.credentials.get`, and the challenge to answer.
#[post("/passkey/options")]
async fn passkey_options(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Json<PasskeyOptionsBody>,
) -> Result<HttpResponse, Error> {
    state.auth.limit_passkey_start(&client_address(&req, &state.config))?;
    let (challenge_id, options) = security::start_sign_in_passkey(&state.svc, body.ticket.as_deref()).await?;
    let options: serde_json::Value = serde_json::from_str(&options).map_err(Error::internal)?;
    Ok(HttpResponse::Ok().json(json!({ "challengeId": challenge_id, "options": options })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PasskeyBody {
    challenge_id: String,
    /// The browser's `PublicKeyCredential`, as JSON.
    credential: serde_json::Value,
}

#[post("/passkey")]
async fn passkey_login(req: HttpRequest, state: web::Data<AppState>, body: web::Json<PasskeyBody>) -> Result<HttpResponse, Error> {
    let (address, user_agent) = signing_in(&req, &state);
    let user = security::finish_sign_in_passkey(&state.svc, &body.challenge_id, &body.credential.to_string()).await?;
    let outcome = state.auth.login_with_passkey(user, &address, user_agent).await?;
    Ok(signed_in(outcome, state.config.secure_cookies()))
}

/// Ends the session and closes its sockets. Without a session it still clears the cookie.
#[post("/logout")]
async fn logout(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, Error> {
    let secure = state.config.secure_cookies();
    if let Some(token) = session_token(&req, secure) {
        if let Some(session) = state.auth.authenticate(&token).await? {
            state.live.publish(state.auth.logout(&session.session_id).await?);
        }
    }
    Ok(HttpResponse::NoContent().cookie(removal_cookie(secure)).finish())
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SignUpBody {
    role: String,
    email: String,
    password: String,
    confirm_password: String,
    first_name: String,
    last_name: String,
    name: String,
    phone: Option<String>,
}

#[post("/signup")]
async fn signup(req: HttpRequest, state: web::Data<AppState>, body: web::Json<SignUpBody>) -> Result<HttpResponse, Error> {
    let address = client_address(&req, &state.config);
    let email = state
        .auth
        .sign_up(
            &SignUp {
                role: &body.role,
                email: &body.email,
                password: &body.password,
                confirm_password: &body.confirm_password,
                first_name: &body.first_name,
                last_name: &body.last_name,
                name: &body.name,
                phone: body.phone.as_deref().unwrap_or(""),
            },
            &address,
        )
        .await?;
    Ok(HttpResponse::Created().json(json!({ "email": email })))
}

#[derive(Deserialize)]
struct TokenQuery {
    token: String,
}

/// The link in the confirmation mail: confirms, then lands on the login page with a
/// notice either way.
#[get("/confirm")]
async fn confirm(state: web::Data<AppState>, query: Option<web::Query<TokenQuery>>) -> HttpResponse {
    let ok = match query {
        Some(q) => match state.auth.confirm_email(&q.token).await {
            Ok(()) => true,
            Err(err) => {
                err.log("confirm email");
                false
            }
        },
        None => false,
    };
    let to = if ok { "/login?confirmed=1" } else { "/login?confirm=invalid" };
    HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish()
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ForgotBody {
    email: String,
}

#[post("/forgot")]
async fn forgot(req: HttpRequest, state: web::Data<AppState>, body: web::Json<ForgotBody>) -> Result<HttpResponse, Error> {
    let address = client_address(&req, &state.config);
    let message = state.auth.forgot_password(&body.email, &address).await?;
    Ok(HttpResponse::Ok().json(json!({ "message": message })))
}

#[get("/reset/check")]
async fn check_reset(state: web::Data<AppState>, query: web::Query<TokenQuery>) -> Result<HttpResponse, Error> {
    let (kind, email) = state.auth.check_token(&query.token).await?;
    let kind = if kind == TokenKind::Invite { "invite" } else { "reset" };
    Ok(HttpResponse::Ok().json(json!({ "kind": kind, "email": email })))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ResetBody {
    token: String,
    password: String,
    confirm_password: String,
}

/// Sets a password from a reset or invitation link; every session of the user ends.
#[post("/reset")]
async fn reset(state: web::Data<AppState>, body: web::Json<ResetBody>) -> Result<HttpResponse, Error> {
    state.live.publish(state.auth.reset_password(&body.token, &body.password, &body.confirm_password).await?);
    Ok(HttpResponse::Ok().json(json!({ "message": crate::domain::identity::auth::PASSWORD_UPDATED })))
}
