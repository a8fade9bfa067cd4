//! Stored rows turned into the wire types the client sees.

use protocol::{Byline, Comment, Company, GeoPoint, Member, Profile, Project, ProjectImage, UserSummary};

use crate::store::comments::CommentRow;
use crate::store::companies::CompanyRow;
use crate::store::images::ImageRow;
use crate::store::projects::ProjectRow;
use crate::store::users::UserRow;

pub fn profile(u: &UserRow) -> Profile {
    Profile {
        id: u.id.clone(),
        email: u.email.clone(),
        role: u.role,
        name: u.name.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        phone: u.phone.clone(),
        builder_id: u.builder_id.clone(),
        company_id: u.company_id.clone(),
        company_name: u.company_name.clone(),
        company_role: u.company_role,
        all_projects: u.all_projects,
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

/// A person with their company, as shown beside what they did (docs/FEATURES.md,
/// "Builder companies"): "Dana Ortiz · Summit Homes"; only the name when the company has
/// the same one (a one-person builder, as every builder was before companies) or there is
/// none.
pub fn byline(name: &str, company: Option<&str>) -> String {
    match company.map(str::trim).filter(|c| !c.is_empty() && *c != name.trim()) {
        Some(company) => format!("{name} · {company}"),
        None => name.to_owned(),
    }
}

pub fn summary(u: &UserRow) -> UserSummary {
    UserSummary {
        id: u.id.clone(),
        email: u.email.clone(),
        name: Some(display_name(u.first_name.as_deref(), u.last_name.as_deref(), u.name.as_deref(), &u.email)),
        role: u.role,
        created_at: u.created_at,
        company: u.company_name.clone(),
    }
}

/// A company with its members (docs/FEATURES.md, "Builder companies").
pub fn company(c: &CompanyRow, members: &[UserRow]) -> Company {
    Company {
        id: c.id.clone(),
        name: c.name.clone(),
        members: members.iter().filter_map(member).collect(),
        project_count: c.project_count,
        created_at: c.created_at,
        version: c.version,
    }
}

fn member(u: &UserRow) -> Option<Member> {
    Some(Member {
        id: u.id.clone(),
        email: u.email.clone(),
        name: display_name(u.first_name.as_deref(), u.last_name.as_deref(), u.name.as_deref(), &u.email),
        phone: u.phone.clone(),
        company_role: u.company_role?,
        all_projects: u.all_projects,
        invited: u.password_hash.is_none(),
        last_sign_in_at: u.last_sign_in_at,
    })
}

pub fn media_url(image_id: &str, variant: &str) -> String {
    format!("/media/images/{image_id}/{variant}")
}

/// The photo a project's `thumbnailUrl` (made by `media_url`) shows.
pub fn thumbnail_photo_id(project: &Project) -> Option<&str> {
    project.thumbnail_url.as_deref()?.strip_prefix("/media/images/")?.strip_suffix("/thumb")
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
        builder_id: p.company_id.clone(),
        builder_name: p.company_name.clone(),
        crew: p.crew.clone(),
        status: p.status,
        progress: p.progress,
        progress_mode: p.progress_mode,
        thumbnail_url: p.thumbnail_image_id.as_deref().map(|id| media_url(id, "thumb")),
        thumbnail_pinned: p.thumbnail_pinned,
        created_at: p.created_at,
        updated_at: p.updated_at,
        version: p.version,
    }
}

pub fn image(i: &ImageRow) -> ProjectImage {
    ProjectImage {
        id: i.id.clone(),
        project_id: i.project_id.clone(),
        category: i.category,
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
        markup_count: i.markup_count,
        visit_note: i.visit_note.clone(),
        batch_id: i.batch_id.clone(),
        milestone_id: i.milestone_id.clone(),
        tags: i.tags.clone(),
        location: i.location.map(|(lat, lon)| GeoPoint { lat, lon }),
        uploaded_by: i.uploader.as_ref().zip(i.uploaded_by.as_ref()).map(|(u, id)| Byline {
            id: id.clone(),
            name: display_name(u.first_name.as_deref(), u.last_name.as_deref(), u.name.as_deref(), &u.email),
            company: u.company_name.clone(),
        }),
    }
}

/// A photo as a guest sees it: where it was taken and who took it are not theirs to
/// know (docs/FEATURES.md, "Tags and search" and "Builder companies").
pub fn for_guests(photo: ProjectImage) -> ProjectImage {
    ProjectImage { location: None, uploaded_by: None, ..photo }
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
            role: c.author_role,
            created_at: c.author_created_at,
            company: c.author_company.clone(),
        },
        body: c.body.clone(),
        created_at: c.created_at,
        updated_at: c.updated_at,
    }
}

/// A person as a guest sees them: no address, and no name that fell back to one.
pub fn person_for_guests(mut person: UserSummary) -> UserSummary {
    person.name = person.name.filter(|n| !n.contains('@'));
    person.email = String::new();
    person
}

/// A project as a guest sees it (docs/FEATURES.md, "The project's story"): the same facts,
/// but a name that fell back to an email address is not shown to someone without an
/// account. (Which photos it names is `guests::GuestView`'s to decide.)
pub fn redact_for_guest(mut project: Project) -> Project {
    if project.homeowner_name.contains('@') {
        project.homeowner_name = "Homeowner".to_owned();
    }
    project.builder_name = project.builder_name.filter(|n| !n.contains('@'));
    project.crew = Vec::new();
    project
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byline_names_the_company_unless_it_is_the_person() {
        assert_eq!(byline("Dana Ortiz", Some("Summit Homes")), "Dana Ortiz · Summit Homes");
        assert_eq!(byline("Summit Homes", Some("Summit Homes")), "Summit Homes");
        assert_eq!(byline("Jamie Carter", None), "Jamie Carter");
        assert_eq!(byline("Jamie Carter", Some(" ")), "Jamie Carter");
    }

    #[test]
    fn display_names_follow_spec_order() {
        assert_eq!(display_name(Some("Ana"), Some("Lee"), Some("x"), "a@b.co"), "Ana Lee");
        assert_eq!(display_name(Some("Ana"), None, Some("x"), "a@b.co"), "Ana");
        assert_eq!(display_name(None, None, Some("Acme Builders"), "a@b.co"), "Acme Builders");
        assert_eq!(display_name(Some(" "), None, None, "a@b.co"), "a@b.co");
    }

    #[test]
    fn a_thumbnail_url_names_its_photo() {
        let mut row = ProjectRow::example("p", "h", None);
        assert_eq!(thumbnail_photo_id(&project(&row)), None);
        row.thumbnail_image_id = Some("0190a0b4-7d2e-7abc-8def-0123456789ab".into());
        assert_eq!(thumbnail_photo_id(&project(&row)), Some("0190a0b4-7d2e-7abc-8def-0123456789ab"));
    }
}
