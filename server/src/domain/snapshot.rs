//! What a user may see right now, sent as the first frame of every connection.

use protocol::{Hello, Role, Snapshot, PROTOCOL_VERSION};

use crate::domain::companies;
use crate::domain::shared::policy::{self, Actor};
use crate::domain::shared::views;
use crate::error::Result;
use crate::store::users::UserRow;
use crate::store::{now_ms, projects, users, Store};

/// `online`: which of the visible users are connected (from the hub).
pub async fn hello(store: &Store, user: &UserRow, online: impl Fn(&str) -> bool) -> Result<Hello> {
    let actor = Actor::of(user);
    let rows = projects::list(store.pool(), &policy::project_scope(&actor)).await?;
    let others = match actor.role {
        Role::Admin => users::list_all(store.pool()).await?,
        Role::Builder => crate::domain::identity::users::visible_homeowners(store.pool(), &actor).await?.0,
        Role::Homeowner => Vec::new(),
    };
    let companies_seen = companies::list(store, &actor).await?;
    let others: Vec<_> = others.iter().filter(|u| u.id != user.id).map(views::profile).collect();
    let online = others.iter().map(|u| u.id.clone()).filter(|id| online(id)).collect();
    Ok(Hello {
        protocol_version: PROTOCOL_VERSION,
        server_time: now_ms(),
        user: views::profile(user),
        snapshot: Snapshot { projects: rows.iter().map(views::project).collect(), users: others, online, companies: companies_seen },
    })
}
