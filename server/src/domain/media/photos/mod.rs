//! Photos of a project (SPEC.md §2 media, §4 thumbnail rule, §6 roles, §8 messages),
//! one module per concern:
//!
//! - `ingest`: one photo arriving — limits, refusal reasons, renditions, stored files
//!   and its row, recorded in its project's turn;
//! - `announce`: a site visit's new photos announced once — mail, notifications, the
//!   timeline entry;
//! - `cover`: the project's cover following its newest photo;
//! - `access`: who may see and act on a photo;
//! - `gallery`: listing, editing, deleting and favouriting;
//! - `downloads`: what a zip download covers and its entries' names;
//! - `sweep`: removing stored files no row refers to.
//!
//! Crash consistency: a photo's files are written before its row, and its row is
//! deleted before its files. So a row always has its files; a crash or failure in
//! between can only leave files without a row, which `sweep_orphans` removes.

mod access;
mod announce;
mod cover;
mod downloads;
mod gallery;
mod ingest;
mod sweep;

pub use access::{
    project_of, upload_target, viewable, IMAGE_NOT_FOUND, NOT_ALLOWED_DELETE, NOT_ALLOWED_EDIT, NOT_ALLOWED_UPLOAD,
};
pub(crate) use access::visible_photo;
pub(crate) use announce::announce_in_turn;
pub use announce::announce_new_photos;
pub use downloads::{downloadable, zip_names, NO_PHOTOS_TO_DOWNLOAD};
pub use gallery::{delete, first_page, page, page_seen, photo_count, set_favourite, start_of, update, PhotoPage, INVALID_PHOTO_CURSOR};
pub use ingest::{
    default_caption, file_name, reason_damaged, reason_over_count, reason_too_big, reason_too_many_pixels,
    reason_too_much_memory, store_file, IncomingFile, NotStored, MAX_FILES, MAX_FILE_BYTES,
    REASON_NOT_IMAGE, REASON_TRUNCATED, REASON_UNREADABLE, RECORD_FAILED, STORAGE_FAILED,
};
pub use sweep::sweep_orphans;
