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
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        // Write then rename, so a reader or a crash never sees half a file.
        let tmp = path.with_extension(format!("tmp-{}", uuid::Uuid::new_v4()));
        tokio::fs::write(&tmp, &bytes).await?;
        if let Err(err) = tokio::fs::rename(&tmp, &path).await {
            let _ = tokio::fs::remove_file(&tmp).await;
            return Err(err.into());
        }
        Ok(())
    }

    async fn get(&self, key: &str) -> Result<Bytes, StorageError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(Bytes::from(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StorageError::NotFound(key.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), StorageError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
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
        assert!(matches!(store.get("../secret").await, Err(StorageError::InvalidKey(_))));
    }
}
