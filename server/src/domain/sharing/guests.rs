//! Guest links (docs/FEATURES.md, "The project's story"): a read-only link to one
//! project for family, the bank, anyone without an account. The token is 256 random bits
//! shown once; only its SHA-256 is kept. A link opens while it is neither revoked nor
//! expired and while its maker may still see the project: it never shows more than its
//! maker sees.

use std::collections::HashSet;

use protocol::{
    CreateGuestLink, ErrorCode, Event, GuestAccess, GuestLink, GuestPhotos, Project, ProjectImage, Role, TimelineEntry,
    UserSummary,
};

use crate::domain::media::photos;
use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Action, Actor, Guest, GuestLinkRef, LinkedRef, Target};
use crate::domain::projects::{self, project_ref};
use crate::domain::shared::secrets::{hash_token, new_token};
use crate::domain::shared::services::Services;
use crate::domain::{shared::validation, shared::views};
use crate::error::{Error, Result};
use crate::store::guest_links::{self, GuestLinkRow, NewGuestLink};
use crate::store::images::{self, ImageRow};
use crate::store::projects::ProjectRow;
use crate::store::{new_id, now_ms};

/// What a guest sees when their link no longer opens, whatever the reason: unknown,
/// revoked, expired, or its maker lost the project. One answer, so links cannot be
/// probed.
pub const LINK_INACTIVE: &str = "This link is no longer active";
/// The reason a guest's socket gives when it closes for that.
pub const LINK_INACTIVE_REASON: &str = "link_inactive";
pub const NOT_ALLOWED_SHARE: &str = "You don't have permission to share this project.";
pub const BAD_EXPIRY: &str = "Choose an expiry of 1, 7 or 30 days, or never.";
pub const TOO_MANY_LINKS: &str = "You have 20 active links to this project. Revoke one before making another.";
pub const LINK_NOT_FOUND: &str = "Link not found";
pub const GUESTS_ONLY_VIEW: &str = "Guests can only view this project.";
/// Active links one person may have to one project: enough for every relative and
/// the bank, few enough that a runaway script cannot fill the table.
pub const MAX_ACTIVE_LINKS: usize = 20;
const EXPIRY_DAYS: [u32; 3] = [1, 7, 30];
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn inactive() -> Error {
    Error::new(ErrorCode::InvalidToken, LINK_INACTIVE)
}

/// A guest's pass, once their link opened: who they are to the policy, and what
/// their page says about the link.
#[derive(Debug, Clone)]
pub struct GuestPass {
    pub guest: Guest,
    pub expires_at: Option<i64>,
    pub access: GuestAccess,
}

fn maker_summary(row: &GuestLinkRow) -> UserSummary {
    UserSummary {
        id: row.created_by.clone(),
        email: row.maker_email.clone(),
        name: Some(views::display_name(
            row.maker_first_name.as_deref(),
            row.maker_last_name.as_deref(),
            row.maker_name.as_deref(),
            &row.maker_email,
        )),
        role: row.maker_role,
        created_at: row.maker_created_at,
        company: None,
    }
}

/// A link as its maker (or an admin) sees it in their list.
pub fn view(row: &GuestLinkRow) -> GuestLink {
    GuestLink {
        id: row.id.clone(),
        project_id: row.project_id.clone(),
        photos: row.photos,
        downloads: row.downloads,
        expires_at: row.expires_at,
        created_at: row.created_at,
        created_by: Some(maker_summary(row)),
        revoked_at: row.revoked_at,
        last_opened_at: row.last_opened_at,
        report_id: row.report_id.clone(),
    }
}

/// The maker's display name as a guest sees it: a name, never an address.
fn shared_by(row: &GuestLinkRow) -> Option<String> {
    views::person_for_guests(maker_summary(row)).name
}

