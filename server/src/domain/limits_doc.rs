//! Limits are the contexts' own; docs/LIMITS.md and the web app's forms repeat them,
//! and this checks that they say the same.

use super::shared::validation::*;
use super::sharing::search;

/// docs/LIMITS.md's table and the web forms' `maxLength`s say what the contexts do.
#[test]
fn documented_limits_match_the_table() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("docs/LIMITS.md")).unwrap();
    let rows = [
        ("First name", FIRST_NAME),
        ("Last name", LAST_NAME),
        ("Name", NAME),
        ("Email", EMAIL),
        ("Phone", PHONE),
        ("Password", PASSWORD),
        ("Project title", PROJECT_TITLE),
        ("Project address", PROJECT_ADDRESS),
        ("Project description", PROJECT_DESCRIPTION),
        ("Photo caption", CAPTION),
        ("Site visit note", BATCH_NOTE),
        ("Photo comment", COMMENT),
        ("Milestone name", MILESTONE_NAME),
        ("Contact message", CONTACT_MESSAGE),
        ("Client log message", LOG_MESSAGE),
        ("Client log data", LOG_DATA),
        ("User agent", USER_AGENT),
        ("Uploaded file name", FILE_NAME),
        ("Markup label", markup::LABEL),
        ("Markup pin note", markup::NOTE),
        ("Photo tag", tags::TAG),
        ("Search", search::QUERY),
    ];
    for (row, limit) in rows {
        let line = readme.lines().find(|l| l.starts_with(&format!("| {row} |"))).unwrap_or_else(|| panic!("docs/LIMITS.md has no row {row:?}"));
        let documented = line.trim_end_matches('|').rsplit('|').next().unwrap_or("").trim().replace(',', "");
        assert_eq!(documented, limit.max.to_string(), "docs/LIMITS.md row {row:?}");
    }
    let web = std::fs::read_to_string(root.join("web/src/lib/limits.ts")).unwrap();
    let keys = [
        ("firstName", FIRST_NAME),
        ("lastName", LAST_NAME),
        ("name", NAME),
        ("email", EMAIL),
        ("phone", PHONE),
        ("password", PASSWORD),
        ("projectTitle", PROJECT_TITLE),
        ("projectAddress", PROJECT_ADDRESS),
        ("projectDescription", PROJECT_DESCRIPTION),
        ("caption", CAPTION),
        ("batchNote", BATCH_NOTE),
        ("comment", COMMENT),
        ("milestoneName", MILESTONE_NAME),
        ("contactMessage", CONTACT_MESSAGE),
        ("tag", tags::TAG),
        ("searchQuery", search::QUERY),
    ];
    for (key, limit) in keys {
        assert!(web.contains(&format!("\n  {key}: {},\n", limit.max)), "web/src/lib/limits.ts should set {key}: {}", limit.max);
    }
    // The markup editor's bounds (docs/LIMITS.md).
    use crate::domain::media::markup;
    let markup_limits = [
        ("MARKUP_MAX_SHAPES", markup::MAX_SHAPES),
        ("MARKUP_MAX_PEN_POINTS", markup::MAX_PEN_POINTS),
        ("MARKUP_MAX_POINTS", markup::MAX_POINTS),
        ("MARKUP_MAX_TEXT", markup::MAX_TEXT),
        ("MARKUP_MAX_LABEL", markup::LABEL.max),
        ("MARKUP_MAX_NOTE", markup::NOTE.max),
    ];
    // Tags per photo, per request and photos per request (docs/LIMITS.md).
    use crate::domain::media::tags;
    let markup_limits = markup_limits.into_iter().chain([
        ("TAGS_PER_PHOTO", tags::PER_PHOTO),
        ("TAGS_PER_REQUEST", tags::PER_REQUEST),
        ("TAG_PHOTOS_AT_ONCE", tags::PHOTOS_AT_ONCE),
    ]);
    for (name, max) in markup_limits {
        assert!(web.contains(&format!("export const {name} = {max};")), "web/src/lib/limits.ts should export {name} = {max}");
    }
}

