//! In-app notifications (docs/FEATURES.md, "Comments, notifications and mail"): new
//! photos in my project (one per batch), a comment on a photo in my project, a reply in a
//! thread I commented in, an @mention, my project's status change. Each is recorded in
//! the transaction of what caused it, and only its recipient ever hears of it.

use protocol::{ErrorCode, Notification, NotificationKind, ProjectStatus, UserSummary};

use crate::domain::shared::changes::Change;
use crate::domain::messaging::mail_preferences::{self, MailKind};
use crate::domain::{shared::validation, shared::views};
use crate::mail::templates::{self, DigestItem};
use crate::domain::shared::policy::Actor;
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::store::notifications::{self, NotificationRow};
use crate::store::{new_id, now_ms, users, StoreError, Tx};

/// Notifications older than this are deleted by the hourly maintenance.
pub const KEEP_DAYS: i64 = 90;
/// One page of the notification centre.
pub const PAGE: i64 = 20;
/// A comment's opening words in a notification.
const EXCERPT_CHARS: usize = 140;

pub const NOTIFICATION_NOT_FOUND: &str = "Notification not found";

/// A notification to record.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub user_id: String,
    pub kind: NotificationKind,
    pub project_id: String,
    pub image_id: Option<String>,
    pub actor_name: Option<String>,
    pub title: String,
    pub body: String,
}

/// Records the notices in the caller's transaction; the changes tell each recipient
/// once it commits.
pub async fn record(tx: &mut Tx, notices: Vec<Notice>) -> std::result::Result<Vec<Change>, StoreError> {
    let now = now_ms();
    let mut changes = Vec::with_capacity(notices.len());
    for notice in notices {
        let row = NotificationRow {
            id: new_id(),
            user_id: notice.user_id,
            kind: notice.kind,
            project_id: Some(notice.project_id),
            image_id: notice.image_id,
            actor_name: notice.actor_name,
            title: notice.title,
            body: notice.body,
            created_at: now,
            read_at: None,
        };
        // Comments, replies and mentions also go out by mail, batched per user.
        let for_digest = matches!(notice.kind, NotificationKind::Comment | NotificationKind::Reply | NotificationKind::Mention);
        notifications::insert(&mut **tx, &row, for_digest).await?;
        crate::domain::messaging::push::queue(tx, &row.user_id, &view(&row)).await?;
        changes.push(Change::Notification { id: row.id, user_id: row.user_id });
    }
    Ok(changes)
}

/// How long a comment notification waits for others to join it in one digest mail.
pub const DIGEST_DELAY_MS: i64 = 5 * 60 * 1000;

/// Mails each user whose oldest waiting comment notification was created at or before
/// `cutoff` one digest of everything waiting (or nothing, when they turned comment
/// mails off). Each notification is taken in a transaction with its mail, so two
/// instances never mail it twice. Returns how many digests were queued.
pub async fn send_comment_digests(svc: &Services, cutoff: i64) -> Result<usize> {
    let mut sent = 0;
    for user_id in notifications::digest_due(svc.store.pool(), cutoff).await? {
        let mut tx = svc.store.begin_write().await?;
        let rows = notifications::digest_pending(&mut *tx, &user_id).await?;
        let mut taken = Vec::with_capacity(rows.len());
        for row in rows {
            if notifications::take_for_digest(&mut *tx, &row.id).await? {
                taken.push(row);
            }
        }
        let wants = mail_preferences::wants(svc, &user_id, MailKind::Comments).await?;
        let user = users::find_by_id(&mut *tx, &user_id).await?;
        if let (true, Some(user), false) = (wants, user, taken.is_empty()) {
            let items: Vec<DigestItem> = taken
                .iter()
                .map(|n| DigestItem { title: n.title.clone(), body: n.body.clone(), link: svc.auth.link(&view(n).link) })
                .collect();
            let name = views::summary(&user).name.unwrap_or_else(|| user.email.clone());
            let footer = mail_preferences::footer(svc, &user_id, MailKind::Comments).await?;
            let mail = templates::comment_digest(&user.email, &name, &items, &svc.auth.link("/dashboard"), &footer);
            svc.auth.outbox.enqueue(&mut *tx, &mail).await?;
            sent += 1;
        }
        tx.commit().await?;
    }
    if sent > 0 {
        svc.auth.outbox.wake();
    }
    Ok(sent)
}

