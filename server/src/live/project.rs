//! One actor per live project: it serialises that project's mutations (one at a time,
//! in arrival order) and tracks who has the project open, telling them as it changes.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use actix::dev::SendError;
use actix::{Actor, ActorContext, ActorFutureExt, Addr, AsyncContext, AtomicResponse, Context, Handler, Message, Recipient, WrapFuture};
use bytes::Bytes;
use futures_util::future::BoxFuture;
use protocol::{encode, Event, ServerMsg, UserSummary};

use super::bus::Bus;
use super::hub::{Evict, Hub, ProjectActorFor, ProjectActorStopped, Reauthorize};
use super::Push;
use crate::domain::changes::Change;
use crate::domain::policy::{self, Actor as User, ProjectRef};
use crate::domain::projects;
use crate::domain::services::Services;
use crate::domain::turns::{Step, Turns};
use crate::error::{Error, Result};

/// A project with no viewers and no mutations for this long stops its actor.
const IDLE: Duration = Duration::from_secs(60);

#[derive(Message)]
#[rtype(result = "()")]
pub struct Subscribe {
    pub conn_id: u64,
    pub viewer: UserSummary,
    pub push: Recipient<Push>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe {
    pub conn_id: u64,
}

#[derive(Message)]
#[rtype(result = "Vec<UserSummary>")]
pub struct Viewers;

/// A mutation in its turn (see `domain::turns`): answers the step's value; its
/// changes are published from inside the turn.
pub struct Take<T>(pub Step<T>);

impl<T: 'static> Message for Take<T> {
    type Result = Result<T>;
}

#[derive(Message)]
#[rtype(result = "Result<Vec<Change>>")]
pub struct Delete {
    pub actor: User,
}

/// An encoded event for every subscriber (photos added, changed or deleted).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Broadcast(pub Bytes);

pub struct ProjectActor {
    project_id: String,
    svc: Services,
    hub: Addr<Hub>,
    /// Changes are published from inside the serialised mutation, so events leave in
    /// the order the writes happened, whichever sessions asked for them.
    bus: Option<Bus>,
    subscribers: HashMap<u64, (UserSummary, Recipient<Push>)>,
    last_active: Instant,
}

impl ProjectActor {
    pub fn new(project_id: String, svc: Services, hub: Addr<Hub>, bus: Option<Bus>) -> ProjectActor {
        ProjectActor { project_id, svc, hub, bus, subscribers: HashMap::new(), last_active: Instant::now() }
    }

    fn publish(&self, changes: Vec<Change>) {
        match &self.bus {
            Some(bus) => bus.publish(changes),
            None => tracing::error!("project actor without a bus; changes not published"),
        }
    }

    fn is_viewing(&self, user_id: &str) -> bool {
        self.subscribers.values().any(|(u, _)| u.id == user_id)
    }

    fn viewers(&self) -> Vec<UserSummary> {
        let mut seen = std::collections::HashSet::new();
        let mut list: Vec<UserSummary> =
            self.subscribers.values().filter(|(u, _)| seen.insert(u.id.clone())).map(|(u, _)| u.clone()).collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    fn announce_viewers(&self) {
        let event = Event::Viewers { project_id: self.project_id.clone(), viewers: self.viewers() };
        if let Ok(bytes) = encode(&ServerMsg::Event { event }) {
            let frame = Bytes::from(bytes);
            for (_, push) in self.subscribers.values() {
                let _ = push.try_send(Push(frame.clone()));
            }
        }
    }
}

impl Actor for ProjectActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_interval(IDLE / 2, |act, ctx| {
            if act.subscribers.is_empty() && act.last_active.elapsed() >= IDLE {
                ctx.stop();
            }
        });
    }

    fn stopped(&mut self, ctx: &mut Context<Self>) {
        self.hub.do_send(ProjectActorStopped { project_id: self.project_id.clone(), addr: ctx.address() });
    }
}

