//! The use cases' shared dependencies, built once at start-up.

use std::sync::Arc;
use std::time::Duration;

use super::auth::Auth;
use super::limiter::Limiter;
use super::uploads::UploadLocks;
use crate::media::partials::Partials;
use crate::media::pool::ImagePool;
use crate::media::{extension_for, photo_keys, PhotoStore};
use crate::store::Store;

#[derive(Clone)]
pub struct Services {
    pub store: Store,
    pub auth: Auth,
    pub photos: Arc<dyn PhotoStore>,
    /// Where photo renditions are made.
    pub images: ImagePool,
    /// Bytes of unfinished resumable uploads.
    pub partials: Partials,
    pub(crate) upload_locks: Arc<UploadLocks>,
    /// Client log entries per user: 60 a minute.
    pub(crate) log_limiter: Arc<Limiter>,
    /// Invitations per inviting admin (see `users::INVITES_PER_WINDOW`).
    pub(crate) invite_limiter: Arc<Limiter>,
    /// The push services browsers' subscriptions may name (issue 33).
    pub push_services: super::push::PushServices,
}

impl Services {
    pub fn new(store: Store, auth: Auth, photos: Arc<dyn PhotoStore>, images: ImagePool, partials: Partials) -> Services {
        Services {
            store,
            auth,
            photos,
            images,
            partials,
            upload_locks: Arc::new(UploadLocks::default()),
            log_limiter: Arc::new(Limiter::new(60, Duration::from_secs(60))),
            invite_limiter: Arc::new(Limiter::new(super::users::INVITES_PER_WINDOW, super::users::INVITE_WINDOW)),
            push_services: super::push::PushServices::browsers(),
        }
    }

    pub fn with_push_services(self, push_services: super::push::PushServices) -> Services {
        Services { push_services, ..self }
    }

    /// Removes the stored files of deleted photos. Their rows are already gone, so a
    /// failure here leaves unreferenced files behind, never a row without its files.
    pub async fn delete_photo_files(&self, photos: &[(String, String)]) {
        let keys: Vec<String> = photos
            .iter()
            .flat_map(|(prefix, content_type)| {
                let keys = photo_keys(prefix, extension_for(content_type));
                [keys.original, keys.display, keys.thumb]
            })
            .collect();
        self.delete_files(&keys).await;
    }

    /// Removes stored files by key (a deleted photo's, a deleted project's reports);
    /// a failure leaves an unreferenced file, never a row without its file.
    pub async fn delete_files(&self, keys: &[String]) {
        for key in keys {
            if let Err(err) = self.photos.delete(key).await {
                tracing::warn!(%key, error = %err, "could not delete a stored file; it is left unreferenced");
            }
        }
    }
}