/// The rules for a new link, as a pure function: who may share, which expiries exist,
/// and how many live links one person may hold on one project.
pub fn plan_create(
    actor: &Actor,
    project: &ProjectRow,
    input: &CreateGuestLink,
    active_links: usize,
    now: i64,
) -> Result<Option<i64>> {
    if !policy::allows(actor, Action::ShareProject, Target::Project(project_ref(project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_SHARE));
    }
    plan_expiry(input.expires_in_days, active_links, now)
}

/// When a new link expires (`expires_in_days`: 1, 7, 30 or never), if one more link
/// fits beside the maker's `active_links` to the project.
pub fn plan_expiry(expires_in_days: Option<u32>, active_links: usize, now: i64) -> Result<Option<i64>> {
    let expires_at = match expires_in_days {
        None => None,
        Some(days) if EXPIRY_DAYS.contains(&days) => Some(now + i64::from(days) * DAY_MS),
        Some(_) => return Err(Error::field("expiresInDays", BAD_EXPIRY)),
    };
    if active_links >= MAX_ACTIVE_LINKS {
        return Err(Error::new(ErrorCode::RateLimited, TOO_MANY_LINKS));
    }
    Ok(expires_at)
}

/// Whether a link opens at `now` (apart from its maker's access, which needs the project).
pub fn is_live(row: &GuestLinkRow, now: i64) -> bool {
    row.revoked_at.is_none() && row.expires_at.is_none_or(|at| at > now)
}

/// How many of the actor's links to a project open now.
async fn active_links(svc: &Services, actor: &Actor, project_id: &str, now: i64) -> Result<usize> {
    let mine = guest_links::list_for_project(svc.store.pool(), project_id, Some(&actor.id)).await?;
    Ok(mine.iter().filter(|l| is_live(l, now)).count())
}

pub async fn create(svc: &Services, actor: &Actor, input: &CreateGuestLink) -> Result<(GuestLink, String)> {
    let project = projects::visible(svc, actor, &input.project_id).await?;
    let now = now_ms();
    let active = active_links(svc, actor, &project.id, now).await?;
    let expires_at = plan_create(actor, &project, input, active, now)?;
    let shows = Shows { photos: input.photos, downloads: input.downloads, report_id: None };
    insert_link(svc, actor, &project.id, shows, expires_at, now).await
}

/// A link to one report of the project (docs/FEATURES.md, "Progress reports"), after the
/// caller's policy check: the same expiries and the same cap on live links as a link to
/// the project.
pub async fn create_for_report(
    svc: &Services,
    actor: &Actor,
    project: &ProjectRow,
    report_id: &str,
    expires_in_days: Option<u32>,
) -> Result<(GuestLink, String)> {
    let now = now_ms();
    let active = active_links(svc, actor, &project.id, now).await?;
    let expires_at = plan_expiry(expires_in_days, active, now)?;
    let shows = Shows { photos: GuestPhotos::All, downloads: false, report_id: Some(report_id) };
    insert_link(svc, actor, &project.id, shows, expires_at, now).await
}

/// What a new link shows.
struct Shows<'a> {
    photos: GuestPhotos,
    downloads: bool,
    report_id: Option<&'a str>,
}

async fn insert_link(
    svc: &Services,
    actor: &Actor,
    project_id: &str,
    shows: Shows<'_>,
    expires_at: Option<i64>,
    now: i64,
) -> Result<(GuestLink, String)> {
    let token = new_token();
    let id = new_id();
    guest_links::insert(
        svc.store.pool(),
        &NewGuestLink {
            id: &id,
            project_id,
            created_by: &actor.id,
            token_hash: &hash_token(&token),
            photos: shows.photos,
            downloads: shows.downloads,
            expires_at,
            created_at: now,
            report_id: shows.report_id,
        },
    )
    .await?;
    let row = guest_links::find(svc.store.pool(), &id).await?.ok_or_else(|| Error::internal("a new link vanished"))?;
    Ok((view(&row), svc.auth.link(&format!("/guest/{token}"))))
}

