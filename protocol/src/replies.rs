//! Which reply answers which request, said once. Like Zed's `request_messages!`, one list
//! pairs every `Request` variant with the `Response` variant that answers it (any
//! request may instead fail with an `ApiError`). The server checks its answers with
//! `answers`; the web client's `request()` is typed by the `ReplyTo` map generated from
//! the same list into `web/src/protocol/types.ts`.

use crate::messages::{Request, Response};

/// A request variant and the response variant that answers it, by their Rust names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub request: &'static str,
    pub response: &'static str,
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

macro_rules! request_messages {
    ($($request:ident => $response:ident),* $(,)?) => {
        /// Every request with the reply that answers it, in the order of `Request`.
        pub const REPLIES: &[Pairing] = &[$(Pairing { request: stringify!($request), response: stringify!($response) }),*];

        // The matches below list every request without a catch-all: a new `Request`
        // variant does not compile until it is paired, and a request paired twice is
        // an unreachable pattern, denied here.
        impl Request {
            /// The Rust name of the `Response` variant that answers this request.
            #[deny(unreachable_patterns)]
            pub fn reply_name(&self) -> &'static str {
                match self {
                    $(Request::$request { .. } => stringify!($response),)*
                }
            }
        }

        /// Whether `response` is the reply declared for `request`.
        #[deny(unreachable_patterns)]
        pub fn answers(request: &Request, response: &Response) -> bool {
            match request {
                $(Request::$request { .. } => matches!(response, Response::$response { .. }),)*
            }
        }
    };
}

request_messages! {
    Ping => Pong,
    ListUsers => Users,
    CreateUser => User,
    UpdateUser => User,
    DeleteUser => Done,
    UserDeletionImpact => DeletionImpact,
    ListProjects => Projects,
    GetProject => Project,
    CreateProject => Project,
    UpdateProject => Project,
    DeleteProject => Done,
    // The project, who else is viewing, its photos and this user's favourites.
    Subscribe => Subscribed,
    Unsubscribe => Done,
    UpdateProfile => User,
    ChangePassword => Done,
    Log => Done,
    ListPhotos => Photos,
    UpdatePhoto => Photo,
    DeletePhoto => Done,
    SetFavourite => Done,
    ListComments => Comments,
    AddComment => Comment,
    EditComment => Comment,
    DeleteComment => Done,
    ListNotifications => Notifications,
    MarkNotificationRead => Done,
    MarkAllNotificationsRead => Done,
    GetMailPreferences => MailPreferences,
    UpdateMailPreferences => MailPreferences,
    ListMilestones => Milestones,
    AddMilestone => Milestones,
    AddMilestoneTemplate => Milestones,
    UpdateMilestone => Milestones,
    SetMilestoneDone => Milestones,
    MoveMilestone => Milestones,
    DeleteMilestone => Milestones,
    ListTimeline => Timeline,
    CreateGuestLink => GuestLinkCreated,
    ListGuestLinks => GuestLinks,
    RevokeGuestLink => Done,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::de::DeserializeOwned;
    use serde::Serialize;

    use super::*;
    use crate::messages::{
        AddMilestone, CreateGuestLink, CreateProject, CreateUser, LogEntry, PasswordChange, ProfileUpdate, SetMilestoneDone,
        UpdateMilestone, UpdatePhoto, UpdateProject, UpdateUser, UserDirectory,
    };
    use crate::types::{
        Comment, GuestLink, GuestPhotos, ImageCategory, MailPreferences, MilestonePlan, ProgressMode, Profile, Project,
        ProjectImage, ProjectStatus, Role, UserSummary,
    };

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
        }
    }

    fn comment() -> Comment {
        Comment {
            id: "c1".into(),
            image_id: "i1".into(),
            project_id: "p1".into(),
            author: UserSummary { id: "u1".into(), email: "u@x.y".into(), name: None, role: Role::Builder, created_at: 0 },
            body: "b".into(),
            created_at: 0,
            updated_at: 0,
        }
    }

    fn prefs() -> MailPreferences {
        MailPreferences { new_photos: true, comments: true, status_changes: false }
    }

    fn one_of_each_request() -> Vec<Request> {
        let id = || "x".to_owned();
        vec![
            Request::Ping,
            Request::ListUsers,
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
            Request::DeleteUser { id: id() },
            Request::UserDeletionImpact { id: id() },
            Request::ListProjects,
            Request::GetProject { id: id() },
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
            Request::DeleteProject { id: id() },
            Request::Subscribe { id: id() },
            Request::Unsubscribe { id: id() },
            Request::UpdateProfile(ProfileUpdate::default()),
            Request::ChangePassword(PasswordChange {
                current_password: "a".into(),
                new_password: "b".into(),
                confirm_password: "b".into(),
            }),
            Request::Log(LogEntry { level: "info".into(), message: "m".into(), data: None }),
            Request::ListPhotos { project_id: id() },
            Request::UpdatePhoto(UpdatePhoto { id: id(), ..Default::default() }),
            Request::DeletePhoto { id: id() },
            Request::SetFavourite { image_id: id(), favourite: true },
            Request::ListComments { image_id: id() },
            Request::AddComment { image_id: id(), body: "b".into() },
            Request::EditComment { id: id(), body: "b".into() },
            Request::DeleteComment { id: id() },
            Request::ListNotifications { before: None },
            Request::MarkNotificationRead { id: id() },
            Request::MarkAllNotificationsRead,
            Request::GetMailPreferences,
            Request::UpdateMailPreferences(prefs()),
            Request::ListMilestones { project_id: id() },
            Request::AddMilestone(AddMilestone { project_id: id(), name: "Framing".into(), target_date: None }),
            Request::AddMilestoneTemplate { project_id: id() },
            Request::UpdateMilestone(UpdateMilestone { id: id(), ..Default::default() }),
            Request::SetMilestoneDone(SetMilestoneDone { id: id(), done: true, done_date: None }),
            Request::MoveMilestone { id: id(), position: 0 },
            Request::DeleteMilestone { id: id() },
            Request::ListTimeline { project_id: id(), before: None },
            Request::CreateGuestLink(CreateGuestLink {
                project_id: id(),
                photos: GuestPhotos::All,
                downloads: true,
                expires_in_days: Some(7),
            }),
            Request::ListGuestLinks { project_id: id() },
            Request::RevokeGuestLink { id: id() },
        ]
    }

    fn one_of_each_response() -> Vec<Response> {
        vec![
            Response::Pong,
            Response::Users(UserDirectory { admins: vec![], builders: vec![], homeowners: vec![] }),
            Response::User { user: profile() },
            Response::Projects { projects: vec![project()] },
            Response::Project { project: project() },
            Response::Subscribed { project: project(), viewers: vec![], photos: vec![photo()], favourites: vec![], milestones: plan() },
            Response::Photos { project_id: "p1".into(), photos: vec![photo()], favourites: vec![] },
            Response::Photo { photo: photo() },
            Response::DeletionImpact { projects: 2, photos: 9 },
            Response::Comments { image_id: "i1".into(), comments: vec![comment()], people: vec![] },
            Response::Comment { comment: comment() },
            Response::Notifications { notifications: vec![], unread: 0, has_more: false },
            Response::MailPreferences { preferences: prefs() },
            Response::Milestones { plan: plan() },
            Response::Timeline { project_id: "p1".into(), entries: vec![], next: None },
            Response::GuestLinkCreated { link: guest_link(), url: "http://x/guest/t".into() },
            Response::GuestLinks { project_id: "p1".into(), links: vec![guest_link()] },
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
