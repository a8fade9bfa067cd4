//! Use cases and rules, one folder per context of the business. Nothing here knows
//! about HTTP, WebSockets or actors: transport code calls these functions and carries
//! out the effects they return.
//!
//! Contexts look down only, in this order (docs/ARCHITECTURE.md, "The domain";
//! `architecture.rs` fails the build on a cycle or on a context naming another's
//! private module):
//!
//! - `shared`: what every context uses: the changes a use case returns, the policy,
//!   views, validation and limits, and the handles use cases are given;
//! - `identity`: accounts, sign-in, sessions, second factors, devices, settings;
//! - `messaging`: notifications, mail preferences, push, the contact form;
//! - `projects`: projects, milestones, the timeline;
//! - `media`: photos and what hangs on them: uploads, markup, tags, comments;
//! - `sharing`: guest links, progress reports, search;
//! - `companies`: builder companies, their members and crews;
//! - `snapshot`: what a socket's first frame holds;
//! - `seeding`: the demo and the test worlds.

pub mod companies;
pub mod identity;
pub mod media;
pub mod messaging;
pub mod projects;
pub mod seeding;
pub mod shared;
pub mod sharing;
pub mod snapshot;

#[cfg(test)]
mod limits_doc;
