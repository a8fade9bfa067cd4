//! Turns changes into events. One task per instance takes changes in order (from this
//! instance and, through the bus, from the others), finds the facts each needs
//! (`facts`: carried by a change made here, read for another instance's), plans who
//! receives what (`plan::plan`, pure), and routes the plan (`route`): users' events to
//! the hub, everything for a project's open pages to its actor in one message. Session
//! ends go out here too: a logout on one instance closes the session's sockets on
//! every instance.

use std::collections::HashMap;

use actix::Addr;
use bytes::Bytes;
use protocol::{encode, MilestonePlan, ServerMsg};
use tokio::sync::mpsc;

use super::bus::Inbound;
use super::hub::{Deliver, EndSessions, EndUser, Hub, RemotePresence, ResyncAll, ResyncUser, SearchingCount, Watchers};
use super::plan::{self, Facts, Out};
use super::project::ProjectOut;
use super::registry::{MakerChanged, Registry, ToProject};
use crate::domain::shared::changes::{Change, Owners};
use crate::domain::shared::policy::{self, Audience};
use crate::domain::{companies, shared::audience, shared::views};
use crate::error::Result;
use crate::store::{comments, images, milestones, notifications, projects, users, Store};

pub async fn run(mut inbound: mpsc::UnboundedReceiver<Inbound>, store: Store, hub: Addr<Hub>, registry: Addr<Registry>, searching: SearchingCount) {
    let mut announced = Announced::default();
    let to = Targets { hub, registry };
    while let Some(next) = inbound.recv().await {
        match next {
            Inbound::Change { change, remote, sent_to_pages } => {
                let facts = match facts(&store, &mut announced, &change, remote, searching.any()).await {
                    Ok(facts) => facts,
                    Err(err) => {
                        err.log("reading what a change's events need");
                        continue;
                    }
                };
                let pages = plan::carried(&change).filter(|_| sent_to_pages).map(|(project_id, _)| project_id.to_owned());
                let planned = plan::plan(change, facts);
                to.route(match pages {
                    Some(project_id) => plan::not_for_pages(planned, &project_id),
                    None => planned,
                });
            }
            Inbound::Lost => to.hub.do_send(ResyncAll),
        }
    }
}

struct Targets {
    hub: Addr<Hub>,
    registry: Addr<Registry>,
}

impl Targets {
    /// Carries out a change's plan: what concerns a project's open pages goes to its
    /// actor in one message (a re-read first, then its events, in order); events for
    /// users are encoded once and go to the hub.
    fn route(&self, plan: Vec<Out>) {
        let mut to_project: Option<(String, Vec<ProjectOut>)> = None;
        let mut for_project = |project_id: &str, step: ProjectOut| match &mut to_project {
            Some((id, steps)) if id == project_id => steps.push(step),
            _ => {
                if let Some((project_id, steps)) = to_project.take() {
                    self.registry.do_send(ToProject { project_id, steps });
                }
                to_project = Some((project_id.to_owned(), vec![step]));
            }
        };
        for out in plan {
            match out {
                Out::Send { event, audiences } => {
                    let mut frame: Option<Bytes> = None;
                    for audience in audiences {
                        // Guests get the event unencoded: the actor tailors it to each link.
                        if let Audience::Guests(project_id) = &audience {
                            for_project(project_id, ProjectOut::Guests(event.clone()));
                            continue;
                        }
                        if frame.is_none() {
                            match encode(&ServerMsg::Event { event: event.clone() }) {
                                Ok(bytes) => frame = Some(Bytes::from(bytes)),
                                Err(err) => {
                                    tracing::error!(error = %err, "could not encode an event");
                                    break;
                                }
                            }
                        }
                        let Some(frame) = frame.clone() else { break };
                        match audience {
                            Audience::Subscribers(project_id) => for_project(&project_id, ProjectOut::Subscribers(frame)),
                            audience => self.hub.do_send(Deliver { frame, audience }),
                        }
                    }
                }
                Out::Refresh { project_id } => for_project(&project_id, ProjectOut::Refresh),
                Out::FavouriteGuests { project_id, change } => for_project(&project_id, ProjectOut::Favourite(change)),
                Out::MakerChanged { user_id } => self.registry.do_send(MakerChanged { user_id }),
                Out::EndSessions { session_ids, reason } => self.hub.do_send(EndSessions { session_ids, reason }),
                Out::EndUser { user_id, keep_session, reason } => self.hub.do_send(EndUser { user_id, keep_session, reason }),
                Out::ResyncUser { user_id } => self.hub.do_send(ResyncUser { user_id }),
                Out::Watchers { user_id, watchers } => self.hub.do_send(Watchers { user_id, watchers }),
                Out::RemotePresence { instance, online, offline } => self.hub.do_send(RemotePresence { instance, online, offline }),
            }
        }
        if let Some((project_id, steps)) = to_project {
            self.registry.do_send(ToProject { project_id, steps });
        }
    }
}

