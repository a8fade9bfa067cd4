//! Tags on photos (docs/FEATURES.md, "Tags and search"): a room or area, a trade, or
//! anything else. A photo's tags are kept on its row in the order they were added,
//! unique on the photo whatever their case; a tag's kind follows from its name (the
//! suggested areas and trades are known). The gallery filters by them and the search
//! index holds them.

use std::collections::HashMap;

use protocol::{ErrorCode, ProjectImage, TagKind, TagPhotos, TagUse};

use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::media::photos::IMAGE_NOT_FOUND;
use crate::domain::projects::{project_ref, visible};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{Limit, Text};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::{images, now_ms};

/// One tag's name.
pub const TAG: Limit = Limit { label: "Tag", max: 40, text: Text::OneLine };
/// Tags on one photo: enough for a room, a trade or two and a few of one's own.
pub const PER_PHOTO: usize = 20;
/// Tags added (and, apart, removed) by one request.
pub const PER_REQUEST: usize = 20;
/// Photos tagged by one request: a gallery selection.
pub const PHOTOS_AT_ONCE: usize = 500;

pub const NOT_ALLOWED_TAG: &str = "You don't have permission to tag photos in this project.";
pub const NO_PHOTOS: &str = "Choose at least one photo to tag.";
pub const NO_TAGS: &str = "Choose a tag to add or remove.";
pub const NO_COMMAS: &str = "Tag cannot contain a comma.";
pub const EMPTY_TAG: &str = "Tag cannot be empty.";

/// Rooms and areas of a house, offered to every project.
pub const AREAS: [&str; 20] = [
    "Kitchen",
    "Living room",
    "Dining room",
    "Primary bedroom",
    "Bedroom",
    "Primary bath",
    "Bathroom",
    "Laundry",
    "Garage",
    "Basement",
    "Attic",
    "Hallway",
    "Stairs",
    "Roof",
    "Foundation",
    "Exterior north",
    "Exterior south",
    "Exterior east",
    "Exterior west",
    "Driveway",
];

/// Trades on a residential build, offered to every project.
pub const TRADES: [&str; 16] = [
    "Site work",
    "Concrete",
    "Framing",
    "Roofing",
    "Windows",
    "Siding",
    "Electrical",
    "Plumbing",
    "HVAC",
    "Insulation",
    "Drywall",
    "Painting",
    "Flooring",
    "Tile",
    "Cabinets",
    "Landscaping",
];

pub fn too_many_message() -> String {
    format!("A photo can have at most {PER_PHOTO} tags.")
}

/// A tag as it is kept: trimmed, inner runs of spaces made one.
pub fn normalize(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What the tag is compared by: two tags differing only in case are one.
pub fn key(name: &str) -> String {
    name.to_lowercase()
}

pub fn kind(name: &str) -> TagKind {
    let k = key(name);
    if AREAS.iter().any(|a| key(a) == k) {
        TagKind::Area
    } else if TRADES.iter().any(|t| key(t) == k) {
        TagKind::Trade
    } else {
        TagKind::Free
    }
}

/// The tags `names` (as sent), normalized, checked and without repeats; errors name
/// `field`.
pub fn parse(field: &str, names: &[String]) -> Result<Vec<String>> {
    if names.len() > PER_REQUEST {
        return Err(Error::field(field, &format!("Add or remove at most {PER_REQUEST} tags at once.")));
    }
    let mut out: Vec<String> = Vec::new();
    for name in names {
        TAG.check(field, name)?;
        let name = normalize(name);
        if name.is_empty() {
            return Err(Error::field(field, EMPTY_TAG));
        }
        if name.contains(',') {
            return Err(Error::field(field, NO_COMMAS));
        }
        if !out.iter().any(|t| key(t) == key(&name)) {
            out.push(name);
        }
    }
    Ok(out)
}

/// A photo's tags after adding and removing: added tags go last, a tag it has already
/// keeps its spelling, and it may not end with more than `PER_PHOTO`.
pub fn apply(current: &[String], add: &[String], remove: &[String]) -> Result<Vec<String>> {
    let removed: Vec<String> = remove.iter().map(|t| key(t)).collect();
    let mut tags: Vec<String> = current.iter().filter(|t| !removed.contains(&key(t))).cloned().collect();
    for tag in add {
        if !tags.iter().any(|t| key(t) == key(tag)) {
            tags.push(tag.clone());
        }
    }
    if tags.len() > PER_PHOTO && tags.len() > current.len() {
        return Err(Error::field("addTags", &too_many_message()));
    }
    Ok(tags)
}

/// Tags as the project already spells them, or else as the suggestions do: "kitchen"
/// becomes "Kitchen".
fn spelled_as_used(tags: Vec<String>, used: &[(String, i64)]) -> Vec<String> {
    let known = used.iter().map(|(u, _)| u.as_str()).chain(AREAS).chain(TRADES);
    let known: Vec<&str> = known.collect();
    tags.into_iter().map(|t| known.iter().find(|u| key(u) == key(&t)).map_or(t, |u| (*u).to_owned())).collect()
}

/// A project's tags with their photo counts (most used first), then the suggestions it
/// does not use yet.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<Vec<TagUse>> {
    let project = visible(svc, actor, project_id).await?;
    let mut used = images::tag_counts(svc.store.pool(), &project.id).await?;
    used.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| key(&a.0).cmp(&key(&b.0))));
    Ok(uses(&used))
}

