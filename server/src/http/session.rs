//! The session cookie and the extractor that turns it into the signed-in user.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{time, Cookie, SameSite};
use actix_web::{web, FromRequest, HttpRequest};

use super::AppState;
use crate::domain::identity::auth::{Authenticated, SESSION_ABSOLUTE_MS};
use crate::error::Error;

/// `__Host-` binds a cookie to our exact origin (Secure, Path=/, no Domain); it needs
/// TLS, so plain-HTTP local runs use the bare name.
fn host_bound(secure: bool, host_name: &'static str, bare_name: &'static str) -> &'static str {
    if secure {
        host_name
    } else {
        bare_name
    }
}

/// A credential cookie: HttpOnly, so page scripts never read it; Lax, not Strict, so a
/// link from a mail (or a shared guest link) arrives with it.
fn credential_cookie(name: &'static str, token: String, secure: bool) -> actix_web::cookie::CookieBuilder<'static> {
    Cookie::build(name, token).path("/").http_only(true).same_site(SameSite::Lax).secure(secure)
}

fn cookie_value(req: &HttpRequest, name: &str) -> Option<String> {
    req.cookie(name).map(|c| c.value().to_owned()).filter(|v| !v.is_empty())
}

pub fn cookie_name(secure: bool) -> &'static str {
    host_bound(secure, "__Host-sitecast_session", "sitecast_session")
}

pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    credential_cookie(cookie_name(secure), token, secure)
        .max_age(time::Duration::milliseconds(SESSION_ABSOLUTE_MS))
        .finish()
}

pub fn removal_cookie(secure: bool) -> Cookie<'static> {
    let mut cookie = session_cookie(String::new(), secure);
    cookie.make_removal();
    cookie
}

/// A guest's link token, kept like the session, and sent with the guest
/// page's photo requests and socket.
pub fn guest_cookie_name(secure: bool) -> &'static str {
    host_bound(secure, "__Host-sitecast_guest", "sitecast_guest")
}

/// Lives as long as the browser session: the guest page sets it again from its URL
/// each time it opens, and the link's own expiry is checked on every use.
pub fn guest_cookie(token: String, secure: bool) -> Cookie<'static> {
    credential_cookie(guest_cookie_name(secure), token, secure).finish()
}

pub fn guest_token(req: &HttpRequest, secure: bool) -> Option<String> {
    cookie_value(req, guest_cookie_name(secure))
}

/// Who is asking for photo bytes: a signed-in user, a guest holding a link, or both
/// (a signed-in user can open someone's link). Neither gets 401.
pub struct Viewer {
    pub user: Option<Authenticated>,
    guest_token: Option<String>,
}

impl Viewer {
    /// The guest link's pass, read only when asked: after the user's own account did
    /// not answer, so a signed-in user's photos cost no link lookup. A link that
    /// stopped working is as good as none.
    pub async fn guest_pass(&self, svc: &crate::domain::shared::services::Services) -> Option<crate::domain::sharing::guests::GuestPass> {
        let token = self.guest_token.as_deref()?;
        crate::domain::sharing::guests::pass_for(svc, token).await.ok()
    }

    /// The answer when neither principal may: the user's own refusal, or 401 for a
    /// guest whose link stopped working.
    pub fn refused(&self, user_refusal: Error) -> Error {
        if self.user.is_some() {
            user_refusal
        } else {
            Error::unauthorized()
        }
    }
}

impl FromRequest for Viewer {
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = req.app_data::<web::Data<AppState>>().ok_or_else(|| Error::internal("state missing"))?;
            let secure = state.config.secure_cookies();
            let user = match session_token(&req, secure) {
                Some(token) => state.auth.authenticate(&token).await?,
                None => None,
            };
            let guest_token = guest_token(&req, secure);
            // A session that must enrol a second factor first opens nothing but its
            // enrolment, as on the socket; a guest link it holds still opens as a guest's.
            let (user, enrolling) = match user {
                Some(session) if session.enrol_required => (None, true),
                user => (user, false),
            };
            if user.is_none() && guest_token.is_none() {
                return Err(if enrolling { enrol_required() } else { Error::unauthorized() });
            }
            Ok(Viewer { user, guest_token })
        })
    }
}

pub fn session_token(req: &HttpRequest, secure: bool) -> Option<String> {
    cookie_value(req, cookie_name(secure))
}

/// The client's address for rate limits and the devices list: the peer's, or behind a
/// trusted proxy the address in the proxy's own header (`Config::client_ip_header`).
/// The last such header is the proxy's (a client's copy would come before it), and only
/// an IP address counts: a client cannot name a fresh "address" per request and so
/// step around a per-address limit.
pub fn client_address(req: &HttpRequest, config: &crate::config::Config) -> String {
    let proxied = config.trust_proxy.then(|| proxy_client_address(req, &config.client_ip_header)).flatten();
    proxied.or_else(|| req.peer_addr().map(|a| a.ip().to_string())).unwrap_or_else(|| "unknown".to_owned())
}

fn proxy_client_address(req: &HttpRequest, header: &str) -> Option<String> {
    let value = req.headers().get_all(header).last()?.to_str().ok()?;
    value.trim().parse::<std::net::IpAddr>().ok().map(|ip| ip.to_string())
}

/// The answer to a session that must enrol a second factor before anything else
/// (the socket answers its requests the same way).
fn enrol_required() -> Error {
    Error::new(protocol::ErrorCode::EnrolRequired, crate::domain::identity::security::ENROL_REQUIRED)
}

/// The session the cookie names, as the socket's upgrade reads it: revoked, expired and
/// unknown sessions get 401.
async fn any_session(req: &HttpRequest) -> Result<Authenticated, Error> {
    let state = req.app_data::<web::Data<AppState>>().ok_or_else(|| Error::internal("state missing"))?;
    let token = session_token(req, state.config.secure_cookies()).ok_or_else(Error::unauthorized)?;
    state.auth.authenticate(&token).await?.ok_or_else(Error::unauthorized)
}

/// The signed-in user, for every route that acts or reads as them: requests without a
/// valid session get 401, and a session that must enrol a second factor first gets 403
/// `enrol_required` (the same checks the socket makes on every request).
pub struct CurrentSession(pub Authenticated);

impl FromRequest for CurrentSession {
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let session = any_session(&req).await?;
            if session.enrol_required {
                return Err(enrol_required());
            }
            Ok(CurrentSession(session))
        })
    }
}

/// The signed-in user, enrolling or not: only for what such a session may still do
/// (`/api/auth/me`, which tells the page to lead them to enrolment).
pub struct EnrollingSession(pub Authenticated);

impl FromRequest for EnrollingSession {
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { any_session(&req).await.map(EnrollingSession) })
    }
}
