//! Builder companies: a company builds projects; its members sign in as themselves
//! (docs/FEATURES.md, "Builder companies"). Owners manage the company and its people,
//! managers see every project and invite crew, crew see the projects they are on (or
//! all, as the owner says). What each may do is the policy's (`Action::ViewCompany` and
//! the rest); this module keeps the rules about the company itself: a name, at least one
//! owner, one company per person, a crew drawn from the company.

use protocol::{Company, CompanyRole, ErrorCode, InviteMember, Role, UpdateMember};

use crate::domain::identity::auth::{CompanyJoin, InviteInput};
use crate::domain::shared::changes::{Change, Owners};
use crate::domain::shared::policy::{self, Action, Actor, CompanyRef, MemberRef, Target};
use crate::domain::projects::{self as project_rules, project_ref, NO_ACCESS};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{self, non_blank};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::companies::{self, CompanyRow};
use crate::store::projects::{ProjectRow, ProjectScope};
use crate::store::users::UserRow;
use crate::store::{images, new_id, now_ms, projects, sessions, users, Db, Store};

pub const COMPANY_NOT_FOUND: &str = "Company not found";
pub const MEMBER_NOT_FOUND: &str = "Member not found";
pub use crate::domain::shared::policy::NOT_ALLOWED;
/// Also what the database's own rule reads as, when a race gets past the check here.
pub use crate::error::NEEDS_AN_OWNER;
pub const ALREADY_A_MEMBER: &str = "This person is already a member of this company.";
/// One answer for every account that cannot join (another company's member, a
/// homeowner, an administrator): which of them an email belongs to is not the
/// inviter's to learn. Only membership of the inviter's own company, which they see
/// in its member list anyway, is told apart.
pub const CANNOT_JOIN: &str = "This email belongs to an account that can't join this company.";
/// Crew who see every project are the owner's call (as changing it later is).
pub const ALL_PROJECTS_OWNERS_ONLY: &str = "Only the company's owner can let crew see every project.";
pub const NOT_ON_THE_CREW: &str = "Only members of the project's company can be on its crew.";
pub const NO_COMPANY: &str = "This project has no builder company to take its crew from.";

fn forbidden() -> Error {
    Error::new(ErrorCode::Forbidden, NOT_ALLOWED)
}

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, COMPANY_NOT_FOUND)
}

/// A company as its viewers see it, with its members.
pub async fn view<'a>(db: impl Into<Db<'a>> + Copy, id: &str) -> Result<Option<Company>> {
    let Some(row) = companies::find(db, id).await? else { return Ok(None) };
    let members = users::members_of(db, id).await?;
    Ok(Some(views::company(&row, &members)))
}

/// The companies this actor sees: admins all, a builder their own, homeowners none.
pub async fn list(store: &Store, actor: &Actor) -> Result<Vec<Company>> {
    let pool = store.pool();
    match (actor.role, actor.company_id()) {
        (Role::Admin, _) => {
            let mut out = Vec::new();
            for row in companies::list_all(pool).await? {
                let members = users::members_of(pool, &row.id).await?;
                out.push(views::company(&row, &members));
            }
            Ok(out)
        }
        (_, Some(id)) if policy::can_view_company(actor, id) => Ok(view(pool, id).await?.into_iter().collect()),
        _ => Ok(Vec::new()),
    }
}

/// A company the actor may see, or "Company not found" (whether it exists or not).
async fn visible(svc: &Services, actor: &Actor, id: &str) -> Result<CompanyRow> {
    if !validation::could_be_id(id) || !policy::can_view_company(actor, id) {
        return Err(not_found());
    }
    companies::find(svc.store.pool(), id).await?.ok_or_else(not_found)
}

fn company_name(name: &str) -> Result<String> {
    validation::texts(&[("name", name, validation::NAME)])?;
    non_blank(name).ok_or_else(|| Error::field("name", validation::NAME_REQUIRED))
}

/// Admins: a new company, with no members yet.
pub async fn create(svc: &Services, actor: &Actor, name: &str) -> Result<(Company, Vec<Change>)> {
    if !policy::allows(actor, Action::CreateCompany, Target::Nothing) {
        return Err(forbidden());
    }
    let name = company_name(name)?;
    let id = new_id();
    companies::insert(svc.store.pool(), &id, &name, now_ms()).await?;
    let company = view(svc.store.pool(), &id).await?.ok_or_else(not_found)?;
    Ok((company, vec![Change::Company { id, former: Vec::new() }]))
}

