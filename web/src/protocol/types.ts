// Generated from the Rust `protocol` crate by `cargo test -p sitecast-protocol`.
// Do not edit: change the Rust types and run `UPDATE_TS_TYPES=1 cargo test -p sitecast-protocol`.

export const PROTOCOL_VERSION = 1;
export const MAX_FRAME_BYTES = 65536;

export type Role = "admin" | "builder" | "homeowner";

export type CompanyRole = "owner" | "manager" | "crew";

export type ProjectStatus = "planning" | "in-progress" | "on-hold" | "completed";

export type ImageCategory = "interior" | "exterior" | "structural" | "finishes" | "other" | "general";

export type ProgressMode = "manual" | "milestones";

export type Profile = { id: string, email: string, role: Role, name: string | null, firstName: string | null, lastName: string | null, phone: string | null, 
/**
 * For homeowners: the builder they work with, if any.
 */
builderId: string | null, 
/**
 * For builders: their company, their place in it, and (crew) whether
 * they see all its projects rather than those they are on.
 */
companyId: string | null, companyName: string | null, companyRole: CompanyRole | null, allProjects: boolean, emailConfirmedAt: number | null, lastSignInAt: number | null, createdAt: number, 
/**
 * Monotonic per user; a client ignores an event older than what it holds.
 */
version: number, };

export type UserSummary = { id: string, email: string, name: string | null, role: Role, createdAt: number, 
/**
 * A builder's company: shown beside their name ("Dana Ortiz · Summit Homes").
 */
company: string | null, };

export type Byline = { id: string, name: string, company: string | null, };

export type Member = { id: string, email: string, name: string, phone: string | null, companyRole: CompanyRole, 
/**
 * Crew: sees every project of the company, not only those they are on.
 */
allProjects: boolean, 
/**
 * Invited and not signed in yet.
 */
invited: boolean, lastSignInAt: number | null, };

export type Company = { id: string, name: string, 
/**
 * Owners first, then managers, then crew; by name within each.
 */
members: Array<Member>, 
/**
 * How many projects it builds.
 */
projectCount: number, createdAt: number, 
/**
 * Monotonic per company; a client ignores an event older than what it holds.
 */
version: number, };

export type Project = { id: string, title: string, description: string, address: string, homeownerId: string, 
/**
 * Display name of the homeowner, joined from their profile.
 */
homeownerName: string, homeownerFirstName: string | null, homeownerLastName: string | null, 
/**
 * The builder: a company, and its name as homeowners see it.
 */
builderId: string | null, builderName: string | null, 
/**
 * The company's members on this project's crew; crew members see the
 * projects they are on. Empty for guests.
 */
crew: Array<string>, status: ProjectStatus, 
/**
 * 0 to 100.
 */
progress: number, 
/**
 * Whether `progress` is set by hand or follows the milestones.
 */
progressMode: ProgressMode, 
/**
 * Thumbnail rendition of the project's cover photo, served after an access check.
 */
thumbnailUrl: string | null, 
/**
 * True when an admin picked the thumbnail; false when it follows the newest photo.
 */
thumbnailPinned: boolean, createdAt: number, updatedAt: number, 
/**
 * Monotonic per project; a client ignores an event older than what it holds.
 */
version: number, };

export type GeoPoint = { lat: number, lon: number, };

export type ProjectImage = { id: string, projectId: string, category: ImageCategory, caption: string | null, 
/**
 * The uploaded file's name, used for downloads.
 */
originalName: string, width: number, height: number, 
/**
 * Capture time from the photo's EXIF data, when it had one.
 */
takenAt: number | null, createdAt: number, thumbUrl: string, displayUrl: string, downloadUrl: string, version: number, 
/**
 * How many comments the photo has; `comment_added` and `comment_deleted` carry
 * the new count.
 */
commentCount: number, 
/**
 * The note of the site visit (upload batch) the photo came with, if any.
 */
visitNote: string | null, 
/**
 * The site visit (upload batch) the photo came with: photos selected and sent
 * together share it (the gallery's "group by site visit").
 */
batchId: string | null, 
/**
 * The milestone the photo is tagged with, if any.
 */
milestoneId: string | null, 
/**
 * How many shapes its markup has; `markup_changed` carries the new
 * document. Tiles show a badge when it is above zero.
 */
markupCount: number, 
/**
 * Its tags, in the order they were added.
 */
tags: Array<string>, 
/**
 * Where it was taken, from its EXIF GPS data, unless the installation does not
 * keep locations. Never sent to guests.
 */
location: GeoPoint | null, 
/**
 * Who uploaded it, with their company. Never sent to guests.
 */
uploadedBy: Byline | null, };

export type TagKind = "area" | "trade" | "free";

export type TagUse = { name: string, kind: TagKind, photos: number, };

export type Favourite = { id: string, userId: string, imageId: string, projectId: string, createdAt: number, };

export type Comment = { id: string, imageId: string, projectId: string, 
/**
 * A comment goes with its author's account.
 */
author: UserSummary, body: string, createdAt: number, 
/**
 * Equal to `created_at` until the author edits it.
 */
updatedAt: number, };

export type Point = { x: number, y: number, };

export type MarkupColor = "red" | "orange" | "yellow" | "green" | "blue" | "white" | "black";

export type StrokeWidth = "thin" | "medium" | "thick";

