//! What a use case changed, as ids and versions only. Changes travel on the bus (to
//! this instance and, with Postgres, to every other one); each instance turns them into
//! events for the sessions allowed to see them.

use protocol::{Comment, Markup, MilestonePlan, Profile, Project, ProjectImage, TimelineEntry};
use serde::{Deserialize, Serialize};

/// Who owns a project: with its company's members, the people (besides admins) who
/// may see it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Owners {
    pub homeowner_id: String,
    /// The builder company (docs/FEATURES.md, "Builder companies") and who of its crew is
    /// on the project.
    pub company_id: Option<String>,
    #[serde(default)]
    pub crew: Vec<String>,
}

impl Owners {
    pub fn of(p: &crate::store::projects::ProjectRow) -> Owners {
        Owners { homeowner_id: p.homeowner_id.clone(), company_id: p.company_id.clone(), crew: p.crew.clone() }
    }

    pub fn as_ref(&self) -> crate::domain::shared::policy::ProjectRef<'_> {
        crate::domain::shared::policy::ProjectRef { homeowner_id: &self.homeowner_id, company_id: self.company_id.as_deref(), crew: &self.crew }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Change {
    /// A project was created or updated; `previous` is set when its owners changed.
    /// `state` is the project as this change left it: this instance publishes exactly
    /// that (so quick successive changes each reach clients); other instances, which
    /// get ids only, read the current row.
    Project {
        id: String,
        created: bool,
        actor_id: Option<String>,
        previous: Option<Owners>,
        #[serde(skip)]
        state: Option<Box<Project>>,
    },
    ProjectDeleted { id: String, version: i64, owners: Owners },
    /// A user was created or their profile changed (`state`: as for projects).
    User {
        id: String,
        created: bool,
        #[serde(skip)]
        state: Option<Box<Profile>>,
    },
    /// `builders`: who could see the user (builders with their projects) before deletion.
    UserDeleted { id: String, version: i64, builders: Vec<String> },
    /// A company was made, renamed, or its members or projects changed (docs/FEATURES.md,
    /// "Builder companies"); `former`: members who just left it (they hear of it too).
    Company { id: String, former: Vec<String> },
    /// `members`: who belonged to it.
    CompanyDeleted { id: String, version: i64, members: Vec<String> },
    /// A user's standing changed (a member's role; a session that had to enrol a second
    /// factor has one): their sockets reconnect, so every check they pass is made anew.
    Reconnect { user_id: String },
    /// A session ended (logout): its sockets close, on every instance.
    EndSession { session_id: String, reason: String },
    /// End the user's sessions (all, or all but one) and close their sockets.
    EndSessions { user_id: String, keep_session: Option<String>, reason: String },
    /// A photo was stored (`created`) or its caption or category changed.
    Photo {
        id: String,
        project_id: String,
        created: bool,
        #[serde(skip)]
        state: Option<Box<ProjectImage>>,
    },
    PhotoDeleted { id: String, project_id: String },
    /// A comment was added (`created`, with the photo's new `comment_count`) or edited.
    Comment {
        id: String,
        image_id: String,
        project_id: String,
        created: bool,
        comment_count: i64,
        #[serde(skip)]
        state: Option<Box<Comment>>,
    },
    CommentDeleted { id: String, image_id: String, project_id: String, comment_count: i64 },
    /// A photo's markup changed (docs/FEATURES.md, "Markup on photos"): `markup_count` is
    /// its new shape count.
    Markup {
        image_id: String,
        project_id: String,
        actor_id: String,
        markup_count: i64,
        #[serde(skip)]
        state: Option<Box<Markup>>,
    },
    /// A notification for one user; only that user hears of it.
    Notification { id: String, user_id: String },
    /// Some (`ids`) or all of a user's notifications were read.
    NotificationsRead { user_id: String, ids: Vec<String>, all: bool },
    /// A user's favourite was set or cleared; only that user hears of it.
    Favourite { user_id: String, project_id: String, image_id: String, favourite: bool },
    /// A guest link was revoked (docs/FEATURES.md, "The project's story"): its guests'
    /// sockets close, on every instance.
    GuestLinkEnded { link_id: String, project_id: String },
    /// A project's milestones changed (docs/FEATURES.md, "The project's story"); `version`
    /// is the project's after it. `state`: the plan as the change left it (other instances
    /// read the current one).
    Milestones {
        project_id: String,
        version: i64,
        #[serde(skip)]
        state: Option<Box<MilestonePlan>>,
    },
    /// A timeline entry was written with the change it records (`state`: as for projects).
    Timeline {
        id: String,
        project_id: String,
        #[serde(skip)]
        state: Option<Box<TimelineEntry>>,
    },
    /// A timeline entry went with what it was about (a deleted comment).
    TimelineRemoved { id: String, project_id: String },
    /// A progress report was made, moved on, finished or failed (docs/FEATURES.md,
    /// "Progress reports").
    Report { id: String, project_id: String },
    ReportDeleted { id: String, project_id: String },
    /// Users online on one instance (sent to the others only): `online` lists users who
    /// came online or are still online (a periodic refresh), `offline` users who left.
    Presence { instance: String, online: Vec<String>, offline: Vec<String> },
}
