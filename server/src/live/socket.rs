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
}

/// Shuts a connection down underneath its actor (see `http::conn`).
pub type CutOff = Arc<dyn Fn() + Send + Sync>;

/// A pushed frame did not fit: the socket's queue is full, it stopped reading.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

#[derive(Clone)]
pub struct SocketHandle {
    pub conn_id: u64,
    pub push: Recipient<Push>,
    pub control: Recipient<SocketCommand>,
    pub cut_off: Option<CutOff>,
}

impl SocketHandle {
    /// Queues a frame. A socket whose actor has just stopped is closing already; only
    /// a full queue is reported, so the caller can cut it off.
    pub fn push(&self, frame: &Bytes) -> Result<(), Full> {
        match self.push.try_send(Push(frame.clone())) {
            Err(SendError::Full(_)) => Err(Full),
            _ => Ok(()),
        }
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