export type Geometry = { "kind": "arrow", from: Point, to: Point, } | { "kind": "line", from: Point, to: Point, } | { "kind": "rect", from: Point, to: Point, } | { "kind": "ellipse", from: Point, to: Point, } | { "kind": "pen", points: Array<Point>, } | { "kind": "text", at: Point, text: string, } | { "kind": "pin", at: Point, note: string, };

export type Shape = { 
/**
 * Chosen by the client that drew it (a UUID); kept when it is moved or edited.
 */
id: string, color: MarkupColor, width: StrokeWidth, geometry: Geometry, 
/**
 * Who drew it: set by the server, whatever the client sends.
 */
authorId: string, };

export type Markup = { imageId: string, projectId: string, 
/**
 * 0 for a photo never marked up; each saved change adds one.
 */
version: number, 
/**
 * In drawing order (later shapes on top).
 */
shapes: Array<Shape>, 
/**
 * The people who drew the shapes, each once.
 */
authors: Array<UserSummary>, updatedAt: number | null, 
/**
 * Who made the latest change.
 */
updatedBy: UserSummary | null, };

export type MailPreferences = { 
/**
 * One mail per batch of new photos in my project (on by default).
 */
newPhotos: boolean, 
/**
 * A digest of comments, replies and @mentions (on by default).
 */
comments: boolean, 
/**
 * My project's status changes (off by default).
 */
statusChanges: boolean, 
/**
 * The same three as push notifications on the devices that have them on
 * (all on by default: a device is turned on by choice).
 */
pushNewPhotos: boolean, pushComments: boolean, pushStatusChanges: boolean, };

export type PushSettings = { 
/**
 * The server's VAPID public key (base64url, uncompressed P-256), the
 * `applicationServerKey` a browser subscribes with.
 */
publicKey: string, devices: Array<PushDevice>, };

export type PushDevice = { id: string, 
/**
 * "Chrome on Android", from the browser that turned them on.
 */
device: string, createdAt: number, 
/**
 * The browser that asked.
 */
thisDevice: boolean, };

export type NotificationKind = "new_photos" | "comment" | "reply" | "mention" | "status_change";

export type Notification = { id: string, kind: NotificationKind, projectId: string | null, imageId: string | null, 
/**
 * Who caused it (commenter, uploader, the admin who changed the status).
 */
actorName: string | null, title: string, 
/**
 * A comment's opening words, or a detail; may be empty.
 */
body: string, 
/**
 * Where it leads in the app: `/projects/{id}`, or `/projects/{id}?photo={imageId}`,
 * which opens the lightbox on that photo.
 */
link: string, createdAt: number, readAt: number | null, };

export type Milestone = { id: string, projectId: string, name: string, 
/**
 * 0-based place in the project's ordered list.
 */
position: number, targetDate: string | null, 
/**
 * Set when completed; cleared when reopened.
 */
doneDate: string | null, };

export type MilestonePlan = { projectId: string, milestones: Array<Milestone>, 
/**
 * The project's version this list goes with; a client keeps the newest.
 */
version: number, };

export type TimelinePhoto = { id: string, thumbUrl: string, };

export type TimelineDetail = { "type": "project_created" } | { "type": "status_changed", from: ProjectStatus, to: ProjectStatus, } | { "type": "progress_changed", from: number, to: number, } | { "type": "milestone_completed", milestoneId: string, name: string, } | { "type": "milestone_reopened", milestoneId: string, name: string, } | { "type": "photos_added", count: number, photos: Array<TimelinePhoto>, note: string | null, } | { "type": "comment", commentId: string, excerpt: string, photo: TimelinePhoto, } | { "type": "marked_up", photo: TimelinePhoto, };

export type TimelineEntry = { id: string, projectId: string, 
/**
 * Who did it, by display name at the time (never an email: guests see this).
 */
actorName: string | null, actorRole: Role | null, createdAt: number, detail: TimelineDetail, };

export type GuestPhotos = "all" | "favourites";

export type GuestLink = { id: string, projectId: string, photos: GuestPhotos, downloads: boolean, 
/**
 * `None`: never expires.
 */
expiresAt: number | null, createdAt: number, createdBy: UserSummary | null, revokedAt: number | null, 
/**
 * When a guest last opened it.
 */
lastOpenedAt: number | null, 
/**
 * A report link: the one report it shows, instead of the project.
 */
reportId: string | null, };

export type GuestAccess = { linkId: string, projectId: string, photos: GuestPhotos, downloads: boolean, expiresAt: number | null, 
/**
 * Who shared it, by display name.
 */
sharedBy: string | null, 
/**
 * A report link: the report it shows; the guest's hello carries it.
 */
reportId: string | null, };

export type ProjectHit = { project: Project, 
/**
 * The project's thumbnail, if it has one.
 */
thumbUrl: string | null, 
/**
 * The milestone whose name matched, when the title and address did not.
 */
milestone: string | null, };

export type PhotoHit = { photo: ProjectImage, projectTitle: string, 
/**
 * The name of the milestone the photo is tagged with, if any (it is searched too).
 */
milestone: string | null, };

export type CommentHit = { comment: Comment, projectTitle: string, 
/**
 * The commented photo's thumbnail.
 */
thumbUrl: string, };

export type SearchResults = { query: string, 
/**
 * The one project searched in, if the search was narrowed to one (guests: theirs).
 */
projectId: string | null, projects: Array<ProjectHit>, photos: Array<PhotoHit>, comments: Array<CommentHit>, 
/**
 * Admins only: people whose name or email matches.
 */
people: Array<Profile>, 
/**
 * Whether more photos matched than `photos` holds.
 */
morePhotos: boolean, };

