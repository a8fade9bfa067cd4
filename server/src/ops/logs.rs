//! Logs for people (the default) or for machines (`SITECAST_LOG_FORMAT=json`: one
//! JSON object per line, tracing's JSON layer), and a request id on every HTTP request
//! and socket. The id is the proxy's (`Fly-Request-Id`, `X-Request-Id`) when it sends
//! a sane one, else ours; it is returned in `X-Request-Id`, and it is a field of the
//! span the request runs in, so every line the request causes carries it. A socket
//! keeps the span of its upgrade request (`ws::session`), so its lines do too.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;
use crate::metric_names::{HTTP_REQUESTS, HTTP_SECONDS};

/// What is logged unless `RUST_LOG` says otherwise. The SVG and PDF renderers (usvg,
/// resvg, fontdb, rustybuzz, krilla) warn once per character they have no glyph for:
/// one view of a photo whose markup held forty labels of emoji wrote 4,000 lines. A
/// missing glyph is drawn as a box and is nothing an operator can act on, so only
/// their errors are kept; a request's own failures are logged once, by its handler.
pub const DEFAULT_FILTER: &str = "info,sqlx=warn,usvg=error,resvg=error,fontdb=error,rustybuzz=error,krilla=error";

/// Installs the process's log subscriber (`RUST_LOG` filters; default `DEFAULT_FILTER`).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    match format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_env_filter(filter)
            .init(),
    }
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The proxy's id if it is short and plain, else a fresh one (never a client's essay
/// or control characters in our logs).
fn request_id(req: &ServiceRequest) -> String {
    ["fly-request-id", "x-request-id"]
        .iter()
        .filter_map(|name| req.headers().get(*name))
        .filter_map(|v| v.to_str().ok())
        .find(|v| {
            !v.is_empty()
                && v.len() <= 128
                && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
        })
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::now_v7().simple().to_string())
}

/// HTTP methods as a metric label: a fixed set, so a client cannot add series.
fn method_label(method: &actix_web::http::Method) -> &'static str {
    match method.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        _ => "other",
    }
}

fn status_class(status: u16) -> &'static str {
    match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

/// Runs the request inside a span carrying its id, logs its outcome and records its
/// metrics. Health and readiness probes (every few seconds) are counted, not logged.
pub async fn request_span(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = request_id(&req);
    let method = method_label(req.method());
    let path = req.path().to_owned();
    let span = tracing::info_span!("request", request_id = %id, method, path = %path);
    let started = Instant::now();
    let result = next.call(req).instrument(span.clone()).await;
    let elapsed = started.elapsed();
    let status = match &result {
        Ok(res) => res.status().as_u16(),
        Err(err) => err.as_response_error().status_code().as_u16(),
    };
    metrics::counter!(HTTP_REQUESTS, "method" => method, "status" => status_class(status)).increment(1);
    metrics::histogram!(HTTP_SECONDS, "method" => method).record(elapsed.as_secs_f64());
    if path != "/api/health" && path != "/api/ready" {
        span.in_scope(|| tracing::info!(status, ms = elapsed.as_millis() as u64, "answered"));
    }
    let mut res = result?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, value);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use protocol::{Geometry, MarkupColor, Point, Shape, StrokeWidth};
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    /// Counts the events that reach it.
    struct Count(Arc<AtomicUsize>);

    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Count {
        fn on_event(&self, _: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Lines logged while a photo with forty labels of a family emoji (no glyph in the
    /// bundled font) is drawn, under `filter`.
    fn lines_drawing_emoji(filter: Option<&str>) -> usize {
        // The renderers log through the `log` crate, which the process bridges.
        let _ = tracing_log::LogTracer::init();
        let count = Arc::new(AtomicUsize::new(0));
        let photo = crate::media::renditions::encode_jpeg(&image::RgbImage::from_pixel(400, 300, image::Rgb([90, 90, 90])), 90).unwrap();
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}".repeat(12);
        let shapes: Vec<Shape> = (0..40)
            .map(|i| Shape {
                id: format!("s{i}"),
                color: MarkupColor::Red,
                width: StrokeWidth::Medium,
                geometry: Geometry::Text { at: Point { x: 0.1, y: (i as f32) / 40.0 }, text: family.clone() },
                author_id: String::new(),
            })
            .collect();
        let draw = || crate::media::markup::flatten(&photo, &shapes).map(|_| ());
        let drawn = match filter {
            Some(filter) => {
                let subscriber = tracing_subscriber::registry().with(EnvFilter::new(filter)).with(Count(count.clone()));
                tracing::subscriber::with_default(subscriber, draw)
            }
            None => {
                let subscriber = tracing_subscriber::registry().with(Count(count.clone()));
                tracing::subscriber::with_default(subscriber, draw)
            }
        };
        assert!(drawn.is_ok(), "the markup draws: {drawn:?}");
        count.load(Ordering::SeqCst)
    }

    #[test]
    fn a_photo_whose_labels_have_no_glyphs_logs_at_most_a_line() {
        let unfiltered = lines_drawing_emoji(None);
        assert!(unfiltered > 40, "the renderers do warn per glyph ({unfiltered} lines), so the filter is what holds");
        let logged = lines_drawing_emoji(Some(DEFAULT_FILTER));
        assert!(logged <= 1, "{logged} lines for one drawing");
    }
}