/// The links to a project the actor made; an admin sees everyone's.
pub async fn list(svc: &Services, actor: &Actor, project_id: &str) -> Result<Vec<GuestLink>> {
    let project = projects::visible(svc, actor, project_id).await?;
    if !policy::allows(actor, Action::ShareProject, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_SHARE));
    }
    let made_by = (actor.role != Role::Admin).then_some(actor.id.as_str());
    let rows = guest_links::list_for_project(svc.store.pool(), &project.id, made_by).await?;
    Ok(rows.iter().map(view).collect())
}

/// Revokes a link: its guests' pages close at once, on every instance (the change
/// goes through the bus like every other). Revoking a revoked link changes nothing.
pub async fn revoke(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let pool = svc.store.pool();
    let not_found = || Error::new(ErrorCode::NotFound, LINK_NOT_FOUND);
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let row = guest_links::find(pool, id).await?.ok_or_else(not_found)?;
    let project = crate::store::projects::find(pool, &row.project_id).await?.ok_or_else(not_found)?;
    let target = Target::GuestLink(GuestLinkRef { project: project_ref(&project), maker_id: &row.created_by });
    if !policy::allows(actor, Action::ManageGuestLink, target) {
        // Someone else's link is answered like one that does not exist.
        return Err(not_found());
    }
    Ok(if guest_links::revoke(pool, id, now_ms()).await? {
        vec![Change::GuestLinkEnded { link_id: row.id, project_id: row.project_id }]
    } else {
        Vec::new()
    })
}

/// The pass a token opens, or `LINK_INACTIVE`. Records that a guest opened it (the
/// maker's list shows when).
pub async fn open(svc: &Services, token: &str) -> Result<GuestPass> {
    let row = guest_links::find_by_token(svc.store.pool(), &hash_token(token.trim())).await?.ok_or_else(inactive)?;
    let pass = pass_of(svc, &row).await?;
    guest_links::touch(svc.store.pool(), &row.id, now_ms()).await?;
    Ok(pass)
}

/// The pass a token opens now, without recording a visit (each photo a guest's page
/// fetches asks this).
pub async fn pass_for(svc: &Services, token: &str) -> Result<GuestPass> {
    let row = guest_links::find_by_token(svc.store.pool(), &hash_token(token.trim())).await?.ok_or_else(inactive)?;
    pass_of(svc, &row).await
}

/// A link's pass, read again by id: a socket checks that its link survived the time
/// between its upgrade and its joining the hub (after which a revocation reaches it).
pub async fn pass_by_id(svc: &Services, link_id: &str) -> Result<GuestPass> {
    let row = guest_links::find(svc.store.pool(), link_id).await?.ok_or_else(inactive)?;
    pass_of(svc, &row).await
}

async fn pass_of(svc: &Services, row: &GuestLinkRow) -> Result<GuestPass> {
    if !is_live(row, now_ms()) {
        return Err(inactive());
    }
    let project = crate::store::projects::find(svc.store.pool(), &row.project_id).await?.ok_or_else(inactive)?;
    // The maker as the policy sees them now (a builder's company and role included).
    let maker = crate::store::users::find_by_id(svc.store.pool(), &row.created_by).await?.ok_or_else(inactive)?;
    let guest = Guest {
        link_id: row.id.clone(),
        project_id: row.project_id.clone(),
        maker: Actor::of(&maker),
        photos: row.photos,
        downloads: row.downloads,
        report_id: row.report_id.clone(),
    };
    let linked = LinkedRef { id: &project.id, project: project_ref(&project) };
    let opens = match &guest.report_id {
        Some(report_id) => policy::guest_sees_report(&guest, report_id, linked),
        None => policy::guest_allows(&guest, Action::ViewProject, linked),
    };
    if !opens {
        return Err(inactive());
    }
    let access = GuestAccess {
        link_id: row.id.clone(),
        project_id: row.project_id.clone(),
        photos: guest.photos,
        downloads: guest.downloads,
        expires_at: row.expires_at,
        shared_by: shared_by(row),
        report_id: row.report_id.clone(),
    };
    Ok(GuestPass { guest, expires_at: row.expires_at, access })
}