export type ReportPhotos = "all" | "favourites" | "picked";

export type ReportGrouping = "visit" | "milestone";

export type ReportPair = { before: string, after: string, };

export type ReportOptions = { 
/**
 * First day of the period (`YYYY-MM-DD`, inclusive, by the day a photo shows);
 * absent: from the project's first photo.
 */
from?: string, 
/**
 * Last day of the period (inclusive); absent: up to today.
 */
to?: string, 
/**
 * When not empty, only photos tagged with one of these milestones.
 */
milestoneIds: Array<string>, photos: ReportPhotos, 
/**
 * The hand-picked photos (`photos: picked`).
 */
picked: Array<string>, 
/**
 * Before/after pairs, each shown side by side on the pairs pages.
 */
pairs: Array<ReportPair>, 
/**
 * 1, 2 or 4.
 */
perPage: number, groupBy: ReportGrouping, 
/**
 * Each photo's comments under it.
 */
comments: boolean, 
/**
 * Markup drawn on the photos.
 */
markup: boolean, };

export type ReportStatus = "generating" | "ready" | "failed";

export type Report = { id: string, projectId: string, options: ReportOptions, status: ReportStatus, 
/**
 * Photos placed so far, of `total`.
 */
done: number, total: number, 
/**
 * Once ready.
 */
pages: number | null, byteSize: number | null, 
/**
 * Why it failed, in words for the maker.
 */
error: string | null, createdAt: number, createdBy: UserSummary | null, finishedAt: number | null, 
/**
 * When it was last mailed to the homeowner, and to whom (their name).
 */
mailedAt: number | null, mailedTo: string | null, };

export type ReportMilestoneState = "done" | "current" | "late" | "upcoming";

export type ReportMilestone = { name: string, state: ReportMilestoneState, 
/**
 * Late as well as current, when both are true.
 */
late: boolean, targetDate: string | null, doneDate: string | null, };

export type ReportPhoto = { photo: ProjectImage, 
/**
 * Oldest first; empty when the report leaves comments out.
 */
comments: Array<Comment>, 
/**
 * Empty when the report leaves markup out.
 */
shapes: Array<Shape>, };

export type ReportSection = { 
/**
 * The milestone's name (grouped by milestone; `None` for photos without one).
 */
milestone: string | null, 
/**
 * The day the visit's first photo shows (grouped by visit).
 */
date: number | null, 
/**
 * The visit's note.
 */
note: string | null, photos: Array<ReportPhoto>, };

export type ReportPairView = { before: ReportPhoto, after: ReportPhoto, };

export type ReportContent = { project: Project, 
/**
 * The period as chosen, or as the photos span it.
 */
from: string | null, to: string | null, generatedAt: number, perPage: number, milestones: Array<ReportMilestone>, sections: Array<ReportSection>, pairs: Array<ReportPairView>, 
/**
 * What changed in the period, oldest first (from the timeline).
 */
changes: Array<TimelineEntry>, };

export type SharedReport = { id: string, pages: number, byteSize: number, createdAt: number, 
/**
 * The maker's display name (never an address).
 */
madeBy: string | null, 
/**
 * `None` for a report made before its content was kept: its PDF shows it.
 */
content: ReportContent | null, pdfUrl: string, };

export type InstallationSettings = { 
/**
 * Whether photos keep the place they were taken (EXIF GPS). Turning it off also
 * forgets every location already kept.
 */
storePhotoLocations: boolean, 
/**
 * Admins must sign in with a second factor (one without is led to
 * enrol at their next sign-in).
 */
requireFactorAdmins: boolean, 
/**
 * The same for builder companies' owners and managers.
 */
requireFactorCompanyLeads: boolean, };

export type Security = { 
/**
 * An authenticator app is on.
 */
totp: boolean, 
/**
 * Unused recovery codes.
 */
recoveryCodesLeft: number, passkeys: Array<PasskeyInfo>, 
/**
 * This account's signed-in sessions, this one first.
 */
devices: Array<DeviceSession>, 
/**
 * The installation requires this account to have a second factor.
 */
required: boolean, 
/**
 * When this session last proved a second factor (None: password only).
 */
factorAt: number | null, };

export type PasskeyInfo = { id: string, name: string, createdAt: number, lastUsedAt: number | null, };

export type DeviceSession = { id: string, 
/**
 * "Chrome 131", from the user agent; "Unknown browser" without one.
 */
browser: string, 
/**
 * "macOS", "Android 14"…
 */
system: string, 
/**
 * desktop, phone, tablet or other.
 */
kind: string, 
/**
 * Where the address is, when that is known here without asking anyone: this
 * computer, a private network, or a network the installation names.
 */
place: string | null, ip: string | null, signedInAt: number, lastActiveAt: number, 
/**
 * The session asking.
 */
current: boolean, };

export type TotpEnrolment = { 
/**
 * Base32, for typing into the app.
 */
secret: string, 
/**
 * The otpauth:// URI the QR code holds.
 */
uri: string, 
/**
 * The QR code, as an SVG document.
 */
qrSvg: string, };

export type ErrorCode = "bad_request" | "validation" | "unauthorized" | "invalid_credentials" | "email_not_confirmed" | "invalid_token" | "forbidden" | "not_found" | "conflict" | "user_exists" | "no_changes" | "rate_limited" | "too_large" | "unsupported_media_type" | "factor_required" | "enrol_required" | "internal";

export type FieldError = { field: string, message: string, };

