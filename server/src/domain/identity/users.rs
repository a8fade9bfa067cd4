//! Listing, inviting, editing and deleting users (SPEC.md §2 dashboards, §5, §6).

use std::cmp::Ordering;
use std::collections::HashMap;

use protocol::{CreateUser, ErrorCode, ListUsers, Profile, Role, UpdateUser, UserCounts, UserListing, UserSort, USER_PAGE};

use crate::domain::identity::auth::{CompanyJoin, InviteInput};
use crate::domain::shared::changes::{Change, Owners};
use crate::domain::shared::policy::{self, Action, Actor, Target, UserRef};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{self, non_blank, FIRST_NAME_REQUIRED, LAST_NAME_REQUIRED, NAME_REQUIRED};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::users::{ProfileFields, UserRow};
use crate::store::projects::ProjectScope;
use crate::store::{images, now_ms, projects, users, Db};

pub const FILL_REQUIRED: &str = "Please fill all required fields for the selected role.";
pub const CANNOT_DELETE_SELF: &str = "You cannot delete your own account.";
pub const USER_NOT_FOUND: &str = "User not found";
pub use crate::domain::shared::policy::NOT_ALLOWED;

fn forbidden() -> Error {
    Error::new(ErrorCode::Forbidden, NOT_ALLOWED)
}

/// The user, with the builders who may see them: what the policy needs.
/// The homeowners a builder sees (those with a project the builder sees), with how
/// many of those projects each has.
pub async fn visible_homeowners<'a>(db: impl Into<Db<'a>> + Copy, actor: &Actor) -> Result<(Vec<UserRow>, Vec<(String, i64)>)> {
    match policy::project_scope(actor) {
        ProjectScope::Company { company_id, crew_of } => Ok((
            users::homeowners_of_company(db, &company_id, crew_of.as_deref()).await?,
            projects::homeowner_counts_in_company(db, &company_id, crew_of.as_deref()).await?,
        )),
        _ => Ok((Vec::new(), Vec::new())),
    }
}

pub async fn load_target(svc: &Services, id: &str) -> Result<Option<(UserRow, Vec<String>)>> {
    if !validation::could_be_id(id) {
        return Ok(None);
    }
    let Some(user) = users::find_by_id(svc.store.pool(), id).await? else { return Ok(None) };
    let builders = users::builders_of_homeowner(svc.store.pool(), id).await?;
    Ok(Some((user, builders)))
}

fn user_ref<'a>(user: &'a UserRow, builders: &'a [String]) -> UserRef<'a> {
    UserRef { id: &user.id, role: user.role, builders }
}

/// One page of a user table, with how many match and how many of each role there are.
#[derive(Debug, Clone, PartialEq)]
pub struct UserPage {
    pub listings: Vec<UserListing>,
    pub total: u32,
    /// The page answered: the one asked for, or the last there is.
    pub page: u32,
    pub counts: UserCounts,
}

/// Past this, a search is a mistake rather than a name or an email.
pub const MAX_USER_QUERY: usize = 200;
pub const USER_QUERY_TOO_LONG: &str = "Search text is too long.";

/// A page of the user table of `input.role` (SPEC.md §2 Tables): the people the actor
/// sees, searched by name or email, sorted by a column and cut into `USER_PAGE` rows,
/// so the client never holds ten thousand homeowners to show fifty.
pub async fn page(svc: &Services, actor: &Actor, input: &ListUsers) -> Result<UserPage> {
    if !policy::allows(actor, Action::ListUsers, Target::Nothing) {
        return Err(forbidden());
    }
    if input.query.chars().count() > MAX_USER_QUERY {
        return Err(Error::field("query", USER_QUERY_TOO_LONG));
    }
    let listings = listings(svc, actor).await?;
    Ok(page_of(listings, input))
}

