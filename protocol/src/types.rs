//! The shared entities of SPEC.md §3 as they travel on the wire.
//!
//! Timestamps are milliseconds since the Unix epoch (UTC); they fit a JavaScript
//! number, so the generated TypeScript types them as `number`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Builder,
    Homeowner,
}

/// A builder's place in their company (docs/FEATURES.md, "Builder companies"). Owners manage
/// the company and its members; managers see all its projects and invite crew; crew see
/// the projects they are on (or all, when their owner says so).
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum CompanyRole {
    Owner,
    Manager,
    Crew,
}

impl CompanyRole {
    pub const ALL: [CompanyRole; 3] = [CompanyRole::Owner, CompanyRole::Manager, CompanyRole::Crew];

    pub fn as_str(self) -> &'static str {
        match self {
            CompanyRole::Owner => "owner",
            CompanyRole::Manager => "manager",
            CompanyRole::Crew => "crew",
        }
    }

    pub fn parse(s: &str) -> Option<CompanyRole> {
        CompanyRole::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Admin, Role::Builder, Role::Homeowner];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Builder => "builder",
            Role::Homeowner => "homeowner",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum ProjectStatus {
    Planning,
    InProgress,
    OnHold,
    Completed,
}

impl ProjectStatus {
    pub const ALL: [ProjectStatus; 4] = [
        ProjectStatus::Planning,
        ProjectStatus::InProgress,
        ProjectStatus::OnHold,
        ProjectStatus::Completed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProjectStatus::Planning => "planning",
            ProjectStatus::InProgress => "in-progress",
            ProjectStatus::OnHold => "on-hold",
            ProjectStatus::Completed => "completed",
        }
    }

    pub fn parse(s: &str) -> Option<ProjectStatus> {
        ProjectStatus::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ImageCategory {
    Interior,
    Exterior,
    Structural,
    Finishes,
    Other,
    General,
}

impl ImageCategory {
    pub const ALL: [ImageCategory; 6] = [
        ImageCategory::Interior,
        ImageCategory::Exterior,
        ImageCategory::Structural,
        ImageCategory::Finishes,
        ImageCategory::Other,
        ImageCategory::General,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ImageCategory::Interior => "interior",
            ImageCategory::Exterior => "exterior",
            ImageCategory::Structural => "structural",
            ImageCategory::Finishes => "finishes",
            ImageCategory::Other => "other",
            ImageCategory::General => "general",
        }
    }

    pub fn parse(s: &str) -> Option<ImageCategory> {
        ImageCategory::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// A user's profile (SPEC.md §3 "Profile / User"). Never carries secrets.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    pub email: String,
    pub role: Role,
    pub name: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    /// For homeowners: the builder they work with, if any.
    pub builder_id: Option<String>,
    /// For builders: their company, their place in it, and (crew) whether
    /// they see all its projects rather than those they are on.
    #[serde(default)]
    pub company_id: Option<String>,
    #[serde(default)]
    pub company_name: Option<String>,
    #[serde(default)]
    pub company_role: Option<CompanyRole>,
    #[serde(default)]
    pub all_projects: bool,
    pub email_confirmed_at: Option<Millis>,
    pub last_sign_in_at: Option<Millis>,
    pub created_at: Millis,
    /// Monotonic per user; a client ignores an event older than what it holds.
    pub version: i64,
}

/// Who did something, as shown beside an activity (SPEC.md §7 "acting user summary").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub id: String,
    pub email: String,
    pub name: Option<String>,
    pub role: Role,
    pub created_at: Millis,
    /// A builder's company: shown beside their name ("Dana Ortiz · Summit Homes").
    #[serde(default)]
    pub company: Option<String>,
}

/// Who took a photo in: their name and their company, as shown beside it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Byline {
    pub id: String,
    pub name: String,
    pub company: Option<String>,
}

/// A member of a builder company (docs/FEATURES.md, "Builder companies").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    pub email: String,
    pub name: String,
    pub phone: Option<String>,
    pub company_role: CompanyRole,
    /// Crew: sees every project of the company, not only those they are on.
    pub all_projects: bool,
    /// Invited and not signed in yet.
    pub invited: bool,
    pub last_sign_in_at: Option<Millis>,
}

