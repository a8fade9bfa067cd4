//! The built web app: hashed assets cached forever, every other path answered with
//! index.html so the client-side router can draw it (including its 404 page).

use std::path::PathBuf;

use actix_files::{Files, NamedFile};
use actix_web::dev::{fn_service, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, HttpResponse};

pub fn routes(web_dir: PathBuf) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let index = web_dir.join("index.html");
        if !index.exists() {
            tracing::warn!(dir = %web_dir.display(), "web app not built; run `make web` (or `npm run build` in web/)");
        }
        // Vite fingerprints everything under /assets, so those never need revalidating.
        cfg.service(
            web::scope("/assets")
                .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, "public, max-age=31536000, immutable")))
                .service(Files::new("", web_dir.join("assets"))),
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
