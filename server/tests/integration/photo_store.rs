//! The photo store backends against real storage: a folder, and an S3-compatible
//! server (moto) on loopback.

use bytes::Bytes;
use sitecast::media::s3::{S3PhotoStore, S3Settings};
use sitecast::media::{PhotoStore, StorageError};

use crate::support::{free_port, Helper};

async fn exercise(store: &dyn PhotoStore) {
    store.put("projects/p1/i1/thumb.jpg", Bytes::from_static(b"thumb"), "image/jpeg").await.unwrap();
    store.put("projects/p1/i1/original.png", Bytes::from_static(b"orig"), "image/png").await.unwrap();
    store.put("projects/p2/i2/thumb.jpg", Bytes::from_static(b"other"), "image/jpeg").await.unwrap();
    assert_eq!(store.get("projects/p1/i1/thumb.jpg").await.unwrap(), Bytes::from_static(b"thumb"));
    assert_eq!(
        store.list("projects/p1/").await.unwrap(),
        vec!["projects/p1/i1/original.png".to_owned(), "projects/p1/i1/thumb.jpg".to_owned()]
    );
    assert_eq!(store.list("projects/").await.unwrap().len(), 3);
    store.delete("projects/p1/i1/thumb.jpg").await.unwrap();
    store.delete("projects/p1/i1/thumb.jpg").await.unwrap();
    assert!(matches!(store.get("projects/p1/i1/thumb.jpg").await, Err(StorageError::NotFound(_))));
    assert!(matches!(store.get("../../etc/passwd").await, Err(StorageError::InvalidKey(_))));
}

#[actix_web::test]
async fn local_folder_backend() {
    let dir = tempfile::tempdir().unwrap();
    let store = sitecast::media::local::LocalPhotoStore::new(dir.path().join("photos")).unwrap();
    exercise(&store).await;
}

#[actix_web::test]
async fn s3_backend_against_a_real_s3_compatible_server() {
    sitecast::install_crypto_provider();
    let port = free_port();
    let port_arg = port.to_string();
    let _moto = Helper::start("moto_server", &["-H", "127.0.0.1", "-p", &port_arg], port).await;
    let endpoint = format!("http://127.0.0.1:{port}");
    let region = s3::Region::Custom { region: "eu-west-1".into(), endpoint: endpoint.clone() };
    let creds = s3::creds::Credentials::new(Some("test"), Some("test"), None, None, None).unwrap();
    // Not us-east-1: S3 refuses that region as an explicit location constraint.
    let created = s3::Bucket::create_with_path_style("sitecast-test", region, creds, s3::BucketConfiguration::default())
        .await
        .unwrap();
    assert_eq!(created.response_code, 200, "{}", created.response_text);

    let store = S3PhotoStore::new(&S3Settings {
        bucket: "sitecast-test",
        endpoint: &endpoint,
        region: "eu-west-1",
        access_key_id: "test",
        secret_access_key: "test",
    })
    .unwrap();
    exercise(&store).await;

    // A presigned URL lets a browser fetch the object directly, for a short while.
    let url = store.presigned_get("projects/p2/i2/thumb.jpg", 60).await.unwrap();
    let mut resp = awc::Client::new().get(url).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.body().await.unwrap(), Bytes::from_static(b"other"));
}
