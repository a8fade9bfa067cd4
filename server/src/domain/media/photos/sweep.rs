//! The sweep that removes stored files no photo row refers to: what a crash between
//! writing a photo's files and its row, or a failed file delete, leaves behind.

use std::collections::HashSet;
use std::time::Duration;

use crate::domain::shared::services::Services;
use crate::error::Result;
use crate::store::images;

/// Removes stored files that no photo row refers to: what a crash between writing a
/// photo's files and its row, or a failed file delete, leaves behind. Files younger
/// than `min_age` are left alone, because another instance may be between those two
/// steps right now. Returns how many photos' files were removed.
pub async fn sweep_orphans(svc: &Services, min_age: Duration) -> Result<usize> {
    let known: HashSet<String> = images::all_storage_keys(svc.store.pool()).await?.into_iter().collect();
    let keys = svc.photos.list("projects/").await?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut orphans: Vec<(String, Vec<String>)> = Vec::new();
    for key in keys {
        // projects/<project>/<image>/<file>
        let parts: Vec<&str> = key.split('/').collect();
        if parts.len() != 4 || parts[0] != "projects" {
            continue;
        }
        let prefix = parts[..3].join("/");
        if known.contains(&prefix) || !old_enough(parts[2], now, min_age) {
            continue;
        }
        match orphans.iter_mut().find(|(p, _)| *p == prefix) {
            Some((_, list)) => list.push(key),
            None => orphans.push((prefix, vec![key])),
        }
    }
    // Re-read: a photo recorded while we listed is not an orphan.
    let known: HashSet<String> = images::all_storage_keys(svc.store.pool()).await?.into_iter().collect();
    let mut removed = 0;
    for (prefix, keys) in orphans.into_iter().filter(|(p, _)| !known.contains(p)) {
        for key in keys {
            if let Err(err) = svc.photos.delete(&key).await {
                tracing::warn!(%key, error = %err, "could not remove an orphaned photo file");
            }
        }
        tracing::info!(%prefix, "removed the files of a photo with no row");
        removed += 1;
    }
    Ok(removed)
}

/// Photo ids are UUIDv7 (time-ordered) since uploads began; any other id is from an
/// older writer and is old by definition.
fn old_enough(image_id: &str, now: Duration, min_age: Duration) -> bool {
    match uuid::Uuid::parse_str(image_id).ok().and_then(|u| u.get_timestamp()) {
        Some(ts) => {
            let (secs, nanos) = ts.to_unix();
            let created = Duration::new(secs, nanos);
            now.saturating_sub(created) >= min_age
        }
        None => true,
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_old_enough_files_are_swept() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        let fresh = uuid::Uuid::now_v7().to_string();
        assert!(!old_enough(&fresh, now, Duration::from_secs(600)));
        assert!(old_enough(&fresh, now + Duration::from_secs(601), Duration::from_secs(600)));
        assert!(old_enough(&uuid::Uuid::new_v4().to_string(), now, Duration::from_secs(600)));
    }
}
