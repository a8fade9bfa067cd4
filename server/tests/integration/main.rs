//! Integration tests: the real server on port 0, real sockets, a real SQLite and (when
//! `TEST_DATABASE_URL` is set, always in CI) a real Postgres, a real SMTP server.

// Test code: a panic is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod arbitrary_text;
mod auth;
mod big_projects;
mod bounds;
mod comments;
mod companies;
mod live;
mod contact;
mod guests;
mod hardening;
mod heic;
mod inputs;
mod instances;
mod mail;
mod markup;
mod media;
mod ops;
mod outbox;
mod notifications;
mod photo_store;
mod photos;
mod push;
mod reports;
mod search;
mod security;
mod store;
mod story;
mod upgrade;
mod uploads;
mod web_app;
mod websocket;
mod worlds;
