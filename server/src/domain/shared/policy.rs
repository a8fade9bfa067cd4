//! Who may see and do what: SPEC.md §6 as one table. Every request and every event
//! fan-out asks this module; nothing else decides access.

use protocol::{CompanyRole, GuestPhotos, Role};

use crate::store::projects::ProjectScope;
use crate::store::users::UserRow;

/// What a refused action reads as, where no more particular message says why.
pub const NOT_ALLOWED: &str = "You don't have permission to do that.";

/// The authenticated user behind a request, as the policy sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub role: Role,
    /// A builder's company (docs/FEATURES.md, "Builder companies"); a builder without one
    /// sees no project.
    pub company: Option<Membership>,
}

/// A builder's place in their company (docs/FEATURES.md, "Builder companies").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub company_id: String,
    pub role: CompanyRole,
    /// Crew who see every project of the company, not only those they are on.
    pub all_projects: bool,
}

impl Actor {
    /// Someone with no company: an admin, a homeowner, or a builder outside any.
    pub fn new(id: impl Into<String>, role: Role) -> Actor {
        Actor { id: id.into(), role, company: None }
    }

    /// A company member.
    pub fn member(id: impl Into<String>, company_id: impl Into<String>, role: CompanyRole, all_projects: bool) -> Actor {
        Actor { id: id.into(), role: Role::Builder, company: Some(Membership { company_id: company_id.into(), role, all_projects }) }
    }

    /// The account as the policy sees it: only builders have a company.
    pub fn of(user: &UserRow) -> Actor {
        let company = match (user.role, &user.company_id, user.company_role) {
            (Role::Builder, Some(company_id), Some(role)) => {
                Some(Membership { company_id: company_id.clone(), role, all_projects: user.all_projects })
            }
            _ => None,
        };
        Actor { id: user.id.clone(), role: user.role, company }
    }

    /// The company this actor belongs to, if any.
    pub fn company_id(&self) -> Option<&str> {
        self.company.as_ref().map(|m| m.company_id.as_str())
    }
}

/// Whoever holds a guest link (docs/FEATURES.md, "The project's story"): a principal of
/// its own, never a role. What it may see is one project, through the eyes of the link's
/// maker, and only while the maker may still see it; `photos` and `downloads` narrow it
/// further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guest {
    pub link_id: String,
    pub project_id: String,
    /// Who made the link; the link shows nothing they may not see.
    pub maker: Actor,
    pub photos: GuestPhotos,
    pub downloads: bool,
    /// A report link (docs/FEATURES.md, "Progress reports"): the one report it shows, and
    /// of the project only what that report shows.
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
    /// The builder company (docs/FEATURES.md, "Builder companies").
    pub company_id: Option<&'a str>,
    /// The company's members on its crew.
    pub crew: &'a [String],
}

/// A builder company as a target (docs/FEATURES.md, "Builder companies").
#[derive(Debug, Clone, Copy)]
pub struct CompanyRef<'a> {
    pub id: &'a str,
}

/// A company member (or one about to be) as a target: which company, and in what role.
#[derive(Debug, Clone, Copy)]
pub struct MemberRef<'a> {
    pub company_id: &'a str,
    pub role: CompanyRole,
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
    /// Builders who may see at least one project of this user (when a homeowner).
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
    /// Draw on a photo (docs/FEATURES.md, "Markup on photos"): add, change and remove any
    /// of its markup.
    DrawMarkup,
    /// Add pins with a question to a photo, and change or remove one's own pins.
    PinOnPhoto,
    /// Add and remove tags on a project's photos (docs/FEATURES.md, "Tags and search").
    TagPhotos,
    /// Find people by name or email in the header search (docs/FEATURES.md,
    /// "Tags and search").
    SearchPeople,
    /// Read and change the installation's settings (docs/FEATURES.md, "Tags and search").
    ManageInstallation,
    /// Make a progress report of any of a project's photos (docs/FEATURES.md,
    /// "Progress reports").
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
    /// See a builder company, its members and project count (docs/FEATURES.md,
    /// "Builder companies").
    ViewCompany,
    CreateCompany,
    /// Rename a company.
    EditCompany,
    /// Delete a company with its projects and its members' logins.
    DeleteCompany,
    /// Invite a member to a company, in a role.
    InviteMember,
    /// Change a member's role or whether crew see every project; take them out.
    ManageMember,
    /// Say who of the company's crew is on a project.
    AssignCrew,
    /// See one's own sign-in security (factors, passkeys, signed-in devices) and sign
    /// one's other sessions out (docs/SECURITY.md, "Two-factor sign-in").
    ManageOwnSecurity,
    /// Turn one's own authenticator app or passkeys on or off, or renew recovery codes.
    ChangeOwnFactors,
    /// Remove another user's second factors, for one who lost them.
    ResetFactors,
    /// Turn push notifications on or off for one's own devices (docs/FEATURES.md,
    /// "Comments, notifications and mail").
    ManageOwnNotifications,
}

