//! Stored rows turned into the wire types the client sees.

use protocol::{Comment, ImageCategory, Profile, ProgressMode, Project, ProjectImage, ProjectStatus, Role, UserSummary};

use crate::store::comments::CommentRow;
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::users::UserRow;

pub fn profile(u: &UserRow) -> Profile {
    Profile {
        id: u.id.clone(),
        email: u.email.clone(),
        role: Role::parse(&u.role).unwrap_or(Role::Homeowner),
        name: u.name.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        phone: u.phone.clone(),
        builder_id: u.builder_id.clone(),
        email_confirmed_at: u.email_confirmed_at,
        last_sign_in_at: u.last_sign_in_at,
        created_at: u.created_at,
        version: u.version,
    }
}

/// SPEC.md §3: first plus last name if both exist, else first name, else the stored
/// full name, else the email.
pub fn display_name(first: Option<&str>, last: Option<&str>, name: Option<&str>, email: &str) -> String {
    let first = first.map(str::trim).filter(|s| !s.is_empty());
    let last = last.map(str::trim).filter(|s| !s.is_empty());
    let name = name.map(str::trim).filter(|s| !s.is_empty());
    match (first, last, name) {
        (Some(f), Some(l), _) => format!("{f} {l}"),
        (Some(f), None, _) => f.to_owned(),
        (None, _, Some(n)) => n.to_owned(),
        _ => email.to_owned(),
    }
}

pub fn summary(u: &UserRow) -> UserSummary {
    UserSummary {
        id: u.id.clone(),
        email: u.email.clone(),
        name: Some(display_name(u.first_name.as_deref(), u.last_name.as_deref(), u.name.as_deref(), &u.email)),
        role: Role::parse(&u.role).unwrap_or(Role::Homeowner),
        created_at: u.created_at,
    }
}

pub fn media_url(image_id: &str, variant: &str) -> String {
    format!("/media/images/{image_id}/{variant}")
}

pub fn project(p: &ProjectRow) -> Project {
    Project {
        id: p.id.clone(),
        title: p.title.clone(),
        description: p.description.clone(),
        address: p.address.clone(),
        homeowner_id: p.homeowner_id.clone(),
        homeowner_name: display_name(
            p.homeowner_first_name.as_deref(),
            p.homeowner_last_name.as_deref(),
            p.homeowner_name.as_deref(),
            &p.homeowner_email,
        ),
        homeowner_first_name: p.homeowner_first_name.clone(),
        homeowner_last_name: p.homeowner_last_name.clone(),
        builder_id: p.builder_id.clone(),
        builder_name: p
            .builder_email
            .as_deref()
            .map(|email| display_name(None, None, p.builder_name.as_deref(), email)),
        status: ProjectStatus::parse(&p.status).unwrap_or(ProjectStatus::InProgress),
        progress: p.progress,
        progress_mode: ProgressMode::parse(&p.progress_mode).unwrap_or_default(),
        thumbnail_url: p.thumbnail_image_id.as_deref().map(|id| media_url(id, "thumb")),
        thumbnail_pinned: p.thumbnail_pinned != 0,
        created_at: p.created_at,
        updated_at: p.updated_at,
        version: p.version,
    }
}

pub fn image(i: &ImageRow) -> ProjectImage {
    ProjectImage {
        id: i.id.clone(),
        project_id: i.project_id.clone(),
        category: ImageCategory::parse(&i.category).unwrap_or(ImageCategory::Other),
        caption: i.caption.clone(),
        original_name: i.original_name.clone(),
        width: i.width,
        height: i.height,
        taken_at: i.taken_at,
        created_at: i.created_at,
        thumb_url: media_url(&i.id, "thumb"),
        display_url: media_url(&i.id, "display"),
        download_url: media_url(&i.id, "original"),
        version: i.version,
        comment_count: i.comment_count,
        visit_note: i.visit_note.clone(),
        batch_id: i.batch_id.clone(),
        milestone_id: i.milestone_id.clone(),
    }
}

pub fn comment(c: &CommentRow) -> Comment {
    Comment {
        id: c.id.clone(),
        image_id: c.image_id.clone(),
        project_id: c.project_id.clone(),
        author: UserSummary {
            id: c.author_id.clone(),
            email: c.author_email.clone(),
            name: Some(display_name(
                c.author_first_name.as_deref(),
                c.author_last_name.as_deref(),
                c.author_name.as_deref(),
                &c.author_email,
            )),
            role: Role::parse(&c.author_role).unwrap_or(Role::Homeowner),
            created_at: c.author_created_at,
        },
        body: c.body.clone(),
        created_at: c.created_at,
        updated_at: c.updated_at,
    }
}

/// A project as a guest sees it (issue 18): the same facts, but a name that fell back
/// to an email address is not shown to someone without an account.
pub fn project_for_guest(p: &ProjectRow) -> Project {
    redact_for_guest(project(p))
}

pub fn redact_for_guest(mut project: Project) -> Project {
    if project.homeowner_name.contains('@') {
        project.homeowner_name = "Homeowner".to_owned();
    }
    project.builder_name = project.builder_name.filter(|n| !n.contains('@'));
    project
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_follow_spec_order() {
        assert_eq!(display_name(Some("Ana"), Some("Lee"), Some("x"), "a@b.co"), "Ana Lee");
        assert_eq!(display_name(Some("Ana"), None, Some("x"), "a@b.co"), "Ana");
        assert_eq!(display_name(None, None, Some("Acme Builders"), "a@b.co"), "Acme Builders");
        assert_eq!(display_name(Some(" "), None, None, "a@b.co"), "a@b.co");
    }
}
