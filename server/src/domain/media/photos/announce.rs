//! New photos announced, once per site visit: the homeowner's "N new photos" mail,
//! notifications to the project's people, and the visit's timeline entry.

use protocol::{NotificationKind, TimelineDetail};

use crate::domain::shared::changes::Change;
use crate::domain::messaging::mail_preferences::{self, MailKind};
use crate::domain::messaging::notifications::{self, Notice};
use crate::domain::shared::policy::Actor;
use crate::domain::shared::services::Services;
use crate::domain::projects::timeline::{self, Who};
use crate::domain::shared::turns::{Step, Turns};
use crate::domain::shared::views;
use crate::error::Result;
use crate::mail::templates;
use crate::store::projects::ProjectRow;
use crate::store::{images, now_ms, users};

/// One batch of new photos in a project (a site visit of resumable uploads, with its
/// note) announced in the project's turn, after the photos it
/// announces; a failure is logged, the photos stay.
pub(crate) async fn announce_in_turn(
    svc: &Services,
    uploader_id: &str,
    project: &ProjectRow,
    batch_id: Option<&str>,
    count: usize,
    note: Option<&str>,
    turns: &impl Turns,
) {
    let step: Step<()> = {
        let (svc, uploader_id, project) = (svc.clone(), uploader_id.to_owned(), project.clone());
        let (batch_id, note) = (batch_id.map(str::to_owned), note.map(str::to_owned));
        Box::pin(async move {
            let changes = announce_new_photos(&svc, &uploader_id, &project, batch_id.as_deref(), count, note.as_deref()).await?;
            Ok(((), changes))
        })
    };
    if let Err(err) = turns.take(&project.id, step).await {
        err.log("announcing new photos");
    }
}

/// One batch of new photos announced once: the homeowner's "N new photos" mail (with
/// the site visit's note), one notification to each of the project's homeowner and
/// builder but the uploader, and the site visit's timeline entry with a strip of its
/// photos (docs/FEATURES.md, "The project's story"). Call it once per batch; publish the
/// changes it returns.
pub async fn announce_new_photos(
    svc: &Services,
    uploader_id: &str,
    project: &ProjectRow,
    batch_id: Option<&str>,
    count: usize,
    note: Option<&str>,
) -> Result<Vec<Change>> {
    if let Err(err) = mail_new_photos(svc, project, count, note).await {
        err.log("queueing the new-photos mail");
    }
    let pool = svc.store.pool();
    let uploader = users::find_by_id(pool, uploader_id).await?;
    let actor_name = uploader.as_ref().and_then(|u| views::summary(u).name);
    let people = crate::domain::shared::audience::project_people(pool, &crate::domain::shared::changes::Owners::of(project)).await?;
    let notices: Vec<Notice> = notifications::owners_except(&people, uploader_id)
        .into_iter()
        .map(|user_id| Notice {
            user_id,
            kind: NotificationKind::NewPhotos,
            project_id: project.id.clone(),
            image_id: None,
            actor_name: actor_name.clone(),
            title: notifications::new_photos_title(count, &project.title),
            body: actor_name.as_ref().map(|n| format!("Added by {n}")).unwrap_or_default(),
        })
        .collect();
    let mut tx = svc.store.begin_write().await?;
    let mut changes = notifications::record(&mut tx, notices).await?;
    if let Some(batch_id) = batch_id {
        let who = match &uploader {
            Some(u) => Who::of(&Actor::of(u), Some(u)),
            None => Who { id: None, name: None, role: None },
        };
        // The visit's photos as they are now, in the order they were stored: the strip
        // shows the first of them that still exist whenever it is read.
        let photos = images::of_batch(&mut *tx, batch_id, timeline::REMEMBERED as i64).await?;
        let photos = photos.iter().map(|id| timeline::photo(id)).collect();
        let count = i32::try_from(count).unwrap_or(i32::MAX);
        let detail = TimelineDetail::PhotosAdded { count, photos, note: note.map(str::to_owned) };
        changes.push(timeline::record(&mut tx, &project.id, &who, detail, Some(batch_id), now_ms()).await?);
    }
    tx.commit().await?;
    Ok(changes)
}

async fn mail_new_photos(svc: &Services, project: &ProjectRow, count: usize, note: Option<&str>) -> Result<()> {
    let Some(homeowner) = users::find_by_id(svc.store.pool(), &project.homeowner_id).await? else {
        return Ok(());
    };
    let name = views::display_name(
        homeowner.first_name.as_deref(),
        homeowner.last_name.as_deref(),
        homeowner.name.as_deref(),
        &homeowner.email,
    );
    // The homeowner may have turned these mails off.
    if !mail_preferences::wants(svc, &homeowner.id, MailKind::NewPhotos).await? {
        return Ok(());
    }
    let link = svc.auth.link(&format!("/projects/{}", project.id));
    let footer = mail_preferences::footer(svc, &homeowner.id, MailKind::NewPhotos).await?;
    let mail = templates::new_photos(&homeowner.email, &name, count, &project.title, &link, note, &footer);
    svc.auth.outbox.enqueue(svc.store.pool(), &mail).await?;
    svc.auth.outbox.wake();
    Ok(())
}

