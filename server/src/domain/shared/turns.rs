//! A project's mutations take turns: each validate → write step runs alone, and its
//! changes are published as it commits, so a project's events leave in the order its
//! writes happened (DESIGN.md §2). The live layer keeps the turns (one actor per
//! project); use cases hand it the whole step and stay unaware of actors.
//!
//! Every change to a project goes this one way: its details, status and people, its
//! deletion, its milestones, and its photos being recorded, edited or deleted.

use futures_util::future::BoxFuture;

use crate::domain::shared::changes::Change;
use crate::error::Result;

/// One mutation: what it answers, and the changes to publish once it committed.
pub type Step<T> = BoxFuture<'static, Result<(T, Vec<Change>)>>;

pub trait Turns: Clone + Send + Sync + 'static {
    /// Runs `step` after project `project_id`'s earlier mutations, publishes its
    /// changes when it succeeds, and answers its value.
    fn take<T: Send + 'static>(&self, project_id: &str, step: Step<T>) -> BoxFuture<'static, Result<T>>;
}
