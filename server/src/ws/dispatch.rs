//! One handler per request type: each calls its use case and returns the reply and
//! the changes to publish. Subscriptions, which need the socket itself, are handled by
//! the session actor.

use protocol::{ErrorCode, Request, Response};

use crate::domain::changes::Change;
use crate::domain::policy::{Action, Actor, Guest};
use crate::domain::services::Services;
use crate::domain::turns::Turns;
use crate::domain::{comments, guests, mail_preferences, milestones, notifications, photos, profile, projects, timeline, users};
use crate::error::{Error, Result};
use crate::live::project::{self, ProjectTurns};
use crate::live::registry;
use crate::live::Live;

pub struct RequestContext {
    pub svc: Services,
    pub live: Live,
    pub actor: Actor,
    pub session_id: String,
}

type Outcome = Result<(Response, Vec<Change>)>;

fn plain(response: Response) -> Outcome {
    Ok((response, Vec::new()))
}

fn turns_of(live: &Live, project_id: String) -> ProjectTurns {
    ProjectTurns { registry: live.registry.clone(), project_id }
}

/// Whether a request may change state. A socket's writes are applied in the order it
/// sent them, and any request waits for the writes sent before it (see the session).
/// Reads are listed, so a new request kind is ordered until said otherwise.
pub fn is_write(request: &Request) -> bool {
    !matches!(
        request,
        Request::Ping
            | Request::ListUsers
            | Request::UserDeletionImpact { .. }
            | Request::ListProjects
            | Request::GetProject { .. }
            | Request::ListPhotos { .. }
            | Request::ListComments { .. }
            | Request::ListNotifications { .. }
            | Request::GetMailPreferences
            | Request::ListMilestones { .. }
            | Request::ListTimeline { .. }
            | Request::ListGuestLinks { .. }
            | Request::Subscribe { .. }
            | Request::Unsubscribe { .. }
    )
}

/// A guest's requests (issue 18): a guest only looks, at their link's project. Anything
/// else is refused here, before any use case runs.
pub async fn dispatch_guest(svc: &Services, guest: &Guest, request: Request) -> Result<Response> {
    let linked = |project_id: &str| project_id == guest.project_id;
    match request {
        Request::Ping => Ok(Response::Pong),
        Request::ListMilestones { project_id } if linked(&project_id) => {
            let project = guests::linked_project(svc, guest, Action::ViewProject).await?;
            Ok(Response::Milestones { plan: guests::milestones(svc, &project).await? })
        }
        Request::ListTimeline { project_id, before } if linked(&project_id) => {
            let (entries, next) = guests::timeline(svc, guest, before.as_deref()).await?;
            Ok(Response::Timeline { project_id, entries, next })
        }
        _ => Err(Error::new(ErrorCode::Forbidden, guests::GUESTS_ONLY_VIEW)),
    }
}

async fn milestone_turn(cx: &RequestContext, project_id: String, edit: milestones::Edit) -> Outcome {
    let turns = turns_of(&cx.live, project_id.clone());
    let (svc, actor) = (cx.svc.clone(), cx.actor.clone());
    let plan = turns.take(Box::pin(async move { milestones::change(&svc, &actor, &project_id, &edit).await })).await?;
    plain(Response::Milestones { plan })
}