/// Admins and the company's owner: its name, which homeowners see as their builder.
pub async fn rename(svc: &Services, actor: &Actor, id: &str, name: &str) -> Result<(Company, Vec<Change>)> {
    let row = visible(svc, actor, id).await?;
    if !policy::allows(actor, Action::EditCompany, Target::Company(CompanyRef { id: &row.id })) {
        return Err(forbidden());
    }
    let name = company_name(name)?;
    let pool = svc.store.pool();
    let mut changes = vec![Change::Company { id: row.id.clone(), former: Vec::new() }];
    if name != row.name {
        let now = now_ms();
        let mut tx = svc.store.begin_write().await?;
        companies::touch(&mut *tx, &row.id, Some(&name), now).await?;
        // Its projects show the new name: each moves on a version, so every viewer
        // takes it.
        let ids = projects::ids_of_company(&mut *tx, &row.id).await?;
        for (project_id, _) in &ids {
            if let Some(project) = projects::find(&mut *tx, project_id).await? {
                projects::update(&mut *tx, project_id, &project.fields(), now).await?;
            }
        }
        tx.commit().await?;
        changes.extend(ids.into_iter().map(|(id, _)| Change::Project { id, created: false, actor_id: None, previous: None, state: None }));
    }
    let company = view(pool, &row.id).await?.ok_or_else(not_found)?;
    Ok((company, changes))
}

/// What deleting a company removes: (projects, photos, member logins).
pub async fn deletion_impact(svc: &Services, actor: &Actor, id: &str) -> Result<(u32, u32, u32)> {
    let row = visible(svc, actor, id).await?;
    if !policy::allows(actor, Action::DeleteCompany, Target::Company(CompanyRef { id: &row.id })) {
        return Err(forbidden());
    }
    let pool = svc.store.pool();
    let (projects, photos) = projects::company_deletion_counts(pool, &row.id).await?;
    let members = users::members_of(pool, &row.id).await?.len();
    let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok((count(projects), count(photos), u32::try_from(members).unwrap_or(u32::MAX)))
}

/// Admins: the company, its projects with their photos and reports, and its members'
/// accounts (a login belongs to one company; without it there is nothing to sign in to).
pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let row = visible(svc, actor, id).await?;
    if !policy::allows(actor, Action::DeleteCompany, Target::Company(CompanyRef { id: &row.id })) {
        return Err(forbidden());
    }
    let mut tx = svc.store.begin_write().await?;
    let members = users::members_of(&mut *tx, &row.id).await?;
    let mut owned = Vec::new();
    for (pid, version) in projects::ids_of_company(&mut *tx, &row.id).await? {
        if let Some(p) = projects::find(&mut *tx, &pid).await? {
            owned.push((pid, version, Owners::of(&p)));
        }
    }
    let project_ids: Vec<String> = owned.iter().map(|(p, _, _)| p.clone()).collect();
    let files = images::storage_keys_of_projects(&mut *tx, &project_ids).await?;
    let report_files = crate::store::reports::storage_keys_of_projects(&mut *tx, &project_ids).await?;
    // The company goes first: its members' accounts then belong to no company, so the
    // rule that a company keeps an owner (the database's) has nothing left to hold.
    companies::delete(&mut *tx, &row.id).await?;
    for member in &members {
        users::delete(&mut *tx, &member.id).await?;
    }
    tx.commit().await?;
    svc.delete_photo_files(&files).await;
    svc.delete_files(&report_files).await;

    let mut changes: Vec<Change> = owned
        .into_iter()
        .map(|(pid, version, owners)| Change::ProjectDeleted { id: pid, version: version + 1, owners })
        .collect();
    for member in &members {
        changes.push(Change::UserDeleted { id: member.id.clone(), version: member.version + 1, builders: Vec::new() });
        changes.push(Change::EndSessions { user_id: member.id.clone(), keep_session: None, reason: "account_deleted".into() });
    }
    changes.push(Change::CompanyDeleted { id: row.id, version: row.version + 1, members: members.into_iter().map(|m| m.id).collect() });
    Ok(changes)
}

