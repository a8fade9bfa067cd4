//! A socket as the live model sees it: where its frames go, how to tell it to close,
//! and how to cut it off underneath when it stopped reading. The hub and project
//! actors hold these handles; neither needs to know the other to reach a socket.

use std::sync::Arc;

use actix::dev::SendError;
use actix::{Message, Recipient};
use bytes::Bytes;

use super::Push;

/// What the live model can tell a socket to do besides pushing frames.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
#[rtype(result = "()")]
pub enum SocketCommand {
    /// The session behind the socket is gone: say why, then close (4401).
    End { reason: String },
    /// The socket fell too far behind; close it (the client reconnects and resyncs).
    TooSlow,
    /// Events may have been missed (the bus lost its connection): reconnect for a
    /// fresh snapshot.
    Resync,
    /// This instance is stopping: reconnect, and the proxy picks another (1012).
    Restart,
}

/// Ends a connection whose peer stopped reading: a 1013 close frame when the socket can
/// still take one, else a shutdown underneath its actor (see `http::conn`).
pub type CutOff = Arc<dyn Fn() + Send + Sync>;

/// Why a frame was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum NotQueued {
    /// The socket's queue is full: it stopped reading.
    Full,
    /// The socket's actor has stopped: it is closing (and unregistering) already.
    Gone,
}

#[derive(Clone)]
pub struct SocketHandle {
    pub conn_id: u64,
    pub push: Recipient<Push>,
    pub control: Recipient<SocketCommand>,
    pub cut_off: Option<CutOff>,
}

impl SocketHandle {
    /// Queues a frame.
    pub fn push(&self, frame: &Bytes) -> Result<(), NotQueued> {
        match self.push.try_send(Push(frame.clone())) {
            Ok(()) => Ok(()),
            Err(SendError::Full(_)) => Err(NotQueued::Full),
            Err(SendError::Closed(_)) => Err(NotQueued::Gone),
        }
    }

    /// Whether the socket's actor still runs.
    pub fn is_open(&self) -> bool {
        self.push.connected()
    }

    pub fn command(&self, command: SocketCommand) {
        self.control.do_send(command);
    }

    /// Closes a socket that stopped reading. Its writer is blocked on a full socket,
    /// so the actor may never run again to close it: the connection is also ended
    /// underneath, which stops the actor and so unregisters it everywhere.
    pub fn cut_off_slow(&self) {
        self.control.do_send(SocketCommand::TooSlow);
        if let Some(cut_off) = &self.cut_off {
            cut_off();
        }
    }
}
