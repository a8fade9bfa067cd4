//! Use cases and rules. Nothing here knows about HTTP, WebSockets or actors: transport
//! code calls these functions and carries out the effects they return.

pub mod auth;
pub mod changes;
pub mod comments;
pub mod companies;
pub mod contact;
pub mod devices;
pub mod demo;
pub mod guests;
pub mod limiter;
pub mod login_limit;
pub mod mail_preferences;
pub mod markup;
pub mod milestones;
pub mod notifications;
pub mod passwords;
pub mod photos;
pub mod policy;
pub mod profile;
pub mod projects;
pub mod reports;
pub mod search;
pub mod push;
pub mod security;
pub mod secrets;
pub mod services;
pub mod settings;
pub mod snapshot;
pub mod tags;
pub mod timeline;
pub mod turns;
pub mod uploads;
pub mod users;
pub mod validation;
pub mod views;
pub mod world;
