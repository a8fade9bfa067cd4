//! One actor per live project. It holds the project's row and serialises everything
//! that depends on it, in arrival order: changes (every one a `Take` of a step the
//! domain built: validated by its pure rules, written, then published from inside the
//! turn) and subscriptions — so an access check and the subscribe it guards cannot be
//! separated by a change of the project's owners. It tracks who has the project open
//! and tells them as that changes.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix::{Actor, ActorContext, ActorFutureExt, Addr, AsyncContext, AtomicResponse, Context, Handler, Message, Recipient, WrapFuture};
use bytes::Bytes;
use protocol::{encode, ErrorCode, Event, GuestPhotos, MilestonePlan, Project, ProjectImage, ServerMsg, UserSummary, FIRST_PHOTO_PAGE};

use super::plan::{self, FavouriteChange, Out};
use super::socket::{NotQueued, SocketCommand, SocketHandle};
use super::Exit;
use crate::domain::sharing::guests::{self, GuestView};
use crate::domain::shared::changes::Change;
use crate::domain::shared::policy::{self, Action, Actor as User, Audience, Guest, LinkedRef};
use crate::domain::projects::{self, project_ref};
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::Step;
use crate::domain::{projects::milestones, media::photos, shared::views};
use crate::error::{Error, Result};
use crate::metric_names::{EVENTS_SENT, WS_SLOW_CLOSED};
use crate::store::milestones as store_milestones;
use crate::store::projects::ProjectRow;

/// A project with no viewers and no mutations for this long stops its actor.
const IDLE: Duration = Duration::from_secs(60);

struct Subscriber {
    user: User,
    viewer: UserSummary,
    socket: SocketHandle,
}

/// A guest watching the project through a link (docs/FEATURES.md, "The project's story").
/// Guests are not viewers: they are not listed, and they hear only what
/// `policy::guest_audience` sends them, as their link shows it (`GuestView`).
struct GuestWatcher {
    guest: Guest,
    /// On a favourites link, the maker's favourites: the photos this guest sees.
    shown: Option<HashSet<String>>,
    socket: SocketHandle,
}

impl GuestWatcher {
    fn view(&self) -> GuestView<'_> {
        GuestView::new(&self.guest, self.shown.as_ref())
    }
}

/// Subscribes a guest's socket, if their link may still see the project.
#[derive(Clone)]
pub struct SubscribeGuest {
    pub guest: Guest,
    pub socket: SocketHandle,
}

/// What a guest's page starts from, read in the subscription's turn.
#[derive(Debug)]
pub struct GuestSubscribed {
    pub project: Project,
    /// The first page of the photos the link shows.
    pub photos: Vec<ProjectImage>,
    pub photo_count: u32,
    pub next_photos: Option<String>,
    pub milestones: MilestonePlan,
}

impl Message for SubscribeGuest {
    type Result = Result<GuestSubscribed>;
}

/// An event for the project's guests, each to get it as their link shows it.
#[derive(Message)]
#[rtype(result = "()")]
pub struct BroadcastGuests(pub Event);

/// Subscribes a socket if its user may see the project.
#[derive(Clone)]
pub struct Subscribe {
    pub user: User,
    pub viewer: UserSummary,
    pub socket: SocketHandle,
}

/// What a subscriber gets: the project, who else views it, the first page of its
/// photos and the user's favourites among them, all read in the subscription's turn.
#[derive(Debug)]
pub struct Subscribed {
    pub project: Project,
    pub viewers: Vec<UserSummary>,
    pub photos: Vec<ProjectImage>,
    pub favourites: Vec<String>,
    /// Where `ListPhotos` goes on from; `None` when `photos` are all of them.
    pub next_photos: Option<String>,
    pub photo_count: u32,
    pub milestones: MilestonePlan,
}

