//! What a user may see right now, sent as the first frame of every connection.
//!
//! It stays small however big the installation: the first page of projects (the rest
//! are read with `ListProjects`), and for an admin the other admins and the builders,
//! while homeowners, who may number tens of thousands, are searched page by page
//! through `ListUsers` (docs/FEATURES.md, "Big projects").

use std::collections::HashSet;

use protocol::{Hello, Role, Snapshot, FIRST_PROJECT_PAGE, PROTOCOL_VERSION};

use crate::domain::companies;
use crate::domain::projects::pages;
use crate::domain::shared::policy::{self, Actor};
use crate::domain::shared::views;
use crate::error::Result;
use crate::store::users::UserRow;
use crate::store::{now_ms, projects, users, Store};

/// `online`: who is connected (from the hub).
pub async fn hello(store: &Store, user: &UserRow, online: &HashSet<String>) -> Result<Hello> {
    let actor = Actor::of(user);
    let rows = projects::list(store.pool(), &policy::project_scope(&actor)).await?;
    let first = pages::page_of(&rows, None, FIRST_PROJECT_PAGE);
    let (others, online) = match actor.role {
        Role::Admin => {
            let staff = users::list_all(store.pool()).await?.into_iter().filter(|u| u.role != Role::Homeowner).collect();
            // Everyone is visible to an admin, held or not.
            (staff, online.iter().filter(|id| **id != user.id).cloned().collect())
        }
        Role::Builder => {
            let seen = crate::domain::identity::users::visible_homeowners(store.pool(), &actor).await?.0;
            let online = seen.iter().filter(|u| online.contains(&u.id)).map(|u| u.id.clone()).collect();
            (seen, online)
        }
        Role::Homeowner => (Vec::new(), Vec::new()),
    };
    let companies_seen = companies::list(store, &actor).await?;
    let others = others.iter().filter(|u: &&UserRow| u.id != user.id).map(views::profile).collect();
    Ok(Hello {
        protocol_version: PROTOCOL_VERSION,
        server_time: now_ms(),
        user: views::profile(user),
        snapshot: Snapshot {
            projects: first.projects,
            project_count: first.count,
            next_projects: first.next,
            users: others,
            online,
            companies: companies_seen,
        },
    })
}
