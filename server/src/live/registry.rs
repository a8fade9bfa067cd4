//! Which project actors are running on this instance: started on first use, found by
//! project id, forgotten when they stop. Events for a project's subscribers and
//! notices that another instance changed a project reach its actor through here (and
//! only if it runs: a project nobody has open has no subscribers to tell).

use std::collections::HashMap;

use actix::dev::ToEnvelope;
use actix::{Actor, Addr, AsyncContext, Context, Handler, MailboxError, Message, MessageResult};
use bytes::Bytes;

use super::bus::Bus;
use super::project::{Broadcast, ProjectActor, Refresh};
use crate::domain::services::Services;

pub struct Registry {
    svc: Services,
    bus: Bus,
    projects: HashMap<String, actix::Addr<ProjectActor>>,
}

impl Registry {
    pub fn new(svc: Services, bus: Bus) -> Registry {
        Registry { svc, bus, projects: HashMap::new() }
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
        let addr = ProjectActor::new(msg.project_id.clone(), self.svc.clone(), self.bus.clone(), ctx.address()).start();
        self.projects.insert(msg.project_id, addr.clone());
        MessageResult(addr)
    }
}

#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Stopped {
    pub project_id: String,
    pub addr: actix::Addr<ProjectActor>,
}

impl Handler<Stopped> for Registry {
    type Result = ();
    fn handle(&mut self, msg: Stopped, _: &mut Context<Self>) {
        if self.projects.get(&msg.project_id) == Some(&msg.addr) {
            self.projects.remove(&msg.project_id);
        }
    }
}

/// An encoded event for the project's subscribers.
#[derive(Message)]
#[rtype(result = "()")]
pub struct ToSubscribers {
    pub project_id: String,
    pub frame: Bytes,
}

impl Handler<ToSubscribers> for Registry {
    type Result = ();
    fn handle(&mut self, msg: ToSubscribers, _: &mut Context<Self>) {
        if let Some(addr) = self.running(&msg.project_id) {
            addr.do_send(Broadcast(msg.frame));
        }
    }
}

/// Another instance changed or deleted the project: its actor here reads it again
/// and drops subscribers who may no longer see it, before any later event.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Changed {
    pub project_id: String,
}

impl Handler<Changed> for Registry {
    type Result = ();
    fn handle(&mut self, msg: Changed, _: &mut Context<Self>) {
        if let Some(addr) = self.running(&msg.project_id) {
            addr.do_send(Refresh);
        }
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
pub async fn ask<M>(registry: &Addr<Registry>, project_id: &str, msg: M) -> Result<M::Result, MailboxError>
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

/// An encoded event for the guests watching a project, when they may see every photo
/// of `photos` (issue 18).
// Stand-in until guest sockets exist (the guest-link work replaces this handler): no
// guest watches anything yet, so there is no one to deliver to.
#[derive(Message)]
#[rtype(result = "()")]
pub struct ToGuests {
    pub project_id: String,
    pub frame: Bytes,
    pub photos: Vec<String>,
}

impl Handler<ToGuests> for Registry {
    type Result = ();
    fn handle(&mut self, _: ToGuests, _: &mut Context<Self>) {}
}
