//! The use cases' shared dependencies, built once at start-up.

use std::sync::Arc;
use std::time::Duration;

use super::auth::Auth;
use crate::domain::shared::limiter::Limiter;
use crate::mail::push::PushServices;
use crate::media::partials::{Partials, UploadLocks};
use crate::media::pool::ImagePool;
use crate::media::{extension_for, photo_keys, PhotoStore};
use crate::store::Store;

/// SPEC.md §8 names an invite rate limit. Every invitation sends a mail from our domain
/// to an address the admin typed, so a stolen or scripted admin session must not turn
/// us into a mail cannon: 30 invitations per admin per 15 minutes (one every 30 s,
/// more than anyone filling the form by hand) and then SPEC.md's message.
pub const INVITES_PER_WINDOW: u32 = 30;
pub const INVITE_WINDOW: Duration = Duration::from_secs(15 * 60);

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
    /// Invitations per inviter: `INVITES_PER_WINDOW` in `INVITE_WINDOW`.
    pub(crate) invite_limiter: Arc<Limiter>,
    /// The push services browsers' subscriptions may name (docs/FEATURES.md,
    /// "Comments, notifications and mail").
    pub push_services: PushServices,
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
            invite_limiter: Arc::new(Limiter::new(INVITES_PER_WINDOW, INVITE_WINDOW)),
            push_services: PushServices::browsers(),
        }
    }

    pub fn with_push_services(self, push_services: PushServices) -> Services {
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