export type ApiError = { code: ErrorCode, message: string, 
/**
 * Per-field messages for `validation` errors; empty otherwise.
 */
fields: Array<FieldError>, };

export type ClientMsg = { 
/**
 * Chosen by the client; echoed on the reply or error.
 */
id: number, request: Request, };

export type CreateUser = { role: Role, email: string, firstName: string, lastName: string, 
/**
 * Builders (company name); for others it is derived from first and last name.
 */
name: string, phone: string, 
/**
 * For homeowners: their builder.
 */
builderId: string | null, };

export type UpdateUser = { id: string, firstName?: string, lastName?: string, name?: string, phone?: string, };

export type CreateProject = { title: string, description: string, address: string, homeownerId: string, builderId: string | null, status: ProjectStatus, progress: number, progressMode?: ProgressMode, milestones?: MilestoneStart, };

export type UpdateProject = { id: string, title?: string, description?: string, address?: string, homeownerId?: string, builderId?: string, status?: ProjectStatus, progress?: number, 
/**
 * One of the project's photos to show as its thumbnail; an empty id goes back to
 * the newest photo. Admins only.
 */
thumbnailId?: string, 
/**
 * Admins: whether progress follows the milestones.
 */
progressMode?: ProgressMode, };

export type ProfileUpdate = { firstName: string, lastName: string, phone: string, 
/**
 * A builder's company name, which they edit like any other detail (SPEC.md §2:
 * only email and role are read-only). Absent keeps it; ignored for homeowners
 * and admins, whose name follows first and last name.
 */
name?: string, };

export type PasswordChange = { currentPassword: string, newPassword: string, confirmPassword: string, };

export type LogEntry = { level: string, message: string, 
/**
 * Free-form details, typically JSON text.
 */
data: string | null, };

export type UpdatePhoto = { id: string, caption?: string, category?: ImageCategory, 
/**
 * Tag the photo with one of its project's milestones; empty removes the tag.
 */
milestoneId?: string, };

export type MilestoneStart = "empty" | "residential";

export type AddMilestone = { projectId: string, name: string, targetDate?: string, };

export type UpdateMilestone = { id: string, name?: string, targetDate?: string, };

export type SetMilestoneDone = { id: string, done: boolean, 
/**
 * `YYYY-MM-DD`; today (UTC) when absent.
 */
doneDate?: string, };

export type CreateGuestLink = { projectId: string, photos: GuestPhotos, downloads: boolean, 
/**
 * 1, 7 or 30; absent: never expires.
 */
expiresInDays?: number, };

export type Ping = Record<symbol, never>;

export type ListUsers = { role: Role, 
/**
 * A case-insensitive substring of the name or email; blank lists everyone.
 */
query: string, sort: UserSort, descending: boolean, 
/**
 * 0-based; past the last page answers the last page.
 */
page: number, };

export type DeleteUser = { id: string, };

export type UserDeletionImpact = { id: string, };

export type ListProjects = { after?: string, };

export type GetProject = { id: string, };

export type DeleteProject = { id: string, };

export type Subscribe = { id: string, };

export type Unsubscribe = { id: string, };

export type ListPhotos = { projectId: string, after?: string, limit?: number, before?: number, };

export type DeletePhoto = { id: string, };

export type SetFavourite = { imageId: string, favourite: boolean, };

export type ListComments = { imageId: string, };

export type AddComment = { imageId: string, body: string, };

export type GetMarkup = { imageId: string, };

export type SaveMarkup = { imageId: string, 
/**
 * The version the editor started from.
 */
baseVersion: number, shapes: Array<Shape>, };

export type EditComment = { id: string, body: string, };

export type DeleteComment = { id: string, };

export type ListNotifications = { before?: number, };

export type MarkNotificationRead = { id: string, };

export type MarkAllNotificationsRead = Record<symbol, never>;

export type GetMailPreferences = Record<symbol, never>;

export type ListMilestones = { projectId: string, };

export type AddMilestoneTemplate = { projectId: string, };

export type MoveMilestone = { id: string, position: number, };

export type DeleteMilestone = { id: string, };

export type ListTimeline = { projectId: string, before?: string, };

export type ListGuestLinks = { projectId: string, };

export type RevokeGuestLink = { id: string, };

export type Search = { query: string, 
/**
 * Only this project (the project page's search); guests always search theirs.
 */
projectId: string | null, 
/**
 * Hear `search_changed` until `end_search` or the next search without it.
 */
watch: boolean, };

export type EndSearch = Record<symbol, never>;

export type PreviewReport = { projectId: string, options: ReportOptions, };

export type MakeReport = { projectId: string, options: ReportOptions, };

export type ListReports = { projectId: string, };

export type DeleteReport = { id: string, };

export type ShareReport = { reportId: string, 
/**
 * 1, 7 or 30; absent: never expires.
 */
expiresInDays?: number, };

export type MailReport = { id: string, };

export type ListCompanies = Record<symbol, never>;

export type CreateCompany = { name: string, };

export type UpdateCompany = { id: string, name: string, };

export type DeleteCompany = { id: string, };

export type CompanyDeletionImpact = { id: string, };

export type InviteMember = { companyId: string, email: string, name: string, phone: string, companyRole: CompanyRole, 
/**
 * Crew: see every project of the company, not only those they are put on.
 */
allProjects: boolean, };

export type UpdateMember = { id: string, companyRole?: CompanyRole, allProjects?: boolean, };

export type RemoveMember = { id: string, };

