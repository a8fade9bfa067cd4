//! Which reply answers which request, said once. Like Zed's `request_messages!`, one list
//! pairs every request with the reply that answers it (any request may instead fail
//! with an `ApiError`), and both ends are typed from it:
//!
//! - the server: each request is a type (`messages.rs`) whose `RequestMessage::Reply` is
//!   the reply's type (`reply`), so a handler of a request returns that reply and no
//!   other — answering with the wrong one does not compile;
//! - the web client: `request()` is typed by the `ReplyTo` map generated from `REPLIES`
//!   into `web/src/protocol/types.ts`, so no call names its reply.

use crate::messages::*;
use crate::types::{InstallationSettings, MailPreferences};

/// A request, by its type: `Reply` is what answers it. Implemented for every request
/// by `request_messages!` below and for nothing else.
///
/// ```
/// use protocol::{reply, DeleteUser, RequestMessage};
/// let answer: <DeleteUser as RequestMessage>::Reply = reply::Done {};
/// ```
///
/// Any other reply to it does not compile:
///
/// ```compile_fail
/// use protocol::{reply, DeleteUser, RequestMessage};
/// let answer: <DeleteUser as RequestMessage>::Reply = reply::Pong {};
/// ```
pub trait RequestMessage: Sized {
    type Reply: Into<Response>;
}

/// One type per reply, each converting into its `Response` variant: what a server
/// handler returns. The fields are those of the variant, named alike, so the two
/// cannot drift apart (the conversion would not compile).
pub mod reply {
    // Types by their full path: some replies are named like what they carry.
    use crate::messages::{Response, UserCounts, UserListing};
    use crate::types;

    macro_rules! replies {
        ($($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty),* $(,)? }),* $(,)?) => {
            $(
                $(#[$doc])*
                #[derive(Clone, Debug, PartialEq)]
                pub struct $name {
                    $(pub $field: $ty),*
                }

                impl From<$name> for Response {
                    fn from(reply: $name) -> Response {
                        let $name { $($field),* } = reply;
                        Response::$name { $($field),* }
                    }
                }
            )*
        };
    }

    replies! {
        Pong {},
        User { user: types::Profile },
        Projects { projects: Vec<types::Project>, next: Option<String> },
        UserPage {
            role: types::Role,
            listings: Vec<UserListing>,
            total: u32,
            page: u32,
            page_size: u32,
            counts: UserCounts,
        },
        Project { project: types::Project },
        /// The project, who else is viewing, its first page of photos and this user's
        /// favourites among them.
        Subscribed {
            project: types::Project,
            viewers: Vec<types::UserSummary>,
            photos: Vec<types::ProjectImage>,
            favourites: Vec<String>,
            milestones: types::MilestonePlan,
            next_photos: Option<String>,
            photo_count: u32,
        },
        Photos { project_id: String, photos: Vec<types::ProjectImage>, favourites: Vec<String>, next: Option<String> },
        Photo { photo: types::ProjectImage },
        DeletionImpact { projects: u32, photos: u32 },
        Companies { companies: Vec<types::Company> },
        Company { company: types::Company },
        CompanyDeletionImpact { projects: u32, photos: u32, members: u32 },
        Comments { image_id: String, comments: Vec<types::Comment>, people: Vec<types::UserSummary> },
        Comment { comment: types::Comment },
        Markup { markup: types::Markup },
        Notifications { notifications: Vec<types::Notification>, unread: i64, has_more: bool },
        MailPreferences { preferences: types::MailPreferences },
        Milestones { plan: types::MilestonePlan },
        Timeline { project_id: String, entries: Vec<types::TimelineEntry>, next: Option<String> },
        GuestLinkCreated { link: types::GuestLink, url: String },
        GuestLinks { project_id: String, links: Vec<types::GuestLink> },
        SearchResults { results: types::SearchResults },
        Tags { project_id: String, tags: Vec<types::TagUse> },
        Tagged { photos: Vec<types::ProjectImage> },
        ReportPreview { content: types::ReportContent, photos: i32, pages: i32 },
        Report { report: types::Report },
        Reports { project_id: String, reports: Vec<types::Report> },
        InstallationSettings { settings: types::InstallationSettings, photos_with_location: i64 },
        Security { security: types::Security },
        PushSettings { settings: types::PushSettings },
        TotpEnrolment { enrolment: types::TotpEnrolment },
        /// Shown once: only their hashes are kept.
        RecoveryCodes { codes: Vec<String> },
        /// A WebAuthn ceremony's options for `navigator.credentials`, as JSON.
        PasskeyChallenge { challenge_id: String, options: String },
        Done {},
    }
}

