//! Listing, inviting, editing and deleting users (SPEC.md §2 dashboards, §5, §6).

use std::collections::HashMap;

use protocol::{CreateUser, ErrorCode, Profile, Role, UpdateUser, UserDirectory, UserListing};

use super::auth::InviteInput;
use super::changes::{Change, Owners};
use super::policy::{self, Action, Actor, Target, UserRef};
use super::services::Services;
use super::validation::{self, non_blank, FIRST_NAME_REQUIRED, LAST_NAME_REQUIRED, NAME_REQUIRED};
use super::views;
use crate::error::{Error, Result};
use crate::store::users::{ProfileFields, UserRow};
use crate::store::{images, now_ms, projects, users, StoreError};

pub const FILL_REQUIRED: &str = "Please fill all required fields for the selected role.";
pub const CANNOT_DELETE_SELF: &str = "You cannot delete your own account.";
pub const USER_NOT_FOUND: &str = "User not found";
pub const NOT_ALLOWED: &str = "You don't have permission to do that.";

fn forbidden() -> Error {
    Error::new(ErrorCode::Forbidden, NOT_ALLOWED)
}

/// The user, with the builders who may see them: what the policy needs.
pub async fn load_target(svc: &Services, id: &str) -> Result<Option<(UserRow, Vec<String>)>> {
    let Some(user) = users::find_by_id(svc.store.pool(), id).await? else { return Ok(None) };
    let builders = users::builders_of_homeowner(svc.store.pool(), id).await?;
    Ok(Some((user, builders)))
}

fn user_ref<'a>(user: &'a UserRow, builders: &'a [String]) -> UserRef<'a> {
    UserRef { id: &user.id, role: Role::parse(&user.role).unwrap_or(Role::Homeowner), builders }
}

pub async fn list(svc: &Services, actor: &Actor) -> Result<UserDirectory> {
    if !policy::allows(actor, Action::ListUsers, Target::Nothing) {
        return Err(forbidden());
    }
    let pool = svc.store.pool();
    let (rows, counts) = match actor.role {
        Role::Admin => (users::list_all(pool).await?, users::project_counts(pool).await?),
        _ => (
            users::homeowners_of_builder(pool, &actor.id).await?,
            projects::homeowner_counts_for_builder(pool, &actor.id).await?,
        ),
    };
    let mut count_of: HashMap<String, i64> = HashMap::new();
    for (id, n) in counts {
        *count_of.entry(id).or_default() += n;
    }
    let names: HashMap<&str, String> = rows
        .iter()
        .filter(|u| u.role == "builder")
        .map(|u| (u.id.as_str(), views::display_name(None, None, u.name.as_deref(), &u.email)))
        .collect();
    let mut dir = UserDirectory { admins: Vec::new(), builders: Vec::new(), homeowners: Vec::new() };
    for row in &rows {
        let listing = UserListing {
            user: views::profile(row),
            project_count: count_of.get(&row.id).copied().unwrap_or(0),
            // Builders do not see the Builder column (SPEC.md §2), so they get no names.
            builder_name: row.builder_id.as_deref().and_then(|b| names.get(b).cloned()),
        };
        match listing.user.role {
            Role::Admin => dir.admins.push(listing),
            Role::Builder => dir.builders.push(listing),
            Role::Homeowner => dir.homeowners.push(listing),
        }
    }
    Ok(dir)
}

/// Invites a user (SPEC.md §5 "Create user"): homeowners and admins need first and last
/// name, email and phone; builders name, email and phone.
pub async fn create(svc: &Services, actor: &Actor, input: &CreateUser) -> Result<(Profile, Vec<Change>)> {
    if !policy::allows(actor, Action::CreateUser, Target::Nothing) {
        return Err(forbidden());
    }
    let blank = |s: &str| s.trim().is_empty();
    let missing = match input.role {
        Role::Builder => blank(&input.name),
        _ => blank(&input.first_name) || blank(&input.last_name),
    } || blank(&input.email)
        || blank(&input.phone);
    if missing {
        return Err(Error::new(ErrorCode::Validation, FILL_REQUIRED));
    }
    let name = match input.role {
        Role::Builder => input.name.trim().to_owned(),
        _ => format!("{} {}", input.first_name.trim(), input.last_name.trim()),
    };
    let builder_id = match (input.role, input.builder_id.as_deref().filter(|b| !b.is_empty())) {
        (Role::Homeowner, Some(b)) => {
            let builder = users::find_by_id(svc.store.pool(), b).await?;
            if builder.is_none_or(|u| u.role != "builder") {
                return Err(Error::field("builderId", "Selected builder not found. Please refresh and try again."));
            }
            Some(b)
        }
        _ => None,
    };
    let (profile, _link) = svc
        .auth
        .invite(&InviteInput {
            email: &input.email,
            role: input.role,
            name: &name,
            first_name: (input.role != Role::Builder).then_some(input.first_name.trim()),
            last_name: (input.role != Role::Builder).then_some(input.last_name.trim()),
            phone: Some(&input.phone),
            builder_id,
        })
        .await?;
    let change = Change::User { id: profile.id.clone(), created: true, state: Some(Box::new(profile.clone())) };
    Ok((profile, vec![change]))
}

