//! The envelope: a client sends requests with a correlation id; the server answers each
//! with a reply or an error carrying that id, and pushes events in between.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::ApiError;
use crate::types::{
    Comment, Company, CompanyRole, GuestAccess, GuestLink, GuestPhotos, ImageCategory, InstallationSettings, MailPreferences, Markup, MilestonePlan,
    Millis, Notification, Profile, ProgressMode, Project, ProjectImage, ProjectStatus, Report, ReportContent, ReportOptions, SharedReport,
    Role, SearchResults, Security, PushSettings, Shape, TagUse, TimelineEntry, TotpEnrolment, UserSummary,
};

/// Bumped on any incompatible change; the first server frame carries it.
pub const PROTOCOL_VERSION: u32 = 1;

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ClientMsg {
    /// Chosen by the client; echoed on the reply or error.
    pub id: u32,
    pub request: Request,
}

/// Every request a client can make. Each is answered by the one `Response` paired with
/// it in `replies.rs`, or by an error.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Application-level liveness check.
    Ping(Ping),
    /// The user tables this user may see (SPEC.md §2 dashboards).
    ListUsers(ListUsers),
    /// Admin: invite a user of any role.
    CreateUser(CreateUser),
    /// Admin (anyone) or builder (homeowners).
    UpdateUser(UpdateUser),
    /// Admin, not self.
    DeleteUser(DeleteUser),
    /// Admin, not self: what deleting this user would take with them, for the
    /// confirmation dialog (the same permission as `DeleteUser`).
    UserDeletionImpact(UserDeletionImpact),
    /// Projects this user may see, newest update first.
    ListProjects(ListProjects),
    GetProject(GetProject),
    /// Admin.
    CreateProject(CreateProject),
    /// Details: admin or the project's builder; status and progress: admin.
    UpdateProject(UpdateProject),
    /// Admin.
    DeleteProject(DeleteProject),
    /// Start receiving this project's detail events (photos, viewers); the reply carries
    /// the photos and this user's favourites among them.
    Subscribe(Subscribe),
    Unsubscribe(Unsubscribe),
    /// Own name and phone.
    UpdateProfile(ProfileUpdate),
    /// Own password; ends the user's other sessions.
    ChangePassword(PasswordChange),
    /// A client-side log entry, stored (SPEC.md §3 logs).
    Log(LogEntry),
    /// A project's photos, newest first, and which of them this user favourited.
    ListPhotos(ListPhotos),
    /// Admin or the project's builder: caption and category.
    UpdatePhoto(UpdatePhoto),
    /// Admin: the photo and its stored files.
    DeletePhoto(DeletePhoto),
    /// Mark or unmark a favourite; setting what is already set succeeds.
    /// The user's other sockets hear `favourite_changed`.
    SetFavourite(SetFavourite),
    /// A photo's comments, oldest first, and the people who may see its project (for
    /// @mentions).
    ListComments(ListComments),
    /// A photo's markup (docs/FEATURES.md, "Markup on photos"): anyone who may see the
    /// photo, guests too.
    GetMarkup(GetMarkup),
    /// Replaces a photo's markup with `shapes`, if it is still at `baseVersion`
    /// (otherwise `conflict`). Admins and the project's builder draw anything;
    /// the homeowner adds, moves and removes their own pins.
    SaveMarkup(SaveMarkup),
    /// Anyone who may see the photo's project.
    AddComment(AddComment),
    /// The author only.
    EditComment(EditComment),
    /// The author, or an admin.
    DeleteComment(DeleteComment),
    /// This user's notifications, newest first, a page at a time: those created
    /// before `before` (the oldest one held), or the newest page.
    ListNotifications(ListNotifications),
    /// Marking what is read already succeeds; the user's other sockets hear of it.
    MarkNotificationRead(MarkNotificationRead),
    MarkAllNotificationsRead(MarkAllNotificationsRead),
    /// Own mail preferences.
    GetMailPreferences(GetMailPreferences),
    UpdateMailPreferences(MailPreferences),
    /// A project's milestones, in order (anyone who may see the project, guests too).
    ListMilestones(ListMilestones),
    /// Admin or the project's builder: a milestone at the end of the list.
    AddMilestone(AddMilestone),
    /// Admin or the project's builder: the standard residential plan, appended.
    AddMilestoneTemplate(AddMilestoneTemplate),
    /// Admin or the project's builder: rename or (re)date.
    UpdateMilestone(UpdateMilestone),
    /// Admin or the project's builder: complete (on `doneDate`, default today, UTC)
    /// or reopen.
    SetMilestoneDone(SetMilestoneDone),
    /// Admin or the project's builder: move to `position` (0-based), the others shift.
    MoveMilestone(MoveMilestone),
    /// Admin or the project's builder. Photos tagged with it lose the tag.
    DeleteMilestone(DeleteMilestone),
    /// A project's activity, newest first, a page at a time: the page after the cursor
    /// `before` (a previous page's `next`), or the newest page.
    ListTimeline(ListTimeline),
    /// The project's homeowner, its builder or an admin: a read-only link for guests.
    CreateGuestLink(CreateGuestLink),
    /// The links to a project this user made (admins: everyone's).
    ListGuestLinks(ListGuestLinks),
    /// Its maker or an admin; the link's open pages close at once, on every instance.
    RevokeGuestLink(RevokeGuestLink),
    /// Projects, photos and comments this user may see whose words start
    /// with the query's words (guests: photos of their link). With `watch`, this
    /// socket hears `search_changed` while the results are open.
    Search(Search),
    /// The results are closed: no more `search_changed`.
    EndSearch(EndSearch),
    /// A project's tags with how many photos carry each, and the suggested ones
    /// (anyone who may see the project).
    ListTags(ListTags),
    /// Admin or the project's builder: add and remove tags on some of its photos.
    TagPhotos(TagPhotos),
    /// Uploads sent ahead of publishing (tus metadata `held`) become one site visit:
    /// their captions, categories, note, milestone and tags are set now, and each
    /// becomes a photo as its last byte is in (at once, for those already whole).
    /// The uploader only, while they may still upload to the project.
    PublishUploads(PublishUploads),
    /// What a report with these options would show, for the preview (whoever
    /// may make it).
    PreviewReport(PreviewReport),
    /// Admins and the project's builder; the homeowner, of their favourites. Answers at
    /// once; the project's open pages hear `report_changed` as it is generated.
    MakeReport(MakeReport),
    /// A project's reports, newest first (anyone who may see the project but guests).
    ListReports(ListReports),
    /// Its maker or an admin.
    DeleteReport(DeleteReport),
    /// Whoever may share the project and see its reports: a link that shows one ready
    /// report to anyone, without an account (a guest link; revoked like one).
    ShareReport(ShareReport),
    /// Admins and the project's builder: mail a ready report to the homeowner (the
    /// PDF attached when it is small enough, and a link to it in the app).
    MailReport(MailReport),
    /// Admin.
    GetInstallationSettings(GetInstallationSettings),
    /// Admin.
    UpdateInstallationSettings(InstallationSettings),
    /// The companies this user may see: admins all, a builder their own.
    ListCompanies(ListCompanies),
    /// Admin: a company with no members yet (invite its owner next).
    CreateCompany(CreateCompany),
    /// Admin or the company's owner: its name.
    UpdateCompany(UpdateCompany),
    /// Admin: the company, its projects (with their photos) and its members' logins.
    DeleteCompany(DeleteCompany),
    /// Admin: what deleting a company would take with it, for the confirmation dialog.
    CompanyDeletionImpact(CompanyDeletionImpact),
    /// Admin, the company's owner (any role) or a manager (crew): a new member, mailed
    /// an invitation to set their password.
    InviteMember(InviteMember),
    /// Admin or the company's owner: a member's role, or whether crew see every project.
    UpdateMember(UpdateMember),
    /// Admin or the company's owner: the member leaves the company (their sessions end
    /// on every instance; what they uploaded stays, with their name).
    RemoveMember(RemoveMember),
    /// Admin, or the owner or a manager of the project's company: who of its crew is on
    /// the project.
    SetProjectCrew(SetProjectCrew),
    /// This account's second factors and signed-in devices.
    GetSecurity(GetSecurity),
    /// Starts enrolling an authenticator app: a new secret, shown as a QR code and as
    /// text, that a code from it confirms.
    StartTotp(StartTotp),
    /// The code that proves the app holds the secret: the app is on, and the answer
    /// holds ten recovery codes, shown this once.
    ConfirmTotp(ConfirmTotp),
    /// Turns the app off: the password (or a passkey just used) and a fresh factor.
    RemoveTotp(RemoveTotp),
    /// Ten new recovery codes in place of the old ones (a fresh factor).
    NewRecoveryCodes(NewRecoveryCodes),
    /// Starts adding a passkey: the browser's creation options (JSON).
    StartPasskey(StartPasskey),
    /// The browser's new credential (JSON), named by the user.
    AddPasskey(AddPasskey),
    RenamePasskey(RenamePasskey),
    /// The password (or another passkey just used) and a fresh factor.
    RemovePasskey(RemovePasskey),
    /// Proves a second factor again in this session (a code or recovery code), for the
    /// sensitive actions that want one from the last 15 minutes.
    VerifyFactor(VerifyFactor),
    /// The same with a passkey: its request options (JSON), then `VerifyFactorPasskey`.
    StartFactorPasskey(StartFactorPasskey),
    VerifyFactorPasskey(VerifyFactorPasskey),
    /// Signs out one of this account's other sessions, on every instance.
    EndSession(EndSession),
    /// Signs out every session of this account but this one.
    EndOtherSessions(EndOtherSessions),
    /// Admin, not self: removes a user's second factors and passkeys (logged, mailed).
    ResetFactors(ResetFactors),
    /// The server's push key and this account's devices with notifications
    /// on; `endpoint` (this browser's push subscription, if any) marks this device.
    GetPushSettings(GetPushSettings),
    /// Turns notifications on for this device: its browser's push subscription.
    SubscribePush(SubscribePush),
    /// Turns them off for this device.
    UnsubscribePush(UnsubscribePush),
    /// Turns them off for another of this account's devices.
    RemovePushDevice(RemovePushDevice),
}