/// Owners (any role), managers (crew) and admins: a new member, mailed an invitation
/// to set their password (the invite flow, SPEC.md §7), in the company from the start.
pub async fn invite(svc: &Services, actor: &Actor, input: &InviteMember) -> Result<(Company, Vec<Change>)> {
    let row = visible(svc, actor, &input.company_id).await?;
    let target = MemberRef { company_id: &row.id, role: input.company_role };
    if !policy::allows(actor, Action::InviteMember, Target::Member(target)) {
        return Err(forbidden());
    }
    validation::texts(&[
        ("name", input.name.as_str(), validation::NAME),
        ("email", input.email.as_str(), validation::EMAIL),
        ("phone", input.phone.as_str(), validation::PHONE),
    ])?;
    if input.name.trim().is_empty() {
        return Err(Error::field("name", validation::NAME_REQUIRED));
    }
    let email = validation::normalize_email(&input.email);
    if !validation::is_valid_email(&email) {
        return Err(Error::field("email", validation::INVALID_EMAIL));
    }
    // The same limit as an admin's invitations: each one mails an address typed here.
    svc.invite_limiter.hit(&actor.id).map_err(|wait| Error::rate_limited(crate::domain::identity::users::INVITE_RATE_LIMITED, wait))?;
    // Whether crew see every project is set by whoever may change it later (owners,
    // admins), not by a manager inviting them.
    let all_projects = input.all_projects && input.company_role == CompanyRole::Crew;
    let crew = MemberRef { company_id: &row.id, role: CompanyRole::Crew };
    if all_projects && !policy::allows(actor, Action::ManageMember, Target::Member(crew)) {
        return Err(Error::field("allProjects", ALL_PROJECTS_OWNERS_ONLY));
    }
    let join = CompanyJoin::Member { company_id: &row.id, company_name: &row.name, role: input.company_role, all_projects };
    let (profile, created) = match users::find_by_email(svc.store.pool(), &email).await? {
        // A builder removed from their company (an account with no company) may join
        // another; what they did before keeps their name.
        Some(existing) if existing.role == Role::Builder && existing.company_id.is_none() => (svc.auth.rejoin(&existing, join).await?, false),
        Some(existing) => {
            return Err(Error::field(
                "email",
                match (existing.role, existing.company_id.as_deref()) {
                    (Role::Builder, Some(c)) if c == row.id => ALREADY_A_MEMBER,
                    _ => CANNOT_JOIN,
                },
            ));
        }
        None => {
            let input = InviteInput {
                email: &email,
                role: Role::Builder,
                name: input.name.trim(),
                first_name: None,
                last_name: None,
                phone: Some(&input.phone),
                builder_id: None,
                company: Some(join),
            };
            (svc.auth.invite(&input).await?.0, true)
        }
    };
    let company = view(svc.store.pool(), &row.id).await?.ok_or_else(not_found)?;
    let changes = vec![
        Change::User { id: profile.id.clone(), created, state: Some(Box::new(profile)) },
        Change::Company { id: row.id, former: Vec::new() },
    ];
    Ok((company, changes))
}

/// A member and their company, as the policy needs them, or "Member not found" when
/// the actor may not see the company.
async fn member(svc: &Services, actor: &Actor, id: &str) -> Result<(UserRow, CompanyRow)> {
    let missing = || Error::new(ErrorCode::NotFound, MEMBER_NOT_FOUND);
    if !validation::could_be_id(id) {
        return Err(missing());
    }
    let user = users::find_by_id(svc.store.pool(), id).await?.ok_or_else(missing)?;
    let company_id = user.company_id.clone().filter(|c| policy::can_view_company(actor, c)).ok_or_else(missing)?;
    let company = companies::find(svc.store.pool(), &company_id).await?.ok_or_else(missing)?;
    Ok((user, company))
}

/// Whether the company keeps an owner when `leaving` stops being one.
async fn keeps_an_owner(svc: &Services, company_id: &str, leaving: &str) -> Result<bool> {
    let members = users::members_of(svc.store.pool(), company_id).await?;
    Ok(members.iter().any(|m| m.id != leaving && m.company_role == Some(CompanyRole::Owner)))
}

