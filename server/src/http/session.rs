//! The session cookie and the extractor that turns it into the signed-in user.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{time, Cookie, SameSite};
use actix_web::{web, FromRequest, HttpRequest};

use crate::app::AppState;
use crate::domain::auth::{Authenticated, SESSION_ABSOLUTE_MS};
use crate::error::Error;

/// `__Host-` binds the cookie to our exact origin (Secure, Path=/, no Domain); it needs
/// TLS, so plain-HTTP local runs use the bare name.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-sitecast_session"
    } else {
        "sitecast_session"
    }
}

pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(cookie_name(secure), token)
        .path("/")
        .http_only(true)
        // Lax, not Strict: a link from a mail must arrive signed in.
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(time::Duration::milliseconds(SESSION_ABSOLUTE_MS))
        .finish()
}

pub fn removal_cookie(secure: bool) -> Cookie<'static> {
    let mut cookie = session_cookie(String::new(), secure);
    cookie.make_removal();
    cookie
}

/// A guest's link token (issue 18), kept like the session: HttpOnly, so page scripts
/// never read it, and sent with the guest page's photo requests and socket.
pub fn guest_cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-sitecast_guest"
    } else {
        "sitecast_guest"
    }
}

/// Lives as long as the browser session: the guest page sets it again from its URL
/// each time it opens, and the link's own expiry is checked on every use.
pub fn guest_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(guest_cookie_name(secure), token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .finish()
}

pub fn guest_token(req: &HttpRequest, secure: bool) -> Option<String> {
    req.cookie(guest_cookie_name(secure)).map(|c| c.value().to_owned()).filter(|v| !v.is_empty())
}

/// Who is asking for photo bytes: a signed-in user, a guest holding a link, or both
/// (a signed-in user can open someone's link). Neither gets 401.
pub struct Viewer {
    pub user: Option<Authenticated>,
    pub guest: Option<crate::domain::guests::GuestPass>,
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
            let guest = match guest_token(&req, secure) {
                // A link that stopped working is as good as none.
                Some(token) => crate::domain::guests::pass_for(&state.svc, &token).await.ok(),
                None => None,
            };
            if user.is_none() && guest.is_none() {
                return Err(Error::unauthorized());
            }
            Ok(Viewer { user, guest })
        })
    }
}

pub fn session_token(req: &HttpRequest, secure: bool) -> Option<String> {
    req.cookie(cookie_name(secure)).map(|c| c.value().to_owned()).filter(|v| !v.is_empty())
}

/// The client's address for rate limits: the peer, or the proxy's forwarded address
/// when configured to trust one.
pub fn client_address(req: &HttpRequest, trust_proxy: bool) -> String {
    let info = req.connection_info();
    let addr = if trust_proxy { info.realip_remote_addr().map(str::to_owned) } else { None };
    addr.or_else(|| req.peer_addr().map(|a| a.ip().to_string())).unwrap_or_else(|| "unknown".to_owned())
}

/// The signed-in user; requests without a valid session get 401.
pub struct CurrentSession(pub Authenticated);

impl FromRequest for CurrentSession {
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let state = req.app_data::<web::Data<AppState>>().ok_or_else(|| Error::internal("state missing"))?;
            let token = session_token(&req, state.config.secure_cookies()).ok_or_else(Error::unauthorized)?;
            state.auth.authenticate(&token).await?.map(CurrentSession).ok_or_else(Error::unauthorized)
        })
    }
}