/// Every listing the actor sees: an admin everyone, a builder the homeowners with one
/// of their company's projects they see, with how many of those projects each has.
async fn listings(svc: &Services, actor: &Actor) -> Result<Vec<UserListing>> {
    let pool = svc.store.pool();
    let (rows, counts) = match actor.role {
        Role::Admin => (users::list_all(pool).await?, users::project_counts(pool).await?),
        _ => visible_homeowners(pool, actor).await?,
    };
    let mut count_of: HashMap<String, i64> = HashMap::new();
    for (id, n) in counts {
        *count_of.entry(id).or_default() += n;
    }
    // Builders do not see the Builder column (SPEC.md §2), so they get no names. An
    // admin's: the homeowner's builder, else the company of their newest project.
    let (names, companies) = if actor.role == Role::Admin {
        let names: HashMap<&str, String> = rows
            .iter()
            .filter(|u| u.role == Role::Builder)
            .map(|u| (u.id.as_str(), views::display_name(None, None, u.name.as_deref(), &u.email)))
            .collect();
        let mut companies: HashMap<String, String> = HashMap::new();
        for project in projects::list(pool, &ProjectScope::All).await? {
            if let Some(company) = project.company_name {
                companies.entry(project.homeowner_id).or_insert(company);
            }
        }
        (names, companies)
    } else {
        (HashMap::new(), HashMap::new())
    };
    Ok(rows
        .iter()
        .map(|row| UserListing {
            user: views::profile(row),
            project_count: count_of.get(&row.id).copied().unwrap_or(0),
            builder_name: row.builder_id.as_deref().and_then(|b| names.get(b).cloned()).or_else(|| companies.get(&row.id).cloned()),
        })
        .collect())
}

fn name_of(user: &Profile) -> String {
    views::display_name(user.first_name.as_deref(), user.last_name.as_deref(), user.name.as_deref(), &user.email)
}

/// SPEC.md §2 Tables: a case-insensitive substring of the name or the email.
fn matches(user: &Profile, query: &str) -> bool {
    query.is_empty() || [name_of(user), user.name.clone().unwrap_or_default(), user.email.clone()].iter().any(|t| t.to_lowercase().contains(query))
}

/// The search, the sort and the page, pure.
pub fn page_of(all: Vec<UserListing>, input: &ListUsers) -> UserPage {
    let count = |role| u32::try_from(all.iter().filter(|l| l.user.role == role).count()).unwrap_or(u32::MAX);
    let counts = UserCounts { admins: count(Role::Admin), builders: count(Role::Builder), homeowners: count(Role::Homeowner) };
    let query = input.query.trim().to_lowercase();
    let mut rows: Vec<(String, UserListing)> =
        all.into_iter().filter(|l| l.user.role == input.role && matches(&l.user, &query)).map(|l| (name_of(&l.user).to_lowercase(), l)).collect();
    let text = |l: &UserListing| -> String {
        match input.sort {
            UserSort::Email => l.user.email.to_lowercase(),
            UserSort::Phone => l.user.phone.clone().unwrap_or_default(),
            UserSort::Builder => l.builder_name.clone().unwrap_or_default().to_lowercase(),
            UserSort::Name | UserSort::Projects => String::new(),
        }
    };
    rows.sort_by(|(name_a, a), (name_b, b)| {
        let by_name = || name_a.cmp(name_b).then_with(|| a.user.id.cmp(&b.user.id));
        let column = match input.sort {
            UserSort::Name => name_a.cmp(name_b),
            UserSort::Projects => a.project_count.cmp(&b.project_count),
            _ => {
                let (x, y) = (text(a), text(b));
                // Empty values go last whichever the direction.
                if x.is_empty() != y.is_empty() {
                    return if x.is_empty() { Ordering::Greater } else { Ordering::Less };
                }
                x.cmp(&y)
            }
        };
        let column = if input.descending { column.reverse() } else { column };
        column.then_with(by_name)
    });
    let total = rows.len();
    let pages = total.div_ceil(USER_PAGE as usize).max(1);
    let page = (input.page as usize).min(pages - 1);
    let listings = rows.into_iter().skip(page * USER_PAGE as usize).take(USER_PAGE as usize).map(|(_, l)| l).collect();
    UserPage { listings, total: u32::try_from(total).unwrap_or(u32::MAX), page: page as u32, counts }
}

