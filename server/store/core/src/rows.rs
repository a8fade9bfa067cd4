//! The rows the store returns and the fields it writes, one group per table. Ids are
//! the UUIDs' text form, times UTC milliseconds, calendar dates `YYYY-MM-DD`; each
//! backend converts to and from its own column types.

use protocol::{CompanyRole, GuestPhotos, ImageCategory, NotificationKind, ProgressMode, ProjectStatus, ReportStatus, Role};

use crate::{decode, Result, StoreError, TokenKind};

// ---- users

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub role: Role,
    pub name: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub builder_id: Option<String>,
    pub password_hash: Option<String>,
    pub email_confirmed_at: Option<i64>,
    pub last_sign_in_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    /// A builder's company, their place in it and, for crew, whether they
    /// see all its projects; `company_name` is joined from the company.
    pub company_id: Option<String>,
    pub company_role: Option<CompanyRole>,
    pub all_projects: bool,
    pub company_name: Option<String>,
}

impl UserRow {
    /// Their name fields and company, as joined beside what they did.
    pub fn person(&self) -> PersonRow {
        PersonRow {
            email: self.email.clone(),
            name: self.name.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            company_name: self.company_name.clone(),
        }
    }
}

pub struct NewUser<'a> {
    pub id: &'a str,
    pub email: &'a str,
    pub role: Role,
    pub name: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub builder_id: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub email_confirmed_at: Option<i64>,
    pub now: i64,
}

pub struct ProfileFields<'a> {
    pub name: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub phone: Option<&'a str>,
}

/// "Email me about" (SPEC.md Profile & Settings), and when the user last changed it:
/// an unsubscribe link mailed before then does not undo the later choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailPreferencesRow {
    pub new_photos: bool,
    pub comments: bool,
    pub status_changes: bool,
    pub changed_at: Option<i64>,
    /// The same kinds, pushed.
    pub push_new_photos: bool,
    pub push_comments: bool,
    pub push_status_changes: bool,
}

// ---- sessions and one-time tokens

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub id: String,
    pub user_id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub expires_at: i64,
    /// When a second factor was last proved in this session (aal2), and how.
    pub factor_at: Option<i64>,
    pub factor_kind: Option<String>,
    /// The account must enrol a second factor before anything else.
    pub enrol_required: bool,
}

pub struct NewSession<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub token_hash: &'a str,
    pub now: i64,
    pub expires_at: i64,
    pub user_agent: Option<&'a str>,
    pub ip: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub user_id: String,
    pub kind: TokenKind,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

/// A key's login-failure window after an attempt was counted in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Attempts in this window, the one just counted included.
    pub attempts: i64,
    pub ends_at: i64,
}

// ---- projects

/// Which projects a query may return; decided by the policy module, not the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectScope {
    All,
    Homeowner(String),
    /// A company's projects; with `crew_of`, only those that member is on.
    Company { company_id: String, crew_of: Option<String> },
    /// None at all (a builder who belongs to no company).
    Nothing,
}

/// A project joined with its homeowner's and builder's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRow {
    pub id: String,
    pub title: String,
    pub description: String,
    pub address: String,
    pub homeowner_id: String,
    /// The builder company.
    pub company_id: Option<String>,
    pub status: ProjectStatus,
    pub progress: i32,
    pub thumbnail_image_id: Option<String>,
    /// An admin picked the thumbnail; otherwise it follows the newest photo.
    pub thumbnail_pinned: bool,
    pub progress_mode: ProgressMode,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    pub homeowner_email: String,
    pub homeowner_name: Option<String>,
    pub homeowner_first_name: Option<String>,
    pub homeowner_last_name: Option<String>,
    pub company_name: Option<String>,
    /// The company's members on its crew, by id.
    pub crew: Vec<String>,
}

/// A project's writable fields, for inserts and updates alike.
pub struct ProjectFields<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub address: &'a str,
    pub homeowner_id: &'a str,
    pub company_id: Option<&'a str>,
    pub status: ProjectStatus,
    pub progress: i32,
    /// Written by updates only: a new project has no photos yet.
    pub thumbnail_image_id: Option<&'a str>,
    pub thumbnail_pinned: bool,
    pub progress_mode: ProgressMode,
}

impl ProjectRow {
    /// The row's writable fields, as the store writes them back.
    pub fn fields(&self) -> ProjectFields<'_> {
        ProjectFields {
            title: &self.title,
            description: &self.description,
            address: &self.address,
            homeowner_id: &self.homeowner_id,
            company_id: self.company_id.as_deref(),
            status: self.status,
            progress: self.progress,
            thumbnail_image_id: self.thumbnail_image_id.as_deref(),
            thumbnail_pinned: self.thumbnail_pinned,
            progress_mode: self.progress_mode,
        }
    }
}

