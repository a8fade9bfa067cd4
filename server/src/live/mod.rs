//! The live model's actors (DESIGN.md §2). For now the hub knows every open socket by
//! session and user, so ending a session closes its sockets at once.

pub mod hub;
