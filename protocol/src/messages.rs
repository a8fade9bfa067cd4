//! The envelope: a client sends requests with a correlation id; the server answers each
//! with a reply or an error carrying that id, and pushes events in between.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::ApiError;
use crate::types::{Millis, Profile, Project};

/// Bumped on any incompatible change; the first server frame carries it.
pub const PROTOCOL_VERSION: u32 = 1;

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ClientMsg {
    /// Chosen by the client; echoed on the reply or error.
    pub id: u32,
    pub request: Request,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Application-level liveness check; answered with `Pong`.
    Ping,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    Pong,
}

/// Everything this user may see, sent on (re)connect. The client replaces its mirror
/// with it; events that follow patch it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Projects visible to the user, most recently updated first.
    pub projects: Vec<Project>,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    pub protocol_version: u32,
    pub server_time: Millis,
    pub user: Profile,
    pub snapshot: Snapshot,
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The session behind this socket ended (logout, password change, account
    /// deleted); the server closes the socket right after.
    SessionEnded { reason: String },
}

#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Hello(Hello),
    Reply { id: u32, response: Response },
    /// `id` is null when the frame was too broken to carry one.
    Error { id: Option<u32>, error: ApiError },
    Event { event: Event },
}