// ---- photos and favourites

#[derive(Debug, Clone, PartialEq)]
pub struct ImageRow {
    pub id: String,
    pub project_id: String,
    pub uploaded_by: Option<String>,
    pub category: ImageCategory,
    pub caption: Option<String>,
    pub original_name: String,
    pub content_type: String,
    pub byte_size: i64,
    pub width: i32,
    pub height: i32,
    pub taken_at: Option<i64>,
    pub storage_key: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    /// Kept by `comments::insert` and `comments::delete`.
    pub comment_count: i64,
    /// The note of the site visit (upload batch) the photo came with.
    pub visit_note: Option<String>,
    /// The site visit (upload batch) it came with.
    pub batch_id: Option<String>,
    /// The milestone it is tagged with.
    pub milestone_id: Option<String>,
    /// How many shapes its markup has, kept by `markups::save`.
    pub markup_count: i64,
    /// Its tags in the order they were added.
    pub tags: Vec<String>,
    /// Where it was taken, (latitude, longitude) in degrees.
    pub location: Option<(f64, f64)>,
    /// Who uploaded it, as shown beside it: joined from their account.
    pub uploader: Option<PersonRow>,
}

/// A person's name fields and company, joined beside what they did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonRow {
    pub email: String,
    pub name: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub company_name: Option<String>,
}

// ---- companies

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyRow {
    pub id: String,
    pub name: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    pub project_count: i64,
}

/// A photo's markup document: the shapes as JSON text, read and written
/// whole; the domain owns their meaning.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkupRow {
    pub image_id: String,
    pub project_id: String,
    pub version: i64,
    pub shapes: String,
    pub updated_by: Option<String>,
    pub updated_at: i64,
    /// Who made the change before this one's session began, and when the session's
    /// latest change was: a change by someone else, or after a pause, starts a new
    /// session (and a new timeline entry).
    pub session_by: Option<String>,
    pub session_at: i64,
}

/// A photo's editable metadata.
pub struct Meta<'a> {
    pub caption: Option<&'a str>,
    pub category: ImageCategory,
    pub milestone_id: Option<&'a str>,
}

// ---- comments

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentRow {
    pub id: String,
    pub image_id: String,
    pub project_id: String,
    pub author_id: String,
    pub body: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub author_email: String,
    pub author_role: Role,
    pub author_name: Option<String>,
    pub author_first_name: Option<String>,
    pub author_last_name: Option<String>,
    pub author_created_at: i64,
    pub author_company: Option<String>,
}

pub struct NewComment<'a> {
    pub id: &'a str,
    pub image_id: &'a str,
    pub project_id: &'a str,
    pub author_id: &'a str,
    pub body: &'a str,
    pub now: i64,
}

// ---- notifications

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationRow {
    pub id: String,
    pub user_id: String,
    pub kind: NotificationKind,
    pub project_id: Option<String>,
    pub image_id: Option<String>,
    pub actor_name: Option<String>,
    pub title: String,
    pub body: String,
    pub created_at: i64,
    pub read_at: Option<i64>,
}

// ---- the timeline

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityRow {
    pub id: String,
    pub project_id: String,
    pub actor_id: Option<String>,
    /// As the actor was called when it happened.
    pub actor_name: Option<String>,
    pub actor_role: Option<Role>,
    /// The detail's `type`, so the table can be queried without parsing `detail`.
    pub kind: String,
    /// The entry's JSON (the wire's `TimelineDetail`).
    pub detail: String,
    /// What the entry is about (a comment, an upload batch), so it can go with it.
    pub subject_id: Option<String>,
    pub created_at: i64,
}

// ---- milestones

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MilestoneRow {
    pub id: String,
    pub project_id: String,
    pub name: String,
    /// 0-based, dense within the project.
    pub position: i64,
    /// `YYYY-MM-DD`.
    pub target_date: Option<String>,
    /// `YYYY-MM-DD`; set while completed.
    pub done_date: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

// ---- guest links

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestLinkRow {
    pub id: String,
    pub project_id: String,
    pub created_by: String,
    pub photos: GuestPhotos,
    pub downloads: bool,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub last_opened_at: Option<i64>,
    pub created_at: i64,
    /// The maker, joined: a link shows the project through their eyes.
    pub maker_role: Role,
    pub maker_email: String,
    pub maker_name: Option<String>,
    pub maker_first_name: Option<String>,
    pub maker_last_name: Option<String>,
    pub maker_created_at: i64,
    /// A report link: the one report it shows.
    pub report_id: Option<String>,
}

pub struct NewGuestLink<'a> {
    pub id: &'a str,
    pub project_id: &'a str,
    pub created_by: &'a str,
    pub token_hash: &'a str,
    pub photos: GuestPhotos,
    pub downloads: bool,
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub report_id: Option<&'a str>,
}