impl Message for Subscribe {
    type Result = Result<Subscribed>;
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe {
    pub conn_id: u64,
}

/// A step of the project's mutations, run in its turn (see `domain::shared::turns`): answers
/// the step's value; its changes are published from inside the turn. The step waits
/// in a slot the turn takes it from, so a sender whose actor stopped before the turn
/// came can hand it to a fresh one (`registry::take`).
pub struct Take<T>(pub Arc<Mutex<Option<Step<T>>>>);

impl<T: 'static> Message for Take<T> {
    type Result = Result<T>;
}

/// What a change brings this project's open pages, in order: one message per change
/// (`publisher::route`).
pub enum ProjectOut {
    /// The project may have changed elsewhere: read it again and drop the pages that
    /// lost it, before the rest reaches them.
    Refresh,
    /// An encoded event for every subscriber.
    Subscribers(Bytes),
    /// An event for the guests, each to get it as their link shows it.
    Guests(Event),
    /// Guests of a favourites link gain or lose a photo.
    Favourite(FavouriteChange),
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Fanout(pub Vec<ProjectOut>);

/// Someone's standing changed (they left their company, their role changed, their
/// account is gone): every link they made is decided again, from the database, and the
/// guests of a link that no longer opens are told it ended. A link never shows more
/// than its maker may see now.
#[derive(Message)]
#[rtype(result = "()")]
pub struct RecheckMaker {
    pub maker_id: String,
}

#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSubscribers;

/// A project actor stopped idle; whoever started it forgets its address.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Stopped {
    pub project_id: String,
    pub addr: Addr<ProjectActor>,
}

pub struct ProjectActor {
    project_id: String,
    svc: Services,
    exit: Exit,
    /// Told when this actor stops idle, so the registry forgets it (the registry
    /// names this module, not the other way round).
    registry: Recipient<Stopped>,
    /// The project as the last change here left it. `None` until read, and again after
    /// a photo step (which may move the cover and so the version); a stale row from
    /// another instance's change is caught by the write's version check.
    row: Option<ProjectRow>,
    subscribers: HashMap<u64, Subscriber>,
    guests: HashMap<u64, GuestWatcher>,
    last_active: Instant,
}

impl ProjectActor {
    pub fn new(project_id: String, svc: Services, exit: Exit, registry: Recipient<Stopped>) -> ProjectActor {
        ProjectActor {
            project_id,
            svc,
            exit,
            registry,
            row: None,
            subscribers: HashMap::new(),
            guests: HashMap::new(),
            last_active: Instant::now(),
        }
    }

    fn is_viewing(&self, user_id: &str) -> bool {
        self.subscribers.values().any(|s| s.viewer.id == user_id)
    }

    fn viewers(&self) -> Vec<UserSummary> {
        let mut seen = HashSet::new();
        let mut list: Vec<UserSummary> =
            self.subscribers.values().filter(|s| seen.insert(s.viewer.id.clone())).map(|s| s.viewer.clone()).collect();
        list.sort_by(|a, b| a.id.cmp(&b.id));
        list
    }

    fn announce_viewers(&mut self) {
        let event = Event::Viewers { project_id: self.project_id.clone(), viewers: self.viewers() };
        if let Ok(bytes) = encode(&ServerMsg::Event { event }) {
            self.broadcast(&Bytes::from(bytes));
        }
    }

    /// Pushes to every subscriber; those that stopped reading are cut off, and those
    /// whose socket has closed (before its unsubscribe could arrive) are forgotten.
    fn broadcast(&mut self, frame: &Bytes) {
        let failed: Vec<(u64, NotQueued)> = self
            .subscribers
            .iter()
            .filter_map(|(conn, s)| s.socket.push(frame).err().map(|why| (*conn, why)))
            .collect();
        let delivered = self.subscribers.len() - failed.len();
        metrics::counter!(EVENTS_SENT, "audience" => "subscribers").increment(delivered as u64);
        let mut left = false;
        for (conn, why) in failed {
            if let Some(s) = self.subscribers.remove(&conn) {
                if why == NotQueued::Full {
                    tracing::warn!(conn, user = %s.viewer.id, "subscriber fell behind; disconnecting it");
                    metrics::counter!(WS_SLOW_CLOSED).increment(1);
                    s.socket.cut_off_slow();
                }
                left |= !self.is_viewing(&s.viewer.id);
            }
        }
        if left {
            self.announce_viewers();
        }
    }