fn uses(used: &[(String, i64)]) -> Vec<TagUse> {
    let mut out: Vec<TagUse> =
        used.iter().map(|(name, photos)| TagUse { name: name.clone(), kind: kind(name), photos: *photos }).collect();
    for suggestion in AREAS.iter().chain(TRADES.iter()) {
        if !used.iter().any(|(u, _)| key(u) == key(suggestion)) {
            out.push(TagUse { name: (*suggestion).to_owned(), kind: kind(suggestion), photos: 0 });
        }
    }
    out
}

/// Adds and removes tags on some of a project's photos, in one transaction; answers the
/// photos as they now are. Run in the project's turn.
pub async fn tag(svc: &Services, actor: &Actor, input: &TagPhotos) -> Result<(Vec<ProjectImage>, Vec<Change>)> {
    let project = visible(svc, actor, &input.project_id).await?;
    if !policy::allows(actor, Action::TagPhotos, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_TAG));
    }
    if input.image_ids.is_empty() {
        return Err(Error::field("imageIds", NO_PHOTOS));
    }
    if input.image_ids.len() > PHOTOS_AT_ONCE {
        return Err(Error::field("imageIds", &format!("Tag at most {PHOTOS_AT_ONCE} photos at once.")));
    }
    let add = parse("addTags", &input.add_tags)?;
    let remove = parse("removeTags", &input.remove_tags)?;
    if add.is_empty() && remove.is_empty() {
        return Err(Error::field("addTags", NO_TAGS));
    }
    let pool = svc.store.pool();
    let add = spelled_as_used(add, &images::tag_counts(pool, &project.id).await?);

    let mut tx = svc.store.begin_write().await?;
    let rows = images::find_many(&mut *tx, &input.image_ids).await?;
    let by_id: HashMap<&str, &images::ImageRow> = rows.iter().map(|r| (r.id.as_str(), r)).collect();
    let now = now_ms();
    let mut changed = Vec::new();
    let mut photos = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for id in &input.image_ids {
        if !seen.insert(id.as_str()) {
            continue;
        }
        // A photo of another project is as unknown here as one that does not exist.
        let row = by_id.get(id.as_str()).filter(|r| r.project_id == project.id).ok_or_else(|| Error::new(ErrorCode::NotFound, IMAGE_NOT_FOUND))?;
        let tags = apply(&row.tags, &add, &remove)?;
        if tags == row.tags {
            photos.push(views::image(row));
            continue;
        }
        images::set_tags(&mut *tx, &row.id, &tags, now).await?;
        changed.push(row.id.clone());
    }
    let updated = images::find_many(&mut *tx, &changed).await?;
    tx.commit().await?;
    let mut changes = Vec::new();
    for row in &updated {
        let photo = views::image(row);
        changes.push(Change::Photo {
            id: row.id.clone(),
            project_id: row.project_id.clone(),
            created: false,
            state: Some(Box::new(photo.clone())),
        });
        photos.push(photo);
    }
    Ok((photos, changes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn tags_are_trimmed_deduplicated_and_checked() {
        assert_eq!(parse("addTags", &names(&["  Primary   bath ", "primary bath", "HVAC"])).ok(), Some(names(&["Primary bath", "HVAC"])));
        for bad in ["   ", "a,b", "line\nbreak", &"x".repeat(41)] {
            let err = parse("addTags", &names(&[bad])).expect_err(bad);
            assert_eq!(err.api.fields.first().map(|f| f.field.as_str()), Some("addTags"), "{bad:?}");
        }
        assert!(parse("addTags", &names(&["x".repeat(40).as_str()])).is_ok());
        let many: Vec<String> = (0..=PER_REQUEST).map(|i| format!("t{i}")).collect();
        assert!(parse("addTags", &many).is_err());
    }

    #[test]
    fn applying_keeps_order_and_spelling_and_caps_the_count() {
        let current = names(&["Kitchen", "Electrical"]);
        assert_eq!(apply(&current, &names(&["kitchen", "Plumbing"]), &[]).ok(), Some(names(&["Kitchen", "Electrical", "Plumbing"])));
        assert_eq!(apply(&current, &[], &names(&["KITCHEN"])).ok(), Some(names(&["Electrical"])));
        let full: Vec<String> = (0..PER_PHOTO).map(|i| format!("t{i}")).collect();
        let err = apply(&full, &names(&["one more"]), &[]).expect_err("over the cap");
        assert_eq!(err.api.fields.first().map(|f| f.message.clone()), Some(too_many_message()));
        // Removing from a photo over the cap (an older limit) is still allowed.
        assert!(apply(&full, &names(&["t0"]), &names(&["t1"])).is_ok());
    }

    #[test]
    fn kinds_follow_the_suggestions_and_used_spelling_wins() {
        assert_eq!(kind("kitchen"), TagKind::Area);
        assert_eq!(kind("Electrical"), TagKind::Trade);
        assert_eq!(kind("Punch list"), TagKind::Free);
        let used = vec![("KITCHEN".to_owned(), 3)];
        assert_eq!(spelled_as_used(names(&["kitchen", "tile", "punch list"]), &used), names(&["KITCHEN", "Tile", "punch list"]));
        let used = vec![("Kitchen".to_owned(), 3)];
        let listed = uses(&used);
        assert_eq!(listed[0], TagUse { name: "Kitchen".into(), kind: TagKind::Area, photos: 3 });
        assert_eq!(listed.iter().filter(|t| key(&t.name) == "kitchen").count(), 1, "a used suggestion is not offered twice");
        assert_eq!(listed.len(), AREAS.len() + TRADES.len());
    }
}
