//! Who receives what for a change (DESIGN.md §2): a pure function of the change and
//! the facts known about it. A change made here carries its facts (the state its step
//! left); another instance's change has them read by the publisher (`publisher::facts`).
//! From there both take the same path: this plan, then `publisher::route`, which sends
//! users' events to the hub and everything for a project's open pages (its
//! subscribers, its guests, a re-read first) to the project's actor in one message.

use protocol::{Comment, Company, Event, Markup, MilestonePlan, Notification, Profile, Project, ProjectImage, Report, Role, TimelineEntry, UserSummary};

use crate::domain::shared::changes::{Change, Owners};
use crate::domain::shared::policy::{self, Actor, Audience, UserRef};
use crate::domain::sharing::guests::LINK_INACTIVE_REASON;

/// What a change's events need besides the change itself. A state left `None` is gone
/// already (deleted right after the change; its deletion follows): nothing is sent.
#[derive(Debug, Default, Clone)]
pub struct Facts {
    /// Made on another instance: this instance's project actor reads the project again
    /// (and drops who lost it) before the change's events reach its pages, as the
    /// project's move may not have arrived here yet.
    pub remote: bool,
    pub project: Option<Project>,
    pub user: Option<Profile>,
    pub photo: Option<ProjectImage>,
    pub comment: Option<Comment>,
    pub markup: Option<Markup>,
    pub report: Option<Report>,
    pub plan: Option<MilestonePlan>,
    pub entry: Option<TimelineEntry>,
    pub notification: Option<Notification>,
    pub company: Option<Company>,
    /// Who made the change, as others see them.
    pub actor: Option<UserSummary>,
    /// The members of the companies the project belongs to, and belonged to before a
    /// move: whom among them it concerns is the policy's to say.
    pub members: Vec<Actor>,
    /// The project state is not newer than one already announced here (`Announced`).
    pub stale: bool,
    /// The project's homeowner, for builders who see the project only now.
    pub homeowner: Option<Profile>,
    /// Homeowners whose presence watchers (the builders who see them) are told anew,
    /// with those builders.
    pub watchers: Vec<(String, Vec<String>)>,
    /// The builders who may see a changed user (with a project of theirs).
    pub builders: Vec<String>,
    /// The unread notifications of the user a notification change is for.
    pub unread: i64,
    /// A photo favourited, as guests of its maker's favourites links see it.
    pub favourite_photo: Option<ProjectImage>,
    /// Another instance's presence: each user with the builders who watch them.
    pub online: Vec<(String, Vec<String>)>,
    pub offline: Vec<(String, Vec<String>)>,
    /// Someone has search results open, and the change touched searchable text of a
    /// project with these owners.
    pub searched: Option<Owners>,
}

/// A favourite set or cleared: guests of `user_id`'s favourites links gain or lose the
/// photo (`photo` is how they see it, when set).
#[derive(Debug, Clone, PartialEq)]
pub struct FavouriteChange {
    pub user_id: String,
    pub image_id: String,
    pub photo: Option<ProjectImage>,
}

/// One thing the live parts do for a change, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// One event to several audiences (encoded once for the users among them).
    Send { event: Event, audiences: Vec<Audience> },
    /// The project's actor reads the project again and drops pages that lost it.
    Refresh { project_id: String },
    /// Guests of a user's favourites links on the project gain or lose a photo.
    FavouriteGuests { project_id: String, change: FavouriteChange },
    /// Someone's standing changed: every link they made is decided again.
    MakerChanged { user_id: String },
    EndSessions { session_ids: Vec<String>, reason: String },
    EndUser { user_id: String, keep_session: Option<String>, reason: String },
    /// The user's sockets reconnect, so every check they passed is made anew.
    ResyncUser { user_id: String },
    /// Who watches a homeowner's presence now.
    Watchers { user_id: String, watchers: Vec<String> },
    RemotePresence { instance: String, online: Vec<(String, Vec<String>)>, offline: Vec<(String, Vec<String>)> },
}

impl Out {
    /// The project whose actor carries this out, when it is one.
    pub fn project(&self) -> Option<&str> {
        match self {
            Out::Refresh { project_id } | Out::FavouriteGuests { project_id, .. } => Some(project_id),
            _ => None,
        }
    }
}

fn send(event: Event, audience: Audience) -> Out {
    Out::Send { event, audiences: vec![audience] }
}

fn to_all(event: Event, audiences: impl IntoIterator<Item = Audience>) -> Out {
    Out::Send { event, audiences: audiences.into_iter().collect() }
}

