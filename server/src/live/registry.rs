//! Which project actors are running on this instance: started on first use, found by
//! project id, forgotten when they stop. A project's turns and subscriptions start its
//! actor; events for its subscribers, unsubscriptions and notices that another
//! instance changed it reach the actor through here only if it runs (a project nobody
//! has open has no subscribers to tell).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use actix::dev::ToEnvelope;
use actix::{Actor, Addr, AsyncContext, Context, Handler, MailboxError, Message, MessageResult};

use super::project::{self, Fanout, ProjectActor, ProjectOut, RecheckMaker, Stopped, Take};
use super::Exit;
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::Step;
use crate::error::{Error, Result};

pub struct Registry {
    svc: Services,
    exit: Exit,
    projects: HashMap<String, actix::Addr<ProjectActor>>,
}

impl Registry {
    pub fn new(svc: Services, exit: Exit) -> Registry {
        Registry { svc, exit, projects: HashMap::new() }
    }

    fn running(&self, project_id: &str) -> Option<&actix::Addr<ProjectActor>> {
        self.projects.get(project_id).filter(|a| a.connected())
    }
}

impl Actor for Registry {
    type Context = Context<Self>;
}

/// The project's actor, started if it is not running.
#[derive(Message)]
#[rtype(result = "actix::Addr<ProjectActor>")]
pub struct ProjectActorFor {
    pub project_id: String,
}

impl Handler<ProjectActorFor> for Registry {
    type Result = MessageResult<ProjectActorFor>;
    fn handle(&mut self, msg: ProjectActorFor, ctx: &mut Context<Self>) -> Self::Result {
        if let Some(addr) = self.running(&msg.project_id) {
            return MessageResult(addr.clone());
        }
        let addr = ProjectActor::new(msg.project_id.clone(), self.svc.clone(), self.exit.clone(), ctx.address().recipient()).start();
        self.projects.insert(msg.project_id, addr.clone());
        MessageResult(addr)
    }
}

impl Handler<Stopped> for Registry {
    type Result = ();
    fn handle(&mut self, msg: Stopped, _: &mut Context<Self>) {
        if self.projects.get(&msg.project_id) == Some(&msg.addr) {
            self.projects.remove(&msg.project_id);
        }
    }
}

/// What a change brings a project's open pages here, in order: to its actor, when it
/// runs (with no actor, no page here has the project open).
#[derive(Message)]
#[rtype(result = "()")]
pub struct ToProject {
    pub project_id: String,
    pub steps: Vec<ProjectOut>,
}

impl Handler<ToProject> for Registry {
    type Result = ();
    fn handle(&mut self, msg: ToProject, _: &mut Context<Self>) {
        if let Some(addr) = self.running(&msg.project_id) {
            addr.do_send(Fanout(msg.steps));
        }
    }
}

/// Someone's standing changed: every running project decides its guests' links made
/// by them again (`project::RecheckMaker`). A project with no actor here has no guests
/// here to end.
#[derive(Message)]
#[rtype(result = "()")]
pub struct MakerChanged {
    pub user_id: String,
}

impl Handler<MakerChanged> for Registry {
    type Result = ();
    fn handle(&mut self, msg: MakerChanged, _: &mut Context<Self>) {
        for addr in self.projects.values().filter(|a| a.connected()) {
            addr.do_send(RecheckMaker { maker_id: msg.user_id.clone() });
        }
    }
}

/// A socket no longer follows the project (it unsubscribed, or closed).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe {
    pub project_id: String,
    pub conn_id: u64,
}

impl Handler<Unsubscribe> for Registry {
    type Result = ();
    fn handle(&mut self, msg: Unsubscribe, _: &mut Context<Self>) {
        if let Some(addr) = self.running(&msg.project_id) {
            addr.do_send(project::Unsubscribe { conn_id: msg.conn_id });
        }
    }
}

/// Sockets subscribed to the project here: none when its actor does not run.
#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSubscribers {
    pub project_id: String,
}

impl Handler<CountSubscribers> for Registry {
    type Result = actix::ResponseFuture<usize>;
    fn handle(&mut self, msg: CountSubscribers, _: &mut Context<Self>) -> Self::Result {
        let addr = self.running(&msg.project_id).cloned();
        Box::pin(async move {
            match addr {
                Some(addr) => addr.send(project::CountSubscribers).await.unwrap_or(0),
                None => 0,
            }
        })
    }
}

#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountRunning;

impl Handler<CountRunning> for Registry {
    type Result = usize;
    fn handle(&mut self, _: CountRunning, _: &mut Context<Self>) -> usize {
        self.projects.values().filter(|a| a.connected()).count()
    }
}

/// Sends a message to the project's actor. An actor stops when it finds its project
/// gone, and messages queued behind that are dropped: their senders ask once more, of
/// a fresh actor, which answers them properly ("Project not found").
pub async fn ask<M>(registry: &Addr<Registry>, project_id: &str, msg: M) -> std::result::Result<M::Result, MailboxError>
where
    M: Message + Clone + Send + 'static,
    M::Result: Send,
    ProjectActor: Handler<M>,
    <ProjectActor as Actor>::Context: ToEnvelope<ProjectActor, M>,
{
    let addr = registry.send(ProjectActorFor { project_id: project_id.to_owned() }).await?;
    match addr.send(msg.clone()).await {
        Err(MailboxError::Closed) => {
            let addr = registry.send(ProjectActorFor { project_id: project_id.to_owned() }).await?;
            addr.send(msg).await
        }
        other => other,
    }
}

/// Runs `step` in the project's turn (see `project::Take`). An actor that stopped
/// before the step's turn came (it found its project gone) never started it: the step
/// is still in its slot, and a fresh actor is asked to take it, as `ask` does.
pub async fn take<T: Send + 'static>(registry: Addr<Registry>, project_id: String, step: Step<T>) -> Result<T> {
    let slot = Arc::new(Mutex::new(Some(step)));
    let mut asked = 0;
    loop {
        let addr = registry.send(ProjectActorFor { project_id: project_id.clone() }).await.map_err(Error::internal)?;
        asked += 1;
        match addr.send(Take(slot.clone())).await {
            Ok(done) => return done,
            Err(MailboxError::Closed) if asked < 3 && slot.lock().is_ok_and(|s| s.is_some()) => {}
            Err(err) => return Err(Error::internal(err)),
        }
    }
}