// ---- progress reports

#[derive(Debug, Clone, PartialEq)]
pub struct ReportRow {
    pub id: String,
    pub project_id: String,
    pub created_by: Option<String>,
    /// The maker's choices as JSON text (the domain owns their meaning).
    pub options: String,
    pub status: ReportStatus,
    pub done: i32,
    pub total: i32,
    pub pages: Option<i32>,
    pub byte_size: Option<i64>,
    pub storage_key: Option<String>,
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// When it was last mailed to the homeowner, and to whom (a display name).
    pub mailed_at: Option<i64>,
    pub mailed_to: Option<String>,
}

// ---- resumable uploads and site visits

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadRow {
    pub id: String,
    pub project_id: String,
    pub user_id: String,
    pub batch_id: Option<String>,
    pub file_name: String,
    pub caption: Option<String>,
    pub category: Option<ImageCategory>,
    pub length: i64,
    pub created_at: i64,
    pub expires_at: i64,
    pub finished_at: Option<i64>,
    pub photo_id: Option<String>,
    pub refused: Option<String>,
    /// The milestone its photo is to be tagged with.
    pub milestone_id: Option<String>,
    /// The tags its photo is to carry.
    pub tags: Vec<String>,
    /// Sent ahead of publishing: whole, it waits for `PublishUploads` (migration 0020).
    pub held: bool,
}

/// What publishing gives a held upload's photo.
#[derive(Debug, Clone, Copy)]
pub struct Publish<'a> {
    pub caption: Option<&'a str>,
    pub category: Option<ImageCategory>,
    pub milestone_id: Option<&'a str>,
    pub tags: &'a [String],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRow {
    pub id: String,
    pub project_id: String,
    pub user_id: String,
    pub note: Option<String>,
    pub file_count: i64,
    pub finished: i64,
    pub stored: i64,
    pub created_at: i64,
    pub completed_at: Option<i64>,
}

// ---- contact

pub struct NewContactMessage<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub message: &'a str,
    pub now: i64,
}

// ---- push notifications

/// A browser's push subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscriptionRow {
    pub id: String,
    pub user_id: String,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub device: String,
    pub created_at: i64,
}

pub struct NewPushSubscription<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub session_id: &'a str,
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
    pub device: &'a str,
    pub now: i64,
}

// ---- the outbox: mail and pushes waiting to be sent (migration 0018)

/// What an outbox message is. The kinds share the queue (claim, lease, retry) and
/// differ in what they carry and in how they are retried (server/src/mail/worker.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutboxKind {
    Mail,
    Push,
}

impl OutboxKind {
    pub const ALL: [OutboxKind; 2] = [OutboxKind::Mail, OutboxKind::Push];