/// Whether the guest sees photos' markup drawn on: a project link's guest does (as
/// `get_markup` answers them); a report link's only when the report shows markup.
pub async fn sees_markup(svc: &Services, guest: &Guest) -> Result<bool> {
    match &guest.report_id {
        None => Ok(true),
        Some(report_id) => crate::domain::sharing::stored::shows_markup(svc, report_id).await,
    }
}

/// The linked project, when the guest may still do `action` on it.
pub async fn linked_project(svc: &Services, guest: &Guest, action: Action) -> Result<ProjectRow> {
    let project = crate::store::projects::find(svc.store.pool(), &guest.project_id).await?.ok_or_else(inactive)?;
    if !policy::guest_allows(guest, action, LinkedRef { id: &project.id, project: project_ref(&project) }) {
        return Err(inactive());
    }
    Ok(project)
}

/// The photos the link shows, when it shows a set rather than every photo: a report
/// link's report's photos, a favourites link's maker's favourites.
pub async fn shown_set(svc: &Services, guest: &Guest) -> Result<Option<HashSet<String>>> {
    if let Some(report_id) = &guest.report_id {
        return Ok(Some(crate::domain::sharing::stored::photo_ids_of(svc, report_id).await?));
    }
    Ok(match guest.photos {
        GuestPhotos::All => None,
        GuestPhotos::Favourites => {
            Some(images::favourite_ids(svc.store.pool(), &guest.maker.id, &guest.project_id).await?.into_iter().collect())
        }
    })
}

/// A page of the linked project's photos the guest sees, newest first, from a
/// `ListPhotos`'s `after` or `before` (docs/FEATURES.md, "Big projects"), and where the
/// next page starts.
pub async fn photo_page(
    svc: &Services,
    guest: &Guest,
    project: &ProjectRow,
    after: Option<&str>,
    before: Option<i64>,
    limit: u32,
) -> Result<(Vec<ProjectImage>, Option<String>)> {
    let shown = shown_set(svc, guest).await?;
    let view = GuestView::new(guest, shown.as_ref());
    let start = photos::start_of(after, before)?;
    photos::page_seen(svc, project, start, limit, |r| view.sees(&r.id), |r| views::for_guests(views::image(r))).await
}

/// How many of the linked project's photos the guest sees.
pub async fn photo_count(svc: &Services, guest: &Guest, project: &ProjectRow) -> Result<u32> {
    match shown_set(svc, guest).await? {
        // A set is of this project's photos (a favourites link's maker's favourites in it).
        Some(set) => Ok(u32::try_from(set.len()).unwrap_or(u32::MAX)),
        None => photos::photo_count(svc, project).await,
    }
}

/// A photo the guest may fetch for `action` (`ViewPhoto` for the thumbnail and display
/// size, `DownloadPhoto` for the original). Anything else reads as not found.
pub async fn photo(svc: &Services, guest: &Guest, id: &str, action: Action) -> Result<ImageRow> {
    let pool = svc.store.pool();
    let not_found = || Error::new(ErrorCode::NotFound, crate::domain::media::photos::IMAGE_NOT_FOUND);
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let image = images::find(pool, id).await?.ok_or_else(not_found)?;
    let project = crate::store::projects::find(pool, &image.project_id).await?.ok_or_else(not_found)?;
    if !policy::guest_allows(guest, action, LinkedRef { id: &project.id, project: project_ref(&project) }) {
        return Err(not_found());
    }
    let in_set = match (&guest.report_id, guest.photos) {
        (Some(report_id), _) => crate::domain::sharing::stored::photo_ids_of(svc, report_id).await?.contains(&image.id),
        (None, GuestPhotos::All) => false,
        (None, GuestPhotos::Favourites) => images::is_favourite(pool, &guest.maker.id, &image.id).await?,
    };
    if !policy::guest_sees_photo(guest, in_set) {
        return Err(not_found());
    }
    Ok(image)
}