/// A builder company: what homeowners see as a project's builder.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Company {
    pub id: String,
    pub name: String,
    /// Owners first, then managers, then crew; by name within each.
    pub members: Vec<Member>,
    /// How many projects it builds.
    pub project_count: i64,
    pub created_at: Millis,
    /// Monotonic per company; a client ignores an event older than what it holds.
    pub version: i64,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub id: String,
    pub title: String,
    pub description: String,
    pub address: String,
    pub homeowner_id: String,
    /// Display name of the homeowner, joined from their profile.
    pub homeowner_name: String,
    pub homeowner_first_name: Option<String>,
    pub homeowner_last_name: Option<String>,
    /// The builder: a company, and its name as homeowners see it.
    pub builder_id: Option<String>,
    pub builder_name: Option<String>,
    /// The company's members on this project's crew; crew members see the
    /// projects they are on. Empty for guests.
    #[serde(default)]
    pub crew: Vec<String>,
    pub status: ProjectStatus,
    /// 0 to 100.
    pub progress: i32,
    /// Whether `progress` is set by hand or follows the milestones.
    pub progress_mode: ProgressMode,
    /// Thumbnail rendition of the project's cover photo, served after an access check.
    pub thumbnail_url: Option<String>,
    /// True when an admin picked the thumbnail; false when it follows the newest photo.
    pub thumbnail_pinned: bool,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// Monotonic per project; a client ignores an event older than what it holds.
    pub version: i64,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ProjectImage {
    pub id: String,
    pub project_id: String,
    pub category: ImageCategory,
    pub caption: Option<String>,
    /// The uploaded file's name, used for downloads.
    pub original_name: String,
    pub width: i32,
    pub height: i32,
    /// Capture time from the photo's EXIF data, when it had one.
    pub taken_at: Option<Millis>,
    pub created_at: Millis,
    pub thumb_url: String,
    pub display_url: String,
    pub download_url: String,
    pub version: i64,
    /// How many comments the photo has; `comment_added` and `comment_deleted` carry
    /// the new count.
    pub comment_count: i64,
    /// The note of the site visit (upload batch) the photo came with, if any.
    pub visit_note: Option<String>,
    /// The site visit (upload batch) the photo came with: photos selected and sent
    /// together share it (the gallery's "group by site visit").
    pub batch_id: Option<String>,
    /// The milestone the photo is tagged with, if any.
    pub milestone_id: Option<String>,
    /// How many shapes its markup has; `markup_changed` carries the new
    /// document. Tiles show a badge when it is above zero.
    pub markup_count: i64,
    /// Its tags, in the order they were added.
    pub tags: Vec<String>,
    /// Where it was taken, from its EXIF GPS data, unless the installation does not
    /// keep locations. Never sent to guests.
    pub location: Option<GeoPoint>,
    /// Who uploaded it, with their company. Never sent to guests.
    #[serde(default)]
    pub uploaded_by: Option<Byline>,
}

/// A place on Earth in degrees (WGS 84): north and east are positive.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq)]
pub struct GeoPoint {
    pub lat: f64,
    pub lon: f64,
}

/// What a tag names (docs/FEATURES.md, "Tags and search"): a room or area of the house, a
/// trade, or anything else.
/// A tag's kind follows from its name: the suggested areas and trades are known.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum TagKind {
    Area,
    Trade,
    Free,
}

/// A tag a project uses or is offered: `photos` counts this project's photos carrying
/// it (0 for a suggestion not used yet).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TagUse {
    pub name: String,
    pub kind: TagKind,
    pub photos: i64,
}

