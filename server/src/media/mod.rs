//! Photo bytes: where they are stored (a local folder or an S3-compatible bucket,
//! behind one small trait picked at start-up) and the renditions made from them.

pub mod budget;
pub mod demo_art;
pub mod exif;
#[doc(hidden)]
pub mod fixtures;
pub mod heif;
pub mod heif_worker;
pub mod local;
pub mod markup;
pub mod partials;
pub mod pool;
pub mod report;
pub mod renditions;
pub mod s3;

use async_trait::async_trait;
use bytes::Bytes;

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("object not found: {0}")]
    NotFound(String),
    #[error("storage I/O failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("storage backend failed: {0}")]
    Backend(String),
    #[error("invalid storage key: {0}")]
    InvalidKey(String),
}

/// Objects are addressed by server-made keys like `projects/<id>/<image>/thumb.jpg`.
#[async_trait]
pub trait PhotoStore: Send + Sync {
    async fn put(&self, key: &str, bytes: Bytes, content_type: &str) -> Result<(), StorageError>;
    async fn get(&self, key: &str) -> Result<Bytes, StorageError>;
    /// Deleting a missing object succeeds: deletes are retried after crashes.
    async fn delete(&self, key: &str) -> Result<(), StorageError>;
    /// Every key under a prefix.
    async fn list(&self, prefix: &str) -> Result<Vec<String>, StorageError>;
    fn describe(&self) -> String;
}

/// Keys are made by the server, but a second check keeps a bug from ever turning into
/// a path traversal on the local backend.
pub fn check_key(key: &str) -> Result<(), StorageError> {
    let ok = !key.is_empty()
        && key.len() <= 512
        && !key.starts_with('/')
        && key.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(StorageError::InvalidKey(key.to_owned()))
    }
}

/// The three stored objects of one photo.
pub struct PhotoKeys {
    pub original: String,
    pub display: String,
    pub thumb: String,
}

pub fn photo_keys(prefix: &str, original_ext: &str) -> PhotoKeys {
    PhotoKeys {
        original: format!("{prefix}/original.{original_ext}"),
        display: format!("{prefix}/display.jpg"),
        thumb: format!("{prefix}/thumb.jpg"),
    }
}

pub fn photo_prefix(project_id: &str, image_id: &str) -> String {
    format!("projects/{project_id}/{image_id}")
}

pub fn extension_for(content_type: &str) -> &'static str {
    match content_type {
        "image/png" => "png",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "image/heic" => "heic",
        _ => "jpg",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        assert!(check_key("projects/a-b/c_d/thumb.jpg").is_ok());
        for bad in ["", "/etc/passwd", "a/../b", "a//b", "a/./b", "a\\b", "a b", "..", "a/b/"] {
            assert!(check_key(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