    /// Settles on the project as just read (`None`: nothing was read).
    fn settle_read(&mut self, read: Option<std::result::Result<Option<ProjectRow>, crate::store::StoreError>>) {
        match read {
            Some(Ok(row)) => self.settle(row),
            Some(Err(err)) => self.drop_subscribers(&err),
            None => {}
        }
    }

    /// Unsure who may see the project now (it could not be read): nobody stays
    /// subscribed; their clients reconnect and subscribe afresh.
    fn drop_subscribers(&mut self, err: &crate::store::StoreError) {
        tracing::error!(error = %err, project = %self.project_id, "could not re-read a changed project");
        for (_, s) in self.subscribers.drain() {
            s.socket.command(SocketCommand::Resync);
        }
        for (_, g) in self.guests.drain() {
            g.socket.command(SocketCommand::Resync);
        }
        self.row = None;
    }

    /// An unknown project's actor (someone asked for an id that does not exist, or no
    /// longer does) stops at once instead of idling; callers that raced the stop ask a
    /// fresh one (`registry::ask`, `registry::take`).
    fn stop_if_gone(&mut self, err: &Error, ctx: &mut Context<Self>) {
        if err.code() == ErrorCode::NotFound && self.subscribers.is_empty() && self.guests.is_empty() {
            self.row = None;
            ctx.stop();
        }
    }

    /// Pushes `event` to every guest as their link shows it (`GuestView::event`), each
    /// distinct view encoded once; guests that stopped reading are cut off.
    fn broadcast_guests(&mut self, event: &Event) {
        let mut frames: Vec<(Event, Bytes)> = Vec::new();
        let mut failed: Vec<(u64, NotQueued)> = Vec::new();
        for (conn, g) in &self.guests {
            let Some(seen) = g.view().event(event.clone()) else { continue };
            let frame = match frames.iter().find(|(e, _)| *e == seen) {
                Some((_, frame)) => frame.clone(),
                None => match encode(&ServerMsg::Event { event: seen.clone() }) {
                    Ok(bytes) => {
                        let frame = Bytes::from(bytes);
                        frames.push((seen, frame.clone()));
                        frame
                    }
                    Err(err) => {
                        tracing::error!(error = %err, "could not encode an event");
                        continue;
                    }
                },
            };
            if let Err(why) = g.socket.push(&frame) {
                failed.push((*conn, why));
            }
        }
        for (conn, why) in failed {
            if let Some(g) = self.guests.remove(&conn) {
                if why == NotQueued::Full {
                    metrics::counter!(WS_SLOW_CLOSED).increment(1);
                    g.socket.cut_off_slow();
                }
            }
        }
    }

    /// Keeps the row as it now is and drops subscribers who may no longer see it.
    /// Guests whose link lost the project (its maker lost it, or it is gone) have
    /// nothing left to look at: their pages are told the link ended.
    fn settle(&mut self, row: Option<ProjectRow>) {
        let before = self.subscribers.len();
        let guest_sees = |g: &GuestWatcher, r: &ProjectRow| {
            policy::guest_allows(&g.guest, Action::ViewProject, LinkedRef { id: &r.id, project: project_ref(r) })
        };
        let lost: Vec<u64> =
            self.guests.iter().filter(|(_, g)| row.as_ref().is_none_or(|r| !guest_sees(g, r))).map(|(c, _)| *c).collect();
        for conn in lost {
            if let Some(g) = self.guests.remove(&conn) {
                g.socket.command(SocketCommand::End { reason: guests::LINK_INACTIVE_REASON.to_owned() });
            }
        }
        match &row {
            Some(r) => self.subscribers.retain(|_, s| policy::can_view_project(&s.user, project_ref(r))),
            None => self.subscribers.clear(),
        }
        self.row = row;
        if self.subscribers.len() != before && !self.subscribers.is_empty() {
            self.announce_viewers();
        }
    }

