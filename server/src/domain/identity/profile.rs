//! A user's own profile and password (SPEC.md §2 Profile & Settings, §5).

use protocol::{ErrorCode, FieldError, LogEntry, PasswordChange, Profile, ProfileUpdate, Role};

use crate::domain::shared::changes::Change;
use crate::domain::shared::limiter::minutes;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{self, non_blank};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::users::ProfileFields;
use crate::store::{new_id, now_ms, logs, sessions, tokens, users};

pub const PASSWORDS_DONT_MATCH: &str = "New passwords do not match.";
pub const PASSWORD_EMPTY: &str = "New password cannot be empty.";
pub const CURRENT_PASSWORD_WRONG: &str = "Current password is incorrect.";

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, crate::domain::identity::users::USER_NOT_FOUND)
}

/// The names a profile edit leaves, by SPEC.md's one name model: a builder is their
/// company name (edited as typed, never blank; no first or last name kept beside it,
/// so nothing else can be shown instead), homeowners and admins are their first and
/// last name, which their full name follows. Answers (name, first name, last name).
pub fn plan_names(role: Role, current_name: Option<&str>, input: &ProfileUpdate) -> Result<(Option<String>, Option<String>, Option<String>)> {
    let (first, last) = (non_blank(&input.first_name), non_blank(&input.last_name));
    match role {
        Role::Builder => {
            let name = match &input.name {
                Some(name) => Some(non_blank(name).ok_or_else(|| Error::field("name", validation::NAME_REQUIRED))?),
                None => current_name.map(str::to_owned),
            };
            Ok((name, None, None))
        }
        _ => {
            let full = non_blank(&format!("{} {}", first.as_deref().unwrap_or(""), last.as_deref().unwrap_or("")));
            Ok((full.or(current_name.map(str::to_owned)), first, last))
        }
    }
}

/// Names (see `plan_names`) and phone; blank fields are cleared.
pub async fn update(svc: &Services, actor: &Actor, input: &ProfileUpdate) -> Result<(Profile, Vec<Change>)> {
    if !policy::allows(actor, Action::EditOwnProfile, Target::Nothing) {
        return Err(Error::new(ErrorCode::Forbidden, crate::domain::identity::users::NOT_ALLOWED));
    }
    validation::texts(&[
        ("firstName", &input.first_name, validation::FIRST_NAME),
        ("lastName", &input.last_name, validation::LAST_NAME),
        ("name", input.name.as_deref().unwrap_or(""), validation::NAME),
        ("phone", &input.phone, validation::PHONE),
    ])?;
    let user = users::find_by_id(svc.store.pool(), &actor.id).await?.ok_or_else(not_found)?;
    let (name, first, last) = plan_names(actor.role, user.name.as_deref(), input)?;
    let phone = non_blank(&input.phone);
    let fields = ProfileFields { name: name.as_deref(), first_name: first.as_deref(), last_name: last.as_deref(), phone: phone.as_deref() };
    users::update_profile(svc.store.pool(), &actor.id, &fields, now_ms()).await?;
    let updated = users::find_by_id(svc.store.pool(), &actor.id).await?.ok_or_else(not_found)?;
    let profile = views::profile(&updated);
    let change = Change::User { id: actor.id.clone(), created: false, state: Some(Box::new(profile.clone())) };
    Ok((profile, vec![change]))
}

