//! What reaches people outside the app: notifications, their mail preferences and
//! one-click unsubscribe, browser push, and the public contact form
//! (docs/FEATURES.md, "Comments, notifications and mail").

pub mod contact;
pub mod mail_preferences;
pub mod notifications;
pub mod push;
