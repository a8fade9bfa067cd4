//! Which projects an actor may see, and how a refusal reads: what every use case of
//! the context checks first.

use protocol::ErrorCode;

use crate::domain::shared::policy::{self, Actor, ProjectRef};
use crate::domain::shared::services::Services;
use crate::domain::shared::validation;
use crate::error::{Error, Result};
use crate::store::projects::{self, ProjectRow};

pub const PROJECT_NOT_FOUND: &str = "Project not found";
pub const NO_ACCESS: &str = "You don't have access to this project";

/// The facts about a project that the policy decides on.
pub fn project_ref(p: &ProjectRow) -> ProjectRef<'_> {
    ProjectRef { homeowner_id: &p.homeowner_id, company_id: p.company_id.as_deref(), crew: &p.crew }
}

/// A project the actor may see: "Project not found" when it does not exist, "You don't
/// have access to this project" when it is someone else's (SPEC.md §2).
pub async fn visible(svc: &Services, actor: &Actor, id: &str) -> Result<ProjectRow> {
    let not_found = || Error::new(ErrorCode::NotFound, PROJECT_NOT_FOUND);
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let row = projects::find(svc.store.pool(), id).await?.ok_or_else(not_found)?;
    if !policy::can_view_project(actor, project_ref(&row)) {
        return Err(Error::new(ErrorCode::Forbidden, NO_ACCESS));
    }
    Ok(row)
}