export type SetProjectCrew = { projectId: string, 
/**
 * Members of the project's company; the crew becomes exactly these.
 */
userIds: Array<string>, };

export type GetSecurity = Record<symbol, never>;

export type StartTotp = Record<symbol, never>;

export type ConfirmTotp = { code: string, };

export type RemoveTotp = { password: string, };

export type NewRecoveryCodes = Record<symbol, never>;

export type StartPasskey = Record<symbol, never>;

export type AddPasskey = { challengeId: string, name: string, 
/**
 * The browser's `PublicKeyCredential`, as JSON (`toJSON()`).
 */
credential: string, };

export type RenamePasskey = { id: string, name: string, };

export type RemovePasskey = { id: string, password: string, };

export type VerifyFactor = { code: string, };

export type StartFactorPasskey = Record<symbol, never>;

export type VerifyFactorPasskey = { challengeId: string, credential: string, };

export type EndSession = { id: string, };

export type EndOtherSessions = Record<symbol, never>;

export type ResetFactors = { userId: string, };

export type GetPushSettings = { endpoint?: string, };

export type SubscribePush = { endpoint: string, p256dh: string, auth: string, };

export type UnsubscribePush = { endpoint: string, };

export type RemovePushDevice = { id: string, 
/**
 * This browser's subscription, to mark this device in the answer.
 */
endpoint?: string, };

export type ListTags = { projectId: string, };

export type TagPhotos = { projectId: string, imageIds: Array<string>, addTags: Array<string>, removeTags: Array<string>, };

export type PublishedFile = { 
/**
 * The last segment of its tus upload's URL.
 */
uploadId: string, caption?: string, category?: ImageCategory, };

export type PublishUploads = { projectId: string, 
/**
 * Chosen by the client, like a batch's `batchId` in tus metadata.
 */
batchId: string, note?: string, milestoneId?: string, tags: Array<string>, 
/**
 * At most `MAX_FILES_PER_UPLOAD`, each a held upload of this user's to this project.
 */
files: Array<PublishedFile>, };

export type GetInstallationSettings = Record<symbol, never>;

export type Request = { "type": "ping" } & Ping | { "type": "list_users" } & ListUsers | { "type": "create_user" } & CreateUser | { "type": "update_user" } & UpdateUser | { "type": "delete_user" } & DeleteUser | { "type": "user_deletion_impact" } & UserDeletionImpact | { "type": "list_projects" } & ListProjects | { "type": "get_project" } & GetProject | { "type": "create_project" } & CreateProject | { "type": "update_project" } & UpdateProject | { "type": "delete_project" } & DeleteProject | { "type": "subscribe" } & Subscribe | { "type": "unsubscribe" } & Unsubscribe | { "type": "update_profile" } & ProfileUpdate | { "type": "change_password" } & PasswordChange | { "type": "log" } & LogEntry | { "type": "list_photos" } & ListPhotos | { "type": "update_photo" } & UpdatePhoto | { "type": "delete_photo" } & DeletePhoto | { "type": "set_favourite" } & SetFavourite | { "type": "list_comments" } & ListComments | { "type": "get_markup" } & GetMarkup | { "type": "save_markup" } & SaveMarkup | { "type": "add_comment" } & AddComment | { "type": "edit_comment" } & EditComment | { "type": "delete_comment" } & DeleteComment | { "type": "list_notifications" } & ListNotifications | { "type": "mark_notification_read" } & MarkNotificationRead | { "type": "mark_all_notifications_read" } & MarkAllNotificationsRead | { "type": "get_mail_preferences" } & GetMailPreferences | { "type": "update_mail_preferences" } & MailPreferences | { "type": "list_milestones" } & ListMilestones | { "type": "add_milestone" } & AddMilestone | { "type": "add_milestone_template" } & AddMilestoneTemplate | { "type": "update_milestone" } & UpdateMilestone | { "type": "set_milestone_done" } & SetMilestoneDone | { "type": "move_milestone" } & MoveMilestone | { "type": "delete_milestone" } & DeleteMilestone | { "type": "list_timeline" } & ListTimeline | { "type": "create_guest_link" } & CreateGuestLink | { "type": "list_guest_links" } & ListGuestLinks | { "type": "revoke_guest_link" } & RevokeGuestLink | { "type": "search" } & Search | { "type": "end_search" } & EndSearch | { "type": "list_tags" } & ListTags | { "type": "tag_photos" } & TagPhotos | { "type": "publish_uploads" } & PublishUploads | { "type": "preview_report" } & PreviewReport | { "type": "make_report" } & MakeReport | { "type": "list_reports" } & ListReports | { "type": "delete_report" } & DeleteReport | { "type": "share_report" } & ShareReport | { "type": "mail_report" } & MailReport | { "type": "get_installation_settings" } & GetInstallationSettings | { "type": "update_installation_settings" } & InstallationSettings | { "type": "list_companies" } & ListCompanies | { "type": "create_company" } & CreateCompany | { "type": "update_company" } & UpdateCompany | { "type": "delete_company" } & DeleteCompany | { "type": "company_deletion_impact" } & CompanyDeletionImpact | { "type": "invite_member" } & InviteMember | { "type": "update_member" } & UpdateMember | { "type": "remove_member" } & RemoveMember | { "type": "set_project_crew" } & SetProjectCrew | { "type": "get_security" } & GetSecurity | { "type": "start_totp" } & StartTotp | { "type": "confirm_totp" } & ConfirmTotp | { "type": "remove_totp" } & RemoveTotp | { "type": "new_recovery_codes" } & NewRecoveryCodes | { "type": "start_passkey" } & StartPasskey | { "type": "add_passkey" } & AddPasskey | { "type": "rename_passkey" } & RenamePasskey | { "type": "remove_passkey" } & RemovePasskey | { "type": "verify_factor" } & VerifyFactor | { "type": "start_factor_passkey" } & StartFactorPasskey | { "type": "verify_factor_passkey" } & VerifyFactorPasskey | { "type": "end_session" } & EndSession | { "type": "end_other_sessions" } & EndOtherSessions | { "type": "reset_factors" } & ResetFactors | { "type": "get_push_settings" } & GetPushSettings | { "type": "subscribe_push" } & SubscribePush | { "type": "unsubscribe_push" } & UnsubscribePush | { "type": "remove_push_device" } & RemovePushDevice;

