//! Turns changes into events. One task per instance takes changes in order (from this
//! instance and, through the bus, from the others), reads what the event needs, encodes
//! it once, and hands it to the hub with its audience.

use std::collections::HashMap;

use actix::Addr;
use bytes::Bytes;
use protocol::{encode, Event, ServerMsg};
use tokio::sync::mpsc;

use super::hub::{Audience, Deliver, EndUser, Hub, Reauthorize, RemotePresence, Watchers};
use crate::domain::changes::{Change, Owners};
use crate::domain::views;
use crate::error::Result;
use crate::store::{images, projects, users, Store};

pub async fn run(mut changes: mpsc::UnboundedReceiver<Change>, store: Store, hub: Addr<Hub>) {
    let mut announced = Announced::default();
    while let Some(change) = changes.recv().await {
        if let Err(err) = publish(&store, &hub, &mut announced, change).await {
            err.log("publishing a change");
        }
    }
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

fn deliver(hub: &Addr<Hub>, event: Event, audience: Audience) {
    match encode(&ServerMsg::Event { event }) {
        Ok(bytes) => hub.do_send(Deliver { frame: Bytes::from(bytes), audience }),
        Err(err) => tracing::error!(error = %err, "could not encode an event"),
    }
}

fn people(owners: &Owners) -> Vec<String> {
    std::iter::once(owners.homeowner_id.clone()).chain(owners.builder_id.clone()).collect()
}

async fn publish(store: &Store, hub: &Addr<Hub>, announced: &mut Announced, change: Change) -> Result<()> {
    let pool = store.pool();
    match change {
        Change::Project { id, created, actor_id, previous, state } => {
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
            let current = Owners { homeowner_id: project.homeowner_id.clone(), builder_id: project.builder_id.clone() };
            let (project_id, version) = (project.id.clone(), project.version);
            let event = if created {
                Event::ProjectCreated { project }
            } else {
                let actor = match actor_id {
                    Some(a) => users::find_by_id(pool, &a).await?.map(|u| views::summary(&u)),
                    None => None,
                };
                Event::ProjectUpdated { project, actor }
            };
            deliver(hub, event, Audience::Users(people(&current)));
            let moved = previous.is_some();
            if moved {
                hub.do_send(Reauthorize {
                    project_id: project_id.clone(),
                    homeowner_id: current.homeowner_id.clone(),
                    builder_id: current.builder_id.clone(),
                });
            }
            if let Some(previous) = previous {
                // Whoever lost the project sees it leave their view.
                let now = people(&current);
                let lost: Vec<String> = people(&previous).into_iter().filter(|p| !now.contains(p)).collect();
                if !lost.is_empty() {
                    deliver(hub, Event::ProjectDeleted { id: project_id, version }, Audience::Only(lost));
                }
                refresh_watchers(store, hub, &previous.homeowner_id).await?;
            }
            if created || moved {
                refresh_watchers(store, hub, &current.homeowner_id).await?;
                // A builder newly on a homeowner's project may now see that homeowner.
                if let (Some(builder), Some(homeowner)) =
                    (current.builder_id.clone(), users::find_by_id(pool, &current.homeowner_id).await?)
                {
                    deliver(hub, Event::UserUpdated { user: views::profile(&homeowner) }, Audience::Only(vec![builder]));
                }
            }
        }
        Change::ProjectDeleted { id, version, owners } => {
            // Recorded, so an update that was overtaken by the deletion stays unsent.
            announced.record(&id, version);
            deliver(hub, Event::ProjectDeleted { id, version }, Audience::Users(people(&owners)));
            refresh_watchers(store, hub, &owners.homeowner_id).await?;
        }
        Change::User { id, created, state } => {
            let user = match state {
                Some(profile) => *profile,
                None => match users::find_by_id(pool, &id).await? {
                    Some(row) => views::profile(&row),
                    None => return Ok(()),
                },
            };
            let mut audience = users::builders_of_homeowner(pool, &id).await?;
            audience.push(id);
            let event = if created { Event::UserCreated { user } } else { Event::UserUpdated { user } };
            deliver(hub, event, Audience::Users(audience));
        }
        Change::UserDeleted { id, version, mut builders } => {
            builders.push(id.clone());
            deliver(hub, Event::UserDeleted { id, version }, Audience::Users(builders));
        }
        Change::Photo { id, project_id, created, state } => {
            let photo = match state {
                Some(photo) => *photo,
                None => match images::find(pool, &id).await? {
                    Some(row) => views::image(&row),
                    // Deleted right after: its deletion event follows.
                    None => return Ok(()),
                },
            };
            let event = if created { Event::PhotoAdded { photo } } else { Event::PhotoUpdated { photo } };
            deliver(hub, event, Audience::Subscribers(project_id));
        }
        Change::PhotoDeleted { id, project_id } => {
            deliver(hub, Event::PhotoDeleted { id, project_id: project_id.clone() }, Audience::Subscribers(project_id));
        }
        Change::Favourite { user_id, project_id, image_id, favourite } => {
            deliver(hub, Event::FavouriteChanged { project_id, image_id, favourite }, Audience::Only(vec![user_id]));
        }
        Change::EndSessions { user_id, keep_session, reason } => {
            hub.do_send(EndUser { user_id, keep_session, reason });
        }
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
            hub.do_send(RemotePresence { instance, online, offline });
        }
    }
    Ok(())
}

async fn refresh_watchers(store: &Store, hub: &Addr<Hub>, homeowner_id: &str) -> Result<()> {
    let watchers = users::builders_of_homeowner(store.pool(), homeowner_id).await?;
    hub.do_send(Watchers { user_id: homeowner_id.to_owned(), watchers });
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
