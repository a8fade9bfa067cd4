//! Who someone is: accounts and sign-in, sessions and their devices, second factors
//! and passkeys (docs/SECURITY.md), profiles, the installation's settings.

pub mod auth;
pub mod devices;
mod login_limit;
pub mod profile;
pub mod security;
pub mod settings;
pub mod users;