export type UserListing = { user: Profile, 
/**
 * Projects of this user (for a builder's view: with that builder).
 */
projectCount: number, 
/**
 * For homeowners: their builder's name.
 */
builderName: string | null, };

export type UserCounts = { admins: number, builders: number, homeowners: number, };

export type UserSort = "name" | "email" | "phone" | "projects" | "builder";

export type Response = { "type": "pong" } | { "type": "user_page", role: Role, listings: Array<UserListing>, total: number, page: number, pageSize: number, counts: UserCounts, } | { "type": "user", user: Profile, } | { "type": "projects", projects: Array<Project>, next: string | null, } | { "type": "project", project: Project, } | { "type": "subscribed", project: Project, viewers: Array<UserSummary>, 
/**
 * The first page of the photos.
 */
photos: Array<ProjectImage>, 
/**
 * Ids of this user's favourites among `photos`.
 */
favourites: Array<string>, milestones: MilestonePlan, 
/**
 * The cursor of the next page (`ListPhotos`'s `after`); `None` when `photos`
 * is all of them.
 */
nextPhotos: string | null, 
/**
 * How many photos the project has.
 */
photoCount: number, } | { "type": "photos", projectId: string, photos: Array<ProjectImage>, 
/**
 * Ids of this user's favourites among `photos`.
 */
favourites: Array<string>, 
/**
 * The cursor of the next page; `None` at the oldest photo.
 */
next: string | null, } | { "type": "photo", photo: ProjectImage, } | { "type": "deletion_impact", projects: number, photos: number, } | { "type": "companies", companies: Array<Company>, } | { "type": "company", company: Company, } | { "type": "company_deletion_impact", projects: number, photos: number, members: number, } | { "type": "comments", imageId: string, comments: Array<Comment>, 
/**
 * Who may see the project, and so may be @mentioned: its homeowner, its
 * builder and the admins.
 */
people: Array<UserSummary>, } | { "type": "comment", comment: Comment, } | { "type": "markup", markup: Markup, } | { "type": "notifications", notifications: Array<Notification>, 
/**
 * This user's unread notifications, all pages.
 */
unread: number, 
/**
 * Whether older notifications remain.
 */
hasMore: boolean, } | { "type": "mail_preferences", preferences: MailPreferences, } | { "type": "milestones", plan: MilestonePlan, } | { "type": "timeline", projectId: string, entries: Array<TimelineEntry>, 
/**
 * The cursor of the next (older) page; `None` at the first entry.
 */
next: string | null, } | { "type": "guest_link_created", link: GuestLink, url: string, } | { "type": "guest_links", projectId: string, links: Array<GuestLink>, } | { "type": "search_results", results: SearchResults, } | { "type": "tags", projectId: string, 
/**
 * Used tags first (most photos first), then the suggestions not used yet.
 */
tags: Array<TagUse>, } | { "type": "tagged", photos: Array<ProjectImage>, } | { "type": "report_preview", content: ReportContent, photos: number, pages: number, } | { "type": "report", report: Report, } | { "type": "reports", projectId: string, reports: Array<Report>, } | { "type": "installation_settings", settings: InstallationSettings, 
/**
 * How many photos have a location kept.
 */
photosWithLocation: number, } | { "type": "security", security: Security, } | { "type": "push_settings", settings: PushSettings, } | { "type": "totp_enrolment", enrolment: TotpEnrolment, } | { "type": "recovery_codes", codes: Array<string>, } | { "type": "passkey_challenge", challengeId: string, options: string, } | { "type": "done" };

export type Snapshot = { 
/**
 * The first page of the projects visible to the user, most recently updated first;
 * `ListProjects` reads the rest from `nextProjects`.
 */
projects: Array<Project>, 
/**
 * How many projects the user sees in all.
 */
projectCount: number, 
/**
 * The cursor of the next page of projects; `None` when `projects` holds them all.
 */
nextProjects: string | null, 
/**
 * Other users the client holds (admins: the other admins and builders, while
 * homeowners are searched through `ListUsers`; builders: the homeowners on their
 * projects; homeowners: nobody).
 */
users: Array<Profile>, 
/**
 * Ids of the users visible to this user who are online now, held or not.
 */
online: Array<string>, 
/**
 * Builder companies: admins all, a builder their own, homeowners none.
 */
companies: Array<Company>, };

export type Hello = { protocolVersion: number, serverTime: number, user: Profile, snapshot: Snapshot, };

