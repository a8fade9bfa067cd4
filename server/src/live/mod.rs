//! The live model (DESIGN.md §2): the Hub knows every open socket and who may see what;
//! a ProjectActor per live project serialises its mutations and tracks its viewers; the
//! bus carries changes to every instance, where the publisher turns them into events.

pub mod bus;
pub mod hub;
pub mod project;
pub mod publisher;

use bytes::Bytes;

/// An encoded server frame, shared by every session it goes to (encoded once).
#[derive(actix::Message, Clone, Debug)]
#[rtype(result = "()")]
pub struct Push(pub Bytes);
