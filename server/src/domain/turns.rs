//! A project's mutations take turns: each validate → write step runs alone, and its
//! changes are published as it commits, so a project's events leave in the order its
//! writes happened (DESIGN.md §2). The live layer's project actor keeps the turns;
//! use cases hand it the whole step and stay unaware of actors.

use futures_util::future::BoxFuture;

use super::changes::Change;
use crate::error::Result;

/// One mutation: what it answers, and the changes to publish once it committed.
pub type Step<T> = BoxFuture<'static, Result<(T, Vec<Change>)>>;

pub trait Turns: Clone + Send + Sync + 'static {
    /// Runs `step` after the project's earlier mutations, publishes its changes when
    /// it succeeds, and answers its value.
    fn take<T: Send + 'static>(&self, step: Step<T>) -> BoxFuture<'static, Result<T>>;
}