fn watchers(known: &[(String, Vec<String>)], user_id: &str) -> Option<Out> {
    let (_, watchers) = known.iter().find(|(id, _)| id == user_id)?;
    Some(Out::Watchers { user_id: user_id.to_owned(), watchers: watchers.clone() })
}

fn nobody(audience: &Audience) -> bool {
    *audience == Audience::Only(Vec::new())
}

/// Everything a change causes, in the order it is carried out.
pub fn plan(change: Change, facts: Facts) -> Vec<Out> {
    let mut out = Vec::new();
    let remote = facts.remote;
    let refresh = |out: &mut Vec<Out>, project_id: &str| {
        if remote {
            out.push(Out::Refresh { project_id: project_id.to_owned() });
        }
    };
    let searched = facts.searched.clone().map(|owners| (change_project(&change), owners));
    match change {
        Change::Project { id, created, previous, .. } => {
            refresh(&mut out, &id);
            let Some(project) = facts.project else { return out };
            // A move's or a creation's consequences (who may see the project) are
            // carried out even when a later state went out first.
            if facts.stale && previous.is_none() && !created {
                return out;
            }
            let current = Owners { homeowner_id: project.homeowner_id.clone(), company_id: project.builder_id.clone(), crew: project.crew.clone() };
            let (project_id, version) = (project.id.clone(), project.version);
            // Guests see the project as their link shows it; a new project has none yet.
            if !created {
                out.push(send(Event::ProjectUpdated { project: project.clone(), actor: None }, policy::guest_audience(&project_id)));
            }
            let event = match created {
                true => Event::ProjectCreated { project },
                false => Event::ProjectUpdated { project, actor: facts.actor },
            };
            out.push(send(event, policy::project_audience(current.as_ref(), &facts.members)));
            if let Some(previous) = &previous {
                // Whoever lost the project sees it leave their view.
                let lost = policy::lost_project_audience(previous.as_ref(), current.as_ref(), &facts.members);
                if !nobody(&lost) {
                    out.push(send(Event::ProjectDeleted { id: project_id, version }, lost));
                }
                out.extend(watchers(&facts.watchers, &previous.homeowner_id));
            }
            if created || previous.is_some() {
                out.extend(watchers(&facts.watchers, &current.homeowner_id));
                // Builders newly seeing a homeowner's project may now see that homeowner.
                let newly = policy::newly_visible_user_audience(previous.as_ref().map(Owners::as_ref), current.as_ref(), &facts.members);
                if let Some(homeowner) = facts.homeowner.filter(|_| !nobody(&newly)) {
                    out.push(send(Event::UserUpdated { user: homeowner }, newly));
                }
            }
        }
        Change::ProjectDeleted { id, version, owners } => {
            // Also when the deletion was this instance's but not its actor's (a user's
            // deletion takes their projects): the actor forgets its pages.
            out.push(Out::Refresh { project_id: id.clone() });
            out.push(send(Event::ProjectDeleted { id: id.clone(), version }, policy::guest_audience(&id)));
            out.push(send(Event::ProjectDeleted { id, version }, policy::project_audience(owners.as_ref(), &facts.members)));
            out.extend(watchers(&facts.watchers, &owners.homeowner_id));
        }
        Change::User { id, created, .. } => {
            let Some(user) = facts.user else { return out };
            let audience = policy::user_audience(UserRef { id: &id, role: user.role, builders: &facts.builders });
            out.push(send(if created { Event::UserCreated { user } } else { Event::UserUpdated { user } }, audience));
        }
        Change::UserDeleted { id, version, builders } => {
            out.push(Out::MakerChanged { user_id: id.clone() });
            // Who could see the user before: the builders with their projects (a
            // homeowner), read before the deletion; the role no longer matters.
            let audience = policy::user_audience(UserRef { id: &id, role: Role::Homeowner, builders: &builders });
            out.push(send(Event::UserDeleted { id, version }, audience));
        }
        Change::Photo { project_id, created, .. } => {
            refresh(&mut out, &project_id);
            let Some(photo) = facts.photo else { return out };
            let event = if created { Event::PhotoAdded { photo } } else { Event::PhotoUpdated { photo } };
            out.push(to_all(event, [policy::guest_audience(&project_id), policy::project_detail_audience(&project_id)]));
        }
        Change::PhotoDeleted { id, project_id } => {
            refresh(&mut out, &project_id);
            let audiences = [policy::guest_audience(&project_id), policy::project_detail_audience(&project_id)];
            out.push(to_all(Event::PhotoDeleted { id, project_id }, audiences));
        }
        Change::Comment { project_id, created, comment_count, .. } => {
            refresh(&mut out, &project_id);
            let Some(comment) = facts.comment else { return out };
            let event = if created { Event::CommentAdded { comment, comment_count } } else { Event::CommentUpdated { comment } };
            out.push(send(event, policy::comment_audience(&project_id)));
        }
        Change::CommentDeleted { id, image_id, project_id, comment_count } => {
            refresh(&mut out, &project_id);
            let audience = policy::comment_audience(&project_id);
            out.push(send(Event::CommentDeleted { id, image_id, project_id, comment_count }, audience));
        }
        Change::Markup { project_id, .. } => {
            refresh(&mut out, &project_id);
            let Some(markup) = facts.markup else { return out };
            out.push(to_all(Event::MarkupChanged { markup, actor: facts.actor }, policy::markup_audiences(&project_id)));
        }
        Change::Report { project_id, .. } => {
            let Some(report) = facts.report else { return out };
            out.push(send(Event::ReportChanged { report }, policy::report_audience(&project_id)));
        }
        Change::ReportDeleted { id, project_id } => {
            let audience = policy::report_audience(&project_id);
            out.push(send(Event::ReportDeleted { id, project_id }, audience));
        }
        Change::Milestones { project_id, .. } => {
            refresh(&mut out, &project_id);
            let Some(plan) = facts.plan else { return out };
            out.push(to_all(Event::MilestonesChanged { plan }, policy::story_audiences(&project_id)));
        }
        Change::Timeline { project_id, .. } => {
            refresh(&mut out, &project_id);
            let Some(entry) = facts.entry else { return out };
            out.push(to_all(Event::TimelineAdded { entry }, policy::story_audiences(&project_id)));
        }
        Change::TimelineRemoved { id, project_id } => {
            refresh(&mut out, &project_id);
            let audiences = policy::story_audiences(&project_id);
            out.push(to_all(Event::TimelineRemoved { project_id, id }, audiences));
        }
        Change::Notification { user_id, .. } => {
            let Some(notification) = facts.notification else { return out };
            out.push(send(Event::NotificationAdded { notification, unread: facts.unread }, policy::notification_audience(&user_id)));
        }
        Change::NotificationsRead { user_id, ids, all } => {
            out.push(send(Event::NotificationsRead { ids, all, unread: facts.unread }, policy::notification_audience(&user_id)));
        }
        Change::Favourite { user_id, project_id, image_id, favourite } => {
            // A favourite whose photo is gone already shows guests nothing.
            if !favourite || facts.favourite_photo.is_some() {
                let change = FavouriteChange { user_id: user_id.clone(), image_id: image_id.clone(), photo: facts.favourite_photo };
                out.push(Out::FavouriteGuests { project_id: project_id.clone(), change });
            }
            out.push(send(Event::FavouriteChanged { project_id, image_id, favourite }, policy::favourite_audience(&user_id)));
        }
        Change::EndSession { session_id, reason } => out.push(Out::EndSessions { session_ids: vec![session_id], reason }),
        Change::EndSessions { user_id, keep_session, reason } => {
            // Every session of theirs ends because they lost standing (removed, deleted,
            // a new password): what they shared is decided again too.
            if keep_session.is_none() {
                out.push(Out::MakerChanged { user_id: user_id.clone() });
            }
            out.push(Out::EndUser { user_id, keep_session, reason });
        }
        Change::Reconnect { user_id } => {
            out.push(Out::MakerChanged { user_id: user_id.clone() });
            out.push(Out::ResyncUser { user_id });
        }
        Change::Company { former, .. } => {
            out.extend(former.iter().map(|user_id| Out::MakerChanged { user_id: user_id.clone() }));
            let Some(company) = facts.company else { return out };
            let people = company.members.iter().map(|m| m.id.clone()).chain(former).collect();
            out.push(send(Event::CompanyChanged { company }, policy::company_audience(people)));
        }
        Change::CompanyDeleted { id, version, members } => {
            out.push(send(Event::CompanyDeleted { id, version }, policy::company_audience(members)));
        }
        Change::GuestLinkEnded { link_id, .. } => {
            // The link's guests are known to the hub by the link's principal id.
            if let Audience::Only(principals) = policy::ended_link_audience(&link_id) {
                out.extend(principals.into_iter().map(|user_id| Out::EndUser { user_id, keep_session: None, reason: LINK_INACTIVE_REASON.to_owned() }));
            }
        }
        // This instance's own report: its hub knew before it was sent.
        Change::Presence { .. } if !remote => {}
        Change::Presence { instance, .. } => out.push(Out::RemotePresence { instance, online: facts.online, offline: facts.offline }),
    }
    // Searchers re-run their search; the event names no content, so it carries nothing
    // the search itself would not show them.
    if let Some((Some(project_id), owners)) = searched {
        out.push(send(Event::SearchChanged { project_id }, policy::search_audience(owners.as_ref(), &facts.members)));
    }
    out
}

