//! One handler per request type: each calls its use case and answers the reply the
//! protocol pairs with its request, and the changes to publish. A project's changes
//! (its details, people, deletion, milestones and photos) run as a step in the
//! project's turn (`Live`'s `Turns::take`), which publishes them as they commit: their
//! handlers answer no changes of their own.

use protocol::reply::{
    Comment, Comments, DeletionImpact, Done, GuestLinkCreated, GuestLinks, InstallationSettings as SettingsReply, MailPreferences,
    Markup, Milestones, Notifications, Photo, Photos, Pong, Project, Projects, Report, ReportPreview, Reports, SearchResults, Tagged,
    Tags, Timeline, User, UserPage, Security, TotpEnrolment, RecoveryCodes, PasskeyChallenge, PushSettings,
};
use protocol::{
    AddComment, AddMilestone, GetMarkup, SaveMarkup, AddMilestoneTemplate, CreateGuestLink, CreateProject, CreateUser,
    DeleteComment, DeleteMilestone, DeletePhoto, DeleteProject, DeleteUser, EditComment, GetMailPreferences, GetProject,
    ListComments, ListGuestLinks, ListMilestones, ListNotifications, ListPhotos, ListProjects, ListTimeline, ListUsers,
    LogEntry, MarkAllNotificationsRead, MarkNotificationRead, MoveMilestone, PasswordChange, Ping, ProfileUpdate,
    RevokeGuestLink, SetFavourite, SetMilestoneDone, UpdateMilestone, UpdatePhoto, UpdateProject, UpdateUser,
    UserDeletionImpact, Search, EndSearch, ListTags, TagPhotos, PublishUploads, GetInstallationSettings, InstallationSettings, PreviewReport,
    MakeReport, ListReports, DeleteReport, ShareReport, MailReport, ListCompanies, CreateCompany, UpdateCompany, DeleteCompany,
    CompanyDeletionImpact, InviteMember, UpdateMember, RemoveMember, SetProjectCrew, GetSecurity, StartTotp, ConfirmTotp,
    RemoveTotp, NewRecoveryCodes, StartPasskey, AddPasskey, RenamePasskey, RemovePasskey, VerifyFactor, StartFactorPasskey,
    VerifyFactorPasskey, EndSession, EndOtherSessions, ResetFactors, GetPushSettings, SubscribePush, UnsubscribePush,
    RemovePushDevice, PROJECT_PAGE, USER_PAGE,
};

use super::dispatch::{Answer, Handle, HandleGuest, RequestContext};
use crate::domain::shared::changes::Change;
use crate::domain::projects::milestones::{self, Edit};
use crate::domain::shared::policy::{Action, Guest};
use crate::domain::shared::services::Services;
use crate::domain::shared::turns::{Step, Turns};
use crate::domain::{
    media::comments, companies, sharing::guests, media::markup, media::uploads, messaging::mail_preferences, messaging::notifications, media::photos, identity::profile, projects, messaging::push, sharing::reports, sharing::search, identity::security, identity::settings, media::tags,
    projects::timeline, identity::users,
};
use crate::error::Result;

/// A reply with no changes of its own.
fn plain<T>(reply: T) -> Result<(T, Vec<Change>)> {
    Ok((reply, Vec::new()))
}

/// A milestone change in its project's turn, which publishes its changes.
async fn milestone_turn(cx: &RequestContext, project_id: String, edit: Edit) -> Result<(Milestones, Vec<Change>)> {
    let (svc, actor, id) = (cx.svc.clone(), cx.actor.clone(), project_id.clone());
    let plan = cx.live.take(&project_id, Box::pin(async move { milestones::change(&svc, &actor, &id, &edit).await })).await?;
    plain(Milestones { plan })
}

impl Handle for Ping {
    async fn handle(self, _: &RequestContext) -> Answer<Self> {
        plain(Pong {})
    }
}

impl Handle for ListUsers {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let page = users::page(&cx.svc, &cx.actor, &self).await?;
        plain(UserPage { role: self.role, listings: page.listings, total: page.total, page: page.page, page_size: USER_PAGE, counts: page.counts })
    }
}

impl Handle for CreateUser {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (user, changes) = users::create(&cx.svc, &cx.actor, &self).await?;
        Ok((User { user }, changes))
    }
}

