//! Who besides admins sees a project, read from the store and decided by the policy:
//! the audience of a project's changes, notifications and mail.

use crate::domain::shared::changes::Owners;
use crate::domain::shared::policy::{self, Actor};
use crate::error::Result;
use crate::store::{users, Db};

/// A company's members as the policy sees them (none for a project without one).
pub async fn member_actors<'a>(db: impl Into<Db<'a>>, company_id: Option<&str>) -> Result<Vec<Actor>> {
    let Some(company_id) = company_id else { return Ok(Vec::new()) };
    Ok(users::members_of(db, company_id).await?.iter().map(Actor::of).collect())
}

/// The people besides admins who see a project: its homeowner, and the members of its
/// company whom the policy lets see it.
pub async fn project_people<'a>(db: impl Into<Db<'a>>, owners: &Owners) -> Result<Vec<String>> {
    let members = member_actors(db, owners.company_id.as_deref()).await?;
    Ok(policy::project_people(owners.as_ref(), &members))
}