/// Edits a user's name and phone (SPEC.md §5 "Edit user"): a homeowner needs first and
/// last name, others a name. Email, id, role and createdAt are not editable here.
pub async fn update(svc: &Services, actor: &Actor, input: &UpdateUser) -> Result<(Profile, Vec<Change>)> {
    let (user, builders) = load_target(svc, &input.id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, USER_NOT_FOUND))?;
    let target = user_ref(&user, &builders);
    if !policy::allows(actor, Action::EditUser, Target::User(target)) {
        return Err(if policy::can_view_user(actor, target) { forbidden() } else { Error::new(ErrorCode::NotFound, USER_NOT_FOUND) });
    }
    validation::lengths(&[
        ("firstName", input.first_name.as_deref().unwrap_or(""), validation::FIRST_NAME),
        ("lastName", input.last_name.as_deref().unwrap_or(""), validation::LAST_NAME),
        ("name", input.name.as_deref().unwrap_or(""), validation::NAME),
        ("phone", input.phone.as_deref().unwrap_or(""), validation::PHONE),
    ])?;
    if input.first_name.is_none() && input.last_name.is_none() && input.name.is_none() && input.phone.is_none() {
        // SPEC.md §5: with no valid fields the user is returned unchanged.
        return Ok((views::profile(&user), Vec::new()));
    }
    let pick = |new: &Option<String>, old: &Option<String>| match new {
        Some(v) => non_blank(v),
        None => old.clone(),
    };
    let (first, last, phone) = (pick(&input.first_name, &user.first_name), pick(&input.last_name, &user.last_name), pick(&input.phone, &user.phone));
    let name = match target.role {
        Role::Homeowner => {
            let mut errors = Vec::new();
            if first.is_none() {
                errors.push(field("firstName", FIRST_NAME_REQUIRED));
            }
            if last.is_none() {
                errors.push(field("lastName", LAST_NAME_REQUIRED));
            }
            if !errors.is_empty() {
                return Err(Error::validation(errors));
            }
            Some(format!("{} {}", first.as_deref().unwrap_or(""), last.as_deref().unwrap_or("")))
        }
        _ => {
            let name = pick(&input.name, &user.name);
            if name.is_none() {
                return Err(Error::field("name", NAME_REQUIRED));
            }
            name
        }
    };
    let fields = ProfileFields { name: name.as_deref(), first_name: first.as_deref(), last_name: last.as_deref(), phone: phone.as_deref() };
    let unchanged = fields.name == user.name.as_deref()
        && fields.first_name == user.first_name.as_deref()
        && fields.last_name == user.last_name.as_deref()
        && fields.phone == user.phone.as_deref();
    if unchanged {
        return Ok((views::profile(&user), Vec::new()));
    }
    users::update_profile(svc.store.pool(), &user.id, &fields, now_ms()).await?;
    let updated = users::find_by_id(svc.store.pool(), &user.id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, USER_NOT_FOUND))?;
    let profile = views::profile(&updated);
    let change = Change::User { id: user.id.clone(), created: false, state: Some(Box::new(profile.clone())) };
    Ok((profile, vec![change]))
}

fn field(name: &str, message: &str) -> protocol::FieldError {
    protocol::FieldError { field: name.to_owned(), message: message.to_owned() }
}

/// Deletes a user with their projects, those projects' photos (rows and files),
/// favourites and sessions (SPEC.md §7 "Delete a user"; admins only, never oneself).
pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    if id == actor.id && actor.role == protocol::Role::Admin {
        return Err(Error::new(ErrorCode::Forbidden, CANNOT_DELETE_SELF));
    }
    let Some((user, builders)) = load_target(svc, id).await? else {
        return Err(Error::new(ErrorCode::NotFound, USER_NOT_FOUND));
    };
    if !policy::allows(actor, Action::DeleteUser, Target::User(user_ref(&user, &builders))) {
        return Err(forbidden());
    }
    let mut tx = svc.store.begin_write().await?;
    let mut owned = Vec::new();
    for (pid, version) in projects::ids_of_user(&mut *tx, id).await? {
        if let Some(p) = projects::find(&mut *tx, &pid).await? {
            owned.push((pid, version, Owners { homeowner_id: p.homeowner_id, builder_id: p.builder_id }));
        }
    }
    let project_ids: Vec<String> = owned.iter().map(|(p, _, _)| p.clone()).collect();
    let files = images::storage_keys_of_projects(&mut *tx, &project_ids).await?;
    users::delete(&mut *tx, id).await?;
    tx.commit().await.map_err(StoreError::from)?;
    svc.delete_photo_files(&files).await;

    let mut changes: Vec<Change> = owned
        .into_iter()
        .map(|(pid, version, owners)| Change::ProjectDeleted { id: pid, version: version + 1, owners })
        .collect();
    changes.push(Change::UserDeleted { id: id.to_owned(), version: user.version + 1, builders });
    changes.push(Change::EndSessions { user_id: id.to_owned(), keep_session: None, reason: "account_deleted".into() });
    Ok(changes)
}
