//! What a user may see right now, sent as the first frame of every connection.

use protocol::{Hello, Snapshot, PROTOCOL_VERSION};

use super::policy::{self, Actor};
use super::views;
use crate::error::Result;
use crate::store::users::UserRow;
use crate::store::{now_ms, projects, Store};

pub async fn hello(store: &Store, user: &UserRow) -> Result<Hello> {
    let actor = Actor { id: user.id.clone(), role: views::profile(user).role };
    let rows = projects::list(store.pool(), &policy::project_scope(&actor)).await?;
    Ok(Hello {
        protocol_version: PROTOCOL_VERSION,
        server_time: now_ms(),
        user: views::profile(user),
        snapshot: Snapshot { projects: rows.iter().map(views::project).collect() },
    })
}