impl Action {
    pub const ALL: [Action; 49] = [
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
        Action::ViewCompany,
        Action::CreateCompany,
        Action::EditCompany,
        Action::DeleteCompany,
        Action::InviteMember,
        Action::ManageMember,
        Action::AssignCrew,
        Action::ManageOwnSecurity,
        Action::ChangeOwnFactors,
        Action::ResetFactors,
        Action::ManageOwnNotifications,
    ];

    /// Actions that, for an account with a second factor, want one proved in the session's
    /// last 15 minutes (docs/SECURITY.md, "Two-factor sign-in"): everything that grants or
    /// takes away power (making an administrator, the installation's sign-in rules, a
    /// company's owners and managers, their roles, deleting people), sharing outside the
    /// account, and changing the factors themselves. Which requests are these actions is
    /// decided in one place, `ws::dispatch` (a homeowner's invitation is not a grant of
    /// power).
    pub fn wants_fresh_factor(self) -> bool {
        matches!(
            self,
            Action::CreateUser
                | Action::DeleteUser
                | Action::ManageInstallation
                | Action::DeleteCompany
                | Action::InviteMember
                | Action::ManageMember
                | Action::ShareProject
                | Action::ShareReport
                | Action::ChangeOwnFactors
                | Action::ResetFactors
        )
    }
}

/// What a role may do with an action's target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Never,
    /// Any target (or no target).
    Any,
    /// Any user but oneself (an admin cannot delete their own account).
    AnyButSelf,
    /// Projects where the actor is the homeowner (homeowners), or of the actor's company
    /// (builders: crew only those they are on, unless they see all).
    OwnProjects,
    /// The actor's own company, or a member (to be) of it in any role.
    OwnCompany,
    /// A crew member (to be) of the actor's company.
    OwnCompanyCrew,
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