/// docs/SECURITY.md, "Two-factor sign-in".
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetSecurity {}

/// docs/FEATURES.md, "Comments, notifications and mail" (push notifications).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetPushSettings {
    #[serde(default)]
    #[ts(optional)]
    pub endpoint: Option<String>,
}

/// A browser's `PushSubscription`: where to send, and its keys (base64url), which
/// encrypt what is sent so only that browser reads it (RFC 8291).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct SubscribePush {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct UnsubscribePush {
    pub endpoint: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RemovePushDevice {
    pub id: String,
    /// This browser's subscription, to mark this device in the answer.
    #[serde(default)]
    #[ts(optional)]
    pub endpoint: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StartTotp {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ConfirmTotp {
    pub code: String,
}

/// A factor goes only with the password, or with a passkey used in the last minutes.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RemoveTotp {
    #[serde(default)]
    pub password: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct NewRecoveryCodes {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StartPasskey {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AddPasskey {
    pub challenge_id: String,
    pub name: String,
    /// The browser's `PublicKeyCredential`, as JSON (`toJSON()`).
    pub credential: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RenamePasskey {
    pub id: String,
    pub name: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RemovePasskey {
    pub id: String,
    #[serde(default)]
    pub password: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct VerifyFactor {
    pub code: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StartFactorPasskey {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VerifyFactorPasskey {
    pub challenge_id: String,
    pub credential: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct EndSession {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct EndOtherSessions {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResetFactors {
    pub user_id: String,
}

/// docs/FEATURES.md, "Builder companies".
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListCompanies {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct CreateCompany {
    pub name: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct UpdateCompany {
    pub id: String,
    pub name: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeleteCompany {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct CompanyDeletionImpact {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct InviteMember {
    pub company_id: String,
    pub email: String,
    pub name: String,
    #[serde(default)]
    pub phone: String,
    pub company_role: CompanyRole,
    /// Crew: see every project of the company, not only those they are put on.
    #[serde(default)]
    pub all_projects: bool,
}

/// Only the fields present change.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UpdateMember {
    pub id: String,
    #[serde(default)]
    #[ts(optional)]
    pub company_role: Option<CompanyRole>,
    #[serde(default)]
    #[ts(optional)]
    pub all_projects: Option<bool>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RemoveMember {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SetProjectCrew {
    pub project_id: String,
    /// Members of the project's company; the crew becomes exactly these.
    pub user_ids: Vec<String>,
}

// One type per request: what a handler of that request takes (`RequestMessage`
// pairs it with its reply). On the wire each is its `Request` variant's fields.

/// Application-level liveness check.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct Ping {}

/// A page of one user table this user may see (SPEC.md §2 Tables), searched, sorted
/// and paged by the server: an admin with ten thousand homeowners never holds them all.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ListUsers {
    pub role: Role,
    /// A case-insensitive substring of the name or email; blank lists everyone.
    #[serde(default)]
    pub query: String,
    #[serde(default)]
    pub sort: UserSort,
    #[serde(default)]
    pub descending: bool,
    /// 0-based; past the last page answers the last page.
    #[serde(default)]
    pub page: u32,
}

impl ListUsers {
    /// The first page of `role`'s table, by name.
    pub fn first(role: Role) -> Self {
        ListUsers { role, query: String::new(), sort: UserSort::Name, descending: false, page: 0 }
    }

    /// The first page of `role`'s table whose name or email holds `query`.
    pub fn search(role: Role, query: impl Into<String>) -> Self {
        ListUsers { query: query.into(), ..ListUsers::first(role) }
    }
}

/// The column a user table sorts by; the name, then the id, breaks ties, and empty
/// values (no phone, no builder) go last in either direction.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum UserSort {
    #[default]
    Name,
    Email,
    Phone,
    Projects,
    Builder,
}

/// Admin, not self.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeleteUser {
    pub id: String,
}

/// Admin, not self: what deleting this user would take with them, for the
/// confirmation dialog (the same permission as `DeleteUser`).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct UserDeletionImpact {
    pub id: String,
}

/// A page of the projects this user may see, newest update first; `after` is the
/// previous page's `next`.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListProjects {
    #[serde(default)]
    #[ts(optional)]
    pub after: Option<String>,
}

impl ListProjects {
    pub fn first() -> Self {
        ListProjects { after: None }
    }
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetProject {
    pub id: String,
}

/// Admin.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeleteProject {
    pub id: String,
}

/// Start receiving this project's detail events (photos, viewers); the reply carries
/// the first page of the photos, how many there are, and this user's favourites among
/// that page (`ListPhotos` reads the rest).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct Subscribe {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct Unsubscribe {
    pub id: String,
}

/// A page of a project's photos, newest first, and which of them this user favourited:
/// the page after the cursor `after` (a previous page's `next`, or `Subscribed`'s
/// `nextPhotos`), or the first page. `limit` asks for fewer than the server's page
/// (at most `PHOTO_PAGE`); every reply also stays under `PHOTO_PAGE_BYTES`.
/// Without `after`, `before` starts the page at the photos shown before that time: a
/// month a year back opens on one reply, however many photos are newer.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListPhotos {
    #[serde(rename = "projectId")]
    pub project_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before: Option<Millis>,
}

impl ListPhotos {
    /// The first page.
    pub fn first(project_id: impl Into<String>) -> Self {
        ListPhotos { project_id: project_id.into(), after: None, limit: None, before: None }
    }
}

/// The most photos one `ListPhotos` reply carries.
pub const PHOTO_PAGE: u32 = 100;
/// The most photos `Subscribed` carries: enough to fill a screen several times, so a
/// project opens on its first reply however many photos it has.
pub const FIRST_PHOTO_PAGE: u32 = 60;
/// What a page of photos may weigh on the wire: a page ends early rather than pass it,
/// so with its envelope a reply stays under `MAX_FRAME_BYTES`, the bound on frames the
/// other way, and a slow link gets replies in small, steady pieces (a favourite's reply
/// never waits behind a big one).
pub const PHOTO_PAGE_BYTES: usize = 56 * 1024;

/// The most projects one `ListProjects` reply carries; like photo pages, a reply also
/// stays under `PHOTO_PAGE_BYTES`.
pub const PROJECT_PAGE: usize = 100;
/// The most projects the hello carries: a dashboard's first screen and then some, so
/// an admin of a thousand projects is greeted in one small frame.
pub const FIRST_PROJECT_PAGE: usize = 24;
/// Rows on one page of a user table.
pub const USER_PAGE: u32 = 50;

/// Admin: the photo and its stored files.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeletePhoto {
    pub id: String,
}

/// Mark or unmark a favourite; setting what is already set succeeds.
/// The user's other sockets hear `favourite_changed`.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct SetFavourite {
    #[serde(rename = "imageId")]
    pub image_id: String,
    pub favourite: bool,
}

/// A photo's comments, oldest first, and the people who may see its project (for
/// @mentions).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListComments {
    #[serde(rename = "imageId")]
    pub image_id: String,
}

/// docs/FEATURES.md, "Tags and search". `query`: words, each matched as a word's start;
/// at most 200 characters.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    pub query: String,
    /// Only this project (the project page's search); guests always search theirs.
    pub project_id: Option<String>,
    /// Hear `search_changed` until `end_search` or the next search without it.
    pub watch: bool,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct EndSearch {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListTags {
    #[serde(rename = "projectId")]
    pub project_id: String,
}

/// Tags named as people write them; case does not tell two tags apart.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TagPhotos {
    pub project_id: String,
    pub image_ids: Vec<String>,
    pub add_tags: Vec<String>,
    pub remove_tags: Vec<String>,
}

/// A site visit's files, sent while the uploader wrote its captions and note
/// (docs/FEATURES.md, "Photo upload").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PublishUploads {
    pub project_id: String,
    /// Chosen by the client, like a batch's `batchId` in tus metadata.
    pub batch_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub milestone_id: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// At most `MAX_FILES_PER_UPLOAD`, each a held upload of this user's to this project.
    pub files: Vec<PublishedFile>,
}

/// One file of `PublishUploads`.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PublishedFile {
    /// The last segment of its tus upload's URL.
    pub upload_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub caption: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub category: Option<ImageCategory>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetInstallationSettings {}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetMarkup {
    #[serde(rename = "imageId")]
    pub image_id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SaveMarkup {
    pub image_id: String,
    /// The version the editor started from.
    pub base_version: i64,
    pub shapes: Vec<Shape>,
}

/// Anyone who may see the photo's project.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct AddComment {
    #[serde(rename = "imageId")]
    pub image_id: String,
    pub body: String,
}

/// The author only.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct EditComment {
    pub id: String,
    pub body: String,
}

/// The author, or an admin.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeleteComment {
    pub id: String,
}

/// This user's notifications, newest first, a page at a time: those created
/// before `before` (the oldest one held), or the newest page.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListNotifications {
    #[serde(default)]
    #[ts(optional)]
    pub before: Option<Millis>,
}

/// Marking what is read already succeeds; the user's other sockets hear of it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct MarkNotificationRead {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct MarkAllNotificationsRead {}

/// Own mail preferences.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct GetMailPreferences {}

/// A project's milestones, in order (anyone who may see the project, guests too).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListMilestones {
    #[serde(rename = "projectId")]
    pub project_id: String,
}

/// Admin or the project's builder: the standard residential plan, appended.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct AddMilestoneTemplate {
    #[serde(rename = "projectId")]
    pub project_id: String,
}

/// Admin or the project's builder: move to `position` (0-based), the others shift.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct MoveMilestone {
    pub id: String,
    pub position: i32,
}

/// Admin or the project's builder. Photos tagged with it lose the tag.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DeleteMilestone {
    pub id: String,
}