/// Queues a status-change mail to each of `user_ids` who asked for them (inside the
/// change's transaction).
pub async fn mail_status_change(
    svc: &Services,
    tx: &mut Tx,
    user_ids: &[String],
    project_id: &str,
    project_title: &str,
    status: ProjectStatus,
) -> Result<bool> {
    let mut queued = false;
    for user_id in user_ids {
        if !mail_preferences::wants(svc, user_id, MailKind::StatusChanges).await? {
            continue;
        }
        let Some(user) = users::find_by_id(&mut **tx, user_id).await? else { continue };
        let name = views::summary(&user).name.unwrap_or_else(|| user.email.clone());
        let footer = mail_preferences::footer(svc, user_id, MailKind::StatusChanges).await?;
        let link = svc.auth.link(&format!("/projects/{project_id}"));
        let mail = templates::status_changed(&user.email, &name, project_title, status_label(status), &link, &footer);
        svc.auth.outbox.enqueue(&mut **tx, &mail).await?;
        queued = true;
    }
    Ok(queued)
}

pub fn view(row: &NotificationRow) -> Notification {
    let link = match (&row.project_id, &row.image_id) {
        (Some(project), Some(image)) => format!("/projects/{project}?photo={image}"),
        (Some(project), None) => format!("/projects/{project}"),
        _ => "/dashboard".to_owned(),
    };
    Notification {
        id: row.id.clone(),
        kind: row.kind,
        project_id: row.project_id.clone(),
        image_id: row.image_id.clone(),
        actor_name: row.actor_name.clone(),
        title: row.title.clone(),
        body: row.body.clone(),
        link,
        created_at: row.created_at,
        read_at: row.read_at,
    }
}

/// A page of the actor's notifications (before `before`, newest first), their unread
/// count and whether more remain.
pub async fn list(svc: &Services, actor: &Actor, before: Option<i64>) -> Result<(Vec<Notification>, i64, bool)> {
    let pool = svc.store.pool();
    let mut rows = notifications::page(pool, &actor.id, before.unwrap_or(i64::MAX), PAGE + 1).await?;
    let has_more = rows.len() as i64 > PAGE;
    rows.truncate(PAGE as usize);
    let unread = notifications::unread_count(pool, &actor.id).await?;
    Ok((rows.iter().map(view).collect(), unread, has_more))
}

/// Marks one read; one already read succeeds and changes nothing. Someone else's is
/// answered like an unknown id.
pub async fn mark_read(svc: &Services, actor: &Actor, id: &str) -> Result<Vec<Change>> {
    let pool = svc.store.pool();
    let found = if validation::could_be_id(id) { notifications::find(pool, id).await? } else { None };
    let row = found.filter(|n| n.user_id == actor.id);
    let Some(row) = row else {
        return Err(Error::new(ErrorCode::NotFound, NOTIFICATION_NOT_FOUND));
    };
    if !notifications::mark_read(pool, &actor.id, &row.id, now_ms()).await? {
        return Ok(Vec::new());
    }
    Ok(vec![Change::NotificationsRead { user_id: actor.id.clone(), ids: vec![row.id], all: false }])
}

pub async fn mark_all_read(svc: &Services, actor: &Actor) -> Result<Vec<Change>> {
    if notifications::mark_all_read(svc.store.pool(), &actor.id, now_ms()).await? == 0 {
        return Ok(Vec::new());
    }
    Ok(vec![Change::NotificationsRead { user_id: actor.id.clone(), ids: Vec::new(), all: true }])
}

/// The ids of `people` whose `@Name` the text contains: at the start or after a space
/// or an opening bracket, and not followed by a letter or digit (the web app marks the
/// same mentions).
pub fn mentioned(body: &str, people: &[UserSummary]) -> Vec<String> {
    let lower = body.to_lowercase();
    let mut found = Vec::new();
    for person in people {
        let Some(name) = person.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) else { continue };
        let needle = format!("@{}", name.to_lowercase());
        let mut from = 0;
        while let Some(at) = lower[from..].find(&needle).map(|i| i + from) {
            let before_ok = lower[..at].chars().next_back().is_none_or(|c| c.is_whitespace() || "([{".contains(c));
            let after_ok = lower[at + needle.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
            if before_ok && after_ok {
                found.push(person.id.clone());
                break;
            }
            from = at + needle.len();
        }
    }
    found
}

