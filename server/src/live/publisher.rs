//! Turns changes into events. One task per instance takes changes in order (from this
//! instance and, through the bus, from the others), reads what the event needs, encodes
//! it once, and hands it to the hub or the project's actor with its audience, which the
//! policy module decides. Session ends go out here too: a logout on one instance
//! closes the session's sockets on every instance.

use std::collections::HashMap;

use actix::Addr;
use bytes::Bytes;
use protocol::{encode, Event, MilestonePlan, Role, ServerMsg};
use tokio::sync::mpsc;

use super::bus::Inbound;
use super::hub::{Deliver, EndSessions, EndUser, Hub, RemotePresence, ResyncAll, ResyncUser, SearchingCount, Watchers};
use super::project::MakerFavourite;
use super::registry::{Changed, MakerChanged, Registry, ToFavouriteGuests, ToGuests, ToSubscribers};
use crate::domain::changes::{Change, Owners};
use crate::domain::policy::{self, Audience, UserRef};
use crate::domain::{companies, guests, views};
use crate::error::Result;
use crate::store::{comments, images, milestones, notifications, projects, users, Store};

pub async fn run(mut inbound: mpsc::UnboundedReceiver<Inbound>, store: Store, hub: Addr<Hub>, registry: Addr<Registry>, searching: SearchingCount) {
    let mut announced = Announced::default();
    let to = Targets { hub, registry };
    while let Some(next) = inbound.recv().await {
        match next {
            Inbound::Change { change, remote } => {
                let searchable = if searching.any() { searchable(&change) } else { None };
                if let Err(err) = publish(&store, &to, &mut announced, change, remote).await {
                    err.log("publishing a change");
                }
                if let Some((project_id, owners)) = searchable {
                    if let Err(err) = tell_searchers(&store, &to, project_id, owners).await {
                        err.log("telling searchers of a change");
                    }
                }
            }
            Inbound::Lost => to.hub.do_send(ResyncAll),
        }
    }
}

/// The project whose searchable text a change touched (issue 29: titles, addresses,
/// milestone names, captions, visit notes, tags, comments), with its owners when the
/// change names them.
fn searchable(change: &Change) -> Option<(String, Option<Owners>)> {
    match change {
        Change::Project { id, .. } => Some((id.clone(), None)),
        Change::ProjectDeleted { id, owners, .. } => Some((id.clone(), Some(owners.clone()))),
        Change::Photo { project_id, .. }
        | Change::PhotoDeleted { project_id, .. }
        | Change::Comment { project_id, .. }
        | Change::CommentDeleted { project_id, .. }
        | Change::Milestones { project_id, .. } => Some((project_id.clone(), None)),
        _ => None,
    }
}

/// Sockets with search results open, of people who may see the project, hear that
/// something they could find changed; they search again (the event names no content,
/// so it carries nothing the search itself would not show them).
async fn tell_searchers(store: &Store, to: &Targets, project_id: String, owners: Option<Owners>) -> Result<()> {
    let owners = match owners {
        Some(owners) => owners,
        None => match projects::find(store.pool(), &project_id).await? {
            Some(row) => Owners::of(&row),
            None => return Ok(()),
        },
    };
    let members = companies::member_actors(store.pool(), owners.company_id.as_deref()).await?;
    to.deliver(Event::SearchChanged { project_id }, policy::search_audience(owners.as_ref(), &members));
    Ok(())
}

struct Targets {
    hub: Addr<Hub>,
    registry: Addr<Registry>,
}

impl Targets {
    fn deliver(&self, event: Event, audience: Audience) {
        self.deliver_to(event, [audience]);
    }

