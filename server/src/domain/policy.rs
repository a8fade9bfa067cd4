//! Who may see and do what: SPEC.md §6 as one table. Every request and every event
//! fan-out asks this module; nothing else decides access.

use protocol::{GuestPhotos, Role};

use crate::store::projects::ProjectScope;

/// The authenticated user behind a request, as the policy sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub role: Role,
}

/// Whoever holds a guest link (issue 18): a principal of its own, never a role. What
/// it may see is one project, through the eyes of the link's maker, and only while the
/// maker may still see it; `photos` and `downloads` narrow it further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guest {
    pub link_id: String,
    pub project_id: String,
    /// Who made the link; the link shows nothing they may not see.
    pub maker: Actor,
    pub photos: GuestPhotos,
    pub downloads: bool,
    /// A report link (issue 28): the one report it shows, and of the project only what
    /// that report shows.
    pub report_id: Option<String>,
}

impl Guest {
    /// The id a guest's sockets are known by (never a user id: those are UUIDs).
    pub fn principal_id(link_id: &str) -> String {
        format!("guest:{link_id}")
    }
}

/// The facts about a progress report that managing it depends on.
#[derive(Debug, Clone, Copy)]
pub struct ReportRef<'a> {
    pub project: ProjectRef<'a>,
    pub maker_id: Option<&'a str>,
}

/// The facts about a guest link that managing it depends on.
#[derive(Debug, Clone, Copy)]
pub struct GuestLinkRef<'a> {
    pub project: ProjectRef<'a>,
    pub maker_id: &'a str,
}

/// The facts about a project that access depends on.
#[derive(Debug, Clone, Copy)]
pub struct ProjectRef<'a> {
    pub homeowner_id: &'a str,
    pub builder_id: Option<&'a str>,
}

/// The facts about a comment that access depends on.
#[derive(Debug, Clone, Copy)]
pub struct CommentRef<'a> {
    pub project: ProjectRef<'a>,
    pub author_id: &'a str,
}

/// The facts about a user that access depends on.
#[derive(Debug, Clone, Copy)]
pub struct UserRef<'a> {
    pub id: &'a str,
    pub role: Role,
    /// Builders with at least one project of this user (when a homeowner).
    pub builders: &'a [String],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    ListUsers,
    ViewUser,
    CreateUser,
    EditUser,
    DeleteUser,
    ListProjects,
    ViewProject,
    CreateProject,
    EditProjectDetails,
    ChangeProjectStatus,
    DeleteProject,
    UploadPhoto,
    EditPhoto,
    DeletePhoto,
    FavouritePhoto,
    DownloadPhoto,
    EditOwnProfile,
    ChangeOwnPassword,
    WriteLog,
    /// Read a photo's comments and add one.
    CommentOnPhoto,
    EditComment,
    DeleteComment,
    /// See a photo's thumbnail and display size (the original is `DownloadPhoto`).
    ViewPhoto,
    /// Read a project's timeline.
    ReadTimeline,
    /// Add, rename, reorder, date, complete, reopen and delete milestones; tag photos.
    EditMilestones,
    /// Make a guest link to a project.
    ShareProject,
    /// List and revoke guest links.
    ManageGuestLink,
    /// Draw on a photo: add, change and remove any of its markup (issue 27).
    DrawMarkup,
    /// Add pins with a question to a photo, and change or remove one's own pins.
    PinOnPhoto,
    /// Add and remove tags on a project's photos (issue 29).
    TagPhotos,
    /// Find people by name or email in the header search (issue 29).
    SearchPeople,
    /// Read and change the installation's settings (issue 29).
    ManageInstallation,
    /// Make a progress report of any of a project's photos (issue 28).
    MakeReport,
    /// Make a progress report of one's own favourites.
    MakeFavouritesReport,
    /// See a project's reports and download them.
    ViewReports,
    /// Delete a report.
    DeleteReport,
    /// Make a link that shows one report to anyone (a guest link to the report).
    ShareReport,
    /// Mail a report to the project's homeowner.
    MailReport,
}

impl Action {
    pub const ALL: [Action; 38] = [
        Action::ListUsers,
        Action::ViewUser,
        Action::CreateUser,
        Action::EditUser,
        Action::DeleteUser,
        Action::ListProjects,
        Action::ViewProject,
        Action::CreateProject,
        Action::EditProjectDetails,
        Action::ChangeProjectStatus,
        Action::DeleteProject,
        Action::UploadPhoto,
        Action::EditPhoto,
        Action::DeletePhoto,
        Action::FavouritePhoto,
        Action::DownloadPhoto,
        Action::EditOwnProfile,
        Action::ChangeOwnPassword,
        Action::WriteLog,
        Action::CommentOnPhoto,
        Action::EditComment,
        Action::DeleteComment,
        Action::ViewPhoto,
        Action::ReadTimeline,
        Action::EditMilestones,
        Action::ShareProject,
        Action::ManageGuestLink,
        Action::DrawMarkup,
        Action::PinOnPhoto,
        Action::TagPhotos,
        Action::SearchPeople,
        Action::ManageInstallation,
        Action::MakeReport,
        Action::MakeFavouritesReport,
        Action::ViewReports,
        Action::DeleteReport,
        Action::ShareReport,
        Action::MailReport,
    ];
}