/// A photo's markup as a guest of a link that shows the photo reads it: names, never
/// addresses.
pub async fn markup(svc: &Services, guest: &Guest, image_id: &str) -> Result<protocol::Markup> {
    let image = photo(svc, guest, image_id, Action::ViewPhoto).await?;
    Ok(crate::domain::media::markup::for_guests(crate::domain::media::markup::of_photo(svc, &image).await?))
}

/// The photos a guest's "Download all" covers, when the link allows downloads.
pub async fn downloadable(svc: &Services, guest: &Guest, project_id: &str) -> Result<(ProjectRow, Vec<ImageRow>)> {
    let not_found = || Error::new(ErrorCode::NotFound, projects::PROJECT_NOT_FOUND);
    if project_id != guest.project_id {
        return Err(not_found());
    }
    let project = linked_project(svc, guest, Action::DownloadPhoto).await.map_err(|_| not_found())?;
    let pool = svc.store.pool();
    let rows = match guest.photos {
        GuestPhotos::All => images::list_for_project(pool, &project.id).await?,
        GuestPhotos::Favourites => images::favourites_in_project(pool, &guest.maker.id, &project.id).await?,
    };
    if rows.is_empty() {
        return Err(Error::new(ErrorCode::NotFound, crate::domain::media::photos::NO_PHOTOS_TO_DOWNLOAD));
    }
    Ok((project, rows))
}

/// The linked project's milestones (its `version` is the project's).
pub async fn milestones(svc: &Services, project: &ProjectRow) -> Result<protocol::MilestonePlan> {
    crate::domain::projects::milestones::current(svc, &project.id).await
}

/// A page of the linked project's timeline as the guest may see it (`GuestView::entry`);
/// the cursor is the unfiltered page's, so paging has no gaps.
pub async fn timeline(svc: &Services, guest: &Guest, before: Option<&str>) -> Result<(Vec<TimelineEntry>, Option<String>)> {
    let project = linked_project(svc, guest, Action::ReadTimeline).await?;
    let (entries, next) = crate::domain::projects::timeline::page(svc, &project.id, before).await?;
    let shown = shown_set(svc, guest).await?;
    let view = GuestView::new(guest, shown.as_ref());
    Ok((entries.into_iter().filter_map(|e| view.entry(e)).collect(), next))
}

/// What one guest's page may see (docs/FEATURES.md, "The project's story"): on a
/// favourites link only the photos its maker favourited (`shown`, as read or kept up to
/// date by the project's actor), and never anyone's account. Every message a guest gets
/// is made through this — the hello's project and photos, each timeline page, each live
/// event — so no field of any of them names a photo the link does not share (the
/// project's cover photo once did, through `thumbnailUrl`).
#[derive(Clone, Copy)]
pub struct GuestView<'a> {
    guest: &'a Guest,
    shown: Option<&'a HashSet<String>>,
}