/// What a search found, best first in each group, and only what the
/// searcher may see. Words match from their start ("kitch" finds "Kitchen").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchResults {
    pub query: String,
    /// The one project searched in, if the search was narrowed to one (guests: theirs).
    pub project_id: Option<String>,
    pub projects: Vec<ProjectHit>,
    pub photos: Vec<PhotoHit>,
    pub comments: Vec<CommentHit>,
    /// Admins only: people whose name or email matches.
    pub people: Vec<Profile>,
    /// Whether more photos matched than `photos` holds.
    pub more_photos: bool,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ProjectHit {
    pub project: Project,
    /// The project's thumbnail, if it has one.
    pub thumb_url: Option<String>,
    /// The milestone whose name matched, when the title and address did not.
    pub milestone: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PhotoHit {
    pub photo: ProjectImage,
    pub project_title: String,
    /// The name of the milestone the photo is tagged with, if any (it is searched too).
    pub milestone: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CommentHit {
    pub comment: Comment,
    pub project_title: String,
    /// The commented photo's thumbnail.
    pub thumb_url: String,
}

/// Settings of the whole installation, which admins change.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct InstallationSettings {
    /// Whether photos keep the place they were taken (EXIF GPS). Turning it off also
    /// forgets every location already kept.
    pub store_photo_locations: bool,
    /// Admins must sign in with a second factor (one without is led to
    /// enrol at their next sign-in).
    #[serde(default)]
    pub require_factor_admins: bool,
    /// The same for builder companies' owners and managers.
    #[serde(default)]
    pub require_factor_company_leads: bool,
}

/// This account's sign-in security (docs/SECURITY.md, "Two-factor sign-in"): Profile &
/// Settings, "Security".
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Security {
    /// An authenticator app is on.
    pub totp: bool,
    /// Unused recovery codes.
    pub recovery_codes_left: i64,
    pub passkeys: Vec<PasskeyInfo>,
    /// This account's signed-in sessions, this one first.
    pub devices: Vec<DeviceSession>,
    /// The installation requires this account to have a second factor.
    pub required: bool,
    /// When this session last proved a second factor (None: password only).
    pub factor_at: Option<Millis>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyInfo {
    pub id: String,
    pub name: String,
    pub created_at: Millis,
    pub last_used_at: Option<Millis>,
}

/// A signed-in session, as its device list shows it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceSession {
    pub id: String,
    /// "Chrome 131", from the user agent; "Unknown browser" without one.
    pub browser: String,
    /// "macOS", "Android 14"…
    pub system: String,
    /// desktop, phone, tablet or other.
    pub kind: String,
    /// Where the address is, when that is known here without asking anyone: this
    /// computer, a private network, or a network the installation names.
    pub place: Option<String>,
    pub ip: Option<String>,
    pub signed_in_at: Millis,
    pub last_active_at: Millis,
    /// The session asking.
    pub current: bool,
}

/// A new authenticator-app secret, waiting for a code from it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TotpEnrolment {
    /// Base32, for typing into the app.
    pub secret: String,
    /// The otpauth:// URI the QR code holds.
    pub uri: String,
    /// The QR code, as an SVG document.
    pub qr_svg: String,
}

/// Which mails a user gets (docs/FEATURES.md, "Comments, notifications and mail"): Profile &
/// Settings, "Email me about".
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MailPreferences {
    /// One mail per batch of new photos in my project (on by default).
    pub new_photos: bool,
    /// A digest of comments, replies and @mentions (on by default).
    pub comments: bool,
    /// My project's status changes (off by default).
    pub status_changes: bool,
    /// The same three as push notifications on the devices that have them on
    /// (all on by default: a device is turned on by choice).
    pub push_new_photos: bool,
    pub push_comments: bool,
    pub push_status_changes: bool,
}

/// Push notifications (docs/FEATURES.md, "Comments, notifications and mail"): Profile &
/// Settings, "Notifications".
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PushSettings {
    /// The server's VAPID public key (base64url, uncompressed P-256), the
    /// `applicationServerKey` a browser subscribes with.
    pub public_key: String,
    pub devices: Vec<PushDevice>,
}

/// A device (browser) with notifications on.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PushDevice {
    pub id: String,
    /// "Chrome on Android", from the browser that turned them on.
    pub device: String,
    pub created_at: Millis,
    /// The browser that asked.
    pub this_device: bool,
}

/// Why a notification was made (docs/FEATURES.md, "Comments, notifications and mail").
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    /// A batch of new photos in my project (one per batch, not per photo).
    NewPhotos,
    /// A comment on a photo in my project.
    Comment,
    /// A comment on a photo I commented on.
    Reply,
    /// A comment that @mentions me.
    Mention,
    /// My project's status changed.
    StatusChange,
}