/// Owners and admins: a member's role, or whether crew see every project. Their
/// sockets reconnect (`Reconnect`), so every check after it sees the new role.
pub async fn update_member(svc: &Services, actor: &Actor, input: &UpdateMember) -> Result<(Company, Vec<Change>)> {
    let (user, company) = member(svc, actor, &input.id).await?;
    let current = user.company_role.unwrap_or(CompanyRole::Crew);
    if !policy::allows(actor, Action::ManageMember, Target::Member(MemberRef { company_id: &company.id, role: current })) {
        return Err(forbidden());
    }
    let role = input.company_role.unwrap_or(current);
    let all = input.all_projects.unwrap_or(user.all_projects) && role == CompanyRole::Crew;
    if role == current && all == user.all_projects {
        return Err(Error::new(ErrorCode::NoChanges, project_rules::NO_CHANGES));
    }
    if current == CompanyRole::Owner && role != CompanyRole::Owner && !keeps_an_owner(svc, &company.id, &user.id).await? {
        return Err(Error::new(ErrorCode::Conflict, NEEDS_AN_OWNER));
    }
    let now = now_ms();
    let mut tx = svc.store.begin_write().await?;
    users::set_membership(&mut *tx, &user.id, Some((&company.id, role, all)), now).await?;
    companies::touch(&mut *tx, &company.id, None, now).await?;
    tx.commit().await?;
    let company_view = view(svc.store.pool(), &company.id).await?.ok_or_else(not_found)?;
    let changes = vec![
        Change::User { id: user.id.clone(), created: false, state: None },
        Change::Company { id: company.id, former: Vec::new() },
        Change::Reconnect { user_id: user.id },
    ];
    Ok((company_view, changes))
}

/// Owners and admins: the member leaves the company. Their sessions end on every
/// instance at once; their account stays (what they uploaded, wrote and drew keeps
/// their name), with no company and so no project, until a company invites them again.
pub async fn remove_member(svc: &Services, actor: &Actor, id: &str) -> Result<(Company, Vec<Change>)> {
    let (user, company) = member(svc, actor, id).await?;
    let current = user.company_role.unwrap_or(CompanyRole::Crew);
    if !policy::allows(actor, Action::ManageMember, Target::Member(MemberRef { company_id: &company.id, role: current })) {
        return Err(forbidden());
    }
    if current == CompanyRole::Owner && !keeps_an_owner(svc, &company.id, &user.id).await? {
        return Err(Error::new(ErrorCode::Conflict, NEEDS_AN_OWNER));
    }
    let now = now_ms();
    let crew_scope = ProjectScope::Company { company_id: company.id.clone(), crew_of: Some(user.id.clone()) };
    let mut tx = svc.store.begin_write().await?;
    let crewed = projects::list(&mut *tx, &crew_scope).await?;
    users::set_membership(&mut *tx, &user.id, None, now).await?;
    // The projects they were on lose them from their crew: each moves on a version.
    for project in &crewed {
        projects::update(&mut *tx, &project.id, &project.fields(), now).await?;
    }
    companies::touch(&mut *tx, &company.id, None, now).await?;
    sessions::delete_for_user(&mut *tx, &user.id).await?;
    tx.commit().await?;
    let company_view = view(svc.store.pool(), &company.id).await?.ok_or_else(not_found)?;
    let mut changes = vec![Change::EndSessions { user_id: user.id.clone(), keep_session: None, reason: "removed_from_company".into() }];
    changes.extend(crewed.iter().map(|p| Change::Project { id: p.id.clone(), created: false, actor_id: None, previous: None, state: None }));
    changes.push(Change::User { id: user.id.clone(), created: false, state: None });
    changes.push(Change::Company { id: company.id, former: vec![user.id] });
    Ok((company_view, changes))
}

/// The rules for a project's crew, pure: who may set it, and that everyone on it
/// belongs to the project's company. Answers the crew as it will be (sorted, once each).
pub fn plan_crew(row: &ProjectRow, actor: &Actor, user_ids: &[String], members: &[UserRow]) -> Result<Vec<String>> {
    if !policy::can_view_project(actor, project_ref(row)) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
    if !policy::allows(actor, Action::AssignCrew, Target::Project(project_ref(row))) {
        return Err(forbidden());
    }
    let Some(company_id) = row.company_id.as_deref() else {
        return Err(Error::new(ErrorCode::Validation, NO_COMPANY));
    };
    let mut crew: Vec<String> = Vec::new();
    for id in user_ids {
        if !members.iter().any(|m| &m.id == id && m.company_id.as_deref() == Some(company_id)) {
            return Err(Error::field("userIds", NOT_ON_THE_CREW));
        }
        if !crew.contains(id) {
            crew.push(id.clone());
        }
    }
    crew.sort();
    Ok(crew)
}

