//! The bounded pool image work runs on. Decoding and resizing a 12-megapixel photo is
//! tens of milliseconds of pure CPU; it runs on the blocking pool behind a semaphore
//! sized to the cores, so a forty-photo upload queues here instead of starving the
//! threads that drive live sockets.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::renditions::{self, RenditionError, Renditions};

#[derive(Clone)]
pub struct ImagePool {
    permits: Arc<Semaphore>,
}

impl ImagePool {
    pub fn new(workers: usize) -> ImagePool {
        ImagePool { permits: Arc::new(Semaphore::new(workers.max(1))) }
    }

    /// One worker per core.
    pub fn per_core() -> ImagePool {
        ImagePool::new(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2))
    }

    pub async fn render(&self, bytes: bytes::Bytes) -> Result<Renditions, RenditionError> {
        let _permit = self.permits.acquire().await.map_err(|e| RenditionError::Decode(e.to_string()))?;
        tokio::task::spawn_blocking(move || renditions::render(&bytes))
            .await
            .map_err(|e| RenditionError::Decode(format!("image worker failed: {e}")))?
    }
}
