//! Comments on photos (docs/FEATURES.md, "Comments, notifications and mail"): everyone
//! who may see a project may read and write comments on its photos; authors edit and
//! delete their own, admins delete any. Each change goes out through the one change path
//! to the project's subscribers.

use protocol::{Comment, ErrorCode, Role, TimelineDetail, UserSummary};

use crate::domain::shared::changes::{Change, Owners};
use crate::domain::messaging::notifications::{self, Notice};
use crate::domain::media::photos::visible_photo;
use crate::domain::shared::policy::{self, Action, Actor, CommentRef, Target};
use crate::domain::projects::project_ref;
use crate::domain::shared::services::Services;
use crate::domain::projects::timeline::{self, Who};
use crate::domain::shared::validation::{self, COMMENT};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::comments::{self, CommentRow, NewComment};
use crate::store::notifications as store_notifications;
use crate::store::projects::ProjectRow;
use crate::store::{activity, new_id, now_ms, projects, users};

pub const COMMENT_NOT_FOUND: &str = "Comment not found";
pub const COMMENT_EMPTY: &str = "Comment cannot be empty.";
pub const NOT_ALLOWED_EDIT: &str = "You can only edit your own comments.";
pub const NOT_ALLOWED_DELETE: &str = "You can only delete your own comments.";

fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, COMMENT_NOT_FOUND)
}

/// The text as stored: trimmed; refused when empty, or when `COMMENT` does not take it
/// as sent (too long, or control characters other than line breaks and tabs).
pub fn clean_body(raw: &str) -> Result<String> {
    let body = raw.trim();
    if body.is_empty() {
        return Err(Error::field("body", COMMENT_EMPTY));
    }
    COMMENT.check("body", raw)?;
    Ok(body.to_owned())
}

/// A photo's comments, oldest first, and the people who may see its project.
pub async fn list(svc: &Services, actor: &Actor, image_id: &str) -> Result<(Vec<Comment>, Vec<UserSummary>)> {
    let (image, project) = visible_photo(svc, actor, image_id).await?;
    if !policy::allows(actor, Action::CommentOnPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::NotFound, crate::domain::media::photos::IMAGE_NOT_FOUND));
    }
    let pool = svc.store.pool();
    let comments = comments::list_for_image(pool, &image.id).await?.iter().map(views::comment).collect();
    let people = people(svc, &project).await?;
    Ok((comments, people))
}

/// Who may see a project, and so may be @mentioned on it: its homeowner, the members
/// of its company who see it (docs/FEATURES.md, "Builder companies") and the admins
/// (SPEC.md §6), each once.
pub async fn people(svc: &Services, row: &ProjectRow) -> Result<Vec<UserSummary>> {
    let pool = svc.store.pool();
    let project = project_ref(row);
    let mut people: Vec<UserSummary> = Vec::new();
    for id in &crate::domain::shared::audience::project_people(pool, &Owners::of(row)).await? {
        if let Some(user) = users::find_by_id(pool, id).await? {
            people.push(views::summary(&user));
        }
    }
    for admin in users::list_by_role(pool, Role::Admin.as_str()).await? {
        let actor = Actor::of(&admin);
        if policy::can_view_project(&actor, project) && !people.iter().any(|p| p.id == admin.id) {
            people.push(views::summary(&admin));
        }
    }
    Ok(people)
}

/// Adds a comment and, in the same transaction, the notifications it causes: to the
/// people it @mentions, those who commented on the photo before, and the project's
/// homeowner and builder (see `notifications::comment_recipients`).
pub async fn add(svc: &Services, actor: &Actor, image_id: &str, body: &str) -> Result<(Comment, Vec<Change>)> {
    let (image, project) = visible_photo(svc, actor, image_id).await?;
    if !policy::allows(actor, Action::CommentOnPhoto, Target::Project(project_ref(&project))) {
        return Err(Error::new(ErrorCode::NotFound, crate::domain::media::photos::IMAGE_NOT_FOUND));
    }
    let body = clean_body(body)?;
    let people = people(svc, &project).await?;
    let mentioned = notifications::mentioned(&body, &people);
    let id = new_id();
    let mut tx = svc.store.begin_write().await?;
    let earlier: Vec<String> = store_notifications::commenters_of_image(&mut *tx, &image.id).await?.into_iter().map(|(id, _)| id).collect();
    let owners: Vec<String> = people.iter().filter(|p| p.role != Role::Admin).map(|p| p.id.clone()).collect();
    let new = NewComment {
        id: &id,
        image_id: &image.id,
        project_id: &project.id,
        author_id: &actor.id,
        body: &body,
        now: now_ms(),
    };
    comments::insert(&mut tx, &new).await?;
    let row = comments::find(&mut *tx, &id).await?.ok_or_else(not_found)?;
    let count = comments::count_of_image(&mut *tx, &image.id).await?;
    let comment = views::comment(&row);
    let author = comment.author.name.clone().unwrap_or_else(|| comment.author.email.clone());
    let notices = notifications::comment_recipients(&actor.id, &owners, &mentioned, &earlier, &people)
        .into_iter()
        .map(|(user_id, kind)| Notice {
            user_id,
            kind,
            project_id: project.id.clone(),
            image_id: Some(image.id.clone()),
            actor_name: Some(author.clone()),
            title: notifications::comment_title(kind, &author, &project.title),
            body: notifications::excerpt(&body),
        })
        .collect();
    let notified = notifications::record(&mut tx, notices).await?;
    // The comment on the project's timeline, going with the comment (docs/FEATURES.md,
    // "The project's story").
    let name = timeline::name_from(row.author_first_name.as_deref(), row.author_last_name.as_deref(), row.author_name.as_deref())
        .map(|name| views::byline(&name, row.author_company.as_deref()));
    let who = Who { id: Some(actor.id.clone()), name, role: Some(actor.role) };
    let detail = TimelineDetail::Comment {
        comment_id: id.clone(),
        excerpt: notifications::excerpt(&body),
        photo: timeline::photo(&image.id),
    };
    let entry = timeline::record(&mut tx, &project.id, &who, detail, Some(&id), row.created_at).await?;
    tx.commit().await?;
    let mut changes = vec![Change::Comment {
        id,
        image_id: image.id,
        project_id: project.id,
        created: true,
        comment_count: count,
        state: Some(Box::new(comment.clone())),
    }];
    changes.extend(notified);
    changes.push(entry);
    Ok((comment, changes))
}

