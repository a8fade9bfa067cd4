//! The bytes of unfinished resumable uploads: one file per upload in the data folder
//! (`<data>/uploads/<id>.part`), whichever store keeps finished photos. A file's length
//! is the upload's offset: bytes are appended as they arrive and flushed before the
//! offset is reported, so what a client is told it may skip is on disk.

use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::StorageError;

#[derive(Clone)]
pub struct Partials {
    dir: PathBuf,
}

/// How an append ended.
pub enum Appended {
    /// The body ended; the upload's offset is now this.
    Done(u64),
    /// The body broke off (the client went away); what arrived is kept up to this offset.
    BrokenOff(u64),
    /// The body went past the upload's declared length; nothing of this request is kept.
    TooLong,
}

impl Partials {
    pub fn new(dir: PathBuf) -> std::io::Result<Partials> {
        std::fs::create_dir_all(&dir)?;
        Ok(Partials { dir })
    }

    fn path(&self, id: &str) -> Result<PathBuf, StorageError> {
        if id.is_empty() || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(StorageError::InvalidKey(id.to_owned()));
        }
        Ok(self.dir.join(format!("{id}.part")))
    }

    pub async fn create(&self, id: &str) -> Result<(), StorageError> {
        tokio::fs::File::create(self.path(id)?).await?;
        Ok(())
    }

    /// Bytes received so far; `None` when there is no such partial upload.
    pub async fn offset(&self, id: &str) -> Result<Option<u64>, StorageError> {
        match tokio::fs::metadata(self.path(id)?).await {
            Ok(meta) => Ok(Some(meta.len())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Appends `body` at `offset` (the file's current length; the caller checked it)
    /// up to `limit` bytes in all.
    pub async fn append<E>(
        &self,
        id: &str,
        offset: u64,
        limit: u64,
        mut body: impl Stream<Item = Result<Bytes, E>> + Unpin,
    ) -> Result<Appended, StorageError> {
        let path = self.path(id)?;
        let mut file = tokio::fs::OpenOptions::new().append(true).open(&path).await.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => StorageError::NotFound(id.to_owned()),
            _ => e.into(),
        })?;
        let mut at = offset;
        let mut broken = false;
        while let Some(chunk) = body.next().await {
            let Ok(chunk) = chunk else {
                broken = true;
                break;
            };
            if at + chunk.len() as u64 > limit {
                // Give back what this request added: the client must not be told an
                // offset that includes bytes past the declared end.
                file.set_len(offset).await?;
                return Ok(Appended::TooLong);
            }
            file.write_all(&chunk).await?;
            at += chunk.len() as u64;
        }
        file.flush().await?;
        file.sync_data().await?;
        Ok(if broken { Appended::BrokenOff(at) } else { Appended::Done(at) })
    }

    pub async fn read(&self, id: &str) -> Result<Bytes, StorageError> {
        match tokio::fs::read(self.path(id)?).await {
            Ok(bytes) => Ok(Bytes::from(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StorageError::NotFound(id.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    /// Removing a missing partial upload succeeds.
    pub async fn remove(&self, id: &str) -> Result<(), StorageError> {
        match tokio::fs::remove_file(self.path(id)?).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }

    /// Ids of the partial uploads on disk, with how long ago each was last written.
    pub async fn list(&self) -> Result<Vec<(String, std::time::Duration)>, StorageError> {
        let mut entries = tokio::fs::read_dir(&self.dir).await?;
        let mut out = Vec::new();
        while let Some(entry) = entries.next_entry().await? {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_suffix(".part") else { continue };
            let age = entry.metadata().await?.modified().ok().and_then(|m| m.elapsed().ok()).unwrap_or_default();
            out.push((id.to_owned(), age));
        }
        Ok(out)
    }
}

/// Appends and finishes of one upload run one at a time (a client retrying while its
/// previous request still drains): striped locks, a fixed set whatever the traffic.
pub struct UploadLocks {
    stripes: Vec<Arc<Mutex<()>>>,
}

impl Default for UploadLocks {
    fn default() -> Self {
        UploadLocks { stripes: (0..256).map(|_| Arc::new(Mutex::new(()))).collect() }
    }
}

impl UploadLocks {
    pub async fn lock(&self, id: &str) -> OwnedMutexGuard<()> {
        let hash = id.bytes().fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(usize::from(b)));
        self.stripes[hash % self.stripes.len()].clone().lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(parts: Vec<Result<&'static str, ()>>) -> impl Stream<Item = Result<Bytes, ()>> + Unpin {
        futures_util::stream::iter(parts.into_iter().map(|p| p.map(|s| Bytes::from_static(s.as_bytes()))))
    }

    #[tokio::test]
    async fn appends_keep_what_arrived_and_refuse_past_the_length() {
        let dir = tempfile::tempdir().unwrap();
        let partials = Partials::new(dir.path().join("uploads")).unwrap();
        partials.create("abc-1").await.unwrap();
        assert_eq!(partials.offset("abc-1").await.unwrap(), Some(0));
        assert!(matches!(partials.append("abc-1", 0, 10, body(vec![Ok("hel"), Ok("lo")])).await.unwrap(), Appended::Done(5)));
        // A body that breaks off keeps what came before the break.
        assert!(matches!(
            partials.append("abc-1", 5, 10, body(vec![Ok("wo"), Err(())])).await.unwrap(),
            Appended::BrokenOff(7)
        ));
        // Past the length: this request's bytes are given back.
        assert!(matches!(partials.append("abc-1", 7, 10, body(vec![Ok("r"), Ok("ld!!")])).await.unwrap(), Appended::TooLong));
        assert_eq!(partials.read("abc-1").await.unwrap(), Bytes::from_static(b"hellowo"));
        assert_eq!(partials.list().await.unwrap().len(), 1);
        partials.remove("abc-1").await.unwrap();
        partials.remove("abc-1").await.unwrap();
        assert_eq!(partials.offset("abc-1").await.unwrap(), None);
        assert!(partials.create("../x").await.is_err());
    }
}