export type GuestHello = { protocolVersion: number, serverTime: number, access: GuestAccess, project: Project, milestones: MilestonePlan, 
/**
 * The first page of the photos the link shows, newest first (none on a report
 * link); `ListPhotos` reads the rest from `nextPhotos`.
 */
photos: Array<ProjectImage>, 
/**
 * How many photos the link shows.
 */
photoCount: number, 
/**
 * The cursor of the next page of photos; `None` when `photos` holds them all.
 */
nextPhotos: string | null, 
/**
 * A report link's report; its page shows that instead of the project.
 */
report: SharedReport | null, };

export type Event = { "type": "session_ended", reason: string, } | { "type": "project_created", project: Project, } | { "type": "project_updated", project: Project, actor: UserSummary | null, } | { "type": "project_deleted", id: string, version: number, } | { "type": "user_created", user: Profile, } | { "type": "user_updated", user: Profile, } | { "type": "user_deleted", id: string, version: number, } | { "type": "presence", userId: string, online: boolean, } | { "type": "viewers", projectId: string, viewers: Array<UserSummary>, } | { "type": "photo_added", photo: ProjectImage, } | { "type": "photo_updated", photo: ProjectImage, } | { "type": "photo_deleted", id: string, projectId: string, } | { "type": "favourite_changed", projectId: string, imageId: string, favourite: boolean, } | { "type": "comment_added", comment: Comment, commentCount: number, } | { "type": "comment_updated", comment: Comment, } | { "type": "notification_added", notification: Notification, unread: number, } | { "type": "notifications_read", ids: Array<string>, all: boolean, unread: number, } | { "type": "comment_deleted", id: string, imageId: string, projectId: string, commentCount: number, } | { "type": "markup_changed", markup: Markup, actor: UserSummary | null, } | { "type": "milestones_changed", plan: MilestonePlan, } | { "type": "timeline_added", entry: TimelineEntry, } | { "type": "timeline_removed", projectId: string, id: string, } | { "type": "search_changed", projectId: string, } | { "type": "report_changed", report: Report, } | { "type": "report_deleted", id: string, projectId: string, } | { "type": "company_changed", company: Company, } | { "type": "company_deleted", id: string, version: number, };

export type ServerMsg = { "type": "hello" } & Hello | { "type": "guest_hello" } & GuestHello | { "type": "reply", id: number, response: Response, } | { "type": "error", id: number | null, error: ApiError, } | { "type": "event", event: Event, };

/** The reply type that answers each request type; any request may fail with an `ApiError` instead. */
export const REPLY_TYPES = {
  "ping": "pong",
  "list_users": "user_page",
  "create_user": "user",
  "update_user": "user",
  "delete_user": "done",
  "user_deletion_impact": "deletion_impact",
  "list_projects": "projects",
  "get_project": "project",
  "create_project": "project",
  "update_project": "project",
  "delete_project": "done",
  "subscribe": "subscribed",
  "unsubscribe": "done",
  "update_profile": "user",
  "change_password": "done",
  "log": "done",
  "list_photos": "photos",
  "update_photo": "photo",
  "delete_photo": "done",
  "set_favourite": "done",
  "list_comments": "comments",
  "get_markup": "markup",
  "save_markup": "markup",
  "add_comment": "comment",
  "edit_comment": "comment",
  "delete_comment": "done",
  "list_notifications": "notifications",
  "mark_notification_read": "done",
  "mark_all_notifications_read": "done",
  "get_mail_preferences": "mail_preferences",
  "update_mail_preferences": "mail_preferences",
  "list_milestones": "milestones",
  "add_milestone": "milestones",
  "add_milestone_template": "milestones",
  "update_milestone": "milestones",
  "set_milestone_done": "milestones",
  "move_milestone": "milestones",
  "delete_milestone": "milestones",
  "list_timeline": "timeline",
  "create_guest_link": "guest_link_created",
  "list_guest_links": "guest_links",
  "revoke_guest_link": "done",
  "search": "search_results",
  "end_search": "done",
  "list_tags": "tags",
  "tag_photos": "tagged",
  "publish_uploads": "done",
  "preview_report": "report_preview",
  "make_report": "report",
  "list_reports": "reports",
  "delete_report": "done",
  "share_report": "guest_link_created",
  "mail_report": "report",
  "get_installation_settings": "installation_settings",
  "update_installation_settings": "installation_settings",
  "list_companies": "companies",
  "create_company": "company",
  "update_company": "company",
  "delete_company": "done",
  "company_deletion_impact": "company_deletion_impact",
  "invite_member": "company",
  "update_member": "company",
  "remove_member": "company",
  "set_project_crew": "project",
  "get_security": "security",
  "start_totp": "totp_enrolment",
  "confirm_totp": "recovery_codes",
  "remove_totp": "security",
  "new_recovery_codes": "recovery_codes",
  "start_passkey": "passkey_challenge",
  "add_passkey": "security",
  "rename_passkey": "security",
  "remove_passkey": "security",
  "verify_factor": "done",
  "start_factor_passkey": "passkey_challenge",
  "verify_factor_passkey": "done",
  "end_session": "security",
  "end_other_sessions": "security",
  "reset_factors": "done",
  "get_push_settings": "push_settings",
  "subscribe_push": "push_settings",
  "unsubscribe_push": "push_settings",
  "remove_push_device": "push_settings",
} as const satisfies { [K in Request["type"]]: Response["type"] };