/// A project's activity, newest first, a page at a time: the page after the cursor
/// `before` (a previous page's `next`), or the newest page.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListTimeline {
    #[serde(rename = "projectId")]
    pub project_id: String,
    #[serde(default)]
    #[ts(optional)]
    pub before: Option<String>,
}

/// The links to a project this user made (admins: everyone's).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ListGuestLinks {
    #[serde(rename = "projectId")]
    pub project_id: String,
}

/// Its maker or an admin; the link's open pages close at once, on every instance.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct RevokeGuestLink {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AddMilestone {
    pub project_id: String,
    pub name: String,
    #[serde(default)]
    #[ts(optional)]
    pub target_date: Option<String>,
}

/// Only the fields present change; an empty `targetDate` removes the date.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct UpdateMilestone {
    pub id: String,
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub target_date: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SetMilestoneDone {
    pub id: String,
    pub done: bool,
    /// `YYYY-MM-DD`; today (UTC) when absent.
    #[serde(default)]
    #[ts(optional)]
    pub done_date: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreateGuestLink {
    pub project_id: String,
    pub photos: GuestPhotos,
    pub downloads: bool,
    /// 1, 7 or 30; absent: never expires.
    #[serde(default)]
    #[ts(optional)]
    pub expires_in_days: Option<u32>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PreviewReport {
    pub project_id: String,
    pub options: ReportOptions,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MakeReport {
    pub project_id: String,
    pub options: ReportOptions,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ListReports {
    pub project_id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeleteReport {
    pub id: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ShareReport {
    pub report_id: String,
    /// 1, 7 or 30; absent: never expires.
    #[serde(default)]
    #[ts(optional)]
    pub expires_in_days: Option<u32>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MailReport {
    pub id: String,
}

/// How a new project's milestones start (docs/FEATURES.md, "The project's story").
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum MilestoneStart {
    #[default]
    Empty,
    /// Site preparation, Foundation, Framing, Roofing, Rough-in, Insulation & drywall,
    /// Finishes, Final inspection, Handover.
    Residential,
}

/// Only the fields present change. An empty caption removes it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePhoto {
    pub id: String,
    #[serde(default)]
    #[ts(optional)]
    pub caption: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub category: Option<ImageCategory>,
    /// Tag the photo with one of its project's milestones; empty removes the tag.
    #[serde(default)]
    #[ts(optional)]
    pub milestone_id: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreateUser {
    pub role: Role,
    pub email: String,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    /// Builders (company name); for others it is derived from first and last name.
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub phone: String,
    /// For homeowners: their builder.
    #[serde(default)]
    pub builder_id: Option<String>,
}

/// Only the fields present change; email, id, role and createdAt never do.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct UpdateUser {
    pub id: String,
    #[serde(default)]
    #[ts(optional)]
    pub first_name: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub last_name: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub phone: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreateProject {
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub address: String,
    pub homeowner_id: String,
    #[serde(default)]
    pub builder_id: Option<String>,
    pub status: ProjectStatus,
    #[serde(default)]
    pub progress: i32,
    #[serde(default)]
    #[ts(optional)]
    pub progress_mode: Option<ProgressMode>,
    #[serde(default)]
    #[ts(optional)]
    pub milestones: Option<MilestoneStart>,
}

/// Only the fields present change. An empty `builderId` removes the builder.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct UpdateProject {
    pub id: String,
    #[serde(default)]
    #[ts(optional)]
    pub title: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub description: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub address: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub homeowner_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub builder_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub status: Option<ProjectStatus>,
    #[serde(default)]
    #[ts(optional)]
    pub progress: Option<i32>,
    /// One of the project's photos to show as its thumbnail; an empty id goes back to
    /// the newest photo. Admins only.
    #[serde(default)]
    #[ts(optional)]
    pub thumbnail_id: Option<String>,
    /// Admins: whether progress follows the milestones.
    #[serde(default)]
    #[ts(optional)]
    pub progress_mode: Option<ProgressMode>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUpdate {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub phone: String,
    /// A builder's company name, which they edit like any other detail (SPEC.md §2:
    /// only email and role are read-only). Absent keeps it; ignored for homeowners
    /// and admins, whose name follows first and last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    pub current_password: String,
    pub new_password: String,
    pub confirm_password: String,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub level: String,
    pub message: String,
    /// Free-form details, typically JSON text.
    #[serde(default)]
    pub data: Option<String>,
}

/// A row of the user tables: the profile plus what the tables derive.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UserListing {
    pub user: Profile,
    /// Projects of this user (for a builder's view: with that builder).
    pub project_count: i64,
    /// For homeowners: their builder's name.
    pub builder_name: Option<String>,
}

/// How many people of each role a user table's viewer sees, before any search.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct UserCounts {
    pub admins: u32,
    pub builders: u32,
    pub homeowners: u32,
}

/// A request's successful answer; `replies.rs` says which one answers which request.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    Pong,
    /// One page of a user table: `total` rows match the search, `counts` are per role.
    UserPage {
        role: Role,
        listings: Vec<UserListing>,
        total: u32,
        page: u32,
        #[serde(rename = "pageSize")]
        page_size: u32,
        counts: UserCounts,
    },
    User { user: Profile },
    /// `next` reads the following page; `None` after the last.
    Projects {
        projects: Vec<Project>,
        #[serde(default)]
        next: Option<String>,
    },
    Project { project: Project },
    Subscribed {
        project: Project,
        viewers: Vec<UserSummary>,
        /// The first page of the photos.
        photos: Vec<ProjectImage>,
        /// Ids of this user's favourites among `photos`.
        favourites: Vec<String>,
        milestones: MilestonePlan,
        /// The cursor of the next page (`ListPhotos`'s `after`); `None` when `photos`
        /// is all of them.
        #[serde(rename = "nextPhotos")]
        next_photos: Option<String>,
        /// How many photos the project has.
        #[serde(rename = "photoCount")]
        photo_count: u32,
    },
    Photos {
        #[serde(rename = "projectId")]
        project_id: String,
        photos: Vec<ProjectImage>,
        /// Ids of this user's favourites among `photos`.
        favourites: Vec<String>,
        /// The cursor of the next page; `None` at the oldest photo.
        next: Option<String>,
    },
    Photo { photo: ProjectImage },
    /// The projects a user owns (as homeowner or builder) and those projects' photos:
    /// everything `DeleteUser` removes with them.
    DeletionImpact { projects: u32, photos: u32 },
    Companies { companies: Vec<Company> },
    Company { company: Company },
    /// What `DeleteCompany` removes: its projects, their photos and its members' logins.
    CompanyDeletionImpact { projects: u32, photos: u32, members: u32 },
    Comments {
        #[serde(rename = "imageId")]
        image_id: String,
        comments: Vec<Comment>,
        /// Who may see the project, and so may be @mentioned: its homeowner, its
        /// builder and the admins.
        people: Vec<UserSummary>,
    },
    Comment { comment: Comment },
    Markup { markup: Markup },
    Notifications {
        notifications: Vec<Notification>,
        /// This user's unread notifications, all pages.
        unread: i64,
        /// Whether older notifications remain.
        #[serde(rename = "hasMore")]
        has_more: bool,
    },
    MailPreferences { preferences: MailPreferences },
    Milestones { plan: MilestonePlan },
    Timeline {
        #[serde(rename = "projectId")]
        project_id: String,
        entries: Vec<TimelineEntry>,
        /// The cursor of the next (older) page; `None` at the first entry.
        next: Option<String>,
    },
    /// A new guest link and its address, shown this once (only a hash is kept).
    GuestLinkCreated { link: GuestLink, url: String },
    GuestLinks {
        #[serde(rename = "projectId")]
        project_id: String,
        links: Vec<GuestLink>,
    },
    SearchResults { results: SearchResults },
    Tags {
        #[serde(rename = "projectId")]
        project_id: String,
        /// Used tags first (most photos first), then the suggestions not used yet.
        tags: Vec<TagUse>,
    },
    /// The tagged photos as they now are.
    Tagged { photos: Vec<ProjectImage> },
    /// A report's content as it would be made now (the preview): the photos of its
    /// first pages, and how many photos and pages the whole report would have.
    ReportPreview { content: ReportContent, photos: i32, pages: i32 },
    Report { report: Report },
    Reports {
        #[serde(rename = "projectId")]
        project_id: String,
        reports: Vec<Report>,
    },
    InstallationSettings {
        settings: InstallationSettings,
        /// How many photos have a location kept.
        #[serde(rename = "photosWithLocation")]
        photos_with_location: i64,
    },
    Security { security: Security },
    PushSettings { settings: PushSettings },
    TotpEnrolment { enrolment: TotpEnrolment },
    /// Shown once: only their hashes are kept.
    RecoveryCodes { codes: Vec<String> },
    /// A WebAuthn ceremony's options for `navigator.credentials`, as JSON.
    PasskeyChallenge {
        #[serde(rename = "challengeId")]
        challenge_id: String,
        options: String,
    },
    Done,
}

/// Everything this user may see, sent on (re)connect. The client replaces its mirror
/// with it; events that follow patch it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// The first page of the projects visible to the user, most recently updated first;
    /// `ListProjects` reads the rest from `nextProjects`.
    pub projects: Vec<Project>,
    /// How many projects the user sees in all.
    #[serde(default)]
    pub project_count: u32,
    /// The cursor of the next page of projects; `None` when `projects` holds them all.
    #[serde(default)]
    pub next_projects: Option<String>,
    /// Other users the client holds (admins: the other admins and builders, while
    /// homeowners are searched through `ListUsers`; builders: the homeowners on their
    /// projects; homeowners: nobody).
    pub users: Vec<Profile>,
    /// Ids of the users visible to this user who are online now, held or not.
    pub online: Vec<String>,
    /// Builder companies: admins all, a builder their own, homeowners none.
    #[serde(default)]
    pub companies: Vec<Company>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    pub protocol_version: u32,
    pub server_time: Millis,
    pub user: Profile,
    pub snapshot: Snapshot,
}

/// A guest's first frame: what the link shows, instead of a user's snapshot.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GuestHello {
    pub protocol_version: u32,
    pub server_time: Millis,
    pub access: GuestAccess,
    pub project: Project,
    pub milestones: MilestonePlan,
    /// The first page of the photos the link shows, newest first (none on a report
    /// link); `ListPhotos` reads the rest from `nextPhotos`.
    pub photos: Vec<ProjectImage>,
    /// How many photos the link shows.
    #[serde(default)]
    pub photo_count: u32,
    /// The cursor of the next page of photos; `None` when `photos` holds them all.
    #[serde(default)]
    pub next_photos: Option<String>,
    /// A report link's report; its page shows that instead of the project.
    pub report: Option<Box<SharedReport>>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The session behind this socket ended (logout, password change, account
    /// deleted); the server closes the socket right after.
    SessionEnded { reason: String },
    ProjectCreated { project: Project },
    /// `actor` is who changed it (SPEC.md §7: status and progress changes carry it).
    ProjectUpdated { project: Project, actor: Option<UserSummary> },
    /// Also sent when a project leaves the user's view (another homeowner or builder).
    ProjectDeleted { id: String, version: i64 },
    UserCreated { user: Profile },
    UserUpdated { user: Profile },
    UserDeleted { id: String, version: i64 },
    Presence { #[serde(rename = "userId")] user_id: String, online: bool },
    /// Who has this project open right now.
    Viewers { #[serde(rename = "projectId")] project_id: String, viewers: Vec<UserSummary> },
    /// To sockets subscribed to the photo's project: a photo is stored and ready.
    PhotoAdded { photo: ProjectImage },
    /// To subscribed sockets: caption or category changed (`version` grows).
    PhotoUpdated { photo: ProjectImage },
    /// To subscribed sockets.
    PhotoDeleted { id: String, #[serde(rename = "projectId")] project_id: String },
    /// To the user's own sockets: a favourite was set or cleared (another tab, another
    /// device, or this one).
    FavouriteChanged {
        #[serde(rename = "projectId")]
        project_id: String,
        #[serde(rename = "imageId")]
        image_id: String,
        favourite: bool,
    },
    /// To sockets subscribed to the photo's project. `commentCount` is the photo's new
    /// count.
    CommentAdded {
        comment: Comment,
        #[serde(rename = "commentCount")]
        comment_count: i64,
    },
    /// To subscribed sockets: the author edited it.
    CommentUpdated { comment: Comment },
    /// To the user's own sockets only.
    NotificationAdded { notification: Notification, unread: i64 },
    /// To the user's own sockets: notifications were read (`all`: every one up to now),
    /// on this tab, another, or another device.
    NotificationsRead { ids: Vec<String>, all: bool, unread: i64 },
    /// To subscribed sockets.
    CommentDeleted {
        id: String,
        #[serde(rename = "imageId")]
        image_id: String,
        #[serde(rename = "projectId")]
        project_id: String,
        #[serde(rename = "commentCount")]
        comment_count: i64,
    },
    /// To sockets subscribed to the photo's project, and guests who see the photo: its
    /// markup as it now is, and who changed it.
    MarkupChanged { markup: Markup, actor: Option<UserSummary> },
    /// To subscribed sockets (guests too): the project's milestones as they now are.
    MilestonesChanged { plan: MilestonePlan },
    /// To subscribed sockets (guests too): a new timeline entry.
    TimelineAdded { entry: TimelineEntry },
    /// To subscribed sockets: an entry is gone (its comment was deleted).
    TimelineRemoved {
        #[serde(rename = "projectId")]
        project_id: String,
        id: String,
    },
    /// To sockets with open search results (`search` with `watch`) whose user may see
    /// the project: something searchable in it changed; search again to see it.
    SearchChanged {
        #[serde(rename = "projectId")]
        project_id: String,
    },
    /// To subscribed sockets (not guests): a report was made, moved on, finished or failed.
    ReportChanged { report: Report },
    /// To subscribed sockets (not guests).
    ReportDeleted {
        id: String,
        #[serde(rename = "projectId")]
        project_id: String,
    },
    /// A company was made or changed: its name, members or project count.
    /// To admins and its members.
    CompanyChanged { company: Company },
    /// To admins and its former members.
    CompanyDeleted { id: String, version: i64 },
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Hello(Hello),
    GuestHello(GuestHello),
    Reply { id: u32, response: Response },
    /// `id` is null when the frame was too broken to carry one.
    Error { id: Option<u32>, error: ApiError },
    Event { event: Event },
}
