//! The Hub: which sockets are open, for which session and which user.

use std::collections::HashMap;

use actix::{Actor, Context, Handler, Message, Recipient};

/// What the hub can tell a socket to do.
#[derive(Message, Clone, Debug)]
#[rtype(result = "()")]
pub enum SocketCommand {
    /// The session behind the socket is gone: say why, then close.
    End { reason: String },
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Join {
    pub conn_id: u64,
    pub session_id: String,
    pub user_id: String,
    pub socket: Recipient<SocketCommand>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Leave {
    pub conn_id: u64,
}

/// Closes every socket of these sessions (logout, revocation).
#[derive(Message)]
#[rtype(result = "()")]
pub struct EndSessions {
    pub session_ids: Vec<String>,
    pub reason: String,
}

/// Closes every socket of a user (password reset, account deleted).
#[derive(Message)]
#[rtype(result = "()")]
pub struct EndUser {
    pub user_id: String,
    pub reason: String,
}

/// How many sockets are open (health endpoint, tests).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct CountSockets;

struct Conn {
    session_id: String,
    user_id: String,
    socket: Recipient<SocketCommand>,
}

#[derive(Default)]
pub struct Hub {
    conns: HashMap<u64, Conn>,
}

impl Actor for Hub {
    type Context = Context<Self>;
}

impl Handler<Join> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Join, _: &mut Context<Self>) {
        self.conns.insert(msg.conn_id, Conn { session_id: msg.session_id, user_id: msg.user_id, socket: msg.socket });
    }
}

impl Handler<Leave> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Leave, _: &mut Context<Self>) {
        self.conns.remove(&msg.conn_id);
    }
}

impl Handler<EndSessions> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndSessions, _: &mut Context<Self>) {
        for conn in self.conns.values().filter(|c| msg.session_ids.contains(&c.session_id)) {
            conn.socket.do_send(SocketCommand::End { reason: msg.reason.clone() });
        }
    }
}

impl Handler<EndUser> for Hub {
    type Result = ();
    fn handle(&mut self, msg: EndUser, _: &mut Context<Self>) {
        for conn in self.conns.values().filter(|c| c.user_id == msg.user_id) {
            conn.socket.do_send(SocketCommand::End { reason: msg.reason.clone() });
        }
    }
}

impl Handler<CountSockets> for Hub {
    type Result = usize;
    fn handle(&mut self, _: CountSockets, _: &mut Context<Self>) -> usize {
        self.conns.len()
    }
}