/** The reply that answers each request type. */
export type ReplyTo = {
  "ping": Extract<Response, { "type": "pong" }>,
  "list_users": Extract<Response, { "type": "user_page" }>,
  "create_user": Extract<Response, { "type": "user" }>,
  "update_user": Extract<Response, { "type": "user" }>,
  "delete_user": Extract<Response, { "type": "done" }>,
  "user_deletion_impact": Extract<Response, { "type": "deletion_impact" }>,
  "list_projects": Extract<Response, { "type": "projects" }>,
  "get_project": Extract<Response, { "type": "project" }>,
  "create_project": Extract<Response, { "type": "project" }>,
  "update_project": Extract<Response, { "type": "project" }>,
  "delete_project": Extract<Response, { "type": "done" }>,
  "subscribe": Extract<Response, { "type": "subscribed" }>,
  "unsubscribe": Extract<Response, { "type": "done" }>,
  "update_profile": Extract<Response, { "type": "user" }>,
  "change_password": Extract<Response, { "type": "done" }>,
  "log": Extract<Response, { "type": "done" }>,
  "list_photos": Extract<Response, { "type": "photos" }>,
  "update_photo": Extract<Response, { "type": "photo" }>,
  "delete_photo": Extract<Response, { "type": "done" }>,
  "set_favourite": Extract<Response, { "type": "done" }>,
  "list_comments": Extract<Response, { "type": "comments" }>,
  "get_markup": Extract<Response, { "type": "markup" }>,
  "save_markup": Extract<Response, { "type": "markup" }>,
  "add_comment": Extract<Response, { "type": "comment" }>,
  "edit_comment": Extract<Response, { "type": "comment" }>,
  "delete_comment": Extract<Response, { "type": "done" }>,
  "list_notifications": Extract<Response, { "type": "notifications" }>,
  "mark_notification_read": Extract<Response, { "type": "done" }>,
  "mark_all_notifications_read": Extract<Response, { "type": "done" }>,
  "get_mail_preferences": Extract<Response, { "type": "mail_preferences" }>,
  "update_mail_preferences": Extract<Response, { "type": "mail_preferences" }>,
  "list_milestones": Extract<Response, { "type": "milestones" }>,
  "add_milestone": Extract<Response, { "type": "milestones" }>,
  "add_milestone_template": Extract<Response, { "type": "milestones" }>,
  "update_milestone": Extract<Response, { "type": "milestones" }>,
  "set_milestone_done": Extract<Response, { "type": "milestones" }>,
  "move_milestone": Extract<Response, { "type": "milestones" }>,
  "delete_milestone": Extract<Response, { "type": "milestones" }>,
  "list_timeline": Extract<Response, { "type": "timeline" }>,
  "create_guest_link": Extract<Response, { "type": "guest_link_created" }>,
  "list_guest_links": Extract<Response, { "type": "guest_links" }>,
  "revoke_guest_link": Extract<Response, { "type": "done" }>,
  "search": Extract<Response, { "type": "search_results" }>,
  "end_search": Extract<Response, { "type": "done" }>,
  "list_tags": Extract<Response, { "type": "tags" }>,
  "tag_photos": Extract<Response, { "type": "tagged" }>,
  "publish_uploads": Extract<Response, { "type": "done" }>,
  "preview_report": Extract<Response, { "type": "report_preview" }>,
  "make_report": Extract<Response, { "type": "report" }>,
  "list_reports": Extract<Response, { "type": "reports" }>,
  "delete_report": Extract<Response, { "type": "done" }>,
  "share_report": Extract<Response, { "type": "guest_link_created" }>,
  "mail_report": Extract<Response, { "type": "report" }>,
  "get_installation_settings": Extract<Response, { "type": "installation_settings" }>,
  "update_installation_settings": Extract<Response, { "type": "installation_settings" }>,
  "list_companies": Extract<Response, { "type": "companies" }>,
  "create_company": Extract<Response, { "type": "company" }>,
  "update_company": Extract<Response, { "type": "company" }>,
  "delete_company": Extract<Response, { "type": "done" }>,
  "company_deletion_impact": Extract<Response, { "type": "company_deletion_impact" }>,
  "invite_member": Extract<Response, { "type": "company" }>,
  "update_member": Extract<Response, { "type": "company" }>,
  "remove_member": Extract<Response, { "type": "company" }>,
  "set_project_crew": Extract<Response, { "type": "project" }>,
  "get_security": Extract<Response, { "type": "security" }>,
  "start_totp": Extract<Response, { "type": "totp_enrolment" }>,
  "confirm_totp": Extract<Response, { "type": "recovery_codes" }>,
  "remove_totp": Extract<Response, { "type": "security" }>,
  "new_recovery_codes": Extract<Response, { "type": "recovery_codes" }>,
  "start_passkey": Extract<Response, { "type": "passkey_challenge" }>,
  "add_passkey": Extract<Response, { "type": "security" }>,
  "rename_passkey": Extract<Response, { "type": "security" }>,
  "remove_passkey": Extract<Response, { "type": "security" }>,
  "verify_factor": Extract<Response, { "type": "done" }>,
  "start_factor_passkey": Extract<Response, { "type": "passkey_challenge" }>,
  "verify_factor_passkey": Extract<Response, { "type": "done" }>,
  "end_session": Extract<Response, { "type": "security" }>,
  "end_other_sessions": Extract<Response, { "type": "security" }>,
  "reset_factors": Extract<Response, { "type": "done" }>,
  "get_push_settings": Extract<Response, { "type": "push_settings" }>,
  "subscribe_push": Extract<Response, { "type": "push_settings" }>,
  "unsubscribe_push": Extract<Response, { "type": "push_settings" }>,
  "remove_push_device": Extract<Response, { "type": "push_settings" }>,
};