    /// Sends the project's open pages what a change of this turn brings them, when it
    /// carries all they need (`plan::carried`): the change's one visit here. Answers
    /// whether it did; the publisher sends the rest.
    fn send_to_pages(&mut self, change: &Change) -> bool {
        let Some((project_id, facts)) = plan::carried(change).filter(|(p, _)| *p == self.project_id) else { return false };
        let project_id = project_id.to_owned();
        for out in plan::for_pages(plan::plan(change.clone(), facts), &project_id) {
            let Out::Send { event, audiences } = out else { continue };
            let mut frame = None;
            for audience in audiences {
                match audience {
                    Audience::Guests(_) => self.broadcast_guests(&event),
                    _ => {
                        if frame.is_none() {
                            frame = encode(&ServerMsg::Event { event: event.clone() }).ok().map(Bytes::from);
                        }
                        match &frame {
                            Some(frame) => self.broadcast(frame),
                            None => tracing::error!("could not encode an event"),
                        }
                    }
                }
            }
        }
        true
    }

    /// A favourite set or cleared by its maker: guests of their favourites links see
    /// the photo come or go.
    fn favourite(&mut self, msg: FavouriteChange) {
        let event = match &msg.photo {
            Some(photo) => Event::PhotoAdded { photo: photo.clone() },
            None => Event::PhotoDeleted { id: msg.image_id.clone(), project_id: self.project_id.clone() },
        };
        let Ok(frame) = encode(&ServerMsg::Event { event }).map(Bytes::from) else { return };
        let mut told = Vec::new();
        for (conn, g) in &mut self.guests {
            // A favourites link's set follows its maker's favourites; a report link's is fixed.
            let follows = g.guest.maker.id == msg.user_id && g.guest.photos == GuestPhotos::Favourites && g.guest.report_id.is_none();
            let Some(shown) = g.shown.as_mut().filter(|_| follows) else { continue };
            let changed = if msg.photo.is_some() { shown.insert(msg.image_id.clone()) } else { shown.remove(&msg.image_id) };
            if changed {
                told.push((*conn, g.socket.push(&frame)));
            }
        }
        for (conn, pushed) in told {
            if pushed == Err(NotQueued::Full) {
                if let Some(g) = self.guests.remove(&conn) {
                    g.socket.cut_off_slow();
                }
            }
        }
    }
}

impl Actor for ProjectActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        ctx.run_interval(IDLE / 2, |act, ctx| {
            if act.subscribers.is_empty() && act.guests.is_empty() && act.last_active.elapsed() >= IDLE {
                ctx.stop();
            }
        });
    }

    fn stopped(&mut self, ctx: &mut Context<Self>) {
        self.registry.do_send(Stopped { project_id: self.project_id.clone(), addr: ctx.address() });
    }
}

// Everything below that awaits holds the mailbox until it finishes (AtomicResponse), so
// no two of the project's turns interleave.