/// Who hears of a new comment, and why: the people it mentions, then those who
/// commented on the photo before, then the project's people (`owners`: its homeowner
/// and the company members who see it, `policy::project_people`); each once, for the
/// first reason that applies, never the author, and only people the policy lets see
/// the project. `people` are those who may see it (the mentionable, admins too),
/// `earlier` the photo's earlier commenters.
pub fn comment_recipients(
    author_id: &str,
    owners: &[String],
    mentioned: &[String],
    earlier: &[String],
    people: &[UserSummary],
) -> Vec<(String, NotificationKind)> {
    let mut out: Vec<(String, NotificationKind)> = Vec::new();
    let may_see = |id: &str| people.iter().any(|p| p.id == id);
    let mut add = |id: &str, kind: NotificationKind| {
        if id != author_id && !out.iter().any(|(u, _)| u == id) {
            out.push((id.to_owned(), kind));
        }
    };
    for id in mentioned {
        if may_see(id) {
            add(id, NotificationKind::Mention);
        }
    }
    for id in earlier {
        if may_see(id) {
            add(id, NotificationKind::Reply);
        }
    }
    for id in owners {
        add(id, NotificationKind::Comment);
    }
    out
}

/// The words of a comment notification.
pub fn comment_title(kind: NotificationKind, author: &str, project: &str) -> String {
    match kind {
        NotificationKind::Mention => format!("{author} mentioned you on a photo in {project}"),
        NotificationKind::Reply => format!("{author} replied on a photo you commented on in {project}"),
        _ => format!("{author} commented on a photo in {project}"),
    }
}

/// A comment's opening words.
pub fn excerpt(body: &str) -> String {
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= EXCERPT_CHARS {
        return flat;
    }
    let cut: String = flat.chars().take(EXCERPT_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// "3 new photos in Maple Street Residence".
pub fn new_photos_title(count: usize, project: &str) -> String {
    if count == 1 {
        format!("1 new photo in {project}")
    } else {
        format!("{count} new photos in {project}")
    }
}

pub fn status_label(status: ProjectStatus) -> &'static str {
    match status {
        ProjectStatus::Planning => "Planning",
        ProjectStatus::InProgress => "In Progress",
        ProjectStatus::OnHold => "On Hold",
        ProjectStatus::Completed => "Completed",
    }
}

/// The project's people (its homeowner and the company members who see it), but not
/// the one who acted.
pub fn owners_except(people: &[String], actor_id: &str) -> Vec<String> {
    people.iter().filter(|id| *id != actor_id).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Role;

    fn person(id: &str, name: &str, role: Role) -> UserSummary {
        UserSummary { id: id.into(), email: format!("{id}@x.y"), name: Some(name.into()), role, created_at: 0, company: None }
    }

    #[test]
    fn mentions_are_names_of_the_projects_people() {
        let people = [person("b", "Summit Homes", Role::Builder), person("a", "Alex Morgan", Role::Admin), person("h", "Jamie Carter", Role::Homeowner)];
        assert_eq!(mentioned("@summit homes is this ok? (@Alex Morgan)", &people), vec!["b", "a"]);
        assert!(mentioned("mail jamie@Jamie Carter", &people).is_empty(), "not after a letter");
        assert!(mentioned("@Alex Morganton", &people).is_empty(), "not a longer word");
        assert_eq!(mentioned("@Alex Morganton and @Alex Morgan.", &people), vec!["a"]);
    }

    #[test]
    fn each_recipient_once_for_the_first_reason_never_the_author_never_an_outsider() {
        let project = ["h".to_owned(), "b".to_owned()];
        let project = &project[..];
        let people = [person("b", "Summit Homes", Role::Builder), person("a", "Alex Morgan", Role::Admin), person("h", "Jamie Carter", Role::Homeowner)];
        // The homeowner comments mentioning the builder; an admin and a builder who
        // lost the project (no longer among its people) commented before.
        let earlier = ["a".to_owned(), "b-old".to_owned(), "h".to_owned()];
        let got = comment_recipients("h", project, &["b".to_owned()], &earlier, &people);
        assert_eq!(got, vec![("b".into(), NotificationKind::Mention), ("a".into(), NotificationKind::Reply)]);
        // The builder comments, nobody before: the homeowner hears of a comment.
        let got = comment_recipients("b", project, &[], &[], &people);
        assert_eq!(got, vec![("h".into(), NotificationKind::Comment)]);
        // A mention of someone who is not among the project's people does nothing.
        let got = comment_recipients("a", project, &["stranger".to_owned()], &[], &people);
        assert_eq!(got, vec![("h".into(), NotificationKind::Comment), ("b".into(), NotificationKind::Comment)]);
    }

    #[test]
    fn words() {
        assert_eq!(new_photos_title(1, "Maple"), "1 new photo in Maple");
        assert_eq!(new_photos_title(3, "Maple"), "3 new photos in Maple");
        assert_eq!(excerpt("a\n\n b"), "a b");
        let long = excerpt(&"word ".repeat(100));
        assert!(long.ends_with('…') && long.chars().count() <= EXCERPT_CHARS);
        assert_eq!(owners_except(&["h".to_owned(), "b".to_owned()], "b"), vec!["h"]);
    }
}