/// What a role may do with an action's target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Never,
    /// Any target (or no target).
    Any,
    /// Any user but oneself (an admin cannot delete their own account).
    AnyButSelf,
    /// Projects where the actor is the homeowner (homeowners) or the builder (builders).
    OwnProjects,
    /// Oneself, or a homeowner with a project of this builder.
    SelfOrOwnHomeowners,
    /// A homeowner with a project of this builder.
    OwnHomeowners,
    /// Oneself only.
    OwnAccount,
    /// A comment the actor wrote, on a project the actor may see.
    OwnComments,
    /// A guest link the actor made, to a project the actor may see.
    OwnLinks,
    /// A report the actor made, of a project the actor may see.
    OwnReports,
    /// Guests: the project their link is to, on a link to the project (not a report link).
    LinkedProject,
    /// Guests: the project their link is to, on either kind of link (a report link shows
    /// the project's facts and the report's photos).
    LinkedProjectOrReport,
    /// Guests: the report their link is to (a report link).
    LinkedReport,
    /// Guests: the project their link is to, when the link allows downloads.
    LinkedProjectWithDownloads,
}

use Scope::*;

/// SPEC.md §6, one row per action: (admin, builder, homeowner, guest). Guests (issue
/// 18) are the last column: they only ever look, at the one project of their link.
pub const RULES: [(Action, [Scope; 4]); 38] = [
    (Action::ListUsers, [Any, OwnHomeowners, Never, Never]),
    (Action::ViewUser, [Any, SelfOrOwnHomeowners, OwnAccount, Never]),
    (Action::CreateUser, [Any, Never, Never, Never]),
    (Action::EditUser, [Any, OwnHomeowners, Never, Never]),
    (Action::DeleteUser, [AnyButSelf, Never, Never, Never]),
    (Action::ListProjects, [Any, OwnProjects, OwnProjects, Never]),
    (Action::ViewProject, [Any, OwnProjects, OwnProjects, LinkedProjectOrReport]),
    (Action::CreateProject, [Any, Never, Never, Never]),
    (Action::EditProjectDetails, [Any, OwnProjects, Never, Never]),
    (Action::ChangeProjectStatus, [Any, Never, Never, Never]),
    (Action::DeleteProject, [Any, Never, Never, Never]),
    (Action::UploadPhoto, [Any, OwnProjects, Never, Never]),
    (Action::EditPhoto, [Any, OwnProjects, Never, Never]),
    // SPEC.md §6: builders upload and edit, but the gallery offers them no delete.
    (Action::DeletePhoto, [Any, Never, Never, Never]),
    (Action::FavouritePhoto, [Any, OwnProjects, OwnProjects, Never]),
    (Action::DownloadPhoto, [Any, OwnProjects, OwnProjects, LinkedProjectWithDownloads]),
    (Action::EditOwnProfile, [Any, Any, Any, Never]),
    (Action::ChangeOwnPassword, [Any, Any, Any, Never]),
    (Action::WriteLog, [Any, Any, Any, Never]),
    // Issue 17: everyone who may see a project may comment on its photos; authors
    // edit and delete their own, admins delete any (but edit only their own: words
    // are not put in someone's mouth). Guests read no comment threads.
    (Action::CommentOnPhoto, [Any, OwnProjects, OwnProjects, Never]),
    (Action::EditComment, [OwnComments, OwnComments, OwnComments, Never]),
    (Action::DeleteComment, [Any, OwnComments, OwnComments, Never]),
    // Issue 18. A guest sees the link's photos (all, or its maker's favourites: see
    // `guest_sees_photo`) and the timeline; admins and the project's builder keep
    // the plan; anyone who sees a project may share it, and manages their own links.
    (Action::ViewPhoto, [Any, OwnProjects, OwnProjects, LinkedProjectOrReport]),
    (Action::ReadTimeline, [Any, OwnProjects, OwnProjects, LinkedProject]),
    (Action::EditMilestones, [Any, OwnProjects, Never, Never]),
    (Action::ShareProject, [Any, OwnProjects, OwnProjects, Never]),
    (Action::ManageGuestLink, [Any, OwnLinks, OwnLinks, Never]),
    // Issue 27: the people who document the build draw on its photos; the homeowner
    // points at a spot and asks (a pin with a note), and edits only their own pins
    // (`markup::may_change`). Markup is seen by whoever sees the photo.
    (Action::DrawMarkup, [Any, OwnProjects, Never, Never]),
    (Action::PinOnPhoto, [Any, OwnProjects, OwnProjects, Never]),
    // Issue 29: tags are kept by the people who keep captions; everyone searches what
    // they may see (the search's scope is `project_scope`, a guest's their link), and
    // only admins find people and change the installation.
    (Action::TagPhotos, [Any, OwnProjects, Never, Never]),
    (Action::SearchPeople, [Any, Never, Never, Never]),
    (Action::ManageInstallation, [Any, Never, Never, Never]),
    // Issue 28: the people who document the build make reports of it; the homeowner
    // makes one of their favourites (for family, the bank). Everyone who sees the
    // project sees its reports; makers delete their own, admins any. Guests see a
    // report only through its own link, which whoever may share the project makes;
    // the people who make reports mail them to the homeowner.
    (Action::MakeReport, [Any, OwnProjects, Never, Never]),
    (Action::MakeFavouritesReport, [Any, OwnProjects, OwnProjects, Never]),
    (Action::ViewReports, [Any, OwnProjects, OwnProjects, LinkedReport]),
    (Action::DeleteReport, [Any, OwnReports, OwnReports, Never]),
    (Action::ShareReport, [Any, OwnProjects, OwnProjects, Never]),
    (Action::MailReport, [Any, OwnProjects, Never, Never]),
];