impl NotificationKind {
    pub const ALL: [NotificationKind; 5] = [
        NotificationKind::NewPhotos,
        NotificationKind::Comment,
        NotificationKind::Reply,
        NotificationKind::Mention,
        NotificationKind::StatusChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NotificationKind::NewPhotos => "new_photos",
            NotificationKind::Comment => "comment",
            NotificationKind::Reply => "reply",
            NotificationKind::Mention => "mention",
            NotificationKind::StatusChange => "status_change",
        }
    }

    pub fn parse(s: &str) -> Option<NotificationKind> {
        NotificationKind::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// One entry of a user's notification centre; only that user ever receives it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    pub id: String,
    pub kind: NotificationKind,
    pub project_id: Option<String>,
    pub image_id: Option<String>,
    /// Who caused it (commenter, uploader, the admin who changed the status).
    pub actor_name: Option<String>,
    pub title: String,
    /// A comment's opening words, or a detail; may be empty.
    pub body: String,
    /// Where it leads in the app: `/projects/{id}`, or `/projects/{id}?photo={imageId}`,
    /// which opens the lightbox on that photo.
    pub link: String,
    pub created_at: Millis,
    pub read_at: Option<Millis>,
}

/// A comment on a photo (plain text; the client makes links clickable and highlights
/// `@Name` mentions of the project's people).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    pub id: String,
    pub image_id: String,
    pub project_id: String,
    /// A comment goes with its author's account.
    pub author: UserSummary,
    pub body: String,
    pub created_at: Millis,
    /// Equal to `created_at` until the author edits it.
    pub updated_at: Millis,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Favourite {
    pub id: String,
    pub user_id: String,
    pub image_id: String,
    pub project_id: String,
    pub created_at: Millis,
}

/// Whether a project's progress bar is set by hand (admins) or follows its milestones
/// (the share of them completed): docs/FEATURES.md, "The project's story".
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case")]
pub enum ProgressMode {
    #[default]
    Manual,
    Milestones,
}

impl ProgressMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ProgressMode::Manual => "manual",
            ProgressMode::Milestones => "milestones",
        }
    }

    pub fn parse(s: &str) -> Option<ProgressMode> {
        [ProgressMode::Manual, ProgressMode::Milestones].into_iter().find(|v| v.as_str() == s)
    }
}

/// One step of a project's plan (docs/FEATURES.md, "The project's story"). Dates are calendar
/// days, `YYYY-MM-DD`: a target is a day on the site's calendar, not an instant.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Milestone {
    pub id: String,
    pub project_id: String,
    pub name: String,
    /// 0-based place in the project's ordered list.
    pub position: i32,
    pub target_date: Option<String>,
    /// Set when completed; cleared when reopened.
    pub done_date: Option<String>,
}

/// A project's milestones, in order, as one value: every milestone change sends the
/// whole list (a project has a handful), stamped with the project's version after it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MilestonePlan {
    pub project_id: String,
    pub milestones: Vec<Milestone>,
    /// The project's version this list goes with; a client keeps the newest.
    pub version: i64,
}

/// A photo as a timeline entry shows it: a thumbnail in a strip.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TimelinePhoto {
    pub id: String,
    pub thumb_url: String,
}

/// What happened, with the details the timeline shows.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TimelineDetail {
    ProjectCreated,
    StatusChanged { from: ProjectStatus, to: ProjectStatus },
    ProgressChanged { from: i32, to: i32 },
    MilestoneCompleted {
        #[serde(rename = "milestoneId")]
        milestone_id: String,
        name: String,
    },
    MilestoneReopened {
        #[serde(rename = "milestoneId")]
        milestone_id: String,
        name: String,
    },
    /// A site visit's photos (one upload batch): how many were added, a strip of
    /// the first of them still in the project, and the visit's note.
    PhotosAdded {
        count: i32,
        photos: Vec<TimelinePhoto>,
        note: Option<String>,
    },
    /// A comment on a photo: its opening words and the photo.
    Comment {
        #[serde(rename = "commentId")]
        comment_id: String,
        excerpt: String,
        photo: TimelinePhoto,
    },
    /// Someone drew on a photo: one entry per editing session.
    MarkedUp { photo: TimelinePhoto },
}

/// One entry of a project's activity feed, written in the transaction of the
/// change it records.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEntry {
    pub id: String,
    pub project_id: String,
    /// Who did it, by display name at the time (never an email: guests see this).
    pub actor_name: Option<String>,
    pub actor_role: Option<Role>,
    pub created_at: Millis,
    pub detail: TimelineDetail,
}

/// Which photos a guest link shows (docs/FEATURES.md, "The project's story").
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum GuestPhotos {
    All,
    /// The favourites of whoever made the link, as they change.
    Favourites,
}