/// A request variant and the response variant that answers it, by their Rust names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub request: &'static str,
    pub response: &'static str,
    /// It may change state (not flagged `read`).
    pub writes: bool,
    /// A session that must enrol a second factor first may ask it (flagged `enrolling`).
    pub before_enrolment: bool,
}

impl Pairing {
    /// The request's `type` tag on the wire.
    pub fn request_type(&self) -> String {
        wire_name(self.request)
    }

    /// The reply's `type` tag on the wire.
    pub fn response_type(&self) -> String {
        wire_name(self.response)
    }
}

/// A variant's `type` tag: `Request` and `Response` are `rename_all = "snake_case"`,
/// and this is serde's rule for variant names (an underscore before every inner capital).
pub fn wire_name(variant: &str) -> String {
    let mut out = String::with_capacity(variant.len() + 4);
    for (i, c) in variant.char_indices() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Whether a request's flags (in `request_messages!`) name `$want`.
macro_rules! has_flag {
    ($want:ident;) => {
        false
    };
    (read; read $($rest:ident)*) => {
        true
    };
    (enrolling; enrolling $($rest:ident)*) => {
        true
    };
    ($want:ident; $other:ident $($rest:ident)*) => {
        has_flag!($want; $($rest)*)
    };
}

macro_rules! request_messages {
    ($($request:ident($payload:ident) => $response:ident $([$($flag:ident)*])?),* $(,)?) => {
        $(
            impl RequestMessage for $payload {
                type Reply = reply::$response;
            }
        )*

        /// Every request with the reply that answers it, in the order of `Request`.
        pub const REPLIES: &[Pairing] = &[$(Pairing {
            request: stringify!($request),
            response: stringify!($response),
            writes: !has_flag!(read; $($($flag)*)?),
            before_enrolment: has_flag!(enrolling; $($($flag)*)?),
        }),*];

        // The matches below list every request without a catch-all: a new `Request`
        // variant does not compile until it is paired, and a request paired twice is
        // an unreachable pattern, denied here. Each variant holds its own type, so the
        // types' `RequestMessage` impls above cover every request too.
        impl Request {
            /// The Rust name of the `Response` variant that answers this request.
            #[deny(unreachable_patterns)]
            pub fn reply_name(&self) -> &'static str {
                match self {
                    $(Request::$request(_) => stringify!($response),)*
                }
            }

            /// Whether the request may change state (it is not flagged `read`). A
            /// socket's writes are applied in the order it sent them, and any request
            /// waits for the writes sent before it; a new request is a write until its
            /// line here says otherwise.
            #[deny(unreachable_patterns)]
            pub fn writes(&self) -> bool {
                match self {
                    $(Request::$request(_) => !has_flag!(read; $($($flag)*)?),)*
                }
            }

            /// Whether a session that must first enrol a second factor may ask it
            /// (flagged `enrolling`): seeing its security, enrolling, signing sessions out.
            #[deny(unreachable_patterns)]
            pub fn allowed_before_enrolment(&self) -> bool {
                match self {
                    $(Request::$request(_) => has_flag!(enrolling; $($($flag)*)?),)*
                }
            }
        }

        /// Whether `response` is the reply declared for `request` (a check for a
        /// client that holds replies untyped, such as the tests').
        #[deny(unreachable_patterns)]
        pub fn answers(request: &Request, response: &Response) -> bool {
            match request {
                $(Request::$request(_) => matches!(response, Response::$response { .. }),)*
            }
        }
    };
}

