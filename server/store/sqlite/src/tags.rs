//! Tags are kept as a JSON array of names in one column (`project_images.tags`,
//! `uploads.tags`): read and written whole, searched through the search index.

use sitecast_store_core::{Result, StoreError};

pub(crate) fn encode(tags: &[String]) -> String {
    serde_json::to_string(tags).unwrap_or_else(|_| "[]".to_owned())
}

/// An array of strings, or the column is corrupt (never read as no tags).
pub(crate) fn decode(text: &str) -> Result<Vec<String>> {
    serde_json::from_str(text).map_err(|_| {
        tracing::error!(value = text, "stored tags are not a JSON array of strings");
        StoreError::Corrupt { column: "tags", value: text.chars().take(80).collect() }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_garbage_is_refused() {
        let tags = vec!["Kitchen".to_owned(), "Electrical \"rough-in\"".to_owned()];
        assert_eq!(decode(&encode(&tags)).ok(), Some(tags));
        assert_eq!(decode("[]").ok(), Some(vec![]));
        assert!(matches!(decode("Kitchen"), Err(StoreError::Corrupt { .. })));
        assert!(matches!(decode("[1]"), Err(StoreError::Corrupt { .. })));
    }
}