impl Handle for UpdateUser {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (user, changes) = users::update(&cx.svc, &cx.actor, &self).await?;
        Ok((User { user }, changes))
    }
}

impl Handle for DeleteUser {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, users::delete(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl Handle for UserDeletionImpact {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (projects, photos) = users::deletion_impact(&cx.svc, &cx.actor, &self.id).await?;
        plain(DeletionImpact { projects, photos })
    }
}

impl Handle for ListProjects {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let page = projects::pages::page(&cx.svc, &cx.actor, self.after.as_deref(), PROJECT_PAGE).await?;
        plain(Projects { projects: page.projects, next: page.next })
    }
}

impl Handle for GetProject {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(Project { project: projects::get(&cx.svc, &cx.actor, &self.id).await? })
    }
}

impl Handle for CreateProject {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (project, changes) = projects::create(&cx.svc, &cx.actor, &self).await?;
        Ok((Project { project }, changes))
    }
}

/// Planned, written and published in the project's turn (an unknown id's turn finds
/// nothing, and its actor stops at once).
impl Handle for UpdateProject {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (svc, actor, id) = (cx.svc.clone(), cx.actor.clone(), self.id.clone());
        let step: Step<protocol::Project> = Box::pin(async move { projects::change(&svc, &actor, &self.id, &self).await });
        plain(Project { project: cx.live.take(&id, step).await? })
    }
}

impl Handle for DeleteProject {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (svc, actor, id) = (cx.svc.clone(), cx.actor.clone(), self.id.clone());
        let step: Step<()> = Box::pin(async move { Ok(((), projects::remove(&svc, &actor, &id).await?)) });
        cx.live.take(&self.id, step).await?;
        plain(Done {})
    }
}

impl Handle for ProfileUpdate {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (user, changes) = profile::update(&cx.svc, &cx.actor, &self).await?;
        Ok((User { user }, changes))
    }
}

impl Handle for PasswordChange {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, profile::change_password(&cx.svc, &cx.actor, &cx.session_id, &self).await?))
    }
}

impl Handle for LogEntry {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        profile::write_log(&cx.svc, &cx.actor, &self).await?;
        plain(Done {})
    }
}

impl Handle for ListPhotos {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let page = photos::page(&cx.svc, &cx.actor, &self.project_id, self.after.as_deref(), self.before, self.limit).await?;
        plain(Photos { project_id: self.project_id, photos: page.photos, favourites: page.favourites, next: page.next })
    }
}

/// A photo's changes take their turn with its project's (a deletion moves the cover);
/// as for projects, unknown and unseen photos start no project actor.
impl Handle for UpdatePhoto {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = photos::project_of(&cx.svc, &cx.actor, &self.id).await?;
        let (svc, actor) = (cx.svc.clone(), cx.actor.clone());
        let photo = cx.live.take(&project_id, Box::pin(async move { photos::update(&svc, &actor, &self).await })).await?;
        plain(Photo { photo })
    }
}

impl Handle for DeletePhoto {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = photos::project_of(&cx.svc, &cx.actor, &self.id).await?;
        let (svc, actor) = (cx.svc.clone(), cx.actor.clone());
        let step: Step<()> = Box::pin(async move { Ok(((), photos::delete(&svc, &actor, &self.id).await?)) });
        cx.live.take(&project_id, step).await?;
        plain(Done {})
    }
}

impl Handle for SetFavourite {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, photos::set_favourite(&cx.svc, &cx.actor, &self.image_id, self.favourite).await?))
    }
}

impl Handle for ListComments {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (comments, people) = comments::list(&cx.svc, &cx.actor, &self.image_id).await?;
        plain(Comments { image_id: self.image_id, comments, people })
    }
}

impl Handle for AddComment {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (comment, changes) = comments::add(&cx.svc, &cx.actor, &self.image_id, &self.body).await?;
        Ok((Comment { comment }, changes))
    }
}

impl Handle for GetMarkup {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(Markup { markup: markup::get(&cx.svc, &cx.actor, &self.image_id).await? })
    }
}

impl HandleGuest for GetMarkup {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<Markup> {
        Ok(Markup { markup: guests::markup(svc, guest, &self.image_id).await? })
    }
}