    pub fn as_str(self) -> &'static str {
        match self {
            OutboxKind::Mail => "mail",
            OutboxKind::Push => "push",
        }
    }

    pub fn parse(s: &str) -> Option<OutboxKind> {
        OutboxKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A message claimed for sending: how many times it has been tried (this one
/// included), and what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: String,
    pub attempts: i32,
    pub message: Queued,
}

impl OutboxRow {
    pub fn kind(&self) -> OutboxKind {
        match self.message {
            Queued::Mail(_) => OutboxKind::Mail,
            Queued::Push(_) => OutboxKind::Push,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Queued {
    Mail(QueuedMail),
    Push(QueuedPush),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedMail {
    pub to_address: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
    pub list_unsubscribe: Option<String>,
    /// A stored file sent with the mail: its key, file name and media type.
    pub attachment_key: Option<String>,
    pub attachment_name: Option<String>,
    pub attachment_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedPush {
    pub subscription_id: String,
    /// The JSON the service worker shows (`domain::messaging::push::Payload`).
    pub payload: String,
}

/// An outbox row's columns as both backends read them (ids as text), before they are
/// known to make a whole mail or a whole push.
#[derive(Debug)]
pub struct OutboxColumns {
    pub id: String,
    pub kind: String,
    pub attempts: i32,
    pub to_address: Option<String>,
    pub subject: Option<String>,
    pub body_text: Option<String>,
    pub body_html: Option<String>,
    pub list_unsubscribe: Option<String>,
    pub attachment_key: Option<String>,
    pub attachment_name: Option<String>,
    pub attachment_type: Option<String>,
    pub subscription_id: Option<String>,
    pub payload: Option<String>,
}

impl TryFrom<OutboxColumns> for OutboxRow {
    type Error = StoreError;

    /// The schema holds that a row is a whole mail or a whole push
    /// (`outbox_carries_its_kind`); a row that is not is refused, never half-sent.
    fn try_from(c: OutboxColumns) -> Result<OutboxRow> {
        let message = match decode::<OutboxKind>("outbox.kind", &c.kind)? {
            OutboxKind::Mail => match (c.to_address, c.subject, c.body_text, c.body_html) {
                (Some(to_address), Some(subject), Some(body_text), Some(body_html)) => Queued::Mail(QueuedMail {
                    to_address,
                    subject,
                    body_text,
                    body_html,
                    list_unsubscribe: c.list_unsubscribe,
                    attachment_key: c.attachment_key,
                    attachment_name: c.attachment_name,
                    attachment_type: c.attachment_type,
                }),
                _ => return Err(StoreError::Corrupt { column: "outbox.kind", value: "a mail without its message".to_owned() }),
            },
            OutboxKind::Push => match (c.subscription_id, c.payload) {
                (Some(subscription_id), Some(payload)) => Queued::Push(QueuedPush { subscription_id, payload }),
                _ => return Err(StoreError::Corrupt { column: "outbox.kind", value: "a push without its subscription".to_owned() }),
            },
        };
        Ok(OutboxRow { id: c.id, attempts: c.attempts, message })
    }
}

/// Unsent messages waiting in the outbox, of each kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxPending {
    pub mail: i64,
    pub push: i64,
}

pub struct NewPush<'a> {
    pub id: &'a str,
    pub subscription_id: &'a str,
    pub payload: &'a str,
    pub now: i64,
}

pub struct NewMail<'a> {
    pub id: &'a str,
    pub to_address: &'a str,
    pub subject: &'a str,
    pub body_text: &'a str,
    pub body_html: &'a str,
    pub list_unsubscribe: Option<&'a str>,
    pub attachment: Option<MailAttachment<'a>>,
    pub now: i64,
}

/// A stored file a mail carries (a report's PDF), read when the mail is sent.
#[derive(Debug, Clone, Copy)]
pub struct MailAttachment<'a> {
    pub key: &'a str,
    pub name: &'a str,
    pub content_type: &'a str,
}


/// What a search looks through: one kind of document at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    Project,
    Photo,
    Comment,
}

impl SearchKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SearchKind::Project => "project",
            SearchKind::Photo => "photo",
            SearchKind::Comment => "comment",
        }
    }
}

/// Whose view a search sees, decided by the policy module: the projects in scope
/// (every one, a homeowner's, or those a company member sees); narrowed to one project when
/// `project_id` is set, and to the photos `favourites_of` favourited when set (a
/// favourites-only guest link).
#[derive(Clone, Copy, Debug)]
pub struct SearchScope<'a> {
    /// The projects the searcher sees (the policy's `project_scope`).
    pub projects: &'a ProjectScope,
    pub project_id: Option<&'a str>,
    pub favourites_of: Option<&'a str>,
}

impl SearchScope<'_> {
    /// The projects a search asks the index about when it does not see them all: the
    /// searcher's own (`mine`), narrowed to `project_id` when set.
    pub fn narrow(&self, mine: Vec<String>) -> Vec<String> {
        mine.into_iter().filter(|p| self.project_id.is_none_or(|id| id == p)).collect()
    }
}


/// The installation's settings: one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingsRow {
    pub store_photo_locations: bool,
    /// Who must have a second factor.
    pub require_factor_admins: bool,
    pub require_factor_company_leads: bool,
    pub updated_at: i64,
}

// ---- account security

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TotpRow {
    pub secret: String,
    /// None while enrolling.
    pub confirmed_at: Option<i64>,
    /// The newest time step a code was accepted for.
    pub last_step: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyRow {
    pub id: String,
    pub user_id: String,
    pub credential_id: String,
    pub name: String,
    /// webauthn-rs's `Passkey`, as JSON.
    pub credential: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub kind: String,
    pub user_id: Option<String>,
    pub session_id: Option<String>,
    pub state: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A signed-in session as its account's device list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceRow {
    pub id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub user_agent: Option<String>,
    pub ip: Option<String>,
}