    /// One event for several audiences, encoded once for the users among them. A
    /// project's guests get it unencoded: its actor tailors it to each guest's link.
    fn deliver_to(&self, event: Event, audiences: impl IntoIterator<Item = Audience>) {
        let mut frame = None;
        for audience in audiences {
            if let Audience::Guests(project_id) = audience {
                self.registry.do_send(ToGuests { project_id, event: event.clone() });
                continue;
            }
            if frame.is_none() {
                match encode(&ServerMsg::Event { event: event.clone() }) {
                    Ok(bytes) => frame = Some(Bytes::from(bytes)),
                    Err(err) => return tracing::error!(error = %err, "could not encode an event"),
                }
            }
            if let Some(frame) = &frame {
                self.deliver_frame(frame.clone(), audience);
            }
        }
    }

    fn deliver_frame(&self, frame: Bytes, audience: Audience) {
        match audience {
            Audience::Subscribers(project_id) => self.registry.do_send(ToSubscribers { project_id, frame }),
            audience => self.hub.do_send(Deliver { frame, audience }),
        }
    }
}

/// The members of the companies a project belongs to now and belonged to before a
/// move, as the policy sees them: who among them sees it is the policy's to say.
async fn members_around(store: &Store, current: &Owners, previous: Option<&Owners>) -> Result<Vec<policy::Actor>> {
    let mut members = companies::member_actors(store.pool(), current.company_id.as_deref()).await?;
    if let Some(previous) = previous.filter(|p| p.company_id != current.company_id) {
        members.extend(companies::member_actors(store.pool(), previous.company_id.as_deref()).await?);
    }
    Ok(members)
}

/// The newest version of each project this instance has announced. Changes reach the
/// publisher in the order they were published, not always the order they committed (a
/// project's mutations take turns on each instance, but other instances' changes are
/// read when their notice arrives), so a project state at or below one already sent
/// is old news: clients would drop it (DESIGN.md §2), and it is not sent.
#[derive(Default)]
struct Announced(HashMap<String, i64>);

impl Announced {
    /// True when `version` is news for `project_id`; records it either way.
    fn is_news(&mut self, project_id: &str, version: i64) -> bool {
        let news = self.0.get(project_id).is_none_or(|newest| version > *newest);
        self.record(project_id, version);
        news
    }

    /// Notes that the project reached `version` (announced, or deleted at it).
    fn record(&mut self, project_id: &str, version: i64) {
        match self.0.get_mut(project_id) {
            Some(newest) => *newest = (*newest).max(version),
            None => {
                self.0.insert(project_id.to_owned(), version);
            }
        }
    }
}

