//! Rows for the domain's rule tests (feature `examples`, a dev-dependency's).

use protocol::{GuestPhotos, ProgressMode, ProjectStatus, Role};

use crate::{GuestLinkRow, ProjectRow, UserRow};

impl UserRow {
    /// A confirmed user.
    pub fn example(id: &str, role: Role) -> UserRow {
        UserRow {
            id: id.into(),
            email: format!("{id}@example.com"),
            role,
            name: Some(format!("{id} name")),
            first_name: None,
            last_name: None,
            phone: None,
            builder_id: None,
            password_hash: None,
            email_confirmed_at: Some(1),
            last_sign_in_at: None,
            created_at: 1,
            updated_at: 1,
            version: 1,
            company_id: None,
            company_role: None,
            all_projects: false,
            company_name: None,
        }
    }
}

impl ProjectRow {
    /// An in-progress project with manual progress.
    pub fn example(id: &str, homeowner_id: &str, company_id: Option<&str>) -> ProjectRow {
        ProjectRow {
            id: id.into(),
            title: format!("{id} title"),
            description: String::new(),
            address: format!("{id} street"),
            homeowner_id: homeowner_id.into(),
            company_id: company_id.map(str::to_owned),
            status: ProjectStatus::InProgress,
            progress: 0,
            thumbnail_image_id: None,
            thumbnail_pinned: false,
            progress_mode: ProgressMode::Manual,
            created_at: 1,
            updated_at: 1,
            version: 1,
            homeowner_email: format!("{homeowner_id}@example.com"),
            homeowner_name: Some(format!("{homeowner_id} name")),
            homeowner_first_name: None,
            homeowner_last_name: None,
            company_name: company_id.map(|b| format!("{b} name")),
            crew: Vec::new(),
        }
    }
}

impl GuestLinkRow {
    /// A live link to every photo, made by a homeowner.
    pub fn example(id: &str, project_id: &str, maker_id: &str) -> GuestLinkRow {
        GuestLinkRow {
            id: id.into(),
            project_id: project_id.into(),
            created_by: maker_id.into(),
            photos: GuestPhotos::All,
            downloads: false,
            expires_at: None,
            revoked_at: None,
            last_opened_at: None,
            created_at: 1,
            maker_role: Role::Homeowner,
            maker_email: format!("{maker_id}@example.com"),
            maker_name: Some(format!("{maker_id} name")),
            maker_first_name: None,
            maker_last_name: None,
            maker_created_at: 1,
            report_id: None,
        }
    }
}
