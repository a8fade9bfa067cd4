//! The built web app: hashed assets cached forever, every other path answered with
//! index.html so the client-side router can draw it (including its 404 page).
//!
//! The build writes each text asset compressed beside it (`x.js.br` at Brotli's best,
//! `x.js.gz`): a phone on a weak signal gets the smallest its browser accepts, and no
//! CPU is spent compressing the same file on every request.

use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile, PathBufWrap};
use actix_web::dev::{fn_service, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, ContentEncoding};
use actix_web::middleware::DefaultHeaders;
use actix_web::{guard, web, HttpRequest, HttpResponse};

/// The encodings written beside an asset, best first.
const PRECOMPRESSED: [(ContentEncoding, &str, &str); 2] = [(ContentEncoding::Brotli, "br", ".br"), (ContentEncoding::Gzip, "gzip", ".gz")];

/// Whether the request's Accept-Encoding takes `coding` (RFC 9110 §12.5.3; a `q=0`
/// refuses it).
fn accepts(req: &HttpRequest, coding: &str) -> bool {
    req.headers().get_all(header::ACCEPT_ENCODING).filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let refused = parts.any(|p| p.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()) == Some(0.0));
        name.eq_ignore_ascii_case(coding) && !refused
    })
}

/// An asset (`tail`, under `dir`): its precompressed copy the browser accepts, with the
/// original's type, else the original; 404 for what is not there (or climbs out).
async fn asset(req: &HttpRequest, dir: &Path) -> HttpResponse {
    let not_found = || HttpResponse::NotFound().finish();
    let Some(relative) = req.match_info().get("tail").and_then(|tail| PathBufWrap::parse_path(tail, false).ok()) else {
        return not_found();
    };
    let original = dir.join(relative.as_ref());
    let mime = actix_files::file_extension_to_mime(original.extension().and_then(|e| e.to_str()).unwrap_or_default());
    for (encoding, coding, suffix) in PRECOMPRESSED {
        if !accepts(req, coding) {
            continue;
        }
        let mut path = original.clone().into_os_string();
        path.push(suffix);
        let Ok(file) = NamedFile::open_async(&path).await else { continue };
        let mut resp =
            file.set_content_type(mime.clone()).set_content_encoding(encoding).disable_content_disposition().into_response(req);
        resp.headers_mut().insert(header::VARY, header::HeaderValue::from_static("accept-encoding"));
        return resp;
    }
    match NamedFile::open_async(&original).await {
        Ok(file) if original.is_file() => {
            let mut resp = file.disable_content_disposition().into_response(req);
            resp.headers_mut().insert(header::VARY, header::HeaderValue::from_static("accept-encoding"));
            resp
        }
        _ => not_found(),
    }
}

pub fn routes(web_dir: PathBuf) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let index = web_dir.join("index.html");
        if !index.exists() {
            tracing::warn!(dir = %web_dir.display(), "web app not built; run `make web` (or `npm run build` in web/)");
        }
        // Vite fingerprints everything under /assets, so those never need revalidating.
        let assets = web_dir.join("assets");
        cfg.service(
            web::scope("/assets")
                .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, "public, max-age=31536000, immutable")))
                .route(
                    "/{tail:.*}",
                    web::route().guard(guard::Any(guard::Get()).or(guard::Head())).to(move |req: HttpRequest| {
                        let dir = assets.clone();
                        async move { asset(&req, &dir).await }
                    }),
                ),
        );
        cfg.service(
            Files::new("/", web_dir)
                .index_file("index.html")
                .use_etag(true)
                .default_handler(fn_service(move |req: ServiceRequest| {
                    let index = index.clone();
                    async move {
                        let (req, _) = req.into_parts();
                        let resp = match NamedFile::open_async(&index).await {
                            Ok(file) => {
                                let mut resp = file.into_response(&req);
                                resp.headers_mut()
                                    .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-cache"));
                                resp
                            }
                            Err(_) => HttpResponse::NotFound().body("The web app is not built."),
                        };
                        Ok(ServiceResponse::new(req, resp))
                    }
                })),
        );
    }
}