pub async fn dispatch(cx: RequestContext, request: Request) -> Outcome {
    let (svc, actor) = (&cx.svc, &cx.actor);
    match request {
        Request::Ping => plain(Response::Pong),
        Request::ListUsers => plain(Response::Users(users::list(svc, actor).await?)),
        Request::CreateUser(input) => {
            let (user, changes) = users::create(svc, actor, &input).await?;
            Ok((Response::User { user }, changes))
        }
        Request::UpdateUser(input) => {
            let (user, changes) = users::update(svc, actor, &input).await?;
            Ok((Response::User { user }, changes))
        }
        Request::DeleteUser { id } => Ok((Response::Done, users::delete(svc, actor, &id).await?)),
        Request::UserDeletionImpact { id } => {
            let (projects, photos) = users::deletion_impact(svc, actor, &id).await?;
            plain(Response::DeletionImpact { projects, photos })
        }
        Request::ListProjects => plain(Response::Projects { projects: projects::list(svc, actor).await? }),
        Request::GetProject { id } => plain(Response::Project { project: projects::get(svc, actor, &id).await? }),
        Request::CreateProject(input) => {
            let (project, changes) = projects::create(svc, actor, &input).await?;
            Ok((Response::Project { project }, changes))
        }
        // A project's changes are planned, written and published in its actor's turn
        // (an unknown id's actor stops at once).
        Request::UpdateProject(input) => {
            let id = input.id.clone();
            let update = project::Update { user: actor.clone(), input };
            let project = registry::ask(&cx.live.registry, &id, update).await.map_err(Error::internal)??;
            plain(Response::Project { project })
        }
        Request::DeleteProject { id } => {
            let delete = project::Delete { user: actor.clone() };
            registry::ask(&cx.live.registry, &id, delete).await.map_err(Error::internal)??;
            plain(Response::Done)
        }
        Request::UpdateProfile(input) => {
            let (user, changes) = profile::update(svc, actor, &input).await?;
            Ok((Response::User { user }, changes))
        }
        Request::ChangePassword(input) => {
            Ok((Response::Done, profile::change_password(svc, actor, &cx.session_id, &input).await?))
        }
        Request::Log(entry) => {
            profile::write_log(svc, actor, &entry).await?;
            plain(Response::Done)
        }
        Request::ListPhotos { project_id } => {
            let (photos, favourites) = photos::list(svc, actor, &project_id).await?;
            plain(Response::Photos { project_id, photos, favourites })
        }
        // A photo's changes take their turn with its project's (a deletion moves the
        // cover); as for projects, unknown and unseen photos start no project actor.
        Request::UpdatePhoto(input) => {
            let turns = turns_of(&cx.live, photos::project_of(svc, actor, &input.id).await?);
            let (svc, actor) = (svc.clone(), actor.clone());
            let photo = turns.take(Box::pin(async move { photos::update(&svc, &actor, &input).await })).await?;
            Ok((Response::Photo { photo }, Vec::new()))
        }
        Request::DeletePhoto { id } => {
            let turns = turns_of(&cx.live, photos::project_of(svc, actor, &id).await?);
            let (svc, actor) = (svc.clone(), actor.clone());
            turns.take(Box::pin(async move { Ok(((), photos::delete(&svc, &actor, &id).await?)) })).await?;
            plain(Response::Done)
        }
        Request::SetFavourite { image_id, favourite } => {
            Ok((Response::Done, photos::set_favourite(svc, actor, &image_id, favourite).await?))
        }
        Request::ListComments { image_id } => {
            let (comments, people) = comments::list(svc, actor, &image_id).await?;
            plain(Response::Comments { image_id, comments, people })
        }
        Request::AddComment { image_id, body } => {
            let (comment, changes) = comments::add(svc, actor, &image_id, &body).await?;
            Ok((Response::Comment { comment }, changes))
        }
        Request::EditComment { id, body } => {
            let (comment, changes) = comments::edit(svc, actor, &id, &body).await?;
            Ok((Response::Comment { comment }, changes))
        }
        Request::DeleteComment { id } => Ok((Response::Done, comments::delete(svc, actor, &id).await?)),
        Request::ListNotifications { before } => {
            let (notifications, unread, has_more) = notifications::list(svc, actor, before).await?;
            plain(Response::Notifications { notifications, unread, has_more })
        }
        Request::MarkNotificationRead { id } => Ok((Response::Done, notifications::mark_read(svc, actor, &id).await?)),
        Request::MarkAllNotificationsRead => Ok((Response::Done, notifications::mark_all_read(svc, actor).await?)),
        Request::GetMailPreferences => plain(Response::MailPreferences { preferences: mail_preferences::get(svc, actor).await? }),
        Request::UpdateMailPreferences(input) => {
            plain(Response::MailPreferences { preferences: mail_preferences::update(svc, actor, &input).await? })
        }
        Request::ListMilestones { project_id } => {
            plain(Response::Milestones { plan: milestones::list(svc, actor, &project_id).await? })
        }
        Request::ListTimeline { project_id, before } => {
            let (entries, next) = timeline::list(svc, actor, &project_id, before.as_deref()).await?;
            plain(Response::Timeline { project_id, entries, next })
        }
        // Milestone changes are project changes: planned, written and published in the
        // project actor's turn, after its earlier changes.
        Request::AddMilestone(input) => {
            let edit = milestones::Edit::Add { name: input.name, target_date: input.target_date };
            milestone_turn(&cx, input.project_id, edit).await
        }
        Request::AddMilestoneTemplate { project_id } => milestone_turn(&cx, project_id, milestones::Edit::Template).await,
        Request::UpdateMilestone(input) => {
            let project_id = milestones::project_of(svc, actor, &input.id).await?;
            let edit = milestones::Edit::Update { id: input.id, name: input.name, target_date: input.target_date };
            milestone_turn(&cx, project_id, edit).await
        }
        Request::SetMilestoneDone(input) => {
            let project_id = milestones::project_of(svc, actor, &input.id).await?;
            let edit = milestones::Edit::SetDone { id: input.id, done: input.done, done_date: input.done_date };
            milestone_turn(&cx, project_id, edit).await
        }
        Request::MoveMilestone { id, position } => {
            let project_id = milestones::project_of(svc, actor, &id).await?;
            milestone_turn(&cx, project_id, milestones::Edit::Move { id, position }).await
        }
        Request::DeleteMilestone { id } => {
            let project_id = milestones::project_of(svc, actor, &id).await?;
            milestone_turn(&cx, project_id, milestones::Edit::Delete { id }).await
        }
        Request::CreateGuestLink(input) => {
            let (link, url) = guests::create(svc, actor, &input).await?;
            plain(Response::GuestLinkCreated { link, url })
        }
        Request::ListGuestLinks { project_id } => {
            let links = guests::list(svc, actor, &project_id).await?;
            plain(Response::GuestLinks { project_id, links })
        }
        Request::RevokeGuestLink { id } => Ok((Response::Done, guests::revoke(svc, actor, &id).await?)),
        Request::Subscribe { .. } | Request::Unsubscribe { .. } => {
            Err(Error::internal("subscriptions are handled by the session actor"))
        }
    }
}