/// The facts a change made here carries for its project's open pages, when they need
/// nothing read: the project's actor sends them from inside the turn that made the
/// change (one visit), and the publisher sends the rest (`for_pages`, `not_for_pages`).
pub fn carried(change: &Change) -> Option<(&str, Facts)> {
    let mut facts = Facts::default();
    let project_id = match change {
        Change::Project { id, created: false, state: Some(project), .. } => {
            facts.project = Some((**project).clone());
            id
        }
        Change::Photo { project_id, state: Some(photo), .. } => {
            facts.photo = Some((**photo).clone());
            project_id
        }
        Change::Comment { project_id, state: Some(comment), .. } => {
            facts.comment = Some((**comment).clone());
            project_id
        }
        Change::Milestones { project_id, state: Some(plan), .. } => {
            facts.plan = Some((**plan).clone());
            project_id
        }
        Change::Timeline { project_id, state: Some(entry), .. } => {
            facts.entry = Some((**entry).clone());
            project_id
        }
        Change::PhotoDeleted { project_id, .. }
        | Change::CommentDeleted { project_id, .. }
        | Change::TimelineRemoved { project_id, .. }
        | Change::ReportDeleted { project_id, .. } => project_id,
        _ => return None,
    };
    Some((project_id, facts))
}

fn is_page(audience: &Audience, project_id: &str) -> bool {
    matches!(audience, Audience::Subscribers(p) | Audience::Guests(p) if p == project_id)
}