/// A new user's names, as the rules for inviting derive them.
#[derive(Debug, PartialEq, Eq)]
pub struct NewNames {
    /// The display name: the company for builders, first and last for the others.
    pub name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

/// The rules for inviting a user (SPEC.md §5 "Create user"; admins only), pure:
/// homeowners and admins need first and last name, email and phone; builders name,
/// email and phone.
pub fn plan_create(input: &CreateUser, actor: &Actor) -> Result<NewNames> {
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
    // Every field as typed, here rather than only in the invite: a malformed request
    // is answered with its field error before it counts against the invite limit.
    let mut fields = match input.role {
        Role::Builder => vec![("name", input.name.as_str(), validation::NAME)],
        _ => vec![
            ("firstName", input.first_name.as_str(), validation::FIRST_NAME),
            ("lastName", input.last_name.as_str(), validation::LAST_NAME),
        ],
    };
    fields.extend([("email", input.email.as_str(), validation::EMAIL), ("phone", input.phone.as_str(), validation::PHONE)]);
    validation::texts(&fields)?;
    if !validation::is_valid_email(&validation::normalize_email(&input.email)) {
        return Err(Error::field("email", validation::INVALID_EMAIL));
    }
    Ok(match input.role {
        Role::Builder => NewNames { name: input.name.trim().to_owned(), first_name: None, last_name: None },
        _ => NewNames {
            name: format!("{} {}", input.first_name.trim(), input.last_name.trim()),
            first_name: Some(input.first_name.trim().to_owned()),
            last_name: Some(input.last_name.trim().to_owned()),
        },
    })
}

/// Past `shared::services::INVITES_PER_WINDOW` invitations: SPEC.md's message.
pub const INVITE_RATE_LIMITED: &str = "Rate limit exceeded for sending invites. Please try again later.";

pub async fn create(svc: &Services, actor: &Actor, input: &CreateUser) -> Result<(Profile, Vec<Change>)> {
    let names = plan_create(input, actor)?;
    // Counted before the invite is tried (but after the pure rules): a refused address
    // (already registered) still cost a lookup and says whether an account exists.
    svc.invite_limiter.hit(&actor.id).map_err(|wait| Error::rate_limited(INVITE_RATE_LIMITED, wait))?;
    let builder_id = match (input.role, input.builder_id.as_deref().filter(|b| !b.is_empty())) {
        (Role::Homeowner, Some(b)) => {
            let builder = if validation::could_be_id(b) { users::find_by_id(svc.store.pool(), b).await? } else { None };
            if builder.is_none_or(|u| u.role != Role::Builder) {
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
            name: &names.name,
            first_name: names.first_name.as_deref(),
            last_name: names.last_name.as_deref(),
            phone: Some(&input.phone),
            builder_id,
            // A builder an admin invites starts their own company (as every builder account
            // was before companies; docs/FEATURES.md, "Builder companies"); members join
            // through `InviteMember`.
            company: (input.role == Role::Builder).then_some(CompanyJoin::Own),
        })
        .await?;
    let mut changes = vec![Change::User { id: profile.id.clone(), created: true, state: Some(Box::new(profile.clone())) }];
    // A new builder's own company is news to the admins' Companies tab.
    if let Some(company_id) = &profile.company_id {
        changes.push(Change::Company { id: company_id.clone(), former: Vec::new() });
    }
    Ok((profile, changes))
}

/// A user's editable fields after an edit.
#[derive(Debug, PartialEq, Eq)]
pub struct EditedUser {
    pub name: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
}

/// The rules for editing a user (SPEC.md §5 "Edit user"), pure: admins edit anyone,
/// builders the homeowners on their projects; a homeowner needs first and last name,
/// others a name. Email, id, role and createdAt are not editable here. `None` when the
/// user stays as they are (SPEC.md §5: with no valid fields the user is returned
/// unchanged).
pub fn plan_update(user: &UserRow, builders: &[String], input: &UpdateUser, actor: &Actor) -> Result<Option<EditedUser>> {
    let target = user_ref(user, builders);
    if !policy::allows(actor, Action::EditUser, Target::User(target)) {
        return Err(if policy::can_view_user(actor, target) { forbidden() } else { Error::new(ErrorCode::NotFound, USER_NOT_FOUND) });
    }
    validation::texts(&[
        ("firstName", input.first_name.as_deref().unwrap_or(""), validation::FIRST_NAME),
        ("lastName", input.last_name.as_deref().unwrap_or(""), validation::LAST_NAME),
        ("name", input.name.as_deref().unwrap_or(""), validation::NAME),
        ("phone", input.phone.as_deref().unwrap_or(""), validation::PHONE),
    ])?;
    if input.first_name.is_none() && input.last_name.is_none() && input.name.is_none() && input.phone.is_none() {
        return Ok(None);
    }
    let pick = |new: &Option<String>, old: &Option<String>| match new {
        Some(v) => non_blank(v),
        None => old.clone(),
    };
    let phone = pick(&input.phone, &user.phone);
    let (mut first, mut last) = (pick(&input.first_name, &user.first_name), pick(&input.last_name, &user.last_name));
    // One name model (SPEC.md §3 display name): homeowners and admins are their first and
    // last name, which `name` follows; a builder is one name, the company, as typed.
    let name = match target.role {
        Role::Builder => {
            let name = pick(&input.name, &user.name);
            if name.is_none() {
                return Err(Error::field("name", NAME_REQUIRED));
            }
            (first, last) = (None, None);
            name
        }
        Role::Admin if input.first_name.is_none() && input.last_name.is_none() && input.name.is_some() => {
            // A name in one piece (the CLI, older clients) splits at the first space, as
            // invites do (SPEC.md §5), so what is displayed is what was edited.
            let Some(name) = input.name.as_deref().and_then(non_blank) else {
                return Err(Error::field("name", NAME_REQUIRED));
            };
            let (f, l) = name.split_once(' ').map_or((name.as_str(), ""), |(f, l)| (f, l));
            (first, last) = (non_blank(f), non_blank(l));
            Some(name)
        }
        Role::Homeowner | Role::Admin => {
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
    };
    let edited = EditedUser { name, first_name: first, last_name: last, phone };
    let unchanged = edited.name == user.name
        && edited.first_name == user.first_name
        && edited.last_name == user.last_name
        && edited.phone == user.phone;
    Ok((!unchanged).then_some(edited))
}

pub async fn update(svc: &Services, actor: &Actor, input: &UpdateUser) -> Result<(Profile, Vec<Change>)> {
    let (user, builders) = load_target(svc, &input.id)
        .await?
        .ok_or_else(|| Error::new(ErrorCode::NotFound, USER_NOT_FOUND))?;
    let Some(edited) = plan_update(&user, &builders, input, actor)? else {
        return Ok((views::profile(&user), Vec::new()));
    };
    let fields = ProfileFields {
        name: edited.name.as_deref(),
        first_name: edited.first_name.as_deref(),
        last_name: edited.last_name.as_deref(),
        phone: edited.phone.as_deref(),
    };
    users::update_profile(svc.store.pool(), &user.id, &fields, now_ms()).await?;
    // Read back: the stored version is the one every viewer must agree on.
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

/// The rules for deleting a user (SPEC.md §7 "Delete a user"; admins only, never
/// oneself), pure: what it changes besides the user's projects — the user is gone for
/// everyone who could see them, and every session of theirs ends on every instance.
pub fn plan_delete(user: &UserRow, builders: &[String], actor: &Actor) -> Result<Vec<Change>> {
    if user.id == actor.id && actor.role == Role::Admin {
        return Err(Error::new(ErrorCode::Forbidden, CANNOT_DELETE_SELF));
    }
    if !policy::allows(actor, Action::DeleteUser, Target::User(user_ref(user, builders))) {
        return Err(forbidden());
    }
    Ok(vec![
        Change::UserDeleted { id: user.id.clone(), version: user.version + 1, builders: builders.to_vec() },
        Change::EndSessions { user_id: user.id.clone(), keep_session: None, reason: "account_deleted".into() },
    ])
}

/// What deleting a user takes with them: a homeowner their projects; a builder who is
/// their company's only member, the company and its projects (what deleting a builder
/// always did). Another member goes alone, and the last owner of a company with other
/// members cannot go before someone else owns it.
async fn projects_going(svc: &Services, user: &UserRow) -> Result<Going> {
    let pool = svc.store.pool();
    match (user.role, user.company_id.as_deref()) {
        (Role::Homeowner, _) => Ok(Going::Projects),
        (Role::Builder, Some(company_id)) => {
            let members = users::members_of(pool, company_id).await?;
            let others = members.iter().filter(|m| m.id != user.id).collect::<Vec<_>>();
            if others.is_empty() {
                Ok(Going::Company(company_id.to_owned()))
            } else if user.company_role == Some(protocol::CompanyRole::Owner)
                && !others.iter().any(|m| m.company_role == Some(protocol::CompanyRole::Owner))
            {
                Err(Error::new(ErrorCode::Conflict, crate::error::NEEDS_AN_OWNER))
            } else {
                Ok(Going::Nothing)
            }
        }
        _ => Ok(Going::Nothing),
    }
}

enum Going {
    /// The homeowner's projects.
    Projects,
    /// The builder's one-member company, with its projects.
    Company(String),
    Nothing,
}

/// What deleting this user would remove with them: (projects, photos). Asked by the
/// confirmation dialog, so it is allowed exactly when the deletion itself would be.
pub async fn deletion_impact(svc: &Services, actor: &Actor, id: &str) -> Result<(u32, u32)> {
    let Some((user, builders)) = load_target(svc, id).await? else {
        return Err(Error::new(ErrorCode::NotFound, USER_NOT_FOUND));
    };
    plan_delete(&user, &builders, actor)?;
    let pool = svc.store.pool();
    let (projects, photos) = match projects_going(svc, &user).await? {
        Going::Projects => projects::deletion_counts(pool, id).await?,
        Going::Company(company_id) => projects::company_deletion_counts(pool, &company_id).await?,
        Going::Nothing => (0, 0),
    };
    let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok((count(projects), count(photos)))
}

/// Deletes a user with their projects (a homeowner's; a builder's one-member company
/// and its projects), those projects' photos (rows and files), favourites and sessions.
pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    if id == actor.id && actor.role == Role::Admin {
        return Err(Error::new(ErrorCode::Forbidden, CANNOT_DELETE_SELF));
    }
    let Some((user, builders)) = load_target(svc, id).await? else {
        return Err(Error::new(ErrorCode::NotFound, USER_NOT_FOUND));
    };
    let ends = plan_delete(&user, &builders, actor)?;
    let going = projects_going(svc, &user).await?;
    let mut tx = svc.store.begin_write().await?;
    let ids = match &going {
        Going::Projects => projects::ids_of_homeowner(&mut *tx, id).await?,
        Going::Company(company_id) => projects::ids_of_company(&mut *tx, company_id).await?,
        Going::Nothing => Vec::new(),
    };
    let mut owned = Vec::new();
    for (pid, version) in ids {
        if let Some(p) = projects::find(&mut *tx, &pid).await? {
            owned.push((pid, version, Owners::of(&p)));
        }
    }
    let project_ids: Vec<String> = owned.iter().map(|(p, _, _)| p.clone()).collect();
    let files = images::storage_keys_of_projects(&mut *tx, &project_ids).await?;
    let report_files = crate::store::reports::storage_keys_of_projects(&mut *tx, &project_ids).await?;
    users::delete(&mut *tx, id).await?;
    let company = match &going {
        Going::Company(company_id) => {
            let row = crate::store::companies::find(&mut *tx, company_id).await?;
            crate::store::companies::delete(&mut *tx, company_id).await?;
            row
        }
        _ => None,
    };
    if let (Some(company_id), None) = (user.company_id.as_deref(), &company) {
        crate::store::companies::touch(&mut *tx, company_id, None, now_ms()).await?;
    }
    tx.commit().await?;
    svc.delete_photo_files(&files).await;
    svc.delete_files(&report_files).await;

    let mut changes: Vec<Change> = owned
        .into_iter()
        .map(|(pid, version, owners)| Change::ProjectDeleted { id: pid, version: version + 1, owners })
        .collect();
    changes.extend(ends);
    match (company, user.company_id) {
        (Some(row), _) => changes.push(Change::CompanyDeleted { id: row.id, version: row.version + 1, members: vec![user.id.clone()] }),
        (None, Some(company_id)) => changes.push(Change::Company { id: company_id, former: vec![user.id.clone()] }),
        (None, None) => {}
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str, role: Role) -> UserRow {
        UserRow {
            name: Some("Jamie Carter".into()),
            first_name: Some("Jamie".into()),
            last_name: Some("Carter".into()),
            phone: Some("555".into()),
            version: 3,
            ..UserRow::example(id, role)
        }
    }

    /// A builder owns the company of their own id (as a builder from before companies does).
    fn actor(id: &str, role: Role) -> Actor {
        match role {
            Role::Builder => Actor::member(id, id, protocol::CompanyRole::Owner, false),
            _ => Actor::new(id, role),
        }
    }

    fn edit(f: impl FnOnce(&mut UpdateUser)) -> UpdateUser {
        let mut input = UpdateUser { id: "h".into(), ..UpdateUser::default() };
        f(&mut input);
        input
    }

    fn code<T: std::fmt::Debug>(r: Result<T>) -> ErrorCode {
        r.err().map(|e| e.code()).unwrap_or(ErrorCode::Internal)
    }

    fn listing(id: &str, role: Role, first: &str, email: &str, phone: Option<&str>, projects: i64) -> UserListing {
        let row = UserRow { first_name: Some(first.into()), last_name: Some("Doe".into()), name: None, email: email.into(), phone: phone.map(Into::into), ..UserRow::example(id, role) };
        UserListing { user: views::profile(&row), project_count: projects, builder_name: None }
    }

    fn query(role: Role, text: &str, sort: UserSort, descending: bool, page: u32) -> ListUsers {
        ListUsers { role, query: text.into(), sort, descending, page }
    }

    fn names(page: &UserPage) -> Vec<String> {
        page.listings.iter().map(|l| l.user.first_name.clone().unwrap_or_default()).collect()
    }

    #[test]
    fn a_user_table_page_is_searched_sorted_and_cut_by_the_server() {
        let mut all: Vec<UserListing> = (0..120).map(|i| listing(&format!("h{i:03}"), Role::Homeowner, &format!("Owner{i:03}"), &format!("o{i}@example.com"), None, i % 4)).collect();
        all.push(listing("b1", Role::Builder, "Bea", "bea@summit.test", Some("555"), 3));
        all.push(listing("a1", Role::Admin, "Ada", "ada@example.com", None, 0));
        let first = page_of(all.clone(), &query(Role::Homeowner, "", UserSort::Name, false, 0));
        assert_eq!(first.counts, UserCounts { admins: 1, builders: 1, homeowners: 120 });
        assert_eq!((first.total, first.page, first.listings.len()), (120, 0, USER_PAGE as usize));
        assert_eq!(names(&first)[..2], ["Owner000", "Owner001"]);
        // Past the last page answers the last page.
        let last = page_of(all.clone(), &query(Role::Homeowner, "", UserSort::Name, false, 9));
        assert_eq!((last.page, last.listings.len()), (2, 20));
        // A case-insensitive substring of the name or the email.
        let found = page_of(all.clone(), &query(Role::Homeowner, " OWNER11", UserSort::Name, true, 0));
        assert_eq!(names(&found), ["Owner119", "Owner118", "Owner117", "Owner116", "Owner115", "Owner114", "Owner113", "Owner112", "Owner111", "Owner110"]);
        assert_eq!(page_of(all.clone(), &query(Role::Homeowner, "o7@EXAMPLE", UserSort::Name, false, 0)).total, 1);
        assert_eq!(page_of(all.clone(), &query(Role::Builder, "summit", UserSort::Name, false, 0)).total, 1);
        // By projects, the name breaking ties.
        let busiest = page_of(all.clone(), &query(Role::Homeowner, "", UserSort::Projects, true, 0));
        assert_eq!(names(&busiest)[..2], ["Owner003", "Owner007"]);
    }

    #[test]
    fn empty_values_sort_last_in_either_direction() {
        let all = vec![
            listing("h1", Role::Homeowner, "Ann", "a@x.test", None, 0),
            listing("h2", Role::Homeowner, "Bob", "b@x.test", Some("555-0102"), 0),
            listing("h3", Role::Homeowner, "Cy", "c@x.test", Some("555-0101"), 0),
        ];
        let up = page_of(all.clone(), &query(Role::Homeowner, "", UserSort::Phone, false, 0));
        assert_eq!(names(&up), ["Cy", "Bob", "Ann"]);
        let down = page_of(all, &query(Role::Homeowner, "", UserSort::Phone, true, 0));
        assert_eq!(names(&down), ["Bob", "Cy", "Ann"]);
    }

    #[test]
    fn admins_edit_anyone_builders_their_homeowners() {
        let h = user("h", Role::Homeowner);
        let input = edit(|u| u.last_name = Some("Carter-Ng".into()));
        let builders = ["b".to_owned()];
        let edited = plan_update(&h, &builders, &input, &actor("a", Role::Admin)).unwrap().unwrap();
        assert_eq!(edited.name.as_deref(), Some("Jamie Carter-Ng"), "a homeowner's name follows first and last");
        assert!(plan_update(&h, &builders, &input, &actor("b", Role::Builder)).unwrap().is_some());
        assert_eq!(code(plan_update(&h, &[], &input, &actor("b", Role::Builder))), ErrorCode::NotFound, "not their homeowner");
        assert_eq!(code(plan_update(&h, &builders, &input, &actor("h", Role::Homeowner))), ErrorCode::Forbidden);
        let blank = edit(|u| u.first_name = Some("  ".into()));
        assert_eq!(code(plan_update(&h, &builders, &blank, &actor("a", Role::Admin))), ErrorCode::Validation);
        // Nothing given, or nothing different: the user stays as they are.
        assert!(plan_update(&h, &builders, &edit(|_| {}), &actor("a", Role::Admin)).unwrap().is_none());
        let same = edit(|u| u.first_name = Some("Jamie".into()));
        assert!(plan_update(&h, &builders, &same, &actor("a", Role::Admin)).unwrap().is_none());
        // A builder is one name, the company, as typed; no first or last name beside it.
        let b = user("b", Role::Builder);
        let renamed = edit(|u| {
            u.id = "b".into();
            u.name = Some("ACC builders".into());
        });
        let edited = plan_update(&b, &[], &renamed, &actor("a", Role::Admin)).unwrap().unwrap();
        assert_eq!(
            (edited.name.as_deref(), edited.first_name.as_deref(), edited.last_name.as_deref()),
            (Some("ACC builders"), None, None)
        );
    }

    /// One name model: an admin's edit changes what is displayed (first and last name).
    #[test]
    fn an_admins_name_is_first_and_last_like_a_homeowners() {
        let a = user("a2", Role::Admin);
        let by_parts = edit(|u| {
            u.id = "a2".into();
            u.first_name = Some("Morgan".into());
            u.last_name = Some("Reyes".into());
        });
        let edited = plan_update(&a, &[], &by_parts, &actor("a", Role::Admin)).unwrap().unwrap();
        assert_eq!(
            (edited.name.as_deref(), edited.first_name.as_deref(), edited.last_name.as_deref()),
            (Some("Morgan Reyes"), Some("Morgan"), Some("Reyes"))
        );
        // A name in one piece splits at the first space, so the display name follows it.
        let whole = edit(|u| {
            u.id = "a2".into();
            u.name = Some("Ada van Dyke".into());
        });
        let edited = plan_update(&a, &[], &whole, &actor("a", Role::Admin)).unwrap().unwrap();
        assert_eq!(
            (edited.name.as_deref(), edited.first_name.as_deref(), edited.last_name.as_deref()),
            (Some("Ada van Dyke"), Some("Ada"), Some("van Dyke"))
        );
        let no_last = edit(|u| {
            u.id = "a2".into();
            u.last_name = Some(" ".into());
        });
        assert_eq!(code(plan_update(&a, &[], &no_last, &actor("a", Role::Admin))), ErrorCode::Validation);
    }

    #[test]
    fn inviting_is_for_admins_with_the_fields_each_role_needs() {
        let mut input = CreateUser {
            role: Role::Homeowner,
            email: "new@example.com".into(),
            first_name: " Ana ".into(),
            last_name: "Lee".into(),
            name: String::new(),
            phone: "555".into(),
            builder_id: None,
        };
        let names = plan_create(&input, &actor("a", Role::Admin)).unwrap();
        assert_eq!(names, NewNames { name: "Ana Lee".into(), first_name: Some("Ana".into()), last_name: Some("Lee".into()) });
        assert_eq!(code(plan_create(&input, &actor("b", Role::Builder))), ErrorCode::Forbidden);
        input.phone = String::new();
        assert_eq!(code(plan_create(&input, &actor("a", Role::Admin))), ErrorCode::Validation);
        input.role = Role::Builder;
        input.phone = "555".into();
        assert_eq!(code(plan_create(&input, &actor("a", Role::Admin))), ErrorCode::Validation, "a builder needs a name");
        input.name = "ACC builders".into();
        assert_eq!(plan_create(&input, &actor("a", Role::Admin)).unwrap().name, "ACC builders");
        // Every field as typed, before the invite is counted or tried (docs/LIMITS.md).
        let refused = |input: &CreateUser| {
            plan_create(input, &actor("a", Role::Admin)).map(|_| ()).unwrap_err().api.fields.into_iter().map(|f| (f.field, f.message)).collect::<Vec<_>>()
        };
        let one_line = |label: &str| format!("{label} cannot contain line breaks or control characters.");
        assert_eq!(refused(&CreateUser { name: "ACC\u{0}".into(), phone: "5\n5".into(), ..input.clone() }), vec![
            ("name".to_owned(), one_line("Name")),
            ("phone".to_owned(), one_line("Phone")),
        ]);
        assert_eq!(refused(&CreateUser { email: "not an address".into(), ..input.clone() }), vec![("email".to_owned(), validation::INVALID_EMAIL.to_owned())]);
        input.role = Role::Admin;
        input.first_name = "Ada\u{1b}".into();
        assert_eq!(refused(&input), vec![("firstName".to_owned(), one_line("First name"))]);
    }

    #[test]
    fn deleting_is_for_admins_never_oneself_and_ends_every_session() {
        let h = user("h", Role::Homeowner);
        let changes = plan_delete(&h, &["b".to_owned()], &actor("a", Role::Admin)).unwrap();
        assert_eq!(
            changes,
            vec![
                Change::UserDeleted { id: "h".into(), version: 4, builders: vec!["b".into()] },
                Change::EndSessions { user_id: "h".into(), keep_session: None, reason: "account_deleted".into() },
            ]
        );
        assert_eq!(code(plan_delete(&user("a", Role::Admin), &[], &actor("a", Role::Admin))), ErrorCode::Forbidden);
        assert_eq!(code(plan_delete(&h, &["b".to_owned()], &actor("b", Role::Builder))), ErrorCode::Forbidden);
    }
}