/// A comment the actor may do `action` to. Comments on projects the actor cannot see
/// are answered like unknown ones; seen but not theirs gets `denied`.
async fn comment_for(svc: &Services, actor: &Actor, id: &str, action: Action, denied: &str) -> Result<CommentRow> {
    if !validation::could_be_id(id) {
        return Err(not_found());
    }
    let pool = svc.store.pool();
    let row = comments::find(pool, id).await?.ok_or_else(not_found)?;
    let project = projects::find(pool, &row.project_id).await?.ok_or_else(not_found)?;
    if !policy::can_view_project(actor, project_ref(&project)) {
        return Err(not_found());
    }
    let target = CommentRef { project: project_ref(&project), author_id: &row.author_id };
    if !policy::allows(actor, action, Target::Comment(target)) {
        return Err(Error::new(ErrorCode::Forbidden, denied));
    }
    Ok(row)
}

pub async fn edit(svc: &Services, actor: &Actor, id: &str, body: &str) -> Result<(Comment, Vec<Change>)> {
    let row = comment_for(svc, actor, id, Action::EditComment, NOT_ALLOWED_EDIT).await?;
    let body = clean_body(body)?;
    if body == row.body {
        return Ok((views::comment(&row), Vec::new()));
    }
    let pool = svc.store.pool();
    if !comments::update_body(pool, &row.id, &body, now_ms()).await? {
        return Err(not_found());
    }
    let row = comments::find(pool, &row.id).await?.ok_or_else(not_found)?;
    let comment = views::comment(&row);
    let count = comments::count_of_image(pool, &row.image_id).await?;
    let change = Change::Comment {
        id: row.id,
        image_id: row.image_id,
        project_id: row.project_id,
        created: false,
        comment_count: count,
        state: Some(Box::new(comment.clone())),
    };
    Ok((comment, vec![change]))
}

pub async fn delete(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let row = comment_for(svc, actor, id, Action::DeleteComment, NOT_ALLOWED_DELETE).await?;
    let mut tx = svc.store.begin_write().await?;
    if !comments::delete(&mut tx, &row.id, &row.image_id).await? {
        return Err(not_found());
    }
    let count = comments::count_of_image(&mut *tx, &row.image_id).await?;
    let entries = activity::delete_by_subject(&mut *tx, &row.id).await?;
    tx.commit().await?;
    let project_id = row.project_id.clone();
    let mut changes =
        vec![Change::CommentDeleted { id: row.id, image_id: row.image_id, project_id: row.project_id, comment_count: count }];
    changes.extend(entries.into_iter().map(|id| Change::TimelineRemoved { id, project_id: project_id.clone() }));
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_trimmed_and_bounded() {
        assert_eq!(clean_body("  Is this crack a problem?\n ").unwrap(), "Is this crack a problem?");
        assert_eq!(clean_body("line one\nline two").unwrap(), "line one\nline two");
        assert_eq!(clean_body("tabs\tstay").unwrap(), "tabs\tstay");
        // Refused (docs/LIMITS.md), not quietly changed into something the author did not
        // write.
        for bad in ["a\u{0}b", "bell\u{7}", "\u{1b}[2Jcleared"] {
            assert_eq!(clean_body(bad).unwrap_err().api.fields[0].message, "Comment cannot contain control characters.", "{bad:?}");
        }
        assert_eq!(clean_body(" \n\t ").unwrap_err().api.message, COMMENT_EMPTY);
        assert!(clean_body(&"x".repeat(COMMENT.max)).is_ok());
        assert_eq!(clean_body(&"x".repeat(COMMENT.max + 1)).unwrap_err().api.message, COMMENT.message());
    }
}
