//! The pool image work runs on. Decoding and resizing a 12-megapixel photo is about a
//! hundred milliseconds of pure CPU; it runs on one low-priority thread per core, so
//! a forty-photo upload queues here instead of starving the threads that drive live
//! sockets, and a status change still goes out at once while both cores render.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::workers::{WorkFailed, Workers};

use super::heif::{self, HeifDecoder};
use super::renditions::{self, RenditionError, Renditions};

/// As argon2's: below the live path, level with logins (loadtest/README.md ⑭).
const RENDERING_NICENESS: i32 = 10;

#[derive(Clone)]
pub struct ImagePool {
    workers: Workers,
    /// Long jobs (a report's PDF) run one at a time, so uploads always have
    /// the other workers.
    long_jobs: Arc<Semaphore>,
    /// iPhone photos, decoded in worker processes (`media::heif`), one per core.
    heif: HeifDecoder,
}

impl ImagePool {
    /// One worker per core; HEIF photos are decoded by `heif_decoder decode-heif`.
    pub fn per_core(heif_decoder: std::path::PathBuf) -> Result<ImagePool, rayon::ThreadPoolBuildError> {
        let workers = Workers::per_core("images", RENDERING_NICENESS)?;
        let heif = HeifDecoder::new(heif_decoder, workers.threads());
        Ok(ImagePool { workers, long_jobs: Arc::new(Semaphore::new(1)), heif })
    }

    /// Runs a long job (seconds to minutes) on one worker, after the long jobs before it.
    pub async fn long<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, WorkFailed> {
        let _turn = self.long_jobs.acquire().await.map_err(|_| WorkFailed)?;
        self.workers.run(work).await
    }

    pub async fn render(&self, bytes: bytes::Bytes) -> Result<Renditions, RenditionError> {
        if heif::is_heif(&bytes) {
            return self.heif.render(bytes).await;
        }
        self.workers
            .run(move || {
                // Timed on the worker: the wait for a free core is not rendition time.
                let started = std::time::Instant::now();
                let rendered = renditions::render(&bytes);
                metrics::histogram!(crate::metric_names::RENDITION_SECONDS).record(started.elapsed().as_secs_f64());
                rendered
            })
            .await
            .map_err(|_| RenditionError::Decode("the image worker failed on this file".to_owned()))?
    }

    /// The display image with its markup drawn on, a JPEG.
    pub async fn flatten(&self, display: bytes::Bytes, shapes: Vec<protocol::Shape>) -> Result<Vec<u8>, RenditionError> {
        self.workers
            .run(move || super::markup::flatten(&display, &shapes))
            .await
            .map_err(|_| RenditionError::Decode("the image worker failed on this photo's markup".to_owned()))?
    }
}