/// SPEC.md §6, one row per action: (admin, builder company owner, manager, crew,
/// homeowner, guest). Builder companies split the builder into their company roles
/// (docs/FEATURES.md, "Builder companies"): owners and managers keep everything a builder
/// did; crew document the build (photos, captions, markup, tags, comments, reports) on the
/// projects they are on, but do not change the project's details, its plan, share it
/// outside or mail its homeowner. Guests (docs/FEATURES.md, "The project's story") are the
/// last column: they only ever look, at the one project of their link.
pub const RULES: [(Action, [Scope; 6]); 49] = [
    (Action::ListUsers, [Any, OwnHomeowners, OwnHomeowners, OwnHomeowners, Never, Never]),
    (Action::ViewUser, [Any, SelfOrOwnHomeowners, SelfOrOwnHomeowners, SelfOrOwnHomeowners, OwnAccount, Never]),
    (Action::CreateUser, [Any, Never, Never, Never, Never, Never]),
    (Action::EditUser, [Any, OwnHomeowners, OwnHomeowners, Never, Never, Never]),
    (Action::DeleteUser, [AnyButSelf, Never, Never, Never, Never, Never]),
    (Action::ListProjects, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, Never]),
    (Action::ViewProject, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, LinkedProjectOrReport]),
    (Action::CreateProject, [Any, Never, Never, Never, Never, Never]),
    (Action::EditProjectDetails, [Any, OwnProjects, OwnProjects, Never, Never, Never]),
    (Action::ChangeProjectStatus, [Any, Never, Never, Never, Never, Never]),
    (Action::DeleteProject, [Any, Never, Never, Never, Never, Never]),
    (Action::UploadPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, Never, Never]),
    (Action::EditPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, Never, Never]),
    // SPEC.md §6: builders upload and edit, but the gallery offers them no delete.
    (Action::DeletePhoto, [Any, Never, Never, Never, Never, Never]),
    (Action::FavouritePhoto, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, Never]),
    (Action::DownloadPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, LinkedProjectWithDownloads]),
    (Action::EditOwnProfile, [Any, Any, Any, Any, Any, Never]),
    (Action::ChangeOwnPassword, [Any, Any, Any, Any, Any, Never]),
    (Action::WriteLog, [Any, Any, Any, Any, Any, Never]),
    // Everyone who may see a project may comment on its photos (docs/FEATURES.md,
    // "Comments, notifications and mail"); authors edit and delete their own, admins
    // delete any (but edit only their own: words are not put in someone's mouth). Guests
    // read no comment threads.
    (Action::CommentOnPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, Never]),
    (Action::EditComment, [OwnComments, OwnComments, OwnComments, OwnComments, OwnComments, Never]),
    (Action::DeleteComment, [Any, OwnComments, OwnComments, OwnComments, OwnComments, Never]),
    // Guest links and the plan (docs/FEATURES.md, "The project's story"): a guest sees the
    // link's photos (all, or its maker's favourites: see `guest_sees_photo`) and the
    // timeline; admins and the project's builder keep the plan; anyone who sees a project
    // may share it, and manages their own links.
    (Action::ViewPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, LinkedProjectOrReport]),
    (Action::ReadTimeline, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, LinkedProject]),
    (Action::EditMilestones, [Any, OwnProjects, OwnProjects, Never, Never, Never]),
    (Action::ShareProject, [Any, OwnProjects, OwnProjects, Never, OwnProjects, Never]),
    (Action::ManageGuestLink, [Any, OwnLinks, OwnLinks, OwnLinks, OwnLinks, Never]),
    // The people who document the build draw on its photos; the homeowner points at a
    // spot and asks (a pin with a note), and edits only their own pins
    // (`markup::may_change`). Markup is seen by whoever sees the photo (docs/FEATURES.md,
    // "Markup on photos").
    (Action::DrawMarkup, [Any, OwnProjects, OwnProjects, OwnProjects, Never, Never]),
    (Action::PinOnPhoto, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, Never]),
    // Tags are kept by the people who keep captions (docs/FEATURES.md, "Tags and search");
    // everyone searches what they may see (the search's scope is `project_scope`, a guest's
    // their link), and only admins find people and change the installation.
    (Action::TagPhotos, [Any, OwnProjects, OwnProjects, OwnProjects, Never, Never]),
    (Action::SearchPeople, [Any, Never, Never, Never, Never, Never]),
    (Action::ManageInstallation, [Any, Never, Never, Never, Never, Never]),
    // The people who document the build make reports of it; the homeowner makes one of
    // their favourites (for family, the bank). Everyone who sees the project sees its
    // reports; makers delete their own, admins any. Guests see a report only through its
    // own link, which whoever may share the project makes; the people who make reports
    // mail them to the homeowner (docs/FEATURES.md, "Progress reports").
    (Action::MakeReport, [Any, OwnProjects, OwnProjects, OwnProjects, Never, Never]),
    (Action::MakeFavouritesReport, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, Never]),
    (Action::ViewReports, [Any, OwnProjects, OwnProjects, OwnProjects, OwnProjects, LinkedReport]),
    (Action::DeleteReport, [Any, OwnReports, OwnReports, OwnReports, OwnReports, Never]),
    (Action::ShareReport, [Any, OwnProjects, OwnProjects, Never, OwnProjects, Never]),
    (Action::MailReport, [Any, OwnProjects, OwnProjects, Never, Never, Never]),
    // Members see their company; its owner renames it and manages its people; managers
    // invite crew and put crew on projects; admins do all of it, and only they make and
    // delete companies (docs/FEATURES.md, "Builder companies").
    (Action::ViewCompany, [Any, OwnCompany, OwnCompany, OwnCompany, Never, Never]),
    (Action::CreateCompany, [Any, Never, Never, Never, Never, Never]),
    (Action::EditCompany, [Any, OwnCompany, Never, Never, Never, Never]),
    (Action::DeleteCompany, [Any, Never, Never, Never, Never, Never]),
    (Action::InviteMember, [Any, OwnCompany, OwnCompanyCrew, Never, Never, Never]),
    (Action::ManageMember, [Any, OwnCompany, Never, Never, Never, Never]),
    (Action::AssignCrew, [Any, OwnProjects, OwnProjects, Never, Never, Never]),
    // Security (docs/SECURITY.md, "Two-factor sign-in"): everyone with an account keeps
    // their own sign-in safe; admins reset another user's factors (never their own:
    // another admin does, so one stolen session cannot strip an admin's factors).
    (Action::ManageOwnSecurity, [Any, Any, Any, Any, Any, Never]),
    (Action::ChangeOwnFactors, [Any, Any, Any, Any, Any, Never]),
    (Action::ResetFactors, [AnyButSelf, Never, Never, Never, Never, Never]),
    // Every account chooses where its own notifications go; guests get none
    // (docs/FEATURES.md, "Comments, notifications and mail").
    (Action::ManageOwnNotifications, [Any, Any, Any, Any, Any, Never]),
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
    Company(CompanyRef<'a>),
    Member(MemberRef<'a>),
}

/// A project as a guest's rules see it: its id besides its owners.
#[derive(Debug, Clone, Copy)]
pub struct LinkedRef<'a> {
    pub id: &'a str,
    pub project: ProjectRef<'a>,
}