/// Owners, managers and admins: who of the company's people is on a project, in the
/// project's turn. Whoever joins sees it arrive; whoever leaves sees it go.
pub async fn set_crew(svc: &Services, actor: &Actor, project_id: &str, user_ids: &[String]) -> Result<(protocol::Project, Vec<Change>)> {
    if user_ids.len() > 500 {
        return Err(Error::field("userIds", NOT_ON_THE_CREW));
    }
    let row = project_rules::visible(svc, actor, project_id).await?;
    let members = match row.company_id.as_deref() {
        Some(c) => users::members_of(svc.store.pool(), c).await?,
        None => Vec::new(),
    };
    let crew = plan_crew(&row, actor, user_ids, &members)?;
    if crew == row.crew {
        return Ok((views::project(&row), Vec::new()));
    }
    let now = now_ms();
    let mut tx = svc.store.begin_write().await?;
    if !projects::update_at_version(&mut *tx, &row.id, &row.fields(), now, row.version).await? {
        return Err(Error::new(ErrorCode::Conflict, "The project changed meanwhile. Please try again."));
    }
    projects::set_crew(&mut *tx, &row.id, &crew, now).await?;
    tx.commit().await?;
    let mut next = row.clone();
    next.crew = crew;
    next.version = row.version + 1;
    next.updated_at = now;
    let project = views::project(&next);
    let change = Change::Project {
        id: row.id.clone(),
        created: false,
        actor_id: Some(actor.id.clone()),
        previous: Some(Owners::of(&row)),
        state: Some(Box::new(project.clone())),
    };
    Ok((project, vec![change]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member_row(id: &str, company: &str, role: CompanyRole) -> UserRow {
        UserRow {
            company_id: Some(company.into()),
            company_role: Some(role),
            ..UserRow::example(id, Role::Builder)
        }
    }

    #[test]
    fn a_crew_is_drawn_from_the_project_s_company_by_its_owners_and_managers() {
        let row = ProjectRow::example("p", "h", Some("c"));
        let members = [
            member_row("o", "c", CompanyRole::Owner),
            member_row("m", "c", CompanyRole::Manager),
            member_row("k", "c", CompanyRole::Crew),
            member_row("x", "c2", CompanyRole::Crew),
        ];
        let owner = Actor::member("o", "c", CompanyRole::Owner, false);
        let manager = Actor::member("m", "c", CompanyRole::Manager, false);
        let crew = Actor::member("k", "c", CompanyRole::Crew, true);
        let outsider = Actor::member("x", "c2", CompanyRole::Owner, false);
        let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(plan_crew(&row, &owner, &ids(&["k", "m", "k"]), &members).unwrap(), ids(&["k", "m"]));
        assert_eq!(plan_crew(&row, &manager, &ids(&[]), &members).unwrap(), Vec::<String>::new());
        assert_eq!(plan_crew(&row, &Actor::new("a", Role::Admin), &ids(&["k"]), &members).unwrap(), ids(&["k"]));
        let code = |r: Result<Vec<String>>| r.err().map(|e| e.code());
        assert_eq!(code(plan_crew(&row, &crew, &ids(&["k"]), &members)), Some(ErrorCode::Forbidden), "crew do not pick the crew");
        assert_eq!(code(plan_crew(&row, &outsider, &ids(&[]), &members)), Some(ErrorCode::Forbidden), "another company's owner");
        assert_eq!(code(plan_crew(&row, &owner, &ids(&["x"]), &members)), Some(ErrorCode::Validation), "another company's member");
        assert_eq!(code(plan_crew(&row, &owner, &ids(&["nobody"]), &members)), Some(ErrorCode::Validation));
        let homeowner = Actor::new("h", Role::Homeowner);
        assert_eq!(code(plan_crew(&row, &homeowner, &ids(&[]), &members)), Some(ErrorCode::Forbidden));
        let orphan = ProjectRow::example("p2", "h", None);
        assert_eq!(code(plan_crew(&orphan, &Actor::new("a", Role::Admin), &ids(&[]), &members)), Some(ErrorCode::Validation));
    }
}
