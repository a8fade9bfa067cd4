//! Photos and what hangs on them: ingestion and renditions, resumable uploads and
//! visits, markup, tags and comments (docs/FEATURES.md, "Photos", "Markup on photos",
//! "Tags and search").

pub mod comments;
pub mod markup;
pub mod tags;
pub mod uploads;
pub mod photos;