const GUEST_COLUMN: usize = 5;

fn column_scope(col: usize, action: Action) -> Scope {
    RULES.iter().find(|(a, _)| *a == action).map(|(_, s)| s[col]).unwrap_or(Never)
}

/// An actor's column: their role, and a builder's place in their company (a builder
/// outside any company reads the crew's column, and sees no project through it).
pub fn scope(actor: &Actor, action: Action) -> Scope {
    let col = match (actor.role, actor.company.as_ref().map(|m| m.role)) {
        (Role::Admin, _) => 0,
        (Role::Builder, Some(CompanyRole::Owner)) => 1,
        (Role::Builder, Some(CompanyRole::Manager)) => 2,
        (Role::Builder, Some(CompanyRole::Crew) | None) => 3,
        (Role::Homeowner, _) => 4,
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
        Role::Builder => member_sees(actor, p),
        Role::Admin => true,
    };
    let own_company = |company_id: &str| actor.company_id() == Some(company_id);
    let own_homeowner =
        |u: UserRef<'_>| actor.role == Role::Builder && u.role == Role::Homeowner && u.builders.contains(&actor.id);
    match (scope(actor, action), target) {
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
        (OwnCompany, Target::Company(c)) => own_company(c.id),
        (OwnCompany, Target::Member(m)) => own_company(m.company_id),
        (OwnCompanyCrew, Target::Member(m)) => own_company(m.company_id) && m.role == CompanyRole::Crew,
        _ => false,
    }
}

/// Whether a builder sees a project through their company: owners, managers and crew
/// who see all its projects do; other crew see the projects they are on.
fn member_sees(actor: &Actor, p: ProjectRef<'_>) -> bool {
    let Some(m) = &actor.company else { return false };
    p.company_id == Some(m.company_id.as_str()) && (m.role != CompanyRole::Crew || m.all_projects || p.crew.contains(&actor.id))
}

/// Admins see every project; a builder their company's (crew: those they are on,
/// unless they see all); a homeowner only the projects whose homeownerId is theirs.
pub fn project_scope(actor: &Actor) -> ProjectScope {
    match (actor.role, &actor.company) {
        (Role::Admin, _) => ProjectScope::All,
        (Role::Builder, Some(m)) => ProjectScope::Company {
            company_id: m.company_id.clone(),
            crew_of: (m.role == CompanyRole::Crew && !m.all_projects).then(|| actor.id.clone()),
        },
        (Role::Builder, None) => ProjectScope::Nothing,
        (Role::Homeowner, _) => ProjectScope::Homeowner(actor.id.clone()),
    }
}

pub fn can_view_company(actor: &Actor, company_id: &str) -> bool {
    allows(actor, Action::ViewCompany, Target::Company(CompanyRef { id: company_id }))
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
    /// The guests watching this project (docs/FEATURES.md, "The project's story"), each
    /// checked with `guest_allows` when their socket opened and again whenever the project
    /// changed. Each gets the event as their link shows it (`guests::GuestView::event`):
    /// only the photos it shares (`guest_sees_photo`), nothing about people, or nothing at
    /// all.
    Guests(String),
    /// Admins and these users, on the sockets that have search results open
    /// (docs/FEATURES.md, "Tags and search"): told that something they may find changed.
    Searchers(Vec<String>),
}

/// The people besides admins who see a project: its homeowner, and those of `members`
/// (its company's) whom the policy lets see it (docs/FEATURES.md, "Builder companies").
pub fn project_people(project: ProjectRef<'_>, members: &[Actor]) -> Vec<String> {
    std::iter::once(project.homeowner_id.to_owned())
        .chain(members.iter().filter(|m| can_view_project(m, project)).map(|m| m.id.clone()))
        .collect()
}

/// Who is told that something searchable in a project changed: whoever may see the
/// project (admins, its homeowner and the company's members who see it), on sockets with
/// results open (docs/FEATURES.md, "Tags and search").
pub fn search_audience(project: ProjectRef<'_>, members: &[Actor]) -> Audience {
    Audience::Searchers(project_people(project, members))
}

/// A project's creation, update or deletion: admins, its homeowner and the members of
/// its company (`members`) who see it.
pub fn project_audience(project: ProjectRef<'_>, members: &[Actor]) -> Audience {
    Audience::Users(project_people(project, members))
}

/// After a project moved to other people (another homeowner, another company, a crew
/// change): those who could see it before and no longer can (they are told it left
/// their view). `members` are the companies' members, before and after, as they are.
pub fn lost_project_audience(before: ProjectRef<'_>, after: ProjectRef<'_>, members: &[Actor]) -> Audience {
    let after_people = project_people(after, members);
    let mut lost: Vec<String> = project_people(before, members).into_iter().filter(|p| !after_people.contains(p)).collect();
    lost.dedup();
    Audience::Only(lost)
}

