//! Photos in an S3-compatible bucket (AWS S3, Cloudflare R2, Tigris, MinIO), addressed
//! path-style at a custom endpoint. Uses rust-s3, whose library is named `s3`.

use async_trait::async_trait;
use bytes::Bytes;
use s3::creds::Credentials;
use s3::{Bucket, Region};

use super::{check_key, PhotoStore, StorageError};

pub struct S3PhotoStore {
    bucket: Box<Bucket>,
    endpoint: String,
}

pub struct S3Settings<'a> {
    pub bucket: &'a str,
    pub endpoint: &'a str,
    pub region: &'a str,
    pub access_key_id: &'a str,
    pub secret_access_key: &'a str,
}

fn backend(err: impl std::fmt::Display) -> StorageError {
    StorageError::Backend(err.to_string())
}

impl S3PhotoStore {
    pub fn new(s: &S3Settings<'_>) -> Result<S3PhotoStore, StorageError> {
        let region = Region::Custom { region: s.region.to_owned(), endpoint: s.endpoint.to_owned() };
        let credentials =
            Credentials::new(Some(s.access_key_id), Some(s.secret_access_key), None, None, None).map_err(backend)?;
        let bucket = Bucket::new(s.bucket, region, credentials).map_err(backend)?.with_path_style();
        Ok(S3PhotoStore { bucket, endpoint: s.endpoint.to_owned() })
    }

    /// A short-lived signed URL for a browser to fetch the object directly.
    pub async fn presigned_get(&self, key: &str, expiry_secs: u32) -> Result<String, StorageError> {
        check_key(key)?;
        self.bucket.presign_get(key, expiry_secs, None).await.map_err(backend)
    }
}

fn check_status(status: u16, key: &str) -> Result<(), StorageError> {
    match status {
        200..=299 => Ok(()),
        404 => Err(StorageError::NotFound(key.to_owned())),
        other => Err(StorageError::Backend(format!("S3 answered {other} for {key}"))),
    }
}

#[async_trait]
impl PhotoStore for S3PhotoStore {
    async fn put(&self, key: &str, bytes: Bytes, content_type: &str) -> Result<(), StorageError> {
        check_key(key)?;
        let resp = self.bucket.put_object_with_content_type(key, &bytes, content_type).await.map_err(backend)?;
        check_status(resp.status_code(), key)
    }

    async fn get(&self, key: &str) -> Result<Bytes, StorageError> {
        check_key(key)?;
        let resp = self.bucket.get_object(key).await.map_err(backend)?;
        check_status(resp.status_code(), key)?;
        Ok(resp.bytes().clone())
    }

    async fn delete(&self, key: &str) -> Result<(), StorageError> {
        check_key(key)?;
        let resp = self.bucket.delete_object(key).await.map_err(backend)?;
        match check_status(resp.status_code(), key) {
            Err(StorageError::NotFound(_)) => Ok(()),
            other => other,
        }
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StorageError> {
        let pages = self.bucket.list(prefix.to_owned(), None).await.map_err(backend)?;
        let mut keys: Vec<String> = pages.into_iter().flat_map(|p| p.contents.into_iter().map(|o| o.key)).collect();
        keys.sort();
        Ok(keys)
    }

    fn describe(&self) -> String {
        format!("S3 bucket {} at {}", self.bucket.name(), self.endpoint)
    }
}