// Every request, the reply that answers it, and its flags: `read` (it changes nothing),
// `enrolling` (a session that must enrol a second factor first may ask it). The server's
// dispatch follows from these; nothing else lists requests.
request_messages! {
    Ping(Ping) => Pong [read enrolling],
    ListUsers(ListUsers) => UserPage [read],
    CreateUser(CreateUser) => User,
    UpdateUser(UpdateUser) => User,
    DeleteUser(DeleteUser) => Done,
    UserDeletionImpact(UserDeletionImpact) => DeletionImpact [read],
    ListProjects(ListProjects) => Projects [read],
    GetProject(GetProject) => Project [read],
    CreateProject(CreateProject) => Project,
    UpdateProject(UpdateProject) => Project,
    DeleteProject(DeleteProject) => Done,
    Subscribe(Subscribe) => Subscribed [read],
    Unsubscribe(Unsubscribe) => Done [read],
    UpdateProfile(ProfileUpdate) => User,
    ChangePassword(PasswordChange) => Done,
    Log(LogEntry) => Done [enrolling],
    ListPhotos(ListPhotos) => Photos [read],
    UpdatePhoto(UpdatePhoto) => Photo,
    DeletePhoto(DeletePhoto) => Done,
    SetFavourite(SetFavourite) => Done,
    ListComments(ListComments) => Comments [read],
    GetMarkup(GetMarkup) => Markup [read],
    SaveMarkup(SaveMarkup) => Markup,
    AddComment(AddComment) => Comment,
    EditComment(EditComment) => Comment,
    DeleteComment(DeleteComment) => Done,
    ListNotifications(ListNotifications) => Notifications [read],
    MarkNotificationRead(MarkNotificationRead) => Done,
    MarkAllNotificationsRead(MarkAllNotificationsRead) => Done,
    GetMailPreferences(GetMailPreferences) => MailPreferences [read],
    UpdateMailPreferences(MailPreferences) => MailPreferences,
    ListMilestones(ListMilestones) => Milestones [read],
    AddMilestone(AddMilestone) => Milestones,
    AddMilestoneTemplate(AddMilestoneTemplate) => Milestones,
    UpdateMilestone(UpdateMilestone) => Milestones,
    SetMilestoneDone(SetMilestoneDone) => Milestones,
    MoveMilestone(MoveMilestone) => Milestones,
    DeleteMilestone(DeleteMilestone) => Milestones,
    ListTimeline(ListTimeline) => Timeline [read],
    CreateGuestLink(CreateGuestLink) => GuestLinkCreated,
    ListGuestLinks(ListGuestLinks) => GuestLinks [read],
    RevokeGuestLink(RevokeGuestLink) => Done,
    Search(Search) => SearchResults [read],
    EndSearch(EndSearch) => Done [read],
    ListTags(ListTags) => Tags [read],
    TagPhotos(TagPhotos) => Tagged,
    PublishUploads(PublishUploads) => Done,
    PreviewReport(PreviewReport) => ReportPreview [read],
    MakeReport(MakeReport) => Report,
    ListReports(ListReports) => Reports [read],
    DeleteReport(DeleteReport) => Done,
    ShareReport(ShareReport) => GuestLinkCreated,
    MailReport(MailReport) => Report,
    GetInstallationSettings(GetInstallationSettings) => InstallationSettings [read],
    UpdateInstallationSettings(InstallationSettings) => InstallationSettings,
    ListCompanies(ListCompanies) => Companies [read],
    CreateCompany(CreateCompany) => Company,
    UpdateCompany(UpdateCompany) => Company,
    DeleteCompany(DeleteCompany) => Done,
    CompanyDeletionImpact(CompanyDeletionImpact) => CompanyDeletionImpact [read],
    InviteMember(InviteMember) => Company,
    UpdateMember(UpdateMember) => Company,
    RemoveMember(RemoveMember) => Company,
    SetProjectCrew(SetProjectCrew) => Project,
    GetSecurity(GetSecurity) => Security [read enrolling],
    StartTotp(StartTotp) => TotpEnrolment [enrolling],
    ConfirmTotp(ConfirmTotp) => RecoveryCodes [enrolling],
    RemoveTotp(RemoveTotp) => Security,
    NewRecoveryCodes(NewRecoveryCodes) => RecoveryCodes,
    StartPasskey(StartPasskey) => PasskeyChallenge [enrolling],
    AddPasskey(AddPasskey) => Security [enrolling],
    RenamePasskey(RenamePasskey) => Security,
    RemovePasskey(RemovePasskey) => Security,
    VerifyFactor(VerifyFactor) => Done,
    StartFactorPasskey(StartFactorPasskey) => PasskeyChallenge,
    VerifyFactorPasskey(VerifyFactorPasskey) => Done,
    EndSession(EndSession) => Security [enrolling],
    EndOtherSessions(EndOtherSessions) => Security [enrolling],
    ResetFactors(ResetFactors) => Done,
    GetPushSettings(GetPushSettings) => PushSettings [read],
    SubscribePush(SubscribePush) => PushSettings,
    UnsubscribePush(UnsubscribePush) => PushSettings,
    RemovePushDevice(RemovePushDevice) => PushSettings,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::de::DeserializeOwned;
    use serde::Serialize;

    use super::*;
    use crate::messages::{
        AddMilestone, CreateGuestLink, CreateProject, CreateUser, LogEntry, PasswordChange, ProfileUpdate, SetMilestoneDone,
        UpdateMilestone, UpdatePhoto, UpdateProject, UpdateUser,
    };
    use crate::types::{
        Comment, GuestLink, GuestPhotos, ImageCategory, MailPreferences, MilestonePlan, ProgressMode, Profile, Project,
        ProjectImage, ProjectStatus, Role, UserSummary,
    };

    /// The table's flags read as the requests' names say: looking (list, get, preview,
    /// search, subscribe) is a read, making and changing is a write; a session that must
    /// enrol first may only keep alive, log, see its security, enrol and sign out.
    #[test]
    fn the_request_table_flags_reads_and_what_an_enrolling_session_may_ask() {
        for pairing in REPLIES {
            let name = pairing.request;
            let looks = ["List", "Get", "Preview"].iter().any(|p| name.starts_with(p))
                || name.ends_with("Impact")
                || ["Ping", "Search", "EndSearch", "Subscribe", "Unsubscribe"].contains(&name);
            assert_eq!(pairing.writes, !looks, "{name}");
            let enrolling = ["Ping", "Log", "GetSecurity", "StartTotp", "ConfirmTotp", "StartPasskey", "AddPasskey", "EndSession", "EndOtherSessions"];
            assert_eq!(pairing.before_enrolment, enrolling.contains(&name), "{name}");
        }
        let ping = Request::Ping(crate::messages::Ping {});
        assert!(!ping.writes() && ping.allowed_before_enrolment());
    }

    /// Every `type` tag serde accepts for `T`, from serde itself: it lists them all when
    /// it meets one it does not know. Independent of the list above by construction.
    fn wire_types<T: DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
        let frame = rmp_serde::to_vec_named(&BTreeMap::from([("type", "no_such_type")])).unwrap();
        let error = rmp_serde::from_slice::<T>(&frame).unwrap_err().to_string();
        let (_, list) = error.split_once("expected one of ").unwrap();
        list.split(", ").map(|t| t.trim_matches('`').to_owned()).collect()
    }

    fn tag_of<T: Serialize>(message: &T) -> String {
        // Named, as on the wire: rmpv's own serializer would write structs as arrays.
        let value: rmpv::Value = rmp_serde::from_slice(&rmp_serde::to_vec_named(message).unwrap()).unwrap();
        let map = value.as_map().unwrap();
        let (_, tag) = map.iter().find(|(k, _)| k.as_str() == Some("type")).unwrap();
        tag.as_str().unwrap().to_owned()
    }

    fn profile() -> Profile {
        Profile {
            id: "u1".into(),
            email: "a@b.c".into(),
            role: Role::Admin,
            name: None,
            first_name: None,
            last_name: None,
            phone: None,
            builder_id: None,
            company_id: None,
            company_name: None,
            company_role: None,
            all_projects: false,
            email_confirmed_at: None,
            last_sign_in_at: None,
            created_at: 0,
            version: 1,
        }
    }

    fn project() -> Project {
        Project {
            id: "p1".into(),
            title: "Maple".into(),
            description: String::new(),
            address: "1 Maple St".into(),
            homeowner_id: "h1".into(),
            homeowner_name: "Jamie".into(),
            homeowner_first_name: None,
            homeowner_last_name: None,
            builder_id: None,
            builder_name: None,
            crew: vec![],
            status: ProjectStatus::InProgress,
            progress: 0,
            progress_mode: ProgressMode::Manual,
            thumbnail_url: None,
            thumbnail_pinned: false,
            created_at: 0,
            updated_at: 0,
            version: 1,
        }
    }

    fn photo() -> ProjectImage {
        ProjectImage {
            id: "i1".into(),
            project_id: "p1".into(),
            category: ImageCategory::Other,
            caption: None,
            original_name: "a.jpg".into(),
            width: 1,
            height: 1,
            taken_at: None,
            created_at: 0,
            thumb_url: String::new(),
            display_url: String::new(),
            download_url: String::new(),
            version: 1,
            comment_count: 0,
            visit_note: None,
            batch_id: None,
            milestone_id: None,
            markup_count: 0,
            tags: vec!["Kitchen".into()],
            location: Some(crate::types::GeoPoint { lat: 40.5, lon: -74.25 }),
            uploaded_by: Some(crate::types::Byline { id: "b1".into(), name: "Dana Ortiz".into(), company: Some("Summit Homes".into()) }),
        }
    }

    fn markup() -> crate::types::Markup {
        use crate::types::{Geometry, MarkupColor, Point, Shape, StrokeWidth};
        let at = Point { x: 0.25, y: 0.5 };
        let shape = Shape {
            id: "s1".into(),
            color: MarkupColor::Red,
            width: StrokeWidth::Medium,
            geometry: Geometry::Pin { at, note: "Outlet here?".into() },
            author_id: "u1".into(),
        };
        crate::types::Markup {
            image_id: "i1".into(),
            project_id: "p1".into(),
            version: 1,
            shapes: vec![shape],
            authors: vec![],
            updated_at: Some(0),
            updated_by: None,
        }
    }

    fn plan() -> MilestonePlan {
        MilestonePlan { project_id: "p1".into(), milestones: vec![], version: 1 }
    }

    fn guest_link() -> GuestLink {
        GuestLink {
            id: "g1".into(),
            project_id: "p1".into(),
            photos: GuestPhotos::All,
            downloads: false,
            expires_at: None,
            created_at: 0,
            created_by: None,
            revoked_at: None,
            last_opened_at: None,
            report_id: None,
        }
    }

    fn comment() -> Comment {
        Comment {
            id: "c1".into(),
            image_id: "i1".into(),
            project_id: "p1".into(),
            author: UserSummary { id: "u1".into(), email: "u@x.y".into(), name: None, role: Role::Builder, created_at: 0, company: None },
            body: "b".into(),
            created_at: 0,
            updated_at: 0,
        }
    }

    fn prefs() -> MailPreferences {
        MailPreferences {
            new_photos: true,
            comments: true,
            status_changes: false,
            push_new_photos: true,
            push_comments: false,
            push_status_changes: true,
        }
    }

    fn one_of_each_request() -> Vec<Request> {
        let id = || "x".to_owned();
        vec![
            Request::Ping(crate::messages::Ping {}),
            Request::ListUsers(crate::messages::ListUsers { role: Role::Homeowner, query: String::new(), sort: Default::default(), descending: false, page: 0 }),
            Request::CreateUser(CreateUser {
                role: Role::Builder,
                email: "b@c.d".into(),
                first_name: String::new(),
                last_name: String::new(),
                name: "Summit".into(),
                phone: String::new(),
                builder_id: None,
            }),
            Request::UpdateUser(UpdateUser { id: id(), ..Default::default() }),
            Request::DeleteUser(crate::messages::DeleteUser { id: id() }),
            Request::UserDeletionImpact(crate::messages::UserDeletionImpact { id: id() }),
            Request::ListProjects(crate::messages::ListProjects { after: None }),
            Request::GetProject(crate::messages::GetProject { id: id() }),
            Request::CreateProject(CreateProject {
                title: "t".into(),
                description: String::new(),
                address: "a".into(),
                homeowner_id: id(),
                builder_id: None,
                status: ProjectStatus::Planning,
                progress: 0,
                progress_mode: None,
                milestones: None,
            }),
            Request::UpdateProject(UpdateProject { id: id(), ..Default::default() }),
            Request::DeleteProject(crate::messages::DeleteProject { id: id() }),
            Request::Subscribe(crate::messages::Subscribe { id: id() }),
            Request::Unsubscribe(crate::messages::Unsubscribe { id: id() }),
            Request::UpdateProfile(ProfileUpdate::default()),
            Request::ChangePassword(PasswordChange {
                current_password: "a".into(),
                new_password: "b".into(),
                confirm_password: "b".into(),
            }),
            Request::Log(LogEntry { level: "info".into(), message: "m".into(), data: None }),
            Request::ListPhotos(crate::messages::ListPhotos { project_id: id(), after: Some("1.2.p3".into()), limit: Some(10), before: None }),
            Request::UpdatePhoto(UpdatePhoto { id: id(), ..Default::default() }),
            Request::DeletePhoto(crate::messages::DeletePhoto { id: id() }),
            Request::SetFavourite(crate::messages::SetFavourite { image_id: id(), favourite: true }),
            Request::ListComments(crate::messages::ListComments { image_id: id() }),
            Request::AddComment(crate::messages::AddComment { image_id: id(), body: "b".into() }),
            Request::GetMarkup(crate::messages::GetMarkup { image_id: id() }),
            Request::SaveMarkup(crate::messages::SaveMarkup { image_id: id(), base_version: 0, shapes: markup().shapes }),
            Request::EditComment(crate::messages::EditComment { id: id(), body: "b".into() }),
            Request::DeleteComment(crate::messages::DeleteComment { id: id() }),
            Request::ListNotifications(crate::messages::ListNotifications { before: None }),
            Request::MarkNotificationRead(crate::messages::MarkNotificationRead { id: id() }),
            Request::MarkAllNotificationsRead(crate::messages::MarkAllNotificationsRead {}),
            Request::GetMailPreferences(crate::messages::GetMailPreferences {}),
            Request::UpdateMailPreferences(prefs()),
            Request::ListMilestones(crate::messages::ListMilestones { project_id: id() }),
            Request::AddMilestone(AddMilestone { project_id: id(), name: "Framing".into(), target_date: None }),
            Request::AddMilestoneTemplate(crate::messages::AddMilestoneTemplate { project_id: id() }),
            Request::UpdateMilestone(UpdateMilestone { id: id(), ..Default::default() }),
            Request::SetMilestoneDone(SetMilestoneDone { id: id(), done: true, done_date: None }),
            Request::MoveMilestone(crate::messages::MoveMilestone { id: id(), position: 0 }),
            Request::DeleteMilestone(crate::messages::DeleteMilestone { id: id() }),
            Request::ListTimeline(crate::messages::ListTimeline { project_id: id(), before: None }),
            Request::CreateGuestLink(CreateGuestLink {
                project_id: id(),
                photos: GuestPhotos::All,
                downloads: true,
                expires_in_days: Some(7),
            }),
            Request::ListGuestLinks(crate::messages::ListGuestLinks { project_id: id() }),
            Request::RevokeGuestLink(crate::messages::RevokeGuestLink { id: id() }),
            Request::Search(crate::messages::Search { query: "kitch".into(), project_id: None, watch: true }),
            Request::EndSearch(crate::messages::EndSearch {}),
            Request::ListTags(crate::messages::ListTags { project_id: id() }),
            Request::TagPhotos(crate::messages::TagPhotos {
                project_id: id(),
                image_ids: vec![id()],
                add_tags: vec!["Kitchen".into()],
                remove_tags: vec![],
            }),
            Request::PublishUploads(crate::messages::PublishUploads {
                project_id: id(),
                batch_id: id(),
                note: Some("Framing done".into()),
                milestone_id: None,
                tags: vec!["Kitchen".into()],
                files: vec![crate::messages::PublishedFile { upload_id: id(), caption: Some("North wall".into()), category: None }],
            }),
            Request::PreviewReport(crate::messages::PreviewReport { project_id: id(), options: report_options() }),
            Request::MakeReport(crate::messages::MakeReport { project_id: id(), options: report_options() }),
            Request::ListReports(crate::messages::ListReports { project_id: id() }),
            Request::DeleteReport(crate::messages::DeleteReport { id: id() }),
            Request::ShareReport(crate::messages::ShareReport { report_id: id(), expires_in_days: Some(30) }),
            Request::MailReport(crate::messages::MailReport { id: id() }),
            Request::GetInstallationSettings(crate::messages::GetInstallationSettings {}),
            Request::UpdateInstallationSettings(InstallationSettings {
                store_photo_locations: false,
                require_factor_admins: true,
                require_factor_company_leads: false,
            }),
            Request::ListCompanies(crate::messages::ListCompanies {}),
            Request::CreateCompany(crate::messages::CreateCompany { name: "Summit Homes".into() }),
            Request::UpdateCompany(crate::messages::UpdateCompany { id: id(), name: "Summit".into() }),
            Request::DeleteCompany(crate::messages::DeleteCompany { id: id() }),
            Request::CompanyDeletionImpact(crate::messages::CompanyDeletionImpact { id: id() }),
            Request::InviteMember(crate::messages::InviteMember {
                company_id: id(),
                email: "dana@example.com".into(),
                name: "Dana Ortiz".into(),
                phone: String::new(),
                company_role: crate::types::CompanyRole::Crew,
                all_projects: false,
            }),
            Request::UpdateMember(crate::messages::UpdateMember { id: id(), company_role: None, all_projects: Some(true) }),
            Request::RemoveMember(crate::messages::RemoveMember { id: id() }),
            Request::SetProjectCrew(crate::messages::SetProjectCrew { project_id: id(), user_ids: vec![id()] }),
            Request::GetSecurity(crate::messages::GetSecurity {}),
            Request::StartTotp(crate::messages::StartTotp {}),
            Request::ConfirmTotp(crate::messages::ConfirmTotp { code: "123456".into() }),
            Request::RemoveTotp(crate::messages::RemoveTotp { password: "secret".into() }),
            Request::NewRecoveryCodes(crate::messages::NewRecoveryCodes {}),
            Request::StartPasskey(crate::messages::StartPasskey {}),
            Request::AddPasskey(crate::messages::AddPasskey { challenge_id: id(), name: "Phone".into(), credential: "{}".into() }),
            Request::RenamePasskey(crate::messages::RenamePasskey { id: id(), name: "Laptop".into() }),
            Request::RemovePasskey(crate::messages::RemovePasskey { id: id(), password: String::new() }),
            Request::VerifyFactor(crate::messages::VerifyFactor { code: "123456".into() }),
            Request::StartFactorPasskey(crate::messages::StartFactorPasskey {}),
            Request::VerifyFactorPasskey(crate::messages::VerifyFactorPasskey { challenge_id: id(), credential: "{}".into() }),
            Request::EndSession(crate::messages::EndSession { id: id() }),
            Request::EndOtherSessions(crate::messages::EndOtherSessions {}),
            Request::ResetFactors(crate::messages::ResetFactors { user_id: id() }),
            Request::GetPushSettings(crate::messages::GetPushSettings { endpoint: None }),
            Request::SubscribePush(crate::messages::SubscribePush {
                endpoint: "https://push.example/abc".into(),
                p256dh: "BPk".into(),
                auth: "a2V5".into(),
            }),
            Request::UnsubscribePush(crate::messages::UnsubscribePush { endpoint: "https://push.example/abc".into() }),
            Request::RemovePushDevice(crate::messages::RemovePushDevice { id: id(), endpoint: None }),
        ]
    }

    fn security() -> crate::types::Security {
        crate::types::Security {
            totp: true,
            recovery_codes_left: 9,
            passkeys: vec![crate::types::PasskeyInfo { id: "k1".into(), name: "Phone".into(), created_at: 1, last_used_at: None }],
            devices: vec![crate::types::DeviceSession {
                id: "s1".into(),
                browser: "Chrome 131".into(),
                system: "Android 14".into(),
                kind: "phone".into(),
                place: Some("This computer".into()),
                ip: Some("127.0.0.1".into()),
                signed_in_at: 1,
                last_active_at: 2,
                current: true,
            }],
            required: false,
            factor_at: Some(3),
        }
    }

    fn report_options() -> crate::types::ReportOptions {
        crate::types::ReportOptions { from: Some("2026-03-01".into()), per_page: 2, ..Default::default() }
    }

    fn report() -> crate::types::Report {
        crate::types::Report {
            id: "r1".into(),
            project_id: "p1".into(),
            options: report_options(),
            status: crate::types::ReportStatus::Generating,
            done: 3,
            total: 20,
            pages: None,
            byte_size: None,
            error: None,
            created_at: 1,
            created_by: None,
            finished_at: None,
            mailed_at: None,
            mailed_to: None,
        }
    }

    fn company() -> crate::types::Company {
        crate::types::Company {
            id: "c1".into(),
            name: "Summit Homes".into(),
            members: vec![crate::types::Member {
                id: "b1".into(),
                email: "dana@example.com".into(),
                name: "Dana Ortiz".into(),
                phone: None,
                company_role: crate::types::CompanyRole::Owner,
                all_projects: false,
                invited: false,
                last_sign_in_at: Some(1),
            }],
            project_count: 2,
            created_at: 1,
            version: 1,
        }
    }

    fn one_of_each_response() -> Vec<Response> {
        vec![
            Response::Pong,
            Response::UserPage { role: Role::Homeowner, listings: vec![], total: 0, page: 0, page_size: 50, counts: Default::default() },
            Response::User { user: profile() },
            Response::Projects { projects: vec![project()], next: None },
            Response::Project { project: project() },
            Response::Subscribed { project: project(), viewers: vec![], photos: vec![photo()], favourites: vec![], milestones: plan(), next_photos: Some("1.2.p3".into()), photo_count: 5 },
            Response::Photos { project_id: "p1".into(), photos: vec![photo()], favourites: vec![], next: None },
            Response::Photo { photo: photo() },
            Response::DeletionImpact { projects: 2, photos: 9 },
            Response::Comments { image_id: "i1".into(), comments: vec![comment()], people: vec![] },
            Response::Comment { comment: comment() },
            Response::Markup { markup: markup() },
            Response::Notifications { notifications: vec![], unread: 0, has_more: false },
            Response::MailPreferences { preferences: prefs() },
            Response::Milestones { plan: plan() },
            Response::Timeline { project_id: "p1".into(), entries: vec![], next: None },
            Response::GuestLinkCreated { link: guest_link(), url: "http://x/guest/t".into() },
            Response::GuestLinks { project_id: "p1".into(), links: vec![guest_link()] },
            Response::SearchResults {
                results: crate::types::SearchResults {
                    query: "kitch".into(),
                    project_id: None,
                    projects: vec![],
                    photos: vec![crate::types::PhotoHit { photo: photo(), project_title: "t".into(), milestone: None }],
                    comments: vec![],
                    people: vec![],
                    more_photos: false,
                },
            },
            Response::Tags {
                project_id: "p1".into(),
                tags: vec![crate::types::TagUse { name: "Kitchen".into(), kind: crate::types::TagKind::Area, photos: 3 }],
            },
            Response::Tagged { photos: vec![photo()] },
            Response::ReportPreview {
                content: crate::types::ReportContent {
                    project: project(),
                    from: Some("2026-03-01".into()),
                    to: None,
                    generated_at: 1,
                    per_page: 2,
                    milestones: vec![],
                    sections: vec![],
                    pairs: vec![],
                    changes: vec![],
                },
                photos: 24,
                pages: 14,
            },
            Response::Report { report: report() },
            Response::Reports { project_id: "p1".into(), reports: vec![report()] },
            Response::InstallationSettings {
                settings: InstallationSettings { store_photo_locations: true, require_factor_admins: false, require_factor_company_leads: true },
                photos_with_location: 4,
            },
            Response::Security { security: security() },
            Response::PushSettings {
                settings: crate::types::PushSettings {
                    public_key: "BPk".into(),
                    devices: vec![crate::types::PushDevice {
                        id: "p1".into(),
                        device: "Chrome on Android".into(),
                        created_at: 1,
                        this_device: true,
                    }],
                },
            },
            Response::TotpEnrolment {
                enrolment: crate::types::TotpEnrolment {
                    secret: "JBSWY3DPEHPK3PXP".into(),
                    uri: "otpauth://totp/Sitecast:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=Sitecast".into(),
                    qr_svg: "<svg/>".into(),
                },
            },
            Response::RecoveryCodes { codes: vec!["abcde-12345".into()] },
            Response::PasskeyChallenge { challenge_id: "c1".into(), options: "{}".into() },
            Response::Companies { companies: vec![company()] },
            Response::Company { company: company() },
            Response::CompanyDeletionImpact { projects: 2, photos: 9, members: 3 },
            Response::Done,
        ]
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn every_request_type_has_exactly_one_declared_reply() {
        let request_types = wire_types::<Request>();
        assert!(request_types.len() > 10, "serde's list was not read: {request_types:?}");
        for request_type in &request_types {
            let declared: Vec<_> = REPLIES.iter().filter(|p| &p.request_type() == request_type).collect();
            assert_eq!(declared.len(), 1, "`{request_type}` is paired {} times", declared.len());
        }
        assert_eq!(REPLIES.len(), request_types.len(), "a pairing names no request type");
    }

    #[test]
    fn every_declared_reply_is_a_response_type() {
        let response_types = wire_types::<Response>();
        for pairing in REPLIES {
            assert!(response_types.contains(&pairing.response_type()), "{pairing:?} names no response type");
        }
    }

    #[test]
    fn the_samples_cover_every_request_and_response_type() {
        let requests = sorted(one_of_each_request().iter().map(tag_of).collect());
        let responses = sorted(one_of_each_response().iter().map(tag_of).collect());
        assert_eq!(requests, sorted(wire_types::<Request>()));
        assert_eq!(responses, sorted(wire_types::<Response>()));
    }

    #[test]
    fn each_request_is_answered_by_its_declared_reply_and_no_other() {
        for request in one_of_each_request() {
            let accepted: Vec<String> =
                one_of_each_response().iter().filter(|r| answers(&request, r)).map(tag_of).collect();
            let pairing = REPLIES.iter().find(|p| p.request_type() == tag_of(&request)).unwrap();
            assert_eq!(accepted, vec![pairing.response_type()], "answers to {request:?}");
            assert_eq!(wire_name(request.reply_name()), pairing.response_type());
        }
    }

    #[test]
    fn wire_names_follow_serde_snake_case() {
        assert_eq!(wire_name("Ping"), "ping");
        assert_eq!(wire_name("SetFavourite"), "set_favourite");
        assert_eq!(wire_name("ListPhotos"), "list_photos");
    }
}