/// In the photo's project's turn, like every change to a project.
impl Handle for SaveMarkup {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = photos::project_of(&cx.svc, &cx.actor, &self.image_id).await?;
        let (svc, actor) = (cx.svc.clone(), cx.actor.clone());
        let step = Box::pin(async move { markup::save(&svc, &actor, &self.image_id, self.base_version, self.shapes).await });
        plain(Markup { markup: cx.live.take(&project_id, step).await? })
    }
}

impl Handle for EditComment {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (comment, changes) = comments::edit(&cx.svc, &cx.actor, &self.id, &self.body).await?;
        Ok((Comment { comment }, changes))
    }
}

impl Handle for DeleteComment {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, comments::delete(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl Handle for ListNotifications {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (notifications, unread, has_more) = notifications::list(&cx.svc, &cx.actor, self.before).await?;
        plain(Notifications { notifications, unread, has_more })
    }
}

impl Handle for MarkNotificationRead {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, notifications::mark_read(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl Handle for MarkAllNotificationsRead {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, notifications::mark_all_read(&cx.svc, &cx.actor).await?))
    }
}

impl Handle for GetMailPreferences {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(MailPreferences { preferences: mail_preferences::get(&cx.svc, &cx.actor).await? })
    }
}

impl Handle for protocol::MailPreferences {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(MailPreferences { preferences: mail_preferences::update(&cx.svc, &cx.actor, &self).await? })
    }
}

impl Handle for ListMilestones {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(Milestones { plan: milestones::list(&cx.svc, &cx.actor, &self.project_id).await? })
    }
}

// Milestone changes are project changes: planned, written and published in the
// project's turn. Those naming a milestone find its project first (unknown and unseen
// milestones start no project actor).

impl Handle for AddMilestone {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        milestone_turn(cx, self.project_id, Edit::Add { name: self.name, target_date: self.target_date }).await
    }
}

impl Handle for AddMilestoneTemplate {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        milestone_turn(cx, self.project_id, Edit::Template).await
    }
}

impl Handle for UpdateMilestone {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = milestones::project_of(&cx.svc, &cx.actor, &self.id).await?;
        milestone_turn(cx, project_id, Edit::Update { id: self.id, name: self.name, target_date: self.target_date }).await
    }
}

impl Handle for SetMilestoneDone {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = milestones::project_of(&cx.svc, &cx.actor, &self.id).await?;
        milestone_turn(cx, project_id, Edit::SetDone { id: self.id, done: self.done, done_date: self.done_date }).await
    }
}

impl Handle for MoveMilestone {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = milestones::project_of(&cx.svc, &cx.actor, &self.id).await?;
        milestone_turn(cx, project_id, Edit::Move { id: self.id, position: self.position }).await
    }
}

impl Handle for DeleteMilestone {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let project_id = milestones::project_of(&cx.svc, &cx.actor, &self.id).await?;
        milestone_turn(cx, project_id, Edit::Delete { id: self.id }).await
    }
}

impl Handle for ListTimeline {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (entries, next) = timeline::list(&cx.svc, &cx.actor, &self.project_id, self.before.as_deref()).await?;
        plain(Timeline { project_id: self.project_id, entries, next })
    }
}

impl Handle for CreateGuestLink {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (link, url) = guests::create(&cx.svc, &cx.actor, &self).await?;
        plain(GuestLinkCreated { link, url })
    }
}

impl Handle for ListGuestLinks {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let links = guests::list(&cx.svc, &cx.actor, &self.project_id).await?;
        plain(GuestLinks { project_id: self.project_id, links })
    }
}

impl Handle for RevokeGuestLink {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, guests::revoke(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl HandleGuest for Ping {
    async fn handle_guest(self, _: &Services, _: &Guest) -> Result<Pong> {
        Ok(Pong {})
    }
}

impl HandleGuest for ListMilestones {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<Milestones> {
        let project = guests::linked_project(svc, guest, Action::ViewProject).await?;
        Ok(Milestones { plan: guests::milestones(svc, &project).await? })
    }
}

impl HandleGuest for ListPhotos {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<Photos> {
        let project = guests::linked_project(svc, guest, Action::ViewProject).await?;
        let limit = self.limit.unwrap_or(protocol::PHOTO_PAGE);
        let (photos, next) = guests::photo_page(svc, guest, &project, self.after.as_deref(), self.before, limit).await?;
        Ok(Photos { project_id: self.project_id, photos, favourites: Vec::new(), next })
    }
}

impl HandleGuest for ListTimeline {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<Timeline> {
        let (entries, next) = guests::timeline(svc, guest, self.before.as_deref()).await?;
        Ok(Timeline { project_id: self.project_id, entries, next })
    }
}

impl Handle for Search {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(SearchResults { results: search::search(&cx.svc, &cx.actor, &self).await? })
    }
}

impl HandleGuest for Search {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<SearchResults> {
        Ok(SearchResults { results: search::search_guest(svc, guest, &self.query).await? })
    }
}

/// The socket stops hearing `search_changed` (the session did that before this runs).
impl Handle for EndSearch {
    async fn handle(self, _: &RequestContext) -> Answer<Self> {
        plain(Done {})
    }
}

impl Handle for ListTags {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let tags = tags::list(&cx.svc, &cx.actor, &self.project_id).await?;
        plain(Tags { project_id: self.project_id, tags })
    }
}