/// Members newly seeing a homeowner's project may now see that homeowner's profile.
pub fn newly_visible_user_audience(before: Option<ProjectRef<'_>>, after: ProjectRef<'_>, members: &[Actor]) -> Audience {
    let before_people = before.map(|b| project_people(b, members)).unwrap_or_default();
    Audience::Only(
        project_people(after, members)
            .into_iter()
            .skip(1)
            .filter(|p| !before_people.contains(p))
            .collect(),
    )
}

/// A company changed or went (docs/FEATURES.md, "Builder companies"): admins and its
/// members (`member_ids`, those before the change too, so a removed member's other tabs
/// hear of it).
pub fn company_audience(member_ids: Vec<String>) -> Audience {
    Audience::Users(member_ids)
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

/// A photo's markup (docs/FEATURES.md, "Markup on photos"): the project's subscribers,
/// and the guests watching it whose link shows the photo (`GuestView::event`).
pub fn markup_audiences(project_id: &str) -> [Audience; 2] {
    [Audience::Subscribers(project_id.to_owned()), guest_audience(project_id)]
}

/// A project's reports being made, finished or deleted: everyone with the project open,
/// who all may see its reports; never its guests (docs/FEATURES.md, "Progress reports").
pub fn report_audience(project_id: &str) -> Audience {
    Audience::Subscribers(project_id.to_owned())
}

/// What guests watching a project hear of (docs/FEATURES.md, "The project's story"): the
/// project, its milestones, its timeline and its photos, each as their link shows it;
/// nothing about people.
pub fn guest_audience(project_id: &str) -> Audience {
    Audience::Guests(project_id.to_owned())
}

/// A project's milestones and timeline entries (docs/FEATURES.md, "The project's story"):
/// its subscribers, and the guests watching it (a timeline entry with the photos of it
/// each guest sees).
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
        let admin = Actor::new("a", Role::Admin);
        let builder = Actor::member("b", "b", protocol::CompanyRole::Owner, false);
        let homeowner = Actor::new("h", Role::Homeowner);
        let own_project = ProjectRef { homeowner_id: "h", company_id: Some("b"), crew: &[] };
        let other_project = ProjectRef { homeowner_id: "h2", company_id: Some("b2"), crew: &[] };
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
        let user_rows: [(Action, [[bool; 4]; 3]); 4] = [
            (A::ViewUser, [[true, true, true, true], [true, false, false, true], [true, false, false, true]]),
            (A::EditUser, [[true, true, true, true], [true, false, false, false], [false, false, false, false]]),
            (A::DeleteUser, [[true, true, true, false], [false, false, false, false], [false, false, false, false]]),
            (A::ResetFactors, [[true, true, true, false], [false, false, false, false], [false, false, false, false]]),
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
        let plain: [(Action, [bool; 3]); 12] = [
            (A::ManageOwnSecurity, [true, true, true]),
            (A::ManageOwnNotifications, [true, true, true]),
            (A::ChangeOwnFactors, [true, true, true]),
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
            project_rows.len()
                + user_rows.len()
                + comment_rows.len()
                + link_rows.len()
                + report_rows.len()
                + plain.len()
                + COMPANY_ACTIONS.len(),
            Action::ALL.len()
        );
    }

    /// Exactly these actions want a second factor proved in the last 15 minutes (granting
    /// or taking away power, sharing outside the account, changing factors); everyday work
    /// and looking at one's own security do not (docs/SECURITY.md, "Two-factor sign-in").
    #[test]
    fn sensitive_actions_want_a_fresh_factor() {
        let fresh: Vec<Action> = Action::ALL.into_iter().filter(|a| a.wants_fresh_factor()).collect();
        assert_eq!(
            fresh,
            vec![
                Action::CreateUser,
                Action::DeleteUser,
                Action::ShareProject,
                Action::ManageInstallation,
                Action::ShareReport,
                Action::DeleteCompany,
                Action::InviteMember,
                Action::ManageMember,
                Action::ChangeOwnFactors,
                Action::ResetFactors
            ]
        );
        // Everyone with an account, in any role, manages their own security; guests have none.
        let guest_scope = |a: Action| column_scope(GUEST_COLUMN, a);
        for action in [Action::ManageOwnSecurity, Action::ChangeOwnFactors, Action::ManageOwnNotifications] {
            assert_eq!(guest_scope(action), Scope::Never);
            for actor in [
                Actor::new("a", Role::Admin),
                Actor::new("h", Role::Homeowner),
                Actor::member("o", "c", CompanyRole::Owner, false),
                Actor::member("k", "c", CompanyRole::Crew, false),
                Actor::new("removed", Role::Builder),
            ] {
                assert!(allows(&actor, action, Target::Nothing), "{action:?} by {actor:?}");
            }
        }
    }

    /// The actions builder companies added, covered by `company_role_matrix`.
    const COMPANY_ACTIONS: [Action; 7] = [
        Action::ViewCompany,
        Action::CreateCompany,
        Action::EditCompany,
        Action::DeleteCompany,
        Action::InviteMember,
        Action::ManageMember,
        Action::AssignCrew,
    ];

    /// A column per company role (docs/FEATURES.md, "Builder companies"). Members of
    /// company "c" — its owner, a manager, crew on the project, crew not on it, crew who see
    /// every project — and a removed member (a builder with no company), each on a project
    /// of "c" whose crew is k1 and on a project of another company (with k1 on its crew
    /// list, which must not matter). Written out independently of RULES.
    #[test]
    fn company_role_matrix() {
        use CompanyRole::{Crew, Manager, Owner};
        let owner = Actor::member("o", "c", Owner, false);
        let manager = Actor::member("m", "c", Manager, false);
        let crew_on = Actor::member("k1", "c", Crew, false);
        let crew_off = Actor::member("k2", "c", Crew, false);
        let crew_all = Actor::member("k3", "c", Crew, true);
        let removed = Actor::new("r", Role::Builder);
        let actors = [&owner, &manager, &crew_on, &crew_off, &crew_all, &removed];
        let crew = ["k1".to_owned()];
        let own = ProjectRef { homeowner_id: "h", company_id: Some("c"), crew: &crew };
        let other = ProjectRef { homeowner_id: "h2", company_id: Some("c2"), crew: &crew };
        let unbuilt = ProjectRef { homeowner_id: "h", company_id: None, crew: &crew };

        // (action, owners and managers may, crew on the project may): crew not on it,
        // and a removed member, never may; no one may on another company's project.
        use Action as A;
        let project_rows: [(Action, bool, bool); 24] = [
            (A::ViewProject, true, true),
            (A::EditProjectDetails, true, false),
            (A::ChangeProjectStatus, false, false),
            (A::DeleteProject, false, false),
            (A::UploadPhoto, true, true),
            (A::EditPhoto, true, true),
            (A::DeletePhoto, false, false),
            (A::FavouritePhoto, true, true),
            (A::DownloadPhoto, true, true),
            (A::CommentOnPhoto, true, true),
            (A::ViewPhoto, true, true),
            (A::ReadTimeline, true, true),
            (A::EditMilestones, true, false),
            (A::ShareProject, true, false),
            (A::DrawMarkup, true, true),
            (A::PinOnPhoto, true, true),
            (A::TagPhotos, true, true),
            (A::MakeReport, true, true),
            (A::MakeFavouritesReport, true, true),
            (A::ViewReports, true, true),
            (A::ShareReport, true, false),
            (A::MailReport, true, false),
            (A::AssignCrew, true, false),
            (A::CreateProject, false, false),
        ];
        for (action, lead, on_crew) in project_rows {
            let expected = [lead, lead, on_crew, false, on_crew, false];
            for (actor, want) in actors.iter().zip(expected) {
                let target = if action == A::CreateProject { Target::Nothing } else { Target::Project(own) };
                assert_eq!(allows(actor, action, target), want, "{action:?} by {} on their company's project", actor.id);
                assert!(!allows(actor, action, Target::Project(other)) || action == A::CreateProject, "{action:?} by {} on another's", actor.id);
                assert!(!allows(actor, action, Target::Project(unbuilt)) || action == A::CreateProject, "{action:?} by {} without a builder", actor.id);
            }
        }
        // Their projects, as the store is asked for them, match what they may view.
        for actor in actors {
            let scope = project_scope(actor);
            let listed = |p: ProjectRef<'_>| match &scope {
                ProjectScope::Company { company_id, crew_of } => {
                    p.company_id == Some(company_id.as_str()) && crew_of.as_ref().is_none_or(|k| p.crew.contains(k))
                }
                ProjectScope::Nothing => false,
                _ => true,
            };
            for p in [own, other, unbuilt] {
                assert_eq!(listed(p), can_view_project(actor, p), "{}'s scope", actor.id);
            }
        }

        // Companies: [own company, another company] for each actor.
        let company_rows: [(Action, [bool; 6]); 4] = [
            (A::ViewCompany, [true, true, true, true, true, false]),
            (A::EditCompany, [true, false, false, false, false, false]),
            (A::DeleteCompany, [false; 6]),
            (A::CreateCompany, [false; 6]),
        ];
        for (action, expected) in company_rows {
            for (actor, want) in actors.iter().zip(expected) {
                assert_eq!(allows(actor, action, Target::Company(CompanyRef { id: "c" })), want, "{action:?} by {}", actor.id);
                assert!(!allows(actor, action, Target::Company(CompanyRef { id: "c2" })), "{action:?} by {} on another", actor.id);
            }
        }
        // Members: inviting crew, inviting a manager or an owner, managing anyone.
        let member = |company, role| Target::Member(MemberRef { company_id: company, role });
        let member_rows: [(Action, CompanyRole, [bool; 6]); 4] = [
            (A::InviteMember, Crew, [true, true, false, false, false, false]),
            (A::InviteMember, Manager, [true, false, false, false, false, false]),
            (A::InviteMember, Owner, [true, false, false, false, false, false]),
            (A::ManageMember, Crew, [true, false, false, false, false, false]),
        ];
        for (action, role, expected) in member_rows {
            for (actor, want) in actors.iter().zip(expected) {
                assert_eq!(allows(actor, action, member("c", role)), want, "{action:?} {role:?} by {}", actor.id);
                assert!(!allows(actor, action, member("c2", role)), "{action:?} {role:?} by {} in another", actor.id);
            }
        }
        // Admins do all of it, anywhere; homeowners none of it.
        let admin = Actor::new("a", Role::Admin);
        let homeowner = Actor::new("h", Role::Homeowner);
        for action in COMPANY_ACTIONS {
            for target in [Target::Company(CompanyRef { id: "c" }), member("c", Owner), Target::Project(own), Target::Nothing] {
                assert!(allows(&admin, action, target), "{action:?} by an admin");
                assert!(!allows(&homeowner, action, target), "{action:?} by a homeowner");
            }
        }
    }

    /// A guest, for every action: only looking, only at the linked project, only while
    /// its maker sees it, and originals only when the link allows downloads.
    #[test]
    fn guest_access_matrix() {
        let homeowner = Actor::new("h", Role::Homeowner);
        let guest = |downloads| Guest {
            link_id: "l".into(),
            project_id: "p".into(),
            maker: homeowner.clone(),
            photos: GuestPhotos::All,
            downloads,
            report_id: None,
        };
        let linked = LinkedRef { id: "p", project: ProjectRef { homeowner_id: "h", company_id: Some("b"), crew: &[] } };
        // The same owners under another id: a guest's link names one project only.
        let other = LinkedRef { id: "p2", project: ProjectRef { homeowner_id: "h", company_id: Some("b"), crew: &[] } };
        // The linked project, given to another homeowner: its maker lost it, so did the guest.
        let lost = LinkedRef { id: "p", project: ProjectRef { homeowner_id: "h2", company_id: Some("b"), crew: &[] } };
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
        // A report link sees the project's facts, its report and that report's photos;
        // nothing else of the project, whatever its flags say (docs/FEATURES.md,
        // "Progress reports").
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
        for actor in [&homeowner, &Actor::new("a", Role::Admin)] {
            assert!(!receives(actor, &guest_audience("p"), |_| true));
        }
        assert_eq!(ended_link_audience("l"), Audience::Only(vec!["guest:l".to_owned()]));
    }

    /// Every role × every event × own/other, written out independently of the audience
    /// functions: who receives what. "Own" is the actor's project (or their homeowner,
    /// or themself); "other" someone else's.
    #[test]
    fn event_audience_matrix() {
        let admin = Actor::new("a", Role::Admin);
        let builder = Actor::member("b", "b", protocol::CompanyRole::Owner, false);
        let homeowner = Actor::new("h", Role::Homeowner);
        let actors = [&admin, &builder, &homeowner];
        let own = ProjectRef { homeowner_id: "h", company_id: Some("b"), crew: &[] };
        let other = ProjectRef { homeowner_id: "h2", company_id: Some("b2"), crew: &[] };
        let builders_of_h = ["b".to_owned()];
        let own_homeowner = UserRef { id: "h", role: Role::Homeowner, builders: &builders_of_h };
        let other_homeowner = UserRef { id: "h2", role: Role::Homeowner, builders: &[] };
        // A socket subscribes only where the policy lets it (checked when it does).
        let subscribed = |actor: &Actor, project: ProjectRef<'_>| can_view_project(actor, project);

        // (event, own audience, other audience, [admin, builder, homeowner] for own, for other)
        let members = [builder.clone(), Actor::member("b2", "b2", protocol::CompanyRole::Owner, false)];
        type Row = (&'static str, Audience, Audience, [bool; 3], [bool; 3]);
        let rows: Vec<Row> = vec![
            ("project created/updated/deleted", project_audience(own, &members), project_audience(other, &members), [true, true, true], [true, false, false]),
            // A project moved from h/b to h2/b2: h and b are told it left their view;
            // the new owners get project_updated instead; admins still see it.
            ("project left view", lost_project_audience(own, other, &members), lost_project_audience(other, own, &members), [false, true, true], [false, false, false]),
            ("user created/updated/deleted", user_audience(own_homeowner), user_audience(other_homeowner), [true, true, true], [true, false, false]),
            ("presence", presence_audience("h", &builders_of_h), presence_audience("h2", &[]), [true, true, false], [true, false, false]),
            ("favourite changed", favourite_audience("h"), favourite_audience("h2"), [false, false, true], [false, false, false]),
            // "Own" is a notification for the homeowner; admins never see others'.
            ("notification added/read", notification_audience("h"), notification_audience("h2"), [false, false, true], [false, false, false]),
            ("newly visible homeowner", newly_visible_user_audience(None, own, &members), newly_visible_user_audience(None, other, &members), [false, true, false], [false, false, false]),
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
        // Markup (docs/FEATURES.md, "Markup on photos"): the same people as the photo's —
        // its project's subscribers, and its guests (each only for a photo their link
        // shows: `GuestView::event`).
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

    /// A project's events reach exactly the members of its company who may see it — owners,
    /// managers, crew on it, crew who see all — and not crew off it, another company's
    /// members or a removed member; a crew change tells whoever it takes off that the
    /// project left their view, and no one else (docs/FEATURES.md, "Builder companies").
    #[test]
    fn project_events_reach_exactly_the_members_who_see_it() {
        use CompanyRole::{Crew, Manager, Owner};
        let members = [
            Actor::member("o", "c", Owner, false),
            Actor::member("m", "c", Manager, false),
            Actor::member("k1", "c", Crew, false),
            Actor::member("k2", "c", Crew, false),
            Actor::member("k3", "c", Crew, true),
            Actor::member("x", "c2", Owner, false),
        ];
        let on = ["k1".to_owned()];
        let project = ProjectRef { homeowner_id: "h", company_id: Some("c"), crew: &on };
        let people = |a: &Audience| match a {
            Audience::Users(u) | Audience::Only(u) | Audience::Searchers(u) => u.clone(),
            _ => Vec::new(),
        };
        assert_eq!(people(&project_audience(project, &members)), ["h", "o", "m", "k1", "k3"]);
        assert_eq!(people(&search_audience(project, &members)), ["h", "o", "m", "k1", "k3"]);
        let removed = Actor::new("r", Role::Builder);
        assert!(!receives(&removed, &project_audience(project, &members), |_| true), "a removed member");
        // k1 taken off the crew, k2 put on it.
        let now_on = ["k2".to_owned()];
        let after = ProjectRef { crew: &now_on, ..project };
        assert_eq!(lost_project_audience(project, after, &members), Audience::Only(vec!["k1".to_owned()]));
        assert_eq!(newly_visible_user_audience(Some(project), after, &members), Audience::Only(vec!["k2".to_owned()]));
        // Moved to company c2: all of c's who saw it lose it, c2's owner gains it.
        let moved = ProjectRef { company_id: Some("c2"), crew: &[], ..project };
        assert_eq!(people(&lost_project_audience(project, moved, &members)), ["o", "m", "k1", "k3"]);
        assert_eq!(newly_visible_user_audience(Some(project), moved, &members), Audience::Only(vec!["x".to_owned()]));
        assert_eq!(company_audience(vec!["o".into()]), Audience::Users(vec!["o".to_owned()]));
    }

    #[test]
    fn scopes_follow_roles() {
        let actor = |role| Actor::new("u", role);
        assert_eq!(project_scope(&actor(Role::Admin)), ProjectScope::All);
        assert_eq!(project_scope(&actor(Role::Builder)), ProjectScope::Nothing, "a builder outside any company");
        assert_eq!(project_scope(&actor(Role::Homeowner)), ProjectScope::Homeowner("u".to_owned()));
        let member = |role, all| Actor::member("u", "c", role, all);
        let company = |crew_of: Option<&str>| ProjectScope::Company { company_id: "c".into(), crew_of: crew_of.map(str::to_owned) };
        assert_eq!(project_scope(&member(CompanyRole::Owner, false)), company(None));
        assert_eq!(project_scope(&member(CompanyRole::Manager, false)), company(None));
        assert_eq!(project_scope(&member(CompanyRole::Crew, true)), company(None), "crew who see all");
        assert_eq!(project_scope(&member(CompanyRole::Crew, false)), company(Some("u")));
    }
}