/// Unlike SPEC.md (which holds but never checks it), the current password is required
/// and checked; the change ends every other session of the user.
pub async fn change_password(
    svc: &Services,
    actor: &Actor,
    session_id: &str,
    input: &PasswordChange,
) -> Result<Vec<Change>> {
    validation::texts(&[
        ("currentPassword", &input.current_password, validation::PASSWORD),
        ("newPassword", &input.new_password, validation::PASSWORD),
    ])?;
    let mut errors = Vec::new();
    if input.new_password.is_empty() {
        errors.push(FieldError { field: "newPassword".into(), message: PASSWORD_EMPTY.into() });
    } else {
        // SPEC.md §5: every reason a new password is weak (at least 6 characters here).
        validation::new_password_rule(&mut errors, "newPassword", &input.new_password, 6);
    }
    if input.new_password != input.confirm_password {
        errors.push(FieldError { field: "confirmPassword".into(), message: PASSWORDS_DONT_MATCH.into() });
    }
    if !errors.is_empty() {
        return Err(Error::validation(errors));
    }
    let user = users::find_by_id(svc.store.pool(), &actor.id).await?.ok_or_else(not_found)?;
    if !svc.auth.passwords.verify(&input.current_password, user.password_hash.as_deref()).await? {
        return Err(Error::field("currentPassword", CURRENT_PASSWORD_WRONG));
    }
    let hash = svc.auth.passwords.hash(&input.new_password).await?;
    let now = now_ms();
    let mut tx = svc.store.begin_write().await?;
    users::set_password(&mut *tx, &actor.id, &hash, now).await?;
    tokens::void_for_user(&mut *tx, &actor.id, now).await?;
    sessions::delete_others(&mut *tx, &actor.id, session_id).await?;
    tx.commit().await?;
    Ok(vec![Change::EndSessions {
        user_id: actor.id.clone(),
        keep_session: Some(session_id.to_owned()),
        reason: "password_changed".into(),
    }])
}

const LEVELS: [&str; 4] = ["debug", "info", "warn", "error"];

/// Stores a client log entry (SPEC.md §3 logs): bounded in size and rate per user.
pub async fn write_log(svc: &Services, actor: &Actor, entry: &LogEntry) -> Result<()> {
    if !LEVELS.contains(&entry.level.as_str()) {
        return Err(Error::field("level", "Level must be debug, info, warn or error."));
    }
    if entry.message.trim().is_empty() || !validation::LOG_MESSAGE.fits(&entry.message) {
        return Err(Error::field("message", &format!("Message must be 1 to {} characters.", validation::LOG_MESSAGE.max)));
    }
    validation::texts(&[
        ("message", &entry.message, validation::LOG_MESSAGE),
        ("data", entry.data.as_deref().unwrap_or(""), validation::LOG_DATA),
    ])?;
    svc.log_limiter.hit(&actor.id).map_err(|wait| {
        Error::rate_limited(format!("Too many log entries. Please try again in {} minutes.", minutes(wait)), wait)
    })?;
    logs::insert(svc.store.pool(), &new_id(), &actor.id, &entry.level, &entry.message, entry.data.as_deref(), now_ms())
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(first: &str, last: &str, name: Option<&str>) -> ProfileUpdate {
        ProfileUpdate { first_name: first.into(), last_name: last.into(), name: name.map(Into::into), ..ProfileUpdate::default() }
    }

    #[test]
    fn builders_are_their_company_name_as_typed() {
        let renamed = plan_names(Role::Builder, Some("Summit Homes"), &input("", "", Some(" ACC builders "))).unwrap();
        assert_eq!(renamed, (Some("ACC builders".into()), None, None));
        // First and last names are not kept beside it: the company name is what shows.
        let kept = plan_names(Role::Builder, Some("Summit Homes"), &input("Sam", "Reyes", None)).unwrap();
        assert_eq!(kept, (Some("Summit Homes".into()), None, None));
        let blank = plan_names(Role::Builder, Some("Summit Homes"), &input("", "", Some("  "))).unwrap_err();
        assert_eq!(blank.api.fields[0].message, validation::NAME_REQUIRED);
    }

    #[test]
    fn homeowners_and_admins_are_their_first_and_last_name() {
        for role in [Role::Homeowner, Role::Admin] {
            let named = plan_names(role, Some("Old Name"), &input(" Ana ", "Lee", Some("ignored"))).unwrap();
            assert_eq!(named, (Some("Ana Lee".into()), Some("Ana".into()), Some("Lee".into())));
            let cleared = plan_names(role, Some("Old Name"), &input("", "", None)).unwrap();
            assert_eq!(cleared, (Some("Old Name".into()), None, None), "no names: the full name stays");
        }
    }
}