impl Handle for TagPhotos {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (svc, actor, project_id) = (cx.svc.clone(), cx.actor.clone(), self.project_id.clone());
        let photos = cx.live.take(&project_id, Box::pin(async move { tags::tag(&svc, &actor, &self).await })).await?;
        plain(Tagged { photos })
    }
}

impl Handle for PublishUploads {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        uploads::publish(&cx.svc, &cx.actor, &self, &cx.live).await?;
        plain(Done {})
    }
}

impl Handle for GetInstallationSettings {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (settings, photos_with_location) = settings::get(&cx.svc, &cx.actor).await?;
        plain(SettingsReply { settings, photos_with_location })
    }
}

impl Handle for InstallationSettings {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (settings, photos_with_location) = settings::update(&cx.svc, &cx.actor, &self).await?;
        plain(SettingsReply { settings, photos_with_location })
    }
}

impl Handle for PreviewReport {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (content, photos, pages) = reports::preview(&cx.svc, &cx.actor, &self).await?;
        plain(ReportPreview { content, photos, pages })
    }
}

impl Handle for MakeReport {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        // The report's row is written (and announced) in the project's turn.
        plain(Report { report: reports::make(&cx.svc, &cx.live, &cx.actor, &self).await? })
    }
}

impl Handle for ListReports {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let reports = reports::list(&cx.svc, &cx.actor, &self.project_id).await?;
        plain(Reports { project_id: self.project_id, reports })
    }
}

impl Handle for DeleteReport {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, reports::delete(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl Handle for ShareReport {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (link, url) = reports::share(&cx.svc, &cx.actor, &self).await?;
        plain(GuestLinkCreated { link, url })
    }
}

impl Handle for MailReport {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        // The "mailed" mark is written (and announced) in the project's turn.
        plain(Report { report: reports::mail(&cx.svc, &cx.live, &cx.actor, &self.id).await? })
    }
}

// Builder companies (docs/FEATURES.md, "Builder companies"). A crew change is a change to its
// project, in its turn.

impl Handle for ListCompanies {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(protocol::reply::Companies { companies: companies::list(&cx.svc.store, &cx.actor).await? })
    }
}

impl Handle for CreateCompany {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (company, changes) = companies::create(&cx.svc, &cx.actor, &self.name).await?;
        Ok((protocol::reply::Company { company }, changes))
    }
}

impl Handle for UpdateCompany {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (company, changes) = companies::rename(&cx.svc, &cx.actor, &self.id, &self.name).await?;
        Ok((protocol::reply::Company { company }, changes))
    }
}

impl Handle for DeleteCompany {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, companies::delete(&cx.svc, &cx.actor, &self.id).await?))
    }
}

impl Handle for CompanyDeletionImpact {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (projects, photos, members) = companies::deletion_impact(&cx.svc, &cx.actor, &self.id).await?;
        plain(protocol::reply::CompanyDeletionImpact { projects, photos, members })
    }
}

impl Handle for InviteMember {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (company, changes) = companies::invite(&cx.svc, &cx.actor, &self).await?;
        Ok((protocol::reply::Company { company }, changes))
    }
}

impl Handle for UpdateMember {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (company, changes) = companies::update_member(&cx.svc, &cx.actor, &self).await?;
        Ok((protocol::reply::Company { company }, changes))
    }
}

impl Handle for RemoveMember {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (company, changes) = companies::remove_member(&cx.svc, &cx.actor, &self.id).await?;
        Ok((protocol::reply::Company { company }, changes))
    }
}