/// What of a plan goes to the project's open pages (its actor's part).
pub fn for_pages(plan: Vec<Out>, project_id: &str) -> Vec<Out> {
    plan.into_iter()
        .filter_map(|out| match out {
            Out::Send { event, audiences } => {
                let audiences: Vec<Audience> = audiences.into_iter().filter(|a| is_page(a, project_id)).collect();
                (!audiences.is_empty()).then_some(Out::Send { event, audiences })
            }
            out => (out.project() == Some(project_id)).then_some(out),
        })
        .collect()
}

/// A plan without what its project's actor has sent already (`carried`).
pub fn not_for_pages(plan: Vec<Out>, project_id: &str) -> Vec<Out> {
    plan.into_iter()
        .filter_map(|out| match out {
            Out::Send { event, audiences } => {
                let audiences: Vec<Audience> = audiences.into_iter().filter(|a| !is_page(a, project_id)).collect();
                (!audiences.is_empty()).then_some(Out::Send { event, audiences })
            }
            out => (out.project() != Some(project_id)).then_some(out),
        })
        .collect()
}

/// The project whose searchable text a change touched (titles, addresses, milestone
/// names, captions, visit notes, tags, comments: docs/FEATURES.md, "Tags and search").
pub fn change_project(change: &Change) -> Option<String> {
    match change {
        Change::Project { id, .. } | Change::ProjectDeleted { id, .. } => Some(id.clone()),
        Change::Photo { project_id, .. }
        | Change::PhotoDeleted { project_id, .. }
        | Change::Comment { project_id, .. }
        | Change::CommentDeleted { project_id, .. }
        | Change::Milestones { project_id, .. } => Some(project_id.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use protocol::{CompanyRole, NotificationKind, ReportOptions, ReportStatus};
    use crate::store::users::UserRow;

    use super::*;
    use crate::domain::shared::views;
    use crate::media::report::tests::{entry, image, project};

    // The project of `project()`: homeowner h1, company b1 with an owner (sees every
    // project) and crew member c1 not on its crew; another company's owner o2.
    fn members() -> Vec<Actor> {
        vec![
            Actor::member("b1-owner", "b1", CompanyRole::Owner, false),
            Actor::member("c1", "b1", CompanyRole::Crew, false),
            Actor::member("o2", "b2", CompanyRole::Owner, false),
        ]
    }

    fn owners(homeowner: &str, company: Option<&str>) -> Owners {
        Owners { homeowner_id: homeowner.into(), company_id: company.map(Into::into), crew: vec![] }
    }

    fn users(ids: &[&str]) -> Audience {
        Audience::Users(ids.iter().map(|s| s.to_string()).collect())
    }

    fn only(ids: &[&str]) -> Audience {
        Audience::Only(ids.iter().map(|s| s.to_string()).collect())
    }

    fn subscribers() -> Audience {
        Audience::Subscribers("p1".into())
    }

    fn guests() -> Audience {
        Audience::Guests("p1".into())
    }

    fn summary(id: &str) -> UserSummary {
        views::summary(&UserRow::example(id, Role::Builder))
    }

    fn profile(id: &str, role: Role) -> Profile {
        views::profile(&UserRow::example(id, role))
    }

    /// The events of a plan with their audiences, and the rest, in order.
    fn sends(plan: &[Out]) -> Vec<(&Event, &[Audience])> {
        plan.iter()
            .filter_map(|o| match o {
                Out::Send { event, audiences } => Some((event, audiences.as_slice())),
                _ => None,
            })
            .collect()
    }

    fn others(plan: &[Out]) -> Vec<&Out> {
        plan.iter().filter(|o| !matches!(o, Out::Send { .. })).collect()
    }

    fn project_change(created: bool, previous: Option<Owners>) -> Change {
        Change::Project { id: "p1".into(), created, actor_id: Some("a".into()), previous, state: None }
    }

    #[test]
    fn a_project_update_reaches_its_guests_and_everyone_who_sees_it() {
        let facts = Facts { project: Some(project()), actor: Some(summary("a")), members: members(), ..Facts::default() };
        let plan = plan(project_change(false, None), facts);
        let sends = sends(&plan);
        assert_eq!(sends.len(), 2);
        assert!(matches!(sends[0], (Event::ProjectUpdated { actor: None, .. }, [a]) if *a == guests()), "guests never learn who");
        assert!(matches!(sends[1], (Event::ProjectUpdated { actor: Some(_), .. }, [a]) if *a == users(&["h1", "b1-owner"])));
        assert!(others(&plan).is_empty());
    }

    #[test]
    fn a_new_project_has_no_guests_and_its_homeowner_gets_watchers() {
        let facts = Facts {
            project: Some(project()),
            members: members(),
            homeowner: Some(profile("h1", Role::Homeowner)),
            watchers: vec![("h1".into(), vec!["b1-owner".into()])],
            ..Facts::default()
        };
        let plan = plan(project_change(true, None), facts);
        let sends = sends(&plan);
        assert!(matches!(sends[0], (Event::ProjectCreated { .. }, [a]) if *a == users(&["h1", "b1-owner"])));
        // The company's owner sees the homeowner now.
        assert!(matches!(sends[1], (Event::UserUpdated { user }, [a]) if user.id == "h1" && *a == only(&["b1-owner"])));
        assert_eq!(others(&plan), [&Out::Watchers { user_id: "h1".into(), watchers: vec!["b1-owner".into()] }]);
    }

    #[test]
    fn a_moved_project_leaves_the_view_of_whoever_lost_it() {
        let facts = Facts {
            project: Some(project()),
            members: members(),
            stale: true,
            watchers: vec![("h0".into(), vec![]), ("h1".into(), vec!["b1-owner".into()])],
            ..Facts::default()
        };
        let plan = plan(project_change(false, Some(owners("h0", Some("b2")))), facts);
        let sends = sends(&plan);
        assert!(matches!(sends[2], (Event::ProjectDeleted { id, version: 1 }, [a]) if id == "p1" && *a == only(&["h0", "o2"])), "{sends:?}");
        let watchers: Vec<&str> = others(&plan)
            .iter()
            .filter_map(|o| match o {
                Out::Watchers { user_id, .. } => Some(user_id.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(watchers, ["h0", "h1"], "a move is carried out even when stale");
    }

    #[test]
    fn a_stale_project_state_is_not_sent_but_another_instance_still_refreshes() {
        let facts = Facts { project: Some(project()), stale: true, remote: true, ..Facts::default() };
        assert_eq!(plan(project_change(false, None), facts), [Out::Refresh { project_id: "p1".into() }]);
        let gone = Facts { remote: false, ..Facts::default() };
        assert!(plan(project_change(false, None), gone).is_empty(), "deleted right after: its deletion follows");
    }

    #[test]
    fn a_deleted_project_is_forgotten_by_its_pages_and_its_people() {
        let change = Change::ProjectDeleted { id: "p1".into(), version: 9, owners: owners("h1", Some("b1")) };
        let facts = Facts { members: members(), watchers: vec![("h1".into(), vec![])], ..Facts::default() };
        let plan = plan(change, facts);
        assert_eq!(plan[0], Out::Refresh { project_id: "p1".into() }, "also for a deletion made here");
        let sends = sends(&plan);
        assert!(matches!(sends[0], (Event::ProjectDeleted { version: 9, .. }, [a]) if *a == guests()));
        assert!(matches!(sends[1], (Event::ProjectDeleted { version: 9, .. }, [a]) if *a == users(&["h1", "b1-owner"])));
        assert!(matches!(plan.last(), Some(Out::Watchers { user_id, .. }) if user_id == "h1"));
    }

    #[test]
    fn a_user_change_reaches_the_user_and_the_builders_who_see_them() {
        let change = |created| Change::User { id: "h1".into(), created, state: None };
        let facts = Facts { user: Some(profile("h1", Role::Homeowner)), builders: vec!["b".into()], ..Facts::default() };
        let plan1 = plan(change(true), facts.clone());
        assert!(matches!(sends(&plan1)[0], (Event::UserCreated { .. }, [a]) if *a == users(&["b", "h1"])));
        assert!(matches!(sends(&plan(change(false), facts))[0], (Event::UserUpdated { .. }, _)));
        assert!(plan(change(false), Facts::default()).is_empty());
    }

    #[test]
    fn a_deleted_user_has_their_links_decided_again() {
        let change = Change::UserDeleted { id: "h1".into(), version: 3, builders: vec!["b".into()] };
        let plan = plan(change, Facts::default());
        assert_eq!(plan[0], Out::MakerChanged { user_id: "h1".into() });
        assert!(matches!(sends(&plan)[0], (Event::UserDeleted { version: 3, .. }, [a]) if *a == users(&["b", "h1"])));
    }

    #[test]
    fn a_photo_goes_to_the_project_pages_and_another_instances_refresh_first() {
        let change = |created| Change::Photo { id: "i".into(), project_id: "p1".into(), created, state: None };
        let here = plan(change(true), Facts { photo: Some(image("i")), ..Facts::default() });
        assert_eq!(here.len(), 1);
        assert!(matches!(sends(&here)[0], (Event::PhotoAdded { .. }, [g, s]) if *g == guests() && *s == subscribers()));
        let remote = plan(change(false), Facts { photo: Some(image("i")), remote: true, ..Facts::default() });
        assert_eq!(remote[0], Out::Refresh { project_id: "p1".into() });
        assert!(matches!(sends(&remote)[0], (Event::PhotoUpdated { .. }, _)));
        let deleted = plan(Change::PhotoDeleted { id: "i".into(), project_id: "p1".into() }, Facts::default());
        assert!(matches!(sends(&deleted)[0], (Event::PhotoDeleted { .. }, [g, s]) if *g == guests() && *s == subscribers()));
    }

    fn comment() -> Comment {
        Comment { id: "c".into(), image_id: "i".into(), project_id: "p1".into(), author: summary("h1"), body: "Looks good".into(), created_at: 1, updated_at: 1 }
    }

    #[test]
    fn comments_reach_subscribers_only() {
        let change = |created| Change::Comment { id: "c".into(), image_id: "i".into(), project_id: "p1".into(), created, comment_count: 2, state: None };
        let added = plan(change(true), Facts { comment: Some(comment()), ..Facts::default() });
        assert!(matches!(sends(&added)[0], (Event::CommentAdded { comment_count: 2, .. }, [s]) if *s == subscribers()));
        let edited = plan(change(false), Facts { comment: Some(comment()), ..Facts::default() });
        assert!(matches!(sends(&edited)[0], (Event::CommentUpdated { .. }, _)));
        let deleted = Change::CommentDeleted { id: "c".into(), image_id: "i".into(), project_id: "p1".into(), comment_count: 1 };
        assert!(matches!(sends(&plan(deleted, Facts::default()))[0], (Event::CommentDeleted { comment_count: 1, .. }, [s]) if *s == subscribers()));
    }

    #[test]
    fn markup_reaches_subscribers_and_guests_with_who_drew() {
        let markup = Markup { image_id: "i".into(), project_id: "p1".into(), version: 2, shapes: vec![], authors: vec![], updated_at: None, updated_by: None };
        let change = Change::Markup { image_id: "i".into(), project_id: "p1".into(), actor_id: "a".into(), markup_count: 0, state: None };
        let plan1 = plan(change.clone(), Facts { markup: Some(markup), actor: Some(summary("a")), ..Facts::default() });
        assert!(matches!(sends(&plan1)[0], (Event::MarkupChanged { actor: Some(_), .. }, [s, g]) if *s == subscribers() && *g == guests()));
        assert!(plan(change, Facts::default()).is_empty(), "its photo was deleted right after");
    }

    #[test]
    fn reports_reach_subscribers_never_guests() {
        let report = Report {
            id: "r".into(),
            project_id: "p1".into(),
            options: ReportOptions::default(),
            status: ReportStatus::Ready,
            done: 1,
            total: 1,
            pages: Some(1),
            byte_size: Some(10),
            error: None,
            created_at: 1,
            created_by: None,
            finished_at: Some(2),
            mailed_at: None,
            mailed_to: None,
        };
        let made = plan(Change::Report { id: "r".into(), project_id: "p1".into() }, Facts { report: Some(report), ..Facts::default() });
        assert!(matches!(sends(&made)[0], (Event::ReportChanged { .. }, [s]) if *s == subscribers()));
        let deleted = plan(Change::ReportDeleted { id: "r".into(), project_id: "p1".into() }, Facts::default());
        assert!(matches!(sends(&deleted)[0], (Event::ReportDeleted { .. }, [s]) if *s == subscribers()));
    }

    #[test]
    fn milestones_and_the_timeline_reach_the_projects_story_audiences() {
        let plan_view = MilestonePlan { project_id: "p1".into(), milestones: vec![], version: 4 };
        let changed = plan(Change::Milestones { project_id: "p1".into(), version: 4, state: None }, Facts { plan: Some(plan_view), ..Facts::default() });
        assert!(matches!(sends(&changed)[0], (Event::MilestonesChanged { .. }, [s, g]) if *s == subscribers() && *g == guests()));
        let added = plan(Change::Timeline { id: "t".into(), project_id: "p1".into(), state: None }, Facts { entry: Some(entry()), ..Facts::default() });
        assert!(matches!(sends(&added)[0], (Event::TimelineAdded { .. }, [s, g]) if *s == subscribers() && *g == guests()));
        let removed = plan(Change::TimelineRemoved { id: "t".into(), project_id: "p1".into() }, Facts { remote: true, ..Facts::default() });
        assert_eq!(removed[0], Out::Refresh { project_id: "p1".into() });
        assert!(matches!(sends(&removed)[0], (Event::TimelineRemoved { .. }, [s, g]) if *s == subscribers() && *g == guests()));
    }

    #[test]
    fn notifications_reach_only_their_user_with_the_unread_count() {
        let notification = Notification {
            id: "n".into(),
            kind: NotificationKind::Comment,
            project_id: Some("p1".into()),
            image_id: None,
            actor_name: None,
            title: "New comment".into(),
            body: String::new(),
            link: "/projects/p1".into(),
            created_at: 1,
            read_at: None,
        };
        let facts = Facts { notification: Some(notification), unread: 3, ..Facts::default() };
        let added = plan(Change::Notification { id: "n".into(), user_id: "h1".into() }, facts);
        assert!(matches!(sends(&added)[0], (Event::NotificationAdded { unread: 3, .. }, [a]) if *a == only(&["h1"])));
        let read = plan(Change::NotificationsRead { user_id: "h1".into(), ids: vec![], all: true }, Facts { unread: 0, ..Facts::default() });
        assert!(matches!(sends(&read)[0], (Event::NotificationsRead { all: true, unread: 0, .. }, [a]) if *a == only(&["h1"])));
    }

    #[test]
    fn a_favourite_reaches_its_maker_and_their_favourites_links() {
        let change = |favourite| Change::Favourite { user_id: "h1".into(), project_id: "p1".into(), image_id: "i".into(), favourite };
        let set = plan(change(true), Facts { favourite_photo: Some(image("i")), ..Facts::default() });
        assert!(matches!(&set[0], Out::FavouriteGuests { project_id, change } if project_id == "p1" && change.photo.is_some()));
        assert!(matches!(sends(&set)[0], (Event::FavouriteChanged { favourite: true, .. }, [a]) if *a == only(&["h1"])));
        let gone = plan(change(true), Facts::default());
        assert_eq!(others(&gone).len(), 0, "a photo deleted meanwhile shows guests nothing");
        let cleared = plan(change(false), Facts::default());
        assert!(matches!(&cleared[0], Out::FavouriteGuests { change, .. } if change.photo.is_none()));
    }

    #[test]
    fn session_ends_and_reconnects_reach_the_hub_and_links() {
        let ended = plan(Change::EndSession { session_id: "s".into(), reason: "logout".into() }, Facts::default());
        assert_eq!(ended, [Out::EndSessions { session_ids: vec!["s".into()], reason: "logout".into() }]);
        let all = plan(Change::EndSessions { user_id: "u".into(), keep_session: None, reason: "r".into() }, Facts::default());
        assert_eq!(all[0], Out::MakerChanged { user_id: "u".into() }, "standing lost: links decided again");
        let but_one = plan(Change::EndSessions { user_id: "u".into(), keep_session: Some("s".into()), reason: "r".into() }, Facts::default());
        assert_eq!(but_one, [Out::EndUser { user_id: "u".into(), keep_session: Some("s".into()), reason: "r".into() }]);
        let reconnect = plan(Change::Reconnect { user_id: "u".into() }, Facts::default());
        assert_eq!(reconnect, [Out::MakerChanged { user_id: "u".into() }, Out::ResyncUser { user_id: "u".into() }]);
    }

    #[test]
    fn company_changes_reach_members_and_those_who_just_left() {
        let company = Company { id: "b1".into(), name: "Summit".into(), members: vec![], project_count: 1, created_at: 1, version: 2 };
        let changed = plan(Change::Company { id: "b1".into(), former: vec!["x".into()] }, Facts { company: Some(company), ..Facts::default() });
        assert_eq!(changed[0], Out::MakerChanged { user_id: "x".into() });
        assert!(matches!(sends(&changed)[0], (Event::CompanyChanged { .. }, [a]) if *a == users(&["x"])));
        let deleted = plan(Change::CompanyDeleted { id: "b1".into(), version: 3, members: vec!["m".into()] }, Facts::default());
        assert!(matches!(sends(&deleted)[0], (Event::CompanyDeleted { version: 3, .. }, [a]) if *a == users(&["m"])));
    }

    #[test]
    fn an_ended_link_closes_its_guests_sockets() {
        let plan = plan(Change::GuestLinkEnded { link_id: "l".into(), project_id: "p1".into() }, Facts::default());
        assert!(matches!(&plan[..], [Out::EndUser { reason, keep_session: None, .. }] if reason == LINK_INACTIVE_REASON));
    }

    #[test]
    fn presence_from_another_instance_goes_to_the_hub_and_ours_does_not() {
        let change = || Change::Presence { instance: "i2".into(), online: vec!["h1".into()], offline: vec![] };
        assert!(plan(change(), Facts::default()).is_empty());
        let online = vec![("h1".to_owned(), vec!["b".to_owned()])];
        let remote = plan(change(), Facts { remote: true, online: online.clone(), ..Facts::default() });
        assert_eq!(remote, [Out::RemotePresence { instance: "i2".into(), online, offline: vec![] }]);
    }

    #[test]
    fn searchers_who_may_see_the_project_hear_it_changed() {
        let change = Change::PhotoDeleted { id: "i".into(), project_id: "p1".into() };
        let facts = Facts { members: members(), searched: Some(owners("h1", Some("b1"))), ..Facts::default() };
        let plan = plan(change, facts);
        assert!(matches!(sends(&plan).last(), Some((Event::SearchChanged { project_id }, [Audience::Searchers(who)])) if project_id == "p1" && *who == ["h1", "b1-owner"]));
        assert_eq!(change_project(&Change::Reconnect { user_id: "u".into() }), None);
    }

    #[test]
    fn a_turns_change_splits_into_the_pages_part_and_the_rest() {
        let change = Change::Project { id: "p1".into(), created: false, actor_id: None, previous: None, state: Some(Box::new(project())) };
        let (project_id, facts) = carried(&change).expect("an update carries its state");
        assert_eq!(project_id, "p1");
        let full = plan(change.clone(), Facts { members: members(), ..facts.clone() });
        let pages = for_pages(full.clone(), "p1");
        let rest = not_for_pages(full, "p1");
        assert!(matches!(sends(&pages)[..], [(Event::ProjectUpdated { .. }, [g])] if *g == guests()));
        assert!(matches!(sends(&rest)[..], [(Event::ProjectUpdated { .. }, [u])] if *u == users(&["h1", "b1-owner"])));
        // A photo with its state is all pages; one read for another instance is not carried.
        let photo = Change::Photo { id: "i".into(), project_id: "p1".into(), created: true, state: Some(Box::new(image("i"))) };
        let (_, facts) = carried(&photo).unwrap();
        assert!(not_for_pages(plan(photo, facts), "p1").is_empty());
        assert!(carried(&Change::Photo { id: "i".into(), project_id: "p1".into(), created: true, state: None }).is_none());
        assert!(carried(&Change::Markup { image_id: "i".into(), project_id: "p1".into(), actor_id: "a".into(), markup_count: 1, state: None }).is_none());
        // Another project's pages are not this one's.
        assert!(for_pages(vec![Out::Refresh { project_id: "p2".into() }], "p1").is_empty());
    }
}