impl GuestPhotos {
    pub fn as_str(self) -> &'static str {
        match self {
            GuestPhotos::All => "all",
            GuestPhotos::Favourites => "favourites",
        }
    }

    pub fn parse(s: &str) -> Option<GuestPhotos> {
        [GuestPhotos::All, GuestPhotos::Favourites].into_iter().find(|v| v.as_str() == s)
    }
}

/// A read-only link to one project for people without an account, as its
/// maker sees it. The token itself is shown once, when the link is made.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GuestLink {
    pub id: String,
    pub project_id: String,
    pub photos: GuestPhotos,
    pub downloads: bool,
    /// `None`: never expires.
    pub expires_at: Option<Millis>,
    pub created_at: Millis,
    pub created_by: Option<UserSummary>,
    pub revoked_at: Option<Millis>,
    /// When a guest last opened it.
    pub last_opened_at: Option<Millis>,
    /// A report link: the one report it shows, instead of the project.
    pub report_id: Option<String>,
}

/// What a guest link lets its guest do, as the guest's page needs it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GuestAccess {
    pub link_id: String,
    pub project_id: String,
    pub photos: GuestPhotos,
    pub downloads: bool,
    pub expires_at: Option<Millis>,
    /// Who shared it, by display name.
    pub shared_by: Option<String>,
    /// A report link: the report it shows; the guest's hello carries it.
    pub report_id: Option<String>,
}

/// A point on a photo in its own coordinates: fractions of its width and
/// height as displayed (orientation applied), 0 at the left and top, 1 at the right and
/// bottom. The same numbers fit every rendition and every screen.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// Markup colours: a small palette that reads on sky and on concrete.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum MarkupColor {
    Red,
    Orange,
    Yellow,
    Green,
    Blue,
    White,
    Black,
}

/// Stroke width, and for text labels their size; in proportion to the photo's shorter
/// side, so a drawing looks the same on a thumbnail and a print.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum StrokeWidth {
    Thin,
    Medium,
    Thick,
}

/// What a shape is, and where.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Geometry {
    /// From the tail to the head (the head is at `to`).
    Arrow { from: Point, to: Point },
    Line { from: Point, to: Point },
    /// Between two opposite corners.
    Rect { from: Point, to: Point },
    /// Inside the box between two opposite corners.
    Ellipse { from: Point, to: Point },
    /// A freehand stroke.
    Pen { points: Vec<Point> },
    /// A label; `at` is the top-left corner of its first line.
    Text { at: Point, text: String },
    /// A numbered pin (numbered by its order among the photo's pins) with a note.
    Pin { at: Point, note: String },
}

/// One shape of a photo's markup.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    /// Chosen by the client that drew it (a UUID); kept when it is moved or edited.
    pub id: String,
    pub color: MarkupColor,
    pub width: StrokeWidth,
    pub geometry: Geometry,
    /// Who drew it: set by the server, whatever the client sends.
    #[serde(default)]
    pub author_id: String,
}

/// A photo's markup: a versioned document of shapes over the photo, never a change to
/// its pixels (docs/FEATURES.md, "Markup on photos").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Markup {
    pub image_id: String,
    pub project_id: String,
    /// 0 for a photo never marked up; each saved change adds one.
    pub version: i64,
    /// In drawing order (later shapes on top).
    pub shapes: Vec<Shape>,
    /// The people who drew the shapes, each once.
    pub authors: Vec<UserSummary>,
    pub updated_at: Option<Millis>,
    /// Who made the latest change.
    pub updated_by: Option<UserSummary>,
}

/// Which photos a progress report shows (docs/FEATURES.md, "Progress reports").
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case")]
pub enum ReportPhotos {
    /// Every photo of the period.
    #[default]
    All,
    /// The maker's favourites in the period.
    Favourites,
    /// The photos in `picked` (the gallery's selection).
    Picked,
}

/// How a report's photos are grouped into sections.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case")]
pub enum ReportGrouping {
    /// One section per site visit (upload batch), oldest first.
    #[default]
    Visit,
    /// One section per milestone, in the plan's order; untagged photos last.
    Milestone,
}

/// A before/after pair shown side by side.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "camelCase")]
pub struct ReportPair {
    pub before: String,
    pub after: String,
}