impl Handler<Subscribe> for ProjectActor {
    type Result = AtomicResponse<Self, Result<Subscribed>>;
    fn handle(&mut self, msg: Subscribe, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        let (svc, id, user) = (self.svc.clone(), self.project_id.clone(), msg.user.clone());
        AtomicResponse::new(Box::pin(
            async move {
                let row = projects::visible(&svc, &user, &id).await?;
                let (page, photo_count) = photos::first_page(&svc, &user, &row).await?;
                // Another instance may have given the project to other people while the
                // photos were read: decide on the project as it is now.
                let now = projects::visible(&svc, &user, &id).await?;
                // Milestones change only in this project's turns (or with its version,
                // on another instance): read here, they go with the row just read.
                let milestones = milestones::plan_view(&now, &store_milestones::list(svc.store.pool(), &id).await?);
                Ok::<_, Error>((now, page, photo_count, milestones))
            }
            .into_actor(self)
            .map(move |outcome, act, ctx| {
                let (row, page, photo_count, milestones) = outcome.inspect_err(|err| act.stop_if_gone(err, ctx))?;
                let new_viewer = !act.is_viewing(&msg.viewer.id);
                let project = views::project(&row);
                act.settle(Some(row));
                // A socket that closed while this turn ran would never unsubscribe.
                if msg.socket.is_open() {
                    act.subscribers.insert(msg.socket.conn_id, Subscriber { user: msg.user, viewer: msg.viewer, socket: msg.socket });
                    // A viewer's second tab changes nothing the others see (it learns
                    // the list from its own answer): no list to every open socket for it.
                    if new_viewer {
                        act.announce_viewers();
                    }
                }
                Ok(Subscribed { project, viewers: act.viewers(), photos: page.photos, favourites: page.favourites, next_photos: page.next, photo_count, milestones })
            }),
        ))
    }
}

impl Handler<Unsubscribe> for ProjectActor {
    type Result = ();
    fn handle(&mut self, msg: Unsubscribe, _: &mut Context<Self>) {
        self.last_active = Instant::now();
        self.guests.remove(&msg.conn_id);
        if let Some(s) = self.subscribers.remove(&msg.conn_id) {
            if !self.is_viewing(&s.viewer.id) {
                self.announce_viewers();
            }
        }
    }
}

impl Handler<SubscribeGuest> for ProjectActor {
    type Result = AtomicResponse<Self, Result<GuestSubscribed>>;
    fn handle(&mut self, msg: SubscribeGuest, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        let (svc, link_id) = (self.svc.clone(), msg.guest.link_id.clone());
        AtomicResponse::new(Box::pin(
            async move {
                // The link as it is now, not as the socket's upgrade found it: its maker
                // may have lost the project meanwhile (`RecheckMaker` only reaches
                // guests already here).
                let guest = guests::pass_by_id(&svc, &link_id).await?.guest;
                let row = guests::linked_project(&svc, &guest, Action::ViewProject).await?;
                let shown = guests::shown_set(&svc, &guest).await?;
                let photos = guests::photo_page(&svc, &guest, &row, None, None, FIRST_PHOTO_PAGE).await?;
                let count = match photos.1 {
                    None => u32::try_from(photos.0.len()).unwrap_or(u32::MAX),
                    Some(_) => guests::photo_count(&svc, &guest, &row).await?,
                };
                let milestones = guests::milestones(&svc, &row).await?;
                // As for members: decide on the project as it is after the reads.
                let now = guests::linked_project(&svc, &guest, Action::ViewProject).await?;
                Ok::<_, Error>((guest, now, shown, photos, count, milestones))
            }
            .into_actor(self)
            .map(move |outcome, act, _| {
                let (guest, row, shown, (photos, next_photos), photo_count, milestones) = outcome?;
                let project = GuestView::new(&guest, shown.as_ref()).project(views::project(&row));
                act.settle(Some(row));
                if msg.socket.is_open() {
                    act.guests.insert(msg.socket.conn_id, GuestWatcher { guest, shown, socket: msg.socket });
                }
                Ok(GuestSubscribed { project, photos, photo_count, next_photos, milestones })
            }),
        ))
    }
}

