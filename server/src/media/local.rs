//! Photos in a folder on this machine (the embedded default).

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use bytes::Bytes;

use super::{check_key, PhotoStore, StorageError};

pub struct LocalPhotoStore {
    root: PathBuf,
}

impl LocalPhotoStore {
    pub fn new(root: PathBuf) -> std::io::Result<LocalPhotoStore> {
        std::fs::create_dir_all(&root)?;
        Ok(LocalPhotoStore { root })
    }

    fn path(&self, key: &str) -> Result<PathBuf, StorageError> {
        check_key(key)?;
        Ok(self.root.join(key))
    }
}

#[async_trait]
impl PhotoStore for LocalPhotoStore {
    async fn put(&self, key: &str, bytes: Bytes, _content_type: &str) -> Result<(), StorageError> {
        let path = self.path(key)?;
        // A delete may remove a folder that just became empty between our making it
        // and writing into it (a project's last photo deleted while one is uploaded):
        // then the folder is made again, once.
        match write_file(&path, &bytes).await {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(write_file(&path, &bytes).await?),
            other => Ok(other?),
        }
    }

    async fn get(&self, key: &str) -> Result<Bytes, StorageError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(Bytes::from(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StorageError::NotFound(key.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    /// Folders left empty (a deleted photo's, then its project's) go with the file.
    async fn delete(&self, key: &str) -> Result<(), StorageError> {
        let path = self.path(key)?;
        match tokio::fs::remove_file(&path).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
        let mut dir = path.parent();
        // The key's own folders only: never the root or its top-level folders.
        for _ in 0..key.matches('/').count().saturating_sub(1) {
            let Some(d) = dir else { break };
            // Fails, and so stops, at a folder that still holds something.
            if tokio::fs::remove_dir(d).await.is_err() {
                break;
            }
            dir = d.parent();
        }
        Ok(())
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StorageError> {
        let root = self.root.clone();
        let start = if prefix.is_empty() { root.clone() } else { self.path(prefix.trim_end_matches('/'))? };
        tokio::task::spawn_blocking(move || {
            let mut keys = Vec::new();
            walk(&root, &start, &mut keys)?;
            keys.sort();
            Ok(keys)
        })
        .await
        .map_err(|e| StorageError::Backend(e.to_string()))?
    }

    fn describe(&self) -> String {
        format!("local folder {}", self.root.display())
    }
}

/// Write then rename, so a reader or a crash never sees half a file.
/// Bytes written between two syncs to disk.
const SYNC_EVERY: usize = 1024 * 1024;

async fn write_file(path: &Path, bytes: &Bytes) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        tokio::fs::create_dir_all(dir).await?;
    }
    let tmp = path.with_extension(format!("tmp-{}", uuid::Uuid::new_v4()));
    let (to, body) = (tmp.clone(), bytes.clone());
    let written = tokio::task::spawn_blocking(move || write_synced(&to, &body))
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())));
    if let Err(err) = written {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(err);
    }
    if let Err(err) = tokio::fs::rename(&tmp, path).await {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(err);
    }
    Ok(())
}

/// Writes a file a megabyte at a time, each forced to disk before the next. The file is
/// on disk before it is renamed into place (a power cut never leaves a stored photo
/// empty), and a big one — a 30 MB report — never leaves tens of megabytes of dirty
/// pages for the kernel to write back in one go: that write-back held up the database's
/// commits on the same disk (fan-out p99 4× idle beside back-to-back 200-photo
/// reports; loadtest/README.md).
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::create(path)?;
    for piece in bytes.chunks(SYNC_EVERY) {
        file.write_all(piece)?;
        file.sync_data()?;
    }
    Ok(())
}

fn walk(root: &Path, dir: &Path, keys: &mut Vec<String>) -> Result<(), StorageError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            walk(root, &path, keys)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            keys.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn put_get_list_delete() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalPhotoStore::new(dir.path().join("photos")).unwrap();
        store.put("projects/p/i/thumb.jpg", Bytes::from_static(b"abc"), "image/jpeg").await.unwrap();
        store.put("projects/p/j/thumb.jpg", Bytes::from_static(b"def"), "image/jpeg").await.unwrap();
        assert_eq!(store.get("projects/p/i/thumb.jpg").await.unwrap(), Bytes::from_static(b"abc"));
        assert_eq!(
            store.list("projects/p").await.unwrap(),
            vec!["projects/p/i/thumb.jpg".to_owned(), "projects/p/j/thumb.jpg".to_owned()]
        );
        store.delete("projects/p/i/thumb.jpg").await.unwrap();
        store.delete("projects/p/i/thumb.jpg").await.unwrap();
        assert!(matches!(store.get("projects/p/i/thumb.jpg").await, Err(StorageError::NotFound(_))));
        // The photo's folder went with its last file; the project's still holds j.
        assert!(!dir.path().join("photos/projects/p/i").exists());
        assert!(dir.path().join("photos/projects/p").exists());
        store.delete("projects/p/j/thumb.jpg").await.unwrap();
        assert!(!dir.path().join("photos/projects/p").exists());
        assert!(dir.path().join("photos/projects").exists());
        store.put("projects/p/k/thumb.jpg", Bytes::from_static(b"ghi"), "image/jpeg").await.unwrap();
        assert_eq!(store.get("projects/p/k/thumb.jpg").await.unwrap(), Bytes::from_static(b"ghi"));
        assert!(matches!(store.get("../secret").await, Err(StorageError::InvalidKey(_))));
    }
}
