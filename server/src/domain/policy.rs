//! Who may see and do what (SPEC.md §6). Every request and every event fan-out asks
//! this module; nothing else decides access.

use protocol::Role;

use crate::store::projects::ProjectScope;

/// The authenticated user behind a request, as the policy sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub role: Role,
}

/// The facts about a project that access depends on.
#[derive(Debug, Clone, Copy)]
pub struct ProjectRef<'a> {
    pub homeowner_id: &'a str,
    pub builder_id: Option<&'a str>,
}

/// Admins see every project; a builder the projects whose builderId is theirs; a
/// homeowner only the projects whose homeownerId is theirs.
pub fn project_scope(actor: &Actor) -> ProjectScope {
    match actor.role {
        Role::Admin => ProjectScope::All,
        Role::Builder => ProjectScope::Builder(actor.id.clone()),
        Role::Homeowner => ProjectScope::Homeowner(actor.id.clone()),
    }
}

pub fn can_view_project(actor: &Actor, project: ProjectRef<'_>) -> bool {
    match actor.role {
        Role::Admin => true,
        Role::Builder => project.builder_id == Some(actor.id.as_str()),
        Role::Homeowner => project.homeowner_id == actor.id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_visibility() {
        let p = ProjectRef { homeowner_id: "h1", builder_id: Some("b1") };
        let actor = |id: &str, role| Actor { id: id.to_owned(), role };
        assert!(can_view_project(&actor("a", Role::Admin), p));
        assert!(can_view_project(&actor("b1", Role::Builder), p));
        assert!(!can_view_project(&actor("b2", Role::Builder), p));
        assert!(can_view_project(&actor("h1", Role::Homeowner), p));
        assert!(!can_view_project(&actor("h2", Role::Homeowner), p));
        assert!(!can_view_project(&actor("h1", Role::Builder), p), "role matters, not just the id");
        let unassigned = ProjectRef { homeowner_id: "h1", builder_id: None };
        assert!(!can_view_project(&actor("b1", Role::Builder), unassigned));
    }

    #[test]
    fn scopes_follow_roles() {
        let actor = |role| Actor { id: "u".to_owned(), role };
        assert_eq!(project_scope(&actor(Role::Admin)), ProjectScope::All);
        assert_eq!(project_scope(&actor(Role::Builder)), ProjectScope::Builder("u".to_owned()));
        assert_eq!(project_scope(&actor(Role::Homeowner)), ProjectScope::Homeowner("u".to_owned()));
    }
}