impl Handler<Fanout> for ProjectActor {
    type Result = AtomicResponse<Self, ()>;
    fn handle(&mut self, Fanout(steps): Fanout, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        let read = steps.iter().any(|s| matches!(s, ProjectOut::Refresh));
        let (svc, id) = (self.svc.clone(), self.project_id.clone());
        AtomicResponse::new(Box::pin(
            async move {
                match read {
                    true => Some(crate::store::projects::find(svc.store.pool(), &id).await),
                    false => None,
                }
            }
            .into_actor(self)
            .map(|found, act, _| {
                act.settle_read(found);
                for step in steps {
                    match step {
                        ProjectOut::Refresh => {}
                        ProjectOut::Subscribers(frame) => act.broadcast(&frame),
                        ProjectOut::Guests(event) => act.broadcast_guests(&event),
                        ProjectOut::Favourite(change) => act.favourite(change),
                    }
                }
            }),
        ))
    }
}

impl Handler<RecheckMaker> for ProjectActor {
    type Result = AtomicResponse<Self, ()>;
    fn handle(&mut self, msg: RecheckMaker, _: &mut Context<Self>) -> Self::Result {
        let links: HashSet<String> =
            self.guests.values().filter(|g| g.guest.maker.id == msg.maker_id).map(|g| g.guest.link_id.clone()).collect();
        let svc = self.svc.clone();
        AtomicResponse::new(Box::pin(
            async move {
                let mut passes = HashMap::new();
                for link_id in links {
                    let pass = guests::pass_by_id(&svc, &link_id).await.map(|p| p.guest);
                    passes.insert(link_id, pass);
                }
                passes
            }
            .into_actor(self)
            .map(|passes, act, _| {
                let mut dropped = Vec::new();
                for (conn, g) in act.guests.iter_mut() {
                    match passes.get(&g.guest.link_id) {
                        Some(Ok(guest)) => g.guest = guest.clone(),
                        Some(Err(err)) => dropped.push((*conn, err.code() == ErrorCode::InvalidToken)),
                        None => {}
                    }
                }
                for (conn, inactive) in dropped {
                    let Some(g) = act.guests.remove(&conn) else { continue };
                    if inactive {
                        g.socket.command(SocketCommand::End { reason: guests::LINK_INACTIVE_REASON.to_owned() });
                    } else {
                        // Unreadable just now: the page connects again, and its upgrade
                        // decides the link afresh (it is not shown meanwhile).
                        g.socket.command(SocketCommand::Resync);
                    }
                }
            }),
        ))
    }
}

impl Handler<CountSubscribers> for ProjectActor {
    type Result = usize;
    fn handle(&mut self, _: CountSubscribers, _: &mut Context<Self>) -> usize {
        self.subscribers.len()
    }
}

impl<T: Send + 'static> Handler<Take<T>> for ProjectActor {
    type Result = AtomicResponse<Self, Result<T>>;
    fn handle(&mut self, Take(slot): Take<T>, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        let step = slot.lock().ok().and_then(|mut waiting| waiting.take());
        let (svc, id) = (self.svc.clone(), self.project_id.clone());
        AtomicResponse::new(Box::pin(
            async move {
                let Some(step) = step else { return (Err(Error::internal("a project step was taken twice")), None) };
                let result = step.await;
                // Another instance may have given the project to other people and not
                // said so yet: decide who hears of the change on the project as it is
                // (this change's own move or deletion included).
                let now = match &result {
                    Ok((_, changes)) if !changes.is_empty() => Some(crate::store::projects::find(svc.store.pool(), &id).await),
                    _ => None,
                };
                (result, now)
            }
            .into_actor(self)
            .map(|(result, now), act, ctx| {
                // Subscribers who lost the project are dropped before its events leave.
                act.settle_read(now);
                let (value, changes) = result.inspect_err(|err| act.stop_if_gone(err, ctx))?;
                let changes: Vec<(Change, bool)> = changes
                    .into_iter()
                    .map(|change| {
                        let sent = act.send_to_pages(&change);
                        (change, sent)
                    })
                    .collect();
                act.exit.publish_from_turn(changes);
                Ok(value)
            }),
        ))
    }
}