impl<'a> GuestView<'a> {
    pub fn new(guest: &'a Guest, shown: Option<&'a HashSet<String>>) -> GuestView<'a> {
        GuestView { guest, shown }
    }

    pub fn sees(&self, photo_id: &str) -> bool {
        policy::guest_sees_photo(self.guest, self.shown.is_some_and(|s| s.contains(photo_id)))
    }

    /// The project without names that are addresses, and without its cover photo when
    /// the link does not share it (the guest's page shows its own photos, not a cover).
    pub fn project(&self, project: Project) -> Project {
        let mut project = views::redact_for_guest(project);
        if views::thumbnail_photo_id(&project).is_some_and(|id| !self.sees(id)) {
            project.thumbnail_url = None;
            project.thumbnail_pinned = false;
        }
        project
    }

    /// A timeline entry with only the photos the guest sees; an entry about photos of
    /// which none is shown is left out.
    pub fn entry(&self, entry: TimelineEntry) -> Option<TimelineEntry> {
        let seen = crate::domain::projects::timeline::Seen { photo: |id: &str| self.sees(id), comments: true, markup: true };
        crate::domain::projects::timeline::seen_by(entry, &seen)
    }

    /// An event as this guest may see it, or `None` when it is none of theirs. Every
    /// event is listed, so a new one is decided here before a guest can receive it.
    pub fn event(&self, event: Event) -> Option<Event> {
        // A report link's page shows the report as it was made: only the project's end
        // reaches it (its link's end comes as its own `session_ended`).
        if self.guest.report_id.is_some() {
            return matches!(event, Event::ProjectDeleted { .. }).then_some(event);
        }
        match event {
            Event::ProjectUpdated { project, .. } => Some(Event::ProjectUpdated { project: self.project(project), actor: None }),
            Event::PhotoAdded { photo } => self.sees(&photo.id).then(|| Event::PhotoAdded { photo: views::for_guests(photo) }),
            Event::PhotoUpdated { photo } => self.sees(&photo.id).then(|| Event::PhotoUpdated { photo: views::for_guests(photo) }),
            Event::PhotoDeleted { ref id, .. } => self.sees(id).then_some(event),
            Event::MarkupChanged { markup, .. } => self.sees(&markup.image_id).then(|| Event::MarkupChanged {
                markup: crate::domain::media::markup::for_guests(markup),
                actor: None,
            }),
            Event::TimelineAdded { entry } => self.entry(entry).map(|entry| Event::TimelineAdded { entry }),
            Event::ProjectDeleted { .. } | Event::MilestonesChanged { .. } | Event::TimelineRemoved { .. } => Some(event),
            // People, accounts and conversations are not a guest's to see (a link's
            // end reaches its guests as their own `session_ended`, not through here).
            Event::SessionEnded { .. }
            | Event::ProjectCreated { .. }
            | Event::UserCreated { .. }
            | Event::UserUpdated { .. }
            | Event::UserDeleted { .. }
            | Event::Presence { .. }
            | Event::Viewers { .. }
            | Event::FavouriteChanged { .. }
            | Event::CommentAdded { .. }
            | Event::CommentUpdated { .. }
            | Event::CommentDeleted { .. }
            | Event::NotificationAdded { .. }
            | Event::NotificationsRead { .. }
            // Guests search again when a photo event reaches them.
            | Event::SearchChanged { .. }
            // A report reaches guests only through its own link.
            | Event::ReportChanged { .. }
            | Event::ReportDeleted { .. }
            // Companies and their people are not a guest's to see.
            | Event::CompanyChanged { .. }
            | Event::CompanyDeleted { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use protocol::{TimelineDetail, TimelinePhoto};

    use super::*;

    fn project() -> ProjectRow {
        ProjectRow::example("p", "h", Some("b"))
    }

    fn input(days: Option<u32>) -> CreateGuestLink {
        CreateGuestLink { project_id: "p".into(), photos: GuestPhotos::All, downloads: false, expires_in_days: days }
    }

    #[test]
    fn the_homeowner_builder_and_admins_share_others_do_not() {
        let p = project();
        for actor in [Actor::new("h", Role::Homeowner), Actor::member("b", "b", protocol::CompanyRole::Owner, false), Actor::new("a", Role::Admin)] {
            assert!(plan_create(&actor, &p, &input(None), 0, 0).is_ok(), "{:?}", actor.role);
        }
        for actor in [Actor::new("h2", Role::Homeowner), Actor::member("b2", "b2", protocol::CompanyRole::Owner, false)] {
            let err = plan_create(&actor, &p, &input(None), 0, 0).unwrap_err();
            assert_eq!(err.code(), ErrorCode::Forbidden, "{:?}", actor.role);
        }
    }

    #[test]
    fn expiries_are_one_seven_or_thirty_days_or_never() {
        let h = Actor::new("h", Role::Homeowner);
        assert_eq!(plan_create(&h, &project(), &input(None), 0, 1000).unwrap(), None);
        assert_eq!(plan_create(&h, &project(), &input(Some(7)), 0, 1000).unwrap(), Some(1000 + 7 * DAY_MS));
        for bad in [0, 2, 31, 365] {
            assert_eq!(plan_create(&h, &project(), &input(Some(bad)), 0, 0).unwrap_err().code(), ErrorCode::Validation);
        }
        let err = plan_create(&h, &project(), &input(None), MAX_ACTIVE_LINKS, 0).unwrap_err();
        assert_eq!(err.api.message, TOO_MANY_LINKS);
    }

    #[test]
    fn a_link_is_live_until_revoked_or_expired() {
        let mut row = GuestLinkRow::example("l", "p", "h");
        assert!(is_live(&row, 5));
        row.expires_at = Some(10);
        assert!(is_live(&row, 9));
        assert!(!is_live(&row, 10));
        row.expires_at = None;
        row.revoked_at = Some(3);
        assert!(!is_live(&row, 4));
    }

    fn guest(photos: GuestPhotos) -> Guest {
        Guest {
            link_id: "l".into(),
            project_id: "p".into(),
            maker: Actor::new("h", Role::Homeowner),
            photos,
            downloads: false,
            report_id: None,
        }
    }

    fn photo(id: &str) -> TimelinePhoto {
        TimelinePhoto { id: id.into(), thumb_url: views::media_url(id, "thumb") }
    }

    fn entry(detail: TimelineDetail) -> TimelineEntry {
        TimelineEntry { id: "e".into(), project_id: "p".into(), actor_name: None, actor_role: None, created_at: 0, detail }
    }

    #[test]
    fn favourites_links_see_only_their_photos_in_the_timeline() {
        let favourites = guest(GuestPhotos::Favourites);
        let all = guest(GuestPhotos::All);
        let batch = entry(TimelineDetail::PhotosAdded { count: 3, photos: vec![photo("a"), photo("b"), photo("c")], note: None });
        let shown: HashSet<String> = ["b".to_owned()].into();
        let view = GuestView::new(&favourites, Some(&shown));
        let Some(TimelineEntry { detail: TimelineDetail::PhotosAdded { photos, count, .. }, .. }) = view.entry(batch.clone()) else {
            panic!("the batch has a shown photo")
        };
        assert_eq!((photos.len(), photos[0].id.as_str(), count), (1, "b", 3));
        let none = HashSet::new();
        assert!(GuestView::new(&favourites, Some(&none)).entry(batch.clone()).is_none());
        assert_eq!(GuestView::new(&all, None).entry(batch.clone()), Some(batch));
        let comment = entry(TimelineDetail::Comment { comment_id: "c".into(), excerpt: "x".into(), photo: photo("a") });
        assert!(view.entry(comment).is_none());
        let status = entry(TimelineDetail::ProgressChanged { from: 1, to: 2 });
        assert!(GuestView::new(&favourites, Some(&none)).entry(status).is_some());
    }

    /// A favourites link's guest was once told the project's cover photo, shared or not.
    /// Every event names only shown photos, and nothing about people.
    #[test]
    fn a_guest_hears_only_of_the_photos_their_link_shares() {
        let favourites = guest(GuestPhotos::Favourites);
        let shown: HashSet<String> = ["fav".to_owned()].into();
        let view = GuestView::new(&favourites, Some(&shown));
        let mut row = ProjectRow::example("p", "h", Some("b"));
        row.thumbnail_image_id = Some("secret".into());
        row.thumbnail_pinned = true;
        let covered = views::project(&row);
        assert_eq!(views::thumbnail_photo_id(&covered), Some("secret"));
        let seen = view.project(covered.clone());
        assert_eq!((seen.thumbnail_url.as_deref(), seen.thumbnail_pinned), (None, false), "an unshared cover is not named");
        row.thumbnail_image_id = Some("fav".into());
        let shared = view.project(views::project(&row));
        assert_eq!(shared.thumbnail_url, Some(views::media_url("fav", "thumb")), "a shared cover is");
        assert_eq!(GuestView::new(&guest(GuestPhotos::All), None).project(covered.clone()).thumbnail_url, covered.thumbnail_url);

        let updated = Event::ProjectUpdated { project: covered, actor: Some(UserSummary {
            id: "a".into(), email: "a@b.co".into(), name: None, role: Role::Admin, created_at: 0, company: None,
        }) };
        match view.event(updated) {
            Some(Event::ProjectUpdated { project, actor: None }) => assert_eq!(project.thumbnail_url, None),
            other => panic!("{other:?}"),
        }
        let image = |id: &str| ProjectImage {
            id: id.into(),
            project_id: "p".into(),
            category: protocol::ImageCategory::Other,
            caption: None,
            original_name: format!("{id}.jpg"),
            width: 1,
            height: 1,
            taken_at: None,
            created_at: 0,
            thumb_url: views::media_url(id, "thumb"),
            display_url: views::media_url(id, "display"),
            download_url: views::media_url(id, "original"),
            version: 1,
            comment_count: 0,
            markup_count: 0,
            tags: vec![],
            location: None,
            uploaded_by: None,
            visit_note: None,
            batch_id: None,
            milestone_id: None,
        };
        assert!(view.event(Event::PhotoAdded { photo: image("secret") }).is_none());
        assert!(view.event(Event::PhotoUpdated { photo: image("secret") }).is_none());
        assert!(view.event(Event::PhotoAdded { photo: image("fav") }).is_some());
        assert!(view.event(Event::PhotoDeleted { id: "secret".into(), project_id: "p".into() }).is_none());
        let visit = entry(TimelineDetail::PhotosAdded { count: 1, photos: vec![photo("secret")], note: None });
        assert!(view.event(Event::TimelineAdded { entry: visit }).is_none());
        assert!(view.event(Event::Viewers { project_id: "p".into(), viewers: vec![] }).is_none());
        assert!(view.event(Event::ProjectDeleted { id: "p".into(), version: 2 }).is_some());
        // Markup of a shown photo, without its author's address or the actor.
        let person = UserSummary { id: "b".into(), email: "b@summit.test".into(), name: Some("Dana".into()), role: Role::Builder, created_at: 0, company: None };
        let markup = |image: &str| protocol::Markup {
            image_id: image.into(),
            project_id: "p".into(),
            version: 1,
            shapes: vec![],
            authors: vec![person.clone()],
            updated_at: Some(1),
            updated_by: Some(person.clone()),
        };
        assert!(view.event(Event::MarkupChanged { markup: markup("secret"), actor: Some(person.clone()) }).is_none());
        match view.event(Event::MarkupChanged { markup: markup("fav"), actor: Some(person.clone()) }) {
            Some(Event::MarkupChanged { markup, actor: None }) => {
                assert_eq!((markup.authors[0].email.as_str(), markup.authors[0].name.as_deref()), ("", Some("Dana")));
            }
            other => panic!("{other:?}"),
        }
        let marked = entry(TimelineDetail::MarkedUp { photo: photo("secret") });
        assert!(view.event(Event::TimelineAdded { entry: marked }).is_none());
        let marked = entry(TimelineDetail::MarkedUp { photo: photo("fav") });
        assert!(view.event(Event::TimelineAdded { entry: marked }).is_some());
    }
}
