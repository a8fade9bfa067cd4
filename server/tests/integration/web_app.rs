//! The built web app's assets: the precompressed copy the browser accepts, with the
//! original's type; the original otherwise; nothing outside the assets folder.

use awc::http::StatusCode;

use crate::support::{for_each_backend, Options, TestServer};

#[actix_web::test]
async fn assets_are_served_precompressed_as_the_browser_accepts() {
    for_each_backend(|db| async move {
        let server = TestServer::start(&db.url, Options::default()).await;
        // The server was started on an empty web folder; the build's output appears in it.
        let web = server.dir.path().join("no-web");
        let assets = web.join("assets");
        std::fs::create_dir_all(&assets).unwrap();
        let script = "export const hello = 'site';\n".repeat(50);
        std::fs::write(assets.join("index-abc123.js"), &script).unwrap();
        std::fs::write(assets.join("index-abc123.js.br"), b"brotli bytes").unwrap();
        std::fs::write(assets.join("index-abc123.js.gz"), b"gzip bytes").unwrap();
        std::fs::write(assets.join("only-plain.css"), "body{}").unwrap();
        std::fs::write(web.join("secret.txt"), "not an asset").unwrap();

        let client = awc::Client::builder().finish();
        let get = |path: &str, accept: &str| {
            let req = client.get(format!("{}{path}", server.base)).no_decompress();
            let req = if accept.is_empty() { req } else { req.insert_header(("Accept-Encoding", accept.to_owned())) };
            async move {
                let mut resp = req.send().await.expect("GET");
                let body = resp.body().await.unwrap_or_default().to_vec();
                let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
                (resp.status(), header("content-encoding"), header("content-type"), header("cache-control"), body)
            }
        };
        let (status, encoding, ty, cache, body) = get("/assets/index-abc123.js", "gzip, deflate, br, zstd").await;
        assert_eq!((status, encoding.as_deref(), body.as_slice()), (StatusCode::OK, Some("br"), &b"brotli bytes"[..]));
        assert!(ty.as_deref().is_some_and(|t| t.contains("javascript")), "{ty:?}");
        assert_eq!(cache.as_deref(), Some("public, max-age=31536000, immutable"));
        let (_, encoding, _, _, body) = get("/assets/index-abc123.js", "gzip").await;
        assert_eq!((encoding.as_deref(), body.as_slice()), (Some("gzip"), &b"gzip bytes"[..]));
        // Refused with q=0, Brotli is not sent.
        let (_, encoding, _, _, _) = get("/assets/index-abc123.js", "br;q=0, gzip").await;
        assert_eq!(encoding.as_deref(), Some("gzip"));
        let (status, encoding, _, _, body) = get("/assets/index-abc123.js", "").await;
        assert_eq!((status, encoding, body), (StatusCode::OK, None, script.clone().into_bytes()));
        // Without a precompressed copy, the original.
        let (status, _, ty, _, _) = get("/assets/only-plain.css", "br").await;
        assert_eq!(status, StatusCode::OK);
        assert!(ty.as_deref().is_some_and(|t| t.starts_with("text/css")), "{ty:?}");
        for path in ["/assets/missing.js", "/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/"] {
            let (status, _, _, _, body) = get(path, "br").await;
            assert_ne!(status, StatusCode::OK, "{path}");
            assert!(!String::from_utf8_lossy(&body).contains("not an asset"), "{path}");
        }
        server.stop().await;
        db
    })
    .await;
}