async fn publish(store: &Store, to: &Targets, announced: &mut Announced, change: Change, remote: bool) -> Result<()> {
    let pool = store.pool();
    match change {
        Change::Project { id, created, actor_id, previous, state } => {
            // Another instance's change: this instance's actor re-reads the project and
            // drops subscribers who lost it, before any later event reaches them. (Here,
            // the actor did so in the change's own turn.)
            if remote {
                to.registry.do_send(Changed { project_id: id.clone() });
            }
            let project = match state {
                Some(project) => *project,
                None => match projects::find(pool, &id).await? {
                    Some(row) => views::project(&row),
                    // Gone already (deleted right after): its deletion event follows.
                    None => return Ok(()),
                },
            };
            // A move's or a creation's consequences (who may see the project) are
            // carried out even when a later state went out first.
            if !announced.is_news(&project.id, project.version) && previous.is_none() && !created {
                return Ok(());
            }
            let current = Owners {
                homeowner_id: project.homeowner_id.clone(),
                company_id: project.builder_id.clone(),
                crew: project.crew.clone(),
            };
            let members = members_around(store, &current, previous.as_ref()).await?;
            let (project_id, version) = (project.id.clone(), project.version);
            // Guests watching it see the project as it now is, as their link shows it
            // (no one's account, no photo it does not share); a new project has none yet.
            if !created {
                to.deliver(Event::ProjectUpdated { project: project.clone(), actor: None }, policy::guest_audience(&project_id));
            }
            let event = if created {
                Event::ProjectCreated { project }
            } else {
                let actor = match actor_id {
                    Some(a) => users::find_by_id(pool, &a).await?.map(|u| views::summary(&u)),
                    None => None,
                };
                Event::ProjectUpdated { project, actor }
            };
            to.deliver(event, policy::project_audience(current.as_ref(), &members));
            let moved = previous.is_some();
            if let Some(previous) = &previous {
                // Whoever lost the project sees it leave their view.
                let lost = policy::lost_project_audience(previous.as_ref(), current.as_ref(), &members);
                if lost != Audience::Only(Vec::new()) {
                    to.deliver(Event::ProjectDeleted { id: project_id, version }, lost);
                }
                refresh_watchers(store, to, &previous.homeowner_id).await?;
            }
            if created || moved {
                refresh_watchers(store, to, &current.homeowner_id).await?;
                // Builders newly seeing a homeowner's project may now see that homeowner.
                let newly = policy::newly_visible_user_audience(previous.as_ref().map(Owners::as_ref), current.as_ref(), &members);
                if newly != Audience::Only(Vec::new()) {
                    if let Some(homeowner) = users::find_by_id(pool, &current.homeowner_id).await? {
                        to.deliver(Event::UserUpdated { user: views::profile(&homeowner) }, newly);
                    }
                }
            }
        }
        Change::ProjectDeleted { id, version, owners } => {
            // Also when the deletion was this instance's but not its actor's (a user's
            // deletion takes their projects): the actor forgets its subscribers.
            to.registry.do_send(Changed { project_id: id.clone() });
            // Recorded, so an update that was overtaken by the deletion stays unsent.
            announced.record(&id, version);
            to.deliver(Event::ProjectDeleted { id: id.clone(), version }, policy::guest_audience(&id));
            let members = members_around(store, &owners, None).await?;
            to.deliver(Event::ProjectDeleted { id, version }, policy::project_audience(owners.as_ref(), &members));
            refresh_watchers(store, to, &owners.homeowner_id).await?;
        }
        Change::User { id, created, state } => {
            let user = match state {
                Some(profile) => *profile,
                None => match users::find_by_id(pool, &id).await? {
                    Some(row) => views::profile(&row),
                    None => return Ok(()),
                },
            };
            let builders = users::builders_of_homeowner(pool, &id).await?;
            let audience = policy::user_audience(UserRef { id: &id, role: user.role, builders: &builders });
            let event = if created { Event::UserCreated { user } } else { Event::UserUpdated { user } };
            to.deliver(event, audience);
        }
        Change::UserDeleted { id, version, builders } => {
            to.registry.do_send(MakerChanged { user_id: id.clone() });
            // Who could see the user before: the builders with their projects (a
            // homeowner), read before the deletion; the role no longer matters.
            let audience = policy::user_audience(UserRef { id: &id, role: Role::Homeowner, builders: &builders });
            to.deliver(Event::UserDeleted { id, version }, audience);
        }
        Change::Photo { id, project_id, created, state } => {
            // Another instance's photo: this instance's actor first re-reads who may see
            // the project (its move may not have arrived yet; the photo's commit is the
            // later one).
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let photo = match state {
                Some(photo) => *photo,
                None => match images::find(pool, &id).await? {
                    Some(row) => views::image(&row),
                    // Deleted right after: its deletion event follows.
                    None => return Ok(()),
                },
            };
            let event = if created { Event::PhotoAdded { photo } } else { Event::PhotoUpdated { photo } };
            to.deliver(event.clone(), policy::guest_audience(&project_id));
            to.deliver(event, policy::project_detail_audience(&project_id));
        }
        Change::PhotoDeleted { id, project_id } => {
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let audience = policy::project_detail_audience(&project_id);
            let guests = policy::guest_audience(&project_id);
            to.deliver(Event::PhotoDeleted { id: id.clone(), project_id: project_id.clone() }, guests);
            to.deliver(Event::PhotoDeleted { id, project_id }, audience);
        }
        Change::Comment { id, image_id: _, project_id, created, comment_count, state } => {
            // As for photos: another instance's comment waits for this instance's
            // actor to re-read who may see the project.
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let comment = match state {
                Some(comment) => *comment,
                None => match comments::find(pool, &id).await? {
                    Some(row) => views::comment(&row),
                    // Deleted right after: its deletion event follows.
                    None => return Ok(()),
                },
            };
            let event =
                if created { Event::CommentAdded { comment, comment_count } } else { Event::CommentUpdated { comment } };
            to.deliver(event, policy::comment_audience(&project_id));
        }
        Change::CommentDeleted { id, image_id, project_id, comment_count } => {
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let audience = policy::comment_audience(&project_id);
            to.deliver(Event::CommentDeleted { id, image_id, project_id, comment_count }, audience);
        }
        Change::Markup { image_id, project_id, actor_id, markup_count: _, state } => {
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let markup = match state {
                Some(markup) => *markup,
                None => match crate::domain::markup::current_in(store, &image_id).await? {
                    Some(markup) => markup,
                    // Its photo was deleted right after: that deletion follows.
                    None => return Ok(()),
                },
            };
            let actor = users::find_by_id(pool, &actor_id).await?.map(|u| views::summary(&u));
            to.deliver_to(Event::MarkupChanged { markup, actor }, policy::markup_audiences(&project_id));
        }
        Change::Report { id, project_id } => {
            // Read as it is now: quick progress steps may arrive after a later one,
            // and a report never moves back, so the newest state is always right.
            if let Some(report) = crate::domain::reports::current_in(store, &id).await? {
                to.deliver(Event::ReportChanged { report }, policy::report_audience(&project_id));
            }
        }
        Change::ReportDeleted { id, project_id } => {
            to.deliver(Event::ReportDeleted { id, project_id: project_id.clone() }, policy::report_audience(&project_id));
        }
        Change::Milestones { project_id, version, state } => {
            // As for photos: another instance's change waits for this instance's actor
            // to re-read who may see the project.
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let plan = match state {
                Some(plan) => *plan,
                None => {
                    let rows = milestones::list(pool, &project_id).await?;
                    let milestones = rows.iter().map(crate::domain::milestones::view).collect();
                    MilestonePlan { project_id: project_id.clone(), milestones, version }
                }
            };
            to.deliver_to(Event::MilestonesChanged { plan }, policy::story_audiences(&project_id));
        }
        Change::Timeline { id, project_id, state } => {
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let entry = match state {
                Some(entry) => *entry,
                None => match crate::domain::timeline::current_in(store, &id).await? {
                    Some(entry) => entry,
                    // Gone already (its comment deleted right after): its removal follows.
                    None => return Ok(()),
                },
            };
            to.deliver_to(Event::TimelineAdded { entry }, policy::story_audiences(&project_id));
        }
        Change::TimelineRemoved { id, project_id } => {
            if remote {
                to.registry.do_send(Changed { project_id: project_id.clone() });
            }
            let audiences = policy::story_audiences(&project_id);
            to.deliver_to(Event::TimelineRemoved { project_id, id }, audiences);
        }
        Change::Notification { id, user_id } => {
            let Some(row) = notifications::find(pool, &id).await? else { return Ok(()) };
            let unread = notifications::unread_count(pool, &user_id).await?;
            let event = Event::NotificationAdded { notification: crate::domain::notifications::view(&row), unread };
            to.deliver(event, policy::notification_audience(&user_id));
        }
        Change::NotificationsRead { user_id, ids, all } => {
            let unread = notifications::unread_count(pool, &user_id).await?;
            to.deliver(Event::NotificationsRead { ids, all, unread }, policy::notification_audience(&user_id));
        }
        Change::Favourite { user_id, project_id, image_id, favourite } => {
            // Guests of this person's favourites links gain or lose the photo.
            let photo = match favourite {
                true => images::find(pool, &image_id).await?.map(|row| views::for_guests(views::image(&row))),
                false => None,
            };
            if !favourite || photo.is_some() {
                let change = MakerFavourite { user_id: user_id.clone(), image_id: image_id.clone(), photo };
                to.registry.do_send(ToFavouriteGuests { project_id: project_id.clone(), change });
            }
            let audience = policy::favourite_audience(&user_id);
            to.deliver(Event::FavouriteChanged { project_id, image_id, favourite }, audience);
        }
        Change::EndSession { session_id, reason } => {
            to.hub.do_send(EndSessions { session_ids: vec![session_id], reason });
        }
        Change::EndSessions { user_id, keep_session, reason } => {
            // Every session of theirs ends because they lost standing (removed, deleted,
            // a new password): what they shared is decided again too.
            if keep_session.is_none() {
                to.registry.do_send(MakerChanged { user_id: user_id.clone() });
            }
            to.hub.do_send(EndUser { user_id, keep_session, reason });
        }
        Change::Reconnect { user_id } => {
            to.registry.do_send(MakerChanged { user_id: user_id.clone() });
            to.hub.do_send(ResyncUser { user_id });
        }
        Change::Company { id, former } => {
            for user_id in &former {
                to.registry.do_send(MakerChanged { user_id: user_id.clone() });
            }
            let Some(company) = companies::view(pool, &id).await? else { return Ok(()) };
            let people = company.members.iter().map(|m| m.id.clone()).chain(former).collect();
            to.deliver(Event::CompanyChanged { company }, policy::company_audience(people));
        }
        Change::CompanyDeleted { id, version, members } => {
            to.deliver(Event::CompanyDeleted { id, version }, policy::company_audience(members));
        }
        Change::GuestLinkEnded { link_id, project_id: _ } => {
            // The link's guests are known to the hub by the link's principal id.
            if let Audience::Only(principals) = policy::ended_link_audience(&link_id) {
                for user_id in principals {
                    let reason = guests::LINK_INACTIVE_REASON.to_owned();
                    to.hub.do_send(EndUser { user_id, keep_session: None, reason });
                }
            }
        }
        // This instance's own report: its hub knew before it was sent.
        Change::Presence { .. } if !remote => {}
        Change::Presence { instance, online, offline } => {
            let with_watchers = |ids: Vec<String>| async move {
                let mut out = Vec::with_capacity(ids.len());
                for id in ids {
                    let watchers = users::builders_of_homeowner(pool, &id).await?;
                    out.push((id, watchers));
                }
                Ok::<_, crate::error::Error>(out)
            };
            let online = with_watchers(online).await?;
            let offline = with_watchers(offline).await?;
            to.hub.do_send(RemotePresence { instance, online, offline });
        }
    }
    Ok(())
}

async fn refresh_watchers(store: &Store, to: &Targets, homeowner_id: &str) -> Result<()> {
    let watchers = users::builders_of_homeowner(store.pool(), homeowner_id).await?;
    to.hub.do_send(Watchers { user_id: homeowner_id.to_owned(), watchers });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Announced;

    #[test]
    fn a_project_state_at_or_below_one_announced_is_not_news() {
        let mut announced = Announced::default();
        assert!(announced.is_news("p1", 5));
        assert!(!announced.is_news("p1", 5), "the same version twice");
        assert!(announced.is_news("p1", 7));
        assert!(!announced.is_news("p1", 6), "overtaken by 7");
        assert!(announced.is_news("p2", 1), "per project");
        assert!(announced.is_news("p1", 8));
        announced.record("p1", 12);
        assert!(!announced.is_news("p1", 11), "recorded without being announced");
        announced.record("p1", 10);
        assert!(announced.is_news("p1", 13), "a lower record does not lower the newest");
    }
}