/// What goes into a progress report, as the maker chose it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct ReportOptions {
    /// First day of the period (`YYYY-MM-DD`, inclusive, by the day a photo shows);
    /// absent: from the project's first photo.
    #[serde(default)]
    #[ts(optional)]
    pub from: Option<String>,
    /// Last day of the period (inclusive); absent: up to today.
    #[serde(default)]
    #[ts(optional)]
    pub to: Option<String>,
    /// When not empty, only photos tagged with one of these milestones.
    #[serde(default)]
    pub milestone_ids: Vec<String>,
    #[serde(default)]
    pub photos: ReportPhotos,
    /// The hand-picked photos (`photos: picked`).
    #[serde(default)]
    pub picked: Vec<String>,
    /// Before/after pairs, each shown side by side on the pairs pages.
    #[serde(default)]
    pub pairs: Vec<ReportPair>,
    /// 1, 2 or 4.
    pub per_page: u8,
    #[serde(default)]
    pub group_by: ReportGrouping,
    /// Each photo's comments under it.
    #[serde(default)]
    pub comments: bool,
    /// Markup drawn on the photos.
    #[serde(default)]
    pub markup: bool,
}

/// Where a report's generation is.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    Generating,
    Ready,
    Failed,
}

impl ReportStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportStatus::Generating => "generating",
            ReportStatus::Ready => "ready",
            ReportStatus::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<ReportStatus> {
        [ReportStatus::Generating, ReportStatus::Ready, ReportStatus::Failed].into_iter().find(|v| v.as_str() == s)
    }
}

/// A progress report as its project's people see it in the list.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub id: String,
    pub project_id: String,
    pub options: ReportOptions,
    pub status: ReportStatus,
    /// Photos placed so far, of `total`.
    pub done: i32,
    pub total: i32,
    /// Once ready.
    pub pages: Option<i32>,
    pub byte_size: Option<i64>,
    /// Why it failed, in words for the maker.
    pub error: Option<String>,
    pub created_at: Millis,
    pub created_by: Option<UserSummary>,
    pub finished_at: Option<Millis>,
    /// When it was last mailed to the homeowner, and to whom (their name).
    pub mailed_at: Option<Millis>,
    pub mailed_to: Option<String>,
}

/// A report as its link's guest sees it: what it shows, as it was made,
/// and where its PDF is.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SharedReport {
    pub id: String,
    pub pages: i32,
    pub byte_size: i64,
    pub created_at: Millis,
    /// The maker's display name (never an address).
    pub made_by: Option<String>,
    /// `None` for a report made before its content was kept: its PDF shows it.
    pub content: Option<ReportContent>,
    pub pdf_url: String,
}

/// Where a milestone stands on the report's day.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ReportMilestoneState {
    Done,
    /// The first milestone not done (late or not).
    Current,
    /// Not done, target day passed.
    Late,
    Upcoming,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportMilestone {
    pub name: String,
    pub state: ReportMilestoneState,
    /// Late as well as current, when both are true.
    pub late: bool,
    pub target_date: Option<String>,
    pub done_date: Option<String>,
}

/// One photo as a report shows it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportPhoto {
    pub photo: ProjectImage,
    /// Oldest first; empty when the report leaves comments out.
    pub comments: Vec<Comment>,
    /// Empty when the report leaves markup out.
    pub shapes: Vec<Shape>,
}

/// A site visit's or a milestone's photos.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportSection {
    /// The milestone's name (grouped by milestone; `None` for photos without one).
    pub milestone: Option<String>,
    /// The day the visit's first photo shows (grouped by visit).
    pub date: Option<Millis>,
    /// The visit's note.
    pub note: Option<String>,
    pub photos: Vec<ReportPhoto>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportPairView {
    pub before: ReportPhoto,
    pub after: ReportPhoto,
}

/// Everything a report shows, in order: the preview, the report link's page and the
/// PDF are all drawn from this.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReportContent {
    pub project: Project,
    /// The period as chosen, or as the photos span it.
    pub from: Option<String>,
    pub to: Option<String>,
    pub generated_at: Millis,
    pub per_page: u8,
    pub milestones: Vec<ReportMilestone>,
    pub sections: Vec<ReportSection>,
    pub pairs: Vec<ReportPairView>,
    /// What changed in the period, oldest first (from the timeline).
    pub changes: Vec<TimelineEntry>,
}