/// What a change's plan needs: the state a change made here carries, or what another
/// instance's change names, read as it is now; and the people around it.
async fn facts(store: &Store, announced: &mut Announced, change: &Change, remote: bool, searching: bool) -> Result<Facts> {
    let pool = store.pool();
    let mut facts = Facts { remote, ..Facts::default() };
    match change {
        Change::Project { id, created, actor_id, previous, state } => {
            facts.project = match state {
                Some(project) => Some((**project).clone()),
                None => projects::find(pool, id).await?.map(|row| views::project(&row)),
            };
            let Some(project) = &facts.project else { return Ok(facts) };
            facts.stale = !announced.is_news(&project.id, project.version);
            if facts.stale && previous.is_none() && !created {
                return Ok(facts);
            }
            let current = Owners { homeowner_id: project.homeowner_id.clone(), company_id: project.builder_id.clone(), crew: project.crew.clone() };
            facts.members = members_around(store, &current, previous.as_ref()).await?;
            if let (false, Some(actor_id)) = (created, actor_id) {
                facts.actor = users::find_by_id(pool, actor_id).await?.map(|u| views::summary(&u));
            }
            if let Some(previous) = previous {
                facts.watchers.push(watchers_of(store, &previous.homeowner_id).await?);
            }
            if *created || previous.is_some() {
                facts.watchers.push(watchers_of(store, &current.homeowner_id).await?);
                facts.homeowner = users::find_by_id(pool, &current.homeowner_id).await?.map(|u| views::profile(&u));
            }
            if searching {
                facts.searched = Some(current);
            }
        }
        Change::ProjectDeleted { id, version, owners } => {
            // Recorded, so an update that was overtaken by the deletion stays unsent.
            announced.record(id, *version);
            facts.members = members_around(store, owners, None).await?;
            facts.watchers.push(watchers_of(store, &owners.homeowner_id).await?);
            if searching {
                facts.searched = Some(owners.clone());
            }
        }
        Change::User { id, state, .. } => {
            facts.user = match state {
                Some(profile) => Some((**profile).clone()),
                None => users::find_by_id(pool, id).await?.map(|row| views::profile(&row)),
            };
            facts.builders = users::builders_of_homeowner(pool, id).await?;
        }
        Change::Photo { id, state, .. } => {
            facts.photo = match state {
                Some(photo) => Some((**photo).clone()),
                None => images::find(pool, id).await?.map(|row| views::image(&row)),
            };
        }
        Change::Comment { id, state, .. } => {
            facts.comment = match state {
                Some(comment) => Some((**comment).clone()),
                None => comments::find(pool, id).await?.map(|row| views::comment(&row)),
            };
        }
        Change::Markup { image_id, actor_id, state, .. } => {
            facts.markup = match state {
                Some(markup) => Some((**markup).clone()),
                None => crate::domain::media::markup::current_in(store, image_id).await?,
            };
            if facts.markup.is_some() {
                facts.actor = users::find_by_id(pool, actor_id).await?.map(|u| views::summary(&u));
            }
        }
        // Read as it is now: quick progress steps may arrive after a later one, and a
        // report never moves back, so the newest state is always right.
        Change::Report { id, .. } => facts.report = crate::domain::sharing::reports::current_in(store, id).await?,
        Change::Milestones { project_id, version, state } => {
            facts.plan = Some(match state {
                Some(plan) => (**plan).clone(),
                None => {
                    let rows = milestones::list(pool, project_id).await?;
                    let milestones = rows.iter().map(crate::domain::projects::milestones::view).collect();
                    MilestonePlan { project_id: project_id.clone(), milestones, version: *version }
                }
            });
        }
        Change::Timeline { id, state, .. } => {
            facts.entry = match state {
                Some(entry) => Some((**entry).clone()),
                None => crate::domain::projects::timeline::current_in(store, id).await?,
            };
        }
        Change::Notification { id, user_id } => {
            facts.notification = notifications::find(pool, id).await?.map(|row| crate::domain::messaging::notifications::view(&row));
            if facts.notification.is_some() {
                facts.unread = notifications::unread_count(pool, user_id).await?;
            }
        }
        Change::NotificationsRead { user_id, .. } => facts.unread = notifications::unread_count(pool, user_id).await?,
        Change::Favourite { image_id, favourite: true, .. } => {
            facts.favourite_photo = images::find(pool, image_id).await?.map(|row| views::for_guests(views::image(&row)));
        }
        Change::Company { id, .. } => facts.company = companies::view(pool, id).await?,
        Change::Presence { online, offline, .. } if remote => {
            facts.online = with_watchers(store, online).await?;
            facts.offline = with_watchers(store, offline).await?;
        }
        _ => {}
    }
    // Searchers of a project whose photos, comments or milestones changed: who may see
    // it is read only while someone searches.
    if let (true, None, Some(project_id)) = (searching, &facts.searched, plan::change_project(change)) {
        if let Some(row) = projects::find(pool, &project_id).await? {
            let owners = Owners::of(&row);
            facts.members = audience::member_actors(pool, owners.company_id.as_deref()).await?;
            facts.searched = Some(owners);
        }
    }
    Ok(facts)
}

/// The members of the companies a project belongs to now and belonged to before a
/// move, as the policy sees them: who among them sees it is the policy's to say.
async fn members_around(store: &Store, current: &Owners, previous: Option<&Owners>) -> Result<Vec<policy::Actor>> {
    let mut members = audience::member_actors(store.pool(), current.company_id.as_deref()).await?;
    if let Some(previous) = previous.filter(|p| p.company_id != current.company_id) {
        members.extend(audience::member_actors(store.pool(), previous.company_id.as_deref()).await?);
    }
    Ok(members)
}

async fn watchers_of(store: &Store, homeowner_id: &str) -> Result<(String, Vec<String>)> {
    Ok((homeowner_id.to_owned(), users::builders_of_homeowner(store.pool(), homeowner_id).await?))
}

async fn with_watchers(store: &Store, ids: &[String]) -> Result<Vec<(String, Vec<String>)>> {
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.push(watchers_of(store, id).await?);
    }
    Ok(out)
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