impl Handler<Subscribe> for ProjectActor {
    type Result = ();
    fn handle(&mut self, msg: Subscribe, _: &mut Context<Self>) {
        self.last_active = Instant::now();
        // A viewer's second tab changes nothing the others see (it learns the list
        // from its own Subscribed answer): no list to every open socket for it.
        let new_viewer = !self.is_viewing(&msg.viewer.id);
        self.subscribers.insert(msg.conn_id, (msg.viewer, msg.push));
        if new_viewer {
            self.announce_viewers();
        }
    }
}

impl Handler<Unsubscribe> for ProjectActor {
    type Result = ();
    fn handle(&mut self, msg: Unsubscribe, _: &mut Context<Self>) {
        self.last_active = Instant::now();
        if let Some((viewer, _)) = self.subscribers.remove(&msg.conn_id) {
            if !self.is_viewing(&viewer.id) {
                self.announce_viewers();
            }
        }
    }
}

impl Handler<Broadcast> for ProjectActor {
    type Result = ();
    fn handle(&mut self, Broadcast(frame): Broadcast, _: &mut Context<Self>) {
        self.last_active = Instant::now();
        // A closed mailbox is a socket closing already: its own unsubscribe follows
        // (and tells the other viewers), so only full ones are dropped here.
        let full: Vec<u64> = self
            .subscribers
            .iter()
            .filter(|(_, (_, push))| matches!(push.try_send(Push(frame.clone())), Err(SendError::Full(_))))
            .map(|(conn, _)| *conn)
            .collect();
        if !full.is_empty() {
            for conn in &full {
                self.subscribers.remove(conn);
            }
            self.hub.do_send(Evict { conns: full });
        }
    }
}

impl Handler<Reauthorize> for ProjectActor {
    type Result = ();
    fn handle(&mut self, msg: Reauthorize, _: &mut Context<Self>) {
        let project = ProjectRef { homeowner_id: &msg.homeowner_id, builder_id: msg.builder_id.as_deref() };
        let before = self.subscribers.len();
        self.subscribers
            .retain(|_, (viewer, _)| policy::can_view_project(&User { id: viewer.id.clone(), role: viewer.role }, project));
        if self.subscribers.len() != before {
            self.announce_viewers();
        }
    }
}

impl Handler<Viewers> for ProjectActor {
    type Result = Vec<UserSummary>;
    fn handle(&mut self, _: Viewers, _: &mut Context<Self>) -> Vec<UserSummary> {
        self.viewers()
    }
}

// Mutations hold the mailbox until they finish (AtomicResponse), so two changes to one
// project never interleave.
impl<T: Send + 'static> Handler<Take<T>> for ProjectActor {
    type Result = AtomicResponse<Self, Result<T>>;
    fn handle(&mut self, Take(step): Take<T>, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        AtomicResponse::new(Box::pin(step.into_actor(self).map(|result, act, _| {
            result.map(|(value, changes)| {
                act.publish(changes);
                value
            })
        })))
    }
}

/// A project's turns, its actor found through the hub at every step: an upload's
/// photos may arrive further apart than an idle project actor lives.
#[derive(Clone)]
pub struct ProjectTurns {
    pub hub: Addr<Hub>,
    pub project_id: String,
}

impl Turns for ProjectTurns {
    fn take<T: Send + 'static>(&self, step: Step<T>) -> BoxFuture<'static, Result<T>> {
        let (hub, project_id) = (self.hub.clone(), self.project_id.clone());
        Box::pin(async move {
            let addr = hub.send(ProjectActorFor { project_id }).await.map_err(Error::internal)?;
            addr.send(Take(step)).await.map_err(Error::internal)?
        })
    }
}

impl Handler<Delete> for ProjectActor {
    type Result = AtomicResponse<Self, Result<Vec<Change>>>;
    fn handle(&mut self, msg: Delete, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        let svc = self.svc.clone();
        let id = self.project_id.clone();
        AtomicResponse::new(Box::pin(
            async move { projects::delete(&svc, &msg.actor, &id).await }.into_actor(self).map(|result, act, _| {
                result.map(|changes| {
                    act.subscribers.clear();
                    act.publish(changes);
                    Vec::new()
                })
            }),
        ))
    }
}