impl Handle for SetProjectCrew {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (svc, actor, id) = (cx.svc.clone(), cx.actor.clone(), self.project_id.clone());
        let step: Step<protocol::Project> =
            Box::pin(async move { companies::set_crew(&svc, &actor, &self.project_id, &self.user_ids).await });
        plain(Project { project: cx.live.take(&id, step).await? })
    }
}

// The account's own security, and an admin's reset of another's
// (docs/SECURITY.md, "Two-factor sign-in").

impl Handle for GetSecurity {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(Security { security: security::overview(&cx.svc, &cx.actor, &cx.session_id).await? })
    }
}

impl Handle for StartTotp {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(TotpEnrolment { enrolment: security::start_totp(&cx.svc, &cx.actor, &cx.session_id).await? })
    }
}

impl Handle for ConfirmTotp {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (codes, changes) = security::confirm_totp(&cx.svc, &cx.actor, &cx.session_id, &self.code).await?;
        Ok((RecoveryCodes { codes }, changes))
    }
}

impl Handle for RemoveTotp {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (security, changes) = security::remove_totp(&cx.svc, &cx.actor, &cx.session_id, &self.password).await?;
        Ok((Security { security }, changes))
    }
}

impl Handle for NewRecoveryCodes {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(RecoveryCodes { codes: security::new_recovery_codes_for(&cx.svc, &cx.actor, &cx.session_id).await? })
    }
}

impl Handle for StartPasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (challenge_id, options) = security::start_passkey(&cx.svc, &cx.actor, &cx.session_id).await?;
        plain(PasskeyChallenge { challenge_id, options })
    }
}

impl Handle for AddPasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (security, changes) = security::add_passkey(&cx.svc, &cx.actor, &cx.session_id, &self).await?;
        Ok((Security { security }, changes))
    }
}

impl Handle for RenamePasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(Security { security: security::rename_passkey(&cx.svc, &cx.actor, &cx.session_id, &self.id, &self.name).await? })
    }
}

impl Handle for RemovePasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (security, changes) = security::remove_passkey(&cx.svc, &cx.actor, &cx.session_id, &self.id, &self.password).await?;
        Ok((Security { security }, changes))
    }
}

impl Handle for VerifyFactor {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        security::verify_factor(&cx.svc, &cx.actor, &cx.session_id, &self.code).await?;
        plain(Done {})
    }
}

impl Handle for StartFactorPasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (challenge_id, options) = security::start_factor_passkey(&cx.svc, &cx.actor, &cx.session_id).await?;
        plain(PasskeyChallenge { challenge_id, options })
    }
}

impl Handle for VerifyFactorPasskey {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        security::verify_factor_passkey(&cx.svc, &cx.actor, &cx.session_id, &self.challenge_id, &self.credential).await?;
        plain(Done {})
    }
}

impl Handle for EndSession {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (security, changes) = security::end_session(&cx.svc, &cx.actor, &cx.session_id, &self.id).await?;
        Ok((Security { security }, changes))
    }
}

impl Handle for EndOtherSessions {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        let (security, changes) = security::end_other_sessions(&cx.svc, &cx.actor, &cx.session_id).await?;
        Ok((Security { security }, changes))
    }
}

impl Handle for ResetFactors {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        Ok((Done {}, security::reset_factors(&cx.svc, &cx.actor, &cx.session_id, &self.user_id).await?))
    }
}

// Push notifications on this account's devices
// (docs/FEATURES.md, "Comments, notifications and mail").

impl Handle for GetPushSettings {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(PushSettings { settings: push::settings(&cx.svc, &cx.actor, self.endpoint.as_deref()).await? })
    }
}

impl Handle for SubscribePush {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(PushSettings { settings: push::subscribe(&cx.svc, &cx.actor, &cx.session_id, &self).await? })
    }
}

impl Handle for UnsubscribePush {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(PushSettings { settings: push::unsubscribe(&cx.svc, &cx.actor, &self.endpoint).await? })
    }
}

impl Handle for RemovePushDevice {
    async fn handle(self, cx: &RequestContext) -> Answer<Self> {
        plain(PushSettings { settings: push::remove(&cx.svc, &cx.actor, &self.id, self.endpoint.as_deref()).await? })
    }
}
