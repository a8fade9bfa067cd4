
use super::{Db, Result};

pub use sitecast_store_core::{UserRow, NewUser, ProfileFields, MailPreferencesRow};

pub async fn insert<'a>(db: impl Into<Db<'a>>, user: &NewUser<'_>) -> Result<()> {
    backend!(db, users::insert(user))
}

pub async fn find_by_email<'a>(db: impl Into<Db<'a>>, email: &str) -> Result<Option<UserRow>> {
    backend!(db, users::find_by_email(email))
}

/// Holds the user's row for the rest of the transaction (Postgres; SQLite's writes are
/// serial already), so writes capped per user see each other. False for no such user.
pub async fn lock<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, users::lock(id))
}

pub async fn find_by_id<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<UserRow>> {
    backend!(db, users::find_by_id(id))
}

/// Sets a new password; the first password also proves the mailbox (invite, reset).
pub async fn set_password<'a>(db: impl Into<Db<'a>>, id: &str, password_hash: &str, now: i64) -> Result<()> {
    backend!(db, users::set_password(id, password_hash, now))
}

/// Swaps a hash for a fresh one of the same password (newer hashing settings). Only if
/// the old hash is still there, so a login cannot undo a password change made while it
/// was hashing; no version bump, as no view shows the hash.
pub async fn rehash_password<'a>(db: impl Into<Db<'a>>, id: &str, old_hash: &str, new_hash: &str) -> Result<()> {
    backend!(db, users::rehash_password(id, old_hash, new_hash))
}

pub async fn confirm_email<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, users::confirm_email(id, now))
}

pub async fn record_sign_in<'a>(db: impl Into<Db<'a>>, id: &str, now: i64) -> Result<()> {
    backend!(db, users::record_sign_in(id, now))
}

pub async fn count<'a>(db: impl Into<Db<'a>>) -> Result<i64> {
    backend!(db, users::count())
}

/// Everyone, for admins' tables, newest first.
pub async fn list_all<'a>(db: impl Into<Db<'a>>) -> Result<Vec<UserRow>> {
    backend!(db, users::list_all())
}

/// Everyone with this role, oldest account first.
pub async fn list_by_role<'a>(db: impl Into<Db<'a>>, role: &str) -> Result<Vec<UserRow>> {
    backend!(db, users::list_by_role(role))
}

/// The homeowners with at least one project of this company (with `crew_of`, one
/// that member is on).
pub async fn homeowners_of_company<'a>(db: impl Into<Db<'a>>, company_id: &str, crew_of: Option<&str>) -> Result<Vec<UserRow>> {
    backend!(db, users::homeowners_of_company(company_id, crew_of))
}

/// A company's members, owners first, then managers, then crew.
pub async fn members_of<'a>(db: impl Into<Db<'a>>, company_id: &str) -> Result<Vec<UserRow>> {
    backend!(db, users::members_of(company_id))
}

/// Puts a user in a company with a role (and, crew, whether they see all its
/// projects), or (`None`) takes them out; they leave the crews of a company they leave.
pub async fn set_membership<'a>(db: impl Into<Db<'a>>, id: &str, membership: Option<(&str, protocol::CompanyRole, bool)>, now: i64) -> Result<bool> {
    backend!(db, users::set_membership(id, membership, now))
}

/// Builders who have a project of this homeowner: they may see the homeowner.
pub async fn builders_of_homeowner<'a>(db: impl Into<Db<'a>>, homeowner_id: &str) -> Result<Vec<String>> {
    backend!(db, users::builders_of_homeowner(homeowner_id))
}

/// Project counts per user: as homeowner or as builder.
pub async fn project_counts<'a>(db: impl Into<Db<'a>>) -> Result<Vec<(String, i64)>> {
    backend!(db, users::project_counts())
}

/// Writes the editable profile fields (all of them, as given) and bumps the version.
pub async fn update_profile<'a>(db: impl Into<Db<'a>>, id: &str, f: &ProfileFields<'_>, now: i64) -> Result<()> {
    backend!(db, users::update_profile(id, f, now))
}

/// A user's mail preferences, and when they last changed them.
pub async fn mail_preferences<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<Option<MailPreferencesRow>> {
    backend!(db, users::mail_preferences(id))
}

/// Writes the three choices and notes `now` as when they changed; false when the
/// user does not exist.
pub async fn set_push_preferences<'a>(db: impl Into<Db<'a>>, id: &str, prefs: (bool, bool, bool)) -> Result<bool> {
    backend!(db, users::set_push_preferences(id, prefs))
}

pub async fn set_mail_preferences<'a>(db: impl Into<Db<'a>>, id: &str, prefs: (bool, bool, bool), now: i64) -> Result<bool> {
    backend!(db, users::set_mail_preferences(id, prefs, now))
}

/// Deletes a user; their projects, photos' rows, favourites and sessions go with them
/// (foreign keys cascade). Returns whether the user existed.
pub async fn delete<'a>(db: impl Into<Db<'a>>, id: &str) -> Result<bool> {
    backend!(db, users::delete(id))
}
