//! One handler per request type: each calls its use case and returns the reply and
//! the changes to publish. Subscriptions, which need the socket itself, are handled by
//! the session actor.

use actix::Addr;
use protocol::{Request, Response};

use crate::domain::changes::Change;
use crate::domain::policy::Actor;
use crate::domain::services::Services;
use crate::domain::turns::Turns;
use crate::domain::{photos, profile, projects, users};
use crate::error::{Error, Result};
use crate::live::hub::{Hub, ProjectActorFor};
use crate::live::project::{self, ProjectTurns};

pub struct RequestContext {
    pub svc: Services,
    pub hub: Addr<Hub>,
    pub actor: Actor,
    pub session_id: String,
}

type Outcome = Result<(Response, Vec<Change>)>;

fn plain(response: Response) -> Outcome {
    Ok((response, Vec::new()))
}

async fn project_actor(hub: &Addr<Hub>, id: &str) -> Result<Addr<project::ProjectActor>> {
    hub.send(ProjectActorFor { project_id: id.to_owned() }).await.map_err(Error::internal)
}

fn turns_of(hub: &Addr<Hub>, project_id: String) -> ProjectTurns {
    ProjectTurns { hub: hub.clone(), project_id }
}

/// Whether a request may change state. A socket's writes are applied in the order it
/// sent them, and any request waits for the writes sent before it (see the session).
/// Reads are listed, so a new request kind is ordered until said otherwise.
pub fn is_write(request: &Request) -> bool {
    !matches!(
        request,
        Request::Ping
            | Request::ListUsers
            | Request::ListProjects
            | Request::GetProject { .. }
            | Request::ListPhotos { .. }
            | Request::Subscribe { .. }
            | Request::Unsubscribe { .. }
    )
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
        Request::ListProjects => plain(Response::Projects { projects: projects::list(svc, actor).await? }),
        Request::GetProject { id } => plain(Response::Project { project: projects::get(svc, actor, &id).await? }),
        Request::CreateProject(input) => {
            let (project, changes) = projects::create(svc, actor, &input).await?;
            Ok((Response::Project { project }, changes))
        }
        Request::UpdateProject(input) => {
            // Checked before the project actor starts, so unknown ids start nothing.
            projects::visible(svc, actor, &input.id).await?;
            let (svc, actor) = (svc.clone(), actor.clone());
            let project = turns_of(&cx.hub, input.id.clone())
                .take(Box::pin(async move { projects::update(&svc, &actor, &input).await }))
                .await?;
            Ok((Response::Project { project }, Vec::new()))
        }
        Request::DeleteProject { id } => {
            projects::visible(svc, actor, &id).await?;
            let addr = project_actor(&cx.hub, &id).await?;
            let changes = addr.send(project::Delete { actor: actor.clone() }).await.map_err(Error::internal)??;
            Ok((Response::Done, changes))
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
            let turns = turns_of(&cx.hub, photos::project_of(svc, actor, &input.id).await?);
            let (svc, actor) = (svc.clone(), actor.clone());
            let photo = turns.take(Box::pin(async move { photos::update(&svc, &actor, &input).await })).await?;
            Ok((Response::Photo { photo }, Vec::new()))
        }
        Request::DeletePhoto { id } => {
            let turns = turns_of(&cx.hub, photos::project_of(svc, actor, &id).await?);
            let (svc, actor) = (svc.clone(), actor.clone());
            turns.take(Box::pin(async move { Ok(((), photos::delete(&svc, &actor, &id).await?)) })).await?;
            plain(Response::Done)
        }
        Request::SetFavourite { image_id, favourite } => {
            Ok((Response::Done, photos::set_favourite(svc, actor, &image_id, favourite).await?))
        }
        Request::Subscribe { .. } | Request::Unsubscribe { .. } => {
            Err(Error::internal("subscriptions are handled by the session actor"))
        }
    }
}