/// What an action is done to.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    Nothing,
    Project(ProjectRef<'a>),
    User(UserRef<'a>),
    Comment(CommentRef<'a>),
    GuestLink(GuestLinkRef<'a>),
    Report(ReportRef<'a>),
}

/// A project as a guest's rules see it: its id besides its owners.
#[derive(Debug, Clone, Copy)]
pub struct LinkedRef<'a> {
    pub id: &'a str,
    pub project: ProjectRef<'a>,
}

const GUEST_COLUMN: usize = 3;

fn column_scope(col: usize, action: Action) -> Scope {
    RULES.iter().find(|(a, _)| *a == action).map(|(_, s)| s[col]).unwrap_or(Never)
}

pub fn scope(role: Role, action: Action) -> Scope {
    let col = match role {
        Role::Admin => 0,
        Role::Builder => 1,
        Role::Homeowner => 2,
    };
    column_scope(col, action)
}

/// What a guest may do with an action on a project: only on their link's project,
/// and only while the link's maker may still see it.
pub fn guest_allows(guest: &Guest, action: Action, project: LinkedRef<'_>) -> bool {
    let linked = project.id == guest.project_id && can_view_project(&guest.maker, project.project);
    let report_link = guest.report_id.is_some();
    match column_scope(GUEST_COLUMN, action) {
        LinkedProjectOrReport => linked,
        LinkedProject => linked && !report_link,
        LinkedProjectWithDownloads => linked && !report_link && guest.downloads,
        LinkedReport => linked && report_link,
        _ => false,
    }
}

/// Whether a guest may see this report of the linked project: their link's own.
pub fn guest_sees_report(guest: &Guest, report_id: &str, project: LinkedRef<'_>) -> bool {
    guest_allows(guest, Action::ViewReports, project) && guest.report_id.as_deref() == Some(report_id)
}

/// Whether a guest sees one photo of their link's project, given whether it is in
/// the link's set (`in_set`): on a report link the photos its report shows; on a
/// favourites link those its maker has favourited, as that set changes; else every one.
pub fn guest_sees_photo(guest: &Guest, in_set: bool) -> bool {
    if guest.report_id.is_some() {
        return in_set;
    }
    match guest.photos {
        GuestPhotos::All => true,
        GuestPhotos::Favourites => in_set,
    }
}

pub fn allows(actor: &Actor, action: Action, target: Target<'_>) -> bool {
    let own_project = |p: ProjectRef<'_>| match actor.role {
        Role::Homeowner => p.homeowner_id == actor.id,
        Role::Builder => p.builder_id == Some(actor.id.as_str()),
        Role::Admin => true,
    };
    let own_homeowner =
        |u: UserRef<'_>| actor.role == Role::Builder && u.role == Role::Homeowner && u.builders.contains(&actor.id);
    match (scope(actor.role, action), target) {
        (Never, _) => false,
        (Any, _) => true,
        (AnyButSelf, Target::User(u)) => u.id != actor.id,
        (AnyButSelf, _) => false,
        (OwnProjects, Target::Project(p)) => own_project(p),
        // Listing: the store is asked for the actor's own scope.
        (OwnProjects, Target::Nothing) => true,
        (OwnHomeowners, Target::User(u)) => own_homeowner(u),
        (OwnHomeowners, Target::Nothing) => true,
        (SelfOrOwnHomeowners, Target::User(u)) => u.id == actor.id || own_homeowner(u),
        (OwnAccount, Target::User(u)) => u.id == actor.id,
        // Their own comment, on a project they still see.
        (OwnComments, Target::Comment(c)) => c.author_id == actor.id && own_project(c.project),
        // A link they made, to a project they still see.
        (OwnLinks, Target::GuestLink(l)) => l.maker_id == actor.id && own_project(l.project),
        // A report they made, of a project they still see.
        (OwnReports, Target::Report(r)) => r.maker_id == Some(actor.id.as_str()) && own_project(r.project),
        _ => false,
    }
}

/// Admins see every project; a builder the projects whose builderId is theirs; a
/// homeowner only the projects whose homeownerId is theirs.
pub fn project_scope(actor: &Actor) -> ProjectScope {
    match actor.role {
        Role::Admin => ProjectScope::All,
        Role::Builder => ProjectScope::Builder(actor.id.clone()),
        Role::Homeowner => ProjectScope::Homeowner(actor.id.clone()),
    }
}

pub fn can_view_project(actor: &Actor, project: ProjectRef<'_>) -> bool {
    allows(actor, Action::ViewProject, Target::Project(project))
}

pub fn can_view_user(actor: &Actor, user: UserRef<'_>) -> bool {
    allows(actor, Action::ViewUser, Target::User(user))
}

/// Who an event is for. Deciding it here, beside who may do what, keeps the two from
/// drifting apart: a person receives an event only when they may see what it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Admins (who see everything) and these users.
    Users(Vec<String>),
    /// These users only, admins or not: e.g. a builder told that a project left their view.
    Only(Vec<String>),
    /// The sockets subscribed to this project; each was checked with
    /// `can_view_project` when it subscribed and again whenever the project's owners
    /// changed (in the project's turn, so no change slips between check and subscribe).
    Subscribers(String),
    /// The guests watching this project (issue 18), each checked with `guest_allows`
    /// when their socket opened and again whenever the project changed. Each gets the
    /// event as their link shows it (`guests::GuestView::event`): only the photos it
    /// shares (`guest_sees_photo`), nothing about people, or nothing at all.
    Guests(String),
    /// Admins and these users, on the sockets that have search results open (issue
    /// 29): told that something they may find changed.
    Searchers(Vec<String>),
}

/// Who is told that something searchable in a project changed (issue 29): whoever may
/// see the project (admins, its homeowner and builder), on sockets with results open.
pub fn search_audience(project: ProjectRef<'_>) -> Audience {
    Audience::Searchers(std::iter::once(project.homeowner_id).chain(project.builder_id).map(str::to_owned).collect())
}

/// A project's creation, update or deletion: admins, its homeowner and its builder.
pub fn project_audience(project: ProjectRef<'_>) -> Audience {
    Audience::Users(std::iter::once(project.homeowner_id).chain(project.builder_id).map(str::to_owned).collect())
}

/// After a project moved to other people: those who could see it before and no
/// longer can (they are told it left their view).
pub fn lost_project_audience(before: ProjectRef<'_>, after: ProjectRef<'_>) -> Audience {
    let after_people: Vec<&str> = std::iter::once(after.homeowner_id).chain(after.builder_id).collect();
    Audience::Only(
        std::iter::once(before.homeowner_id)
            .chain(before.builder_id)
            .filter(|p| !after_people.contains(p))
            .map(str::to_owned)
            .collect(),
    )
}

/// A builder newly on a homeowner's project may now see that homeowner's profile.
pub fn newly_visible_user_audience(builder_id: &str) -> Audience {
    Audience::Only(vec![builder_id.to_owned()])
}

/// A user's creation, profile change or deletion: admins, the user, and the
/// builders who may see the user (`ViewUser`).
pub fn user_audience(user: UserRef<'_>) -> Audience {
    let mut users: Vec<String> = match user.role {
        Role::Homeowner => user.builders.to_vec(),
        _ => Vec::new(),
    };
    users.push(user.id.to_owned());
    Audience::Users(users)
}

/// Photos added, changed or deleted, and the project's viewer list: its subscribers.
pub fn project_detail_audience(project_id: &str) -> Audience {
    Audience::Subscribers(project_id.to_owned())
}

/// A comment added, edited or deleted: the photo's project's subscribers, each of whom
/// the policy let see the project (no one outside the project receives one).
pub fn comment_audience(project_id: &str) -> Audience {
    Audience::Subscribers(project_id.to_owned())
}

/// A photo's markup (issue 27): the project's subscribers, and the guests watching it
/// whose link shows the photo (`GuestView::event`).
pub fn markup_audiences(project_id: &str) -> [Audience; 2] {
    [Audience::Subscribers(project_id.to_owned()), guest_audience(project_id)]
}

/// A project's reports being made, finished or deleted (issue 28): everyone with the
/// project open, who all may see its reports; never its guests.
pub fn report_audience(project_id: &str) -> Audience {
    Audience::Subscribers(project_id.to_owned())
}

/// What guests watching a project hear of (issue 18): the project, its milestones, its
/// timeline and its photos, each as their link shows it; nothing about people.
pub fn guest_audience(project_id: &str) -> Audience {
    Audience::Guests(project_id.to_owned())
}

/// A project's milestones and timeline entries (issue 18): its subscribers, and the
/// guests watching it (a timeline entry with the photos of it each guest sees).
pub fn story_audiences(project_id: &str) -> [Audience; 2] {
    [Audience::Subscribers(project_id.to_owned()), guest_audience(project_id)]
}

/// A guest link revoked or ended: its guests' sockets close, on every instance.
pub fn ended_link_audience(link_id: &str) -> Audience {
    Audience::Only(vec![Guest::principal_id(link_id)])
}

/// A notification, or notifications read: only the user they are for (every tab and
/// device of theirs), never anyone else.
pub fn notification_audience(user_id: &str) -> Audience {
    Audience::Only(vec![user_id.to_owned()])
}

/// A favourite set or cleared: only the user who did it (their other tabs).
pub fn favourite_audience(user_id: &str) -> Audience {
    Audience::Only(vec![user_id.to_owned()])
}

/// Whether a user is online: admins and the builders who may see the user, never the
/// user themself (`watchers` are the builders with a project of this homeowner).
pub fn presence_audience(user_id: &str, watchers: &[String]) -> Audience {
    Audience::Users(watchers.iter().filter(|w| *w != user_id).cloned().collect())
}

/// Whether `actor` receives an event sent to `audience`. `subscribed` says whether the
/// actor's socket subscribed to a project (which the policy allowed when it did).
/// The hub delivers by index for speed; its tests check it against this.
pub fn receives(actor: &Actor, audience: &Audience, subscribed: impl Fn(&str) -> bool) -> bool {
    match audience {
        Audience::Users(users) | Audience::Searchers(users) => actor.role == Role::Admin || users.contains(&actor.id),
        Audience::Only(users) => users.contains(&actor.id),
        Audience::Subscribers(project_id) => subscribed(project_id),
        // Guests are not users: no user receives what is meant for guests.
        Audience::Guests(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every role × every action × own/other target, written out independently of
    /// RULES so that a wrong row fails here.
    #[test]
    fn access_matrix() {
        let admin = Actor { id: "a".into(), role: Role::Admin };
        let builder = Actor { id: "b".into(), role: Role::Builder };
        let homeowner = Actor { id: "h".into(), role: Role::Homeowner };
        let own_project = ProjectRef { homeowner_id: "h", builder_id: Some("b") };
        let other_project = ProjectRef { homeowner_id: "h2", builder_id: Some("b2") };
        let builders_of_h = ["b".to_owned()];
        let own_homeowner = UserRef { id: "h", role: Role::Homeowner, builders: &builders_of_h };
        let other_homeowner = UserRef { id: "h2", role: Role::Homeowner, builders: &[] };
        let other_builder = UserRef { id: "b2", role: Role::Builder, builders: &[] };

        // (action, target kind) → [admin, builder, homeowner] for (own, other) targets.
        use Action as A;
        let project_rows: [(Action, [bool; 3], [bool; 3]); 22] = [
            (A::ViewProject, [true, true, true], [true, false, false]),
            (A::EditProjectDetails, [true, true, false], [true, false, false]),
            (A::ChangeProjectStatus, [true, false, false], [true, false, false]),
            (A::DeleteProject, [true, false, false], [true, false, false]),
            (A::UploadPhoto, [true, true, false], [true, false, false]),
            (A::EditPhoto, [true, true, false], [true, false, false]),
            (A::DeletePhoto, [true, false, false], [true, false, false]),
            (A::FavouritePhoto, [true, true, true], [true, false, false]),
            (A::DownloadPhoto, [true, true, true], [true, false, false]),
            (A::CommentOnPhoto, [true, true, true], [true, false, false]),
            (A::ViewPhoto, [true, true, true], [true, false, false]),
            (A::ReadTimeline, [true, true, true], [true, false, false]),
            (A::EditMilestones, [true, true, false], [true, false, false]),
            (A::ShareProject, [true, true, true], [true, false, false]),
            (A::DrawMarkup, [true, true, false], [true, false, false]),
            (A::PinOnPhoto, [true, true, true], [true, false, false]),
            (A::TagPhotos, [true, true, false], [true, false, false]),
            (A::MakeReport, [true, true, false], [true, false, false]),
            (A::MakeFavouritesReport, [true, true, true], [true, false, false]),
            (A::ViewReports, [true, true, true], [true, false, false]),
            (A::ShareReport, [true, true, true], [true, false, false]),
            (A::MailReport, [true, true, false], [true, false, false]),
        ];
        for (action, own, other) in project_rows {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                assert_eq!(allows(actor, action, Target::Project(own_project)), own[i], "{action:?} own by {:?}", actor.role);
                assert_eq!(allows(actor, action, Target::Project(other_project)), other[i], "{action:?} other by {:?}", actor.role);
            }
        }

        // Users: (action) → expected for targets [own homeowner, other homeowner, other builder, self].
        let user_rows: [(Action, [[bool; 4]; 3]); 3] = [
            (A::ViewUser, [[true, true, true, true], [true, false, false, true], [true, false, false, true]]),
            (A::EditUser, [[true, true, true, true], [true, false, false, false], [false, false, false, false]]),
            (A::DeleteUser, [[true, true, true, false], [false, false, false, false], [false, false, false, false]]),
        ];
        for (action, expected) in user_rows {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                let me = UserRef { id: &actor.id, role: actor.role, builders: &[] };
                for (j, target) in [own_homeowner, other_homeowner, other_builder, me].into_iter().enumerate() {
                    assert_eq!(allows(actor, action, Target::User(target)), expected[i][j], "{action:?} by {:?} on target {j}", actor.role);
                }
            }
        }

        // Comments: (action) → expected for [own comment on own project, someone else's
        // comment on own project, own comment on a project no longer seen, someone
        // else's on another project], by [admin, builder, homeowner].
        let comment_rows: [(Action, [[bool; 4]; 3]); 2] = [
            (A::EditComment, [[true, false, true, false], [true, false, false, false], [true, false, false, false]]),
            (A::DeleteComment, [[true, true, true, true], [true, false, false, false], [true, false, false, false]]),
        ];
        for (action, expected) in comment_rows {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                let mine_on_own = CommentRef { project: own_project, author_id: &actor.id };
                let theirs_on_own = CommentRef { project: own_project, author_id: "someone" };
                let mine_on_other = CommentRef { project: other_project, author_id: &actor.id };
                let theirs_on_other = CommentRef { project: other_project, author_id: "someone" };
                for (j, target) in [mine_on_own, theirs_on_own, mine_on_other, theirs_on_other].into_iter().enumerate() {
                    assert_eq!(allows(actor, action, Target::Comment(target)), expected[i][j], "{action:?} by {:?} on target {j}", actor.role);
                }
            }
        }

        // Guest links: [own link on own project, someone else's on own project, own
        // link on a project no longer seen, someone else's on another project].
        let link_rows: [(Action, [[bool; 4]; 3]); 1] =
            [(A::ManageGuestLink, [[true, true, true, true], [true, false, false, false], [true, false, false, false]])];
        for (action, expected) in link_rows {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                let mine_on_own = GuestLinkRef { project: own_project, maker_id: &actor.id };
                let theirs_on_own = GuestLinkRef { project: own_project, maker_id: "someone" };
                let mine_on_other = GuestLinkRef { project: other_project, maker_id: &actor.id };
                let theirs_on_other = GuestLinkRef { project: other_project, maker_id: "someone" };
                for (j, target) in [mine_on_own, theirs_on_own, mine_on_other, theirs_on_other].into_iter().enumerate() {
                    assert_eq!(allows(actor, action, Target::GuestLink(target)), expected[i][j], "{action:?} by {:?} on target {j}", actor.role);
                }
            }
        }

        // Reports: [own report of own project, someone else's of own project, own
        // report of a project no longer seen, someone else's of another project].
        let report_rows: [(Action, [[bool; 4]; 3]); 1] =
            [(A::DeleteReport, [[true, true, true, true], [true, false, false, false], [true, false, false, false]])];
        for (action, expected) in report_rows {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                let mine_on_own = ReportRef { project: own_project, maker_id: Some(&actor.id) };
                let theirs_on_own = ReportRef { project: own_project, maker_id: Some("someone") };
                let mine_on_other = ReportRef { project: other_project, maker_id: Some(&actor.id) };
                let theirs_on_other = ReportRef { project: other_project, maker_id: None };
                for (j, target) in [mine_on_own, theirs_on_own, mine_on_other, theirs_on_other].into_iter().enumerate() {
                    assert_eq!(allows(actor, action, Target::Report(target)), expected[i][j], "{action:?} by {:?} on target {j}", actor.role);
                }
            }
        }

        // Untargeted actions.
        let plain: [(Action, [bool; 3]); 9] = [
            (A::ListUsers, [true, true, false]),
            (A::CreateUser, [true, false, false]),
            (A::ListProjects, [true, true, true]),
            (A::CreateProject, [true, false, false]),
            (A::EditOwnProfile, [true, true, true]),
            (A::ChangeOwnPassword, [true, true, true]),
            (A::WriteLog, [true, true, true]),
            (A::SearchPeople, [true, false, false]),
            (A::ManageInstallation, [true, false, false]),
        ];
        for (action, expected) in plain {
            for (i, actor) in [&admin, &builder, &homeowner].into_iter().enumerate() {
                assert_eq!(allows(actor, action, Target::Nothing), expected[i], "{action:?} by {:?}", actor.role);
            }
        }
        // Every action has exactly one row in RULES, and the test covered them all.
        for action in Action::ALL {
            assert_eq!(RULES.iter().filter(|(a, _)| *a == action).count(), 1, "{action:?}");
        }
        assert_eq!(
            project_rows.len() + user_rows.len() + comment_rows.len() + link_rows.len() + report_rows.len() + plain.len(),
            Action::ALL.len()
        );
    }

    /// A guest, for every action: only looking, only at the linked project, only while
    /// its maker sees it, and originals only when the link allows downloads.
    #[test]
    fn guest_access_matrix() {
        let homeowner = Actor { id: "h".into(), role: Role::Homeowner };
        let guest = |downloads| Guest {
            link_id: "l".into(),
            project_id: "p".into(),
            maker: homeowner.clone(),
            photos: GuestPhotos::All,
            downloads,
            report_id: None,
        };
        let linked = LinkedRef { id: "p", project: ProjectRef { homeowner_id: "h", builder_id: Some("b") } };
        // The same owners under another id: a guest's link names one project only.
        let other = LinkedRef { id: "p2", project: ProjectRef { homeowner_id: "h", builder_id: Some("b") } };
        // The linked project, given to another homeowner: its maker lost it, so did the guest.
        let lost = LinkedRef { id: "p", project: ProjectRef { homeowner_id: "h2", builder_id: Some("b") } };
        use Action as A;
        let looks = [A::ViewProject, A::ViewPhoto, A::ReadTimeline];
        for action in Action::ALL {
            for downloads in [false, true] {
                let g = guest(downloads);
                let expected = looks.contains(&action) || (action == A::DownloadPhoto && downloads);
                assert_eq!(guest_allows(&g, action, linked), expected, "{action:?}, downloads {downloads}");
                assert!(!guest_allows(&g, action, other), "{action:?} on another project");
                assert!(!guest_allows(&g, action, lost), "{action:?} after the maker lost the project");
            }
        }
        let mut favourites = guest(false);
        favourites.photos = GuestPhotos::Favourites;
        assert!(guest_sees_photo(&favourites, true));
        assert!(!guest_sees_photo(&favourites, false));
        assert!(guest_sees_photo(&guest(false), false));
        // Issue 28: a report link sees the project's facts, its report and that
        // report's photos; nothing else of the project, whatever its flags say.
        for downloads in [false, true] {
            let mut report = guest(downloads);
            report.report_id = Some("r".into());
            for action in Action::ALL {
                let expected = [A::ViewProject, A::ViewPhoto, A::ViewReports].contains(&action);
                assert_eq!(guest_allows(&report, action, linked), expected, "report link: {action:?}, downloads {downloads}");
                assert!(!guest_allows(&report, action, other), "report link: {action:?} on another project");
                assert!(!guest_allows(&report, action, lost), "report link: {action:?} after the maker lost the project");
            }
            assert!(guest_sees_report(&report, "r", linked));
            assert!(!guest_sees_report(&report, "r2", linked), "another report of the same project");
            assert!(!guest_sees_report(&report, "r", lost));
            assert!(!guest_sees_report(&guest(downloads), "r", linked), "a project link sees no report");
            assert!(guest_sees_photo(&report, true));
            assert!(!guest_sees_photo(&report, false), "a photo the report does not show");
        }
        // No user receives what is meant for guests, and guests' sockets are not users.
        for actor in [&homeowner, &Actor { id: "a".into(), role: Role::Admin }] {
            assert!(!receives(actor, &guest_audience("p"), |_| true));
        }
        assert_eq!(ended_link_audience("l"), Audience::Only(vec!["guest:l".to_owned()]));
    }

    /// Every role × every event × own/other, written out independently of the audience
    /// functions: who receives what. "Own" is the actor's project (or their homeowner,
    /// or themself); "other" someone else's.
    #[test]
    fn event_audience_matrix() {
        let admin = Actor { id: "a".into(), role: Role::Admin };
        let builder = Actor { id: "b".into(), role: Role::Builder };
        let homeowner = Actor { id: "h".into(), role: Role::Homeowner };
        let actors = [&admin, &builder, &homeowner];
        let own = ProjectRef { homeowner_id: "h", builder_id: Some("b") };
        let other = ProjectRef { homeowner_id: "h2", builder_id: Some("b2") };
        let builders_of_h = ["b".to_owned()];
        let own_homeowner = UserRef { id: "h", role: Role::Homeowner, builders: &builders_of_h };
        let other_homeowner = UserRef { id: "h2", role: Role::Homeowner, builders: &[] };
        // A socket subscribes only where the policy lets it (checked when it does).
        let subscribed = |actor: &Actor, project: ProjectRef<'_>| can_view_project(actor, project);

        // (event, own audience, other audience, [admin, builder, homeowner] for own, for other)
        type Row = (&'static str, Audience, Audience, [bool; 3], [bool; 3]);
        let rows: Vec<Row> = vec![
            ("project created/updated/deleted", project_audience(own), project_audience(other), [true, true, true], [true, false, false]),
            // A project moved from h/b to h2/b2: h and b are told it left their view;
            // the new owners get project_updated instead; admins still see it.
            ("project left view", lost_project_audience(own, other), lost_project_audience(other, own), [false, true, true], [false, false, false]),
            ("user created/updated/deleted", user_audience(own_homeowner), user_audience(other_homeowner), [true, true, true], [true, false, false]),
            ("presence", presence_audience("h", &builders_of_h), presence_audience("h2", &[]), [true, true, false], [true, false, false]),
            ("favourite changed", favourite_audience("h"), favourite_audience("h2"), [false, false, true], [false, false, false]),
            // "Own" is a notification for the homeowner; admins never see others'.
            ("notification added/read", notification_audience("h"), notification_audience("h2"), [false, false, true], [false, false, false]),
            ("newly visible homeowner", newly_visible_user_audience("b"), newly_visible_user_audience("b2"), [false, true, false], [false, false, false]),
        ];
        for (event, own_audience, other_audience, own_expected, other_expected) in rows {
            for (i, actor) in actors.into_iter().enumerate() {
                assert_eq!(receives(actor, &own_audience, |_| false), own_expected[i], "{event}, own, {:?}", actor.role);
                assert_eq!(receives(actor, &other_audience, |_| false), other_expected[i], "{event}, other, {:?}", actor.role);
            }
        }
        // Photos added/updated/deleted, viewer lists, comments added/edited/deleted:
        // the project's subscribers.
        type DetailEvent = (&'static str, fn(&str) -> Audience);
        let detail_events: [DetailEvent; 2] =
            [("photo/viewers", project_detail_audience), ("comment added/edited/deleted", comment_audience)];
        for (event, audience) in detail_events {
            for (i, actor) in actors.into_iter().enumerate() {
                let own_expected = [true, true, true][i];
                let other_expected = [true, false, false][i];
                let on = |p: ProjectRef<'_>, id: &str| receives(actor, &audience(id), |x| x == id && subscribed(actor, p));
                assert_eq!(on(own, "own"), own_expected, "{event}, own, {:?}", actor.role);
                assert_eq!(on(other, "other"), other_expected, "{event}, other, {:?}", actor.role);
            }
        }
        // Milestones and timeline entries: the project's subscribers among users, and
        // no user by the guests' part of it.
        for (i, actor) in actors.into_iter().enumerate() {
            let on = |p: ProjectRef<'_>, id: &str| {
                story_audiences(id).iter().map(|a| receives(actor, a, |x| x == id && subscribed(actor, p))).collect::<Vec<_>>()
            };
            assert_eq!(on(own, "own"), [[true, true, true][i], false], "story, own, {:?}", actor.role);
            assert_eq!(on(other, "other"), [[true, false, false][i], false], "story, other, {:?}", actor.role);
        }
        assert_eq!(story_audiences("p")[1], Audience::Guests("p".into()), "and the project's guests, as their links show it");
        // Markup (issue 27): the same people as the photo's — its project's subscribers,
        // and its guests (each only for a photo their link shows: `GuestView::event`).
        for (i, actor) in actors.into_iter().enumerate() {
            let on = |p: ProjectRef<'_>, id: &str| {
                markup_audiences(id).iter().map(|a| receives(actor, a, |x| x == id && subscribed(actor, p))).collect::<Vec<_>>()
            };
            assert_eq!(on(own, "own"), [[true, true, true][i], false], "markup, own, {:?}", actor.role);
            assert_eq!(on(other, "other"), [[true, false, false][i], false], "markup, other, {:?}", actor.role);
        }
        assert_eq!(markup_audiences("p")[1], Audience::Guests("p".into()));
        // A user is never told their own presence.
        assert_eq!(presence_audience("b", &["b".to_owned()]), Audience::Users(vec![]));
    }

    #[test]
    fn scopes_follow_roles() {
        let actor = |role| Actor { id: "u".to_owned(), role };
        assert_eq!(project_scope(&actor(Role::Admin)), ProjectScope::All);
        assert_eq!(project_scope(&actor(Role::Builder)), ProjectScope::Builder("u".to_owned()));
        assert_eq!(project_scope(&actor(Role::Homeowner)), ProjectScope::Homeowner("u".to_owned()));
    }
}
