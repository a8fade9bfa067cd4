//! One handler per request type: each calls its use case and returns the reply and
//! the changes to publish. Subscriptions, which need the socket itself, are handled by
//! the session actor.

use actix::Addr;
use protocol::{Request, Response};

use crate::domain::changes::Change;
use crate::domain::policy::Actor;
use crate::domain::services::Services;
use crate::domain::{photos, profile, projects, users};
use crate::error::{Error, Result};
use crate::live::hub::{Hub, ProjectActorFor};
use crate::live::project;

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
            let addr = project_actor(&cx.hub, &input.id).await?;
            let (project, changes) =
                addr.send(project::Update { actor: actor.clone(), input }).await.map_err(Error::internal)??;
            Ok((Response::Project { project }, changes))
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
        Request::UpdatePhoto(input) => {
            let (photo, changes) = photos::update(svc, actor, &input).await?;
            Ok((Response::Photo { photo }, changes))
        }
        Request::DeletePhoto { id } => Ok((Response::Done, photos::delete(svc, actor, &id).await?)),
        Request::SetFavourite { image_id, favourite } => {
            Ok((Response::Done, photos::set_favourite(svc, actor, &image_id, favourite).await?))
        }
        Request::Subscribe { .. } | Request::Unsubscribe { .. } => {
            Err(Error::internal("subscriptions are handled by the session actor"))
        }
    }
}
