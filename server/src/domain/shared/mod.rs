//! What every context uses and none owns: the changes a use case returns for the
//! live model to carry out, the one policy module, the views sent to clients,
//! validation and its limits (docs/LIMITS.md), rate limiters, secrets, the turn
//! order of a project's writes, and `Services`, the handles use cases are given.
//! Nothing here names another context.

pub mod audience;
pub mod auth;
pub mod changes;
pub mod limiter;
pub mod passwords;
pub mod policy;
pub mod secrets;
pub mod services;
pub mod turns;
pub mod validation;
pub mod views;
