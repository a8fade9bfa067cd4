//! Routes each request to its handler (`handlers`). Every request is a type the
//! protocol pairs with its reply (`protocol::RequestMessage`), and a handler of a
//! request answers with that reply and the changes it made — answering a request with
//! another reply does not compile. The session hands the changes to `Live::publish`.
//! Subscriptions, which need the socket itself, are handled by the session actor.

use protocol::{ErrorCode, Request, RequestMessage, Response};

use crate::domain::shared::changes::Change;
use crate::domain::sharing::guests;
use crate::domain::shared::policy::{Action, Actor, Guest};
use crate::domain::shared::services::Services;
use crate::error::{Error, Result};
use crate::live::Live;

pub struct RequestContext {
    pub svc: Services,
    pub live: Live,
    pub actor: Actor,
    pub session_id: String,
    /// The session must enrol a second factor before anything else.
    pub enrol_required: bool,
}

/// What a handler of request `R` answers: `R`'s reply, and the changes to publish.
pub(super) type Answer<R> = Result<(<R as RequestMessage>::Reply, Vec<Change>)>;

/// One handler per request type, for signed-in users.
pub(super) trait Handle: RequestMessage {
    async fn handle(self, cx: &RequestContext) -> Answer<Self>;
}

/// The guests' handlers: a guest only looks, at their link's project.
pub(super) trait HandleGuest: RequestMessage {
    async fn handle_guest(self, svc: &Services, guest: &Guest) -> Result<Self::Reply>;
}

type Outcome = Result<(Response, Vec<Change>)>;

/// A handler's typed answer on the wire.
fn respond<T: Into<Response>>(answer: Result<(T, Vec<Change>)>) -> Outcome {
    answer.map(|(reply, changes)| (reply.into(), changes))
}

/// A guest's requests: only those about their link's project, the rest
/// refused here, before any use case runs. Each is decided on the link as it is now
/// (revoked, expired, its maker's standing), not as the socket found it when it opened.
pub async fn dispatch_guest(svc: &Services, guest: &Guest, request: Request) -> Result<Response> {
    // A keep-alive reads nothing, and decides nothing.
    let pass = match &request {
        Request::Ping(_) => None,
        _ => Some(guests::pass_by_id(svc, &guest.link_id).await?),
    };
    let guest = pass.as_ref().map_or(guest, |p| &p.guest);
    let linked = |project_id: &str| project_id == guest.project_id;
    match request {
        Request::Ping(r) => r.handle_guest(svc, guest).await.map(Into::into),
        // A report link's page has its report from the hello and asks for nothing else.
        _ if guest.report_id.is_some() => Err(Error::new(ErrorCode::Forbidden, guests::GUESTS_ONLY_VIEW)),
        Request::ListMilestones(r) if linked(&r.project_id) => r.handle_guest(svc, guest).await.map(Into::into),
        Request::ListTimeline(r) if linked(&r.project_id) => r.handle_guest(svc, guest).await.map(Into::into),
        Request::ListPhotos(r) if linked(&r.project_id) => r.handle_guest(svc, guest).await.map(Into::into),
        // Only a photo of their link's project, that the link shows (checked inside).
        Request::GetMarkup(r) => r.handle_guest(svc, guest).await.map(Into::into),
        // Their link's project only, whatever project it names
        // (docs/FEATURES.md, "Tags and search").
        Request::Search(r) => r.handle_guest(svc, guest).await.map(Into::into),
        _ => Err(Error::new(ErrorCode::Forbidden, guests::GUESTS_ONLY_VIEW)),
    }
}

/// The requests that grant or take away power, or share outside the account: for an
/// account with a second factor, each wants one proved in the session's last 15
/// minutes ("Confirm it's you", `security::require_fresh_factor`). Decided here, for
/// every request, before any use case runs — not by each handler remembering to ask.
fn fresh_factor_for(request: &Request) -> Option<Action> {
    match request {
        Request::CreateUser(r) if r.role == protocol::Role::Admin => Some(Action::CreateUser),
        Request::DeleteUser(_) => Some(Action::DeleteUser),
        Request::UpdateInstallationSettings(_) => Some(Action::ManageInstallation),
        Request::DeleteCompany(_) => Some(Action::DeleteCompany),
        Request::InviteMember(r) if r.company_role != protocol::CompanyRole::Crew => Some(Action::InviteMember),
        Request::UpdateMember(_) | Request::RemoveMember(_) => Some(Action::ManageMember),
        Request::CreateGuestLink(_) => Some(Action::ShareProject),
        Request::ShareReport(_) => Some(Action::ShareReport),
        _ => None,
    }
}

pub async fn dispatch(cx: RequestContext, request: Request) -> Outcome {
    let cx = &cx;
    if cx.enrol_required && !request.allowed_before_enrolment() {
        return Err(Error::new(ErrorCode::EnrolRequired, crate::domain::identity::security::ENROL_REQUIRED));
    }
    if let Some(action) = fresh_factor_for(&request) {
        crate::domain::identity::security::require_fresh_factor(&cx.svc, &cx.actor, &cx.session_id, action).await?;
    }
    match request {
        Request::Ping(r) => respond(r.handle(cx).await),
        Request::ListUsers(r) => respond(r.handle(cx).await),
        Request::CreateUser(r) => respond(r.handle(cx).await),
        Request::UpdateUser(r) => respond(r.handle(cx).await),
        Request::DeleteUser(r) => respond(r.handle(cx).await),
        Request::UserDeletionImpact(r) => respond(r.handle(cx).await),
        Request::ListProjects(r) => respond(r.handle(cx).await),
        Request::GetProject(r) => respond(r.handle(cx).await),
        Request::CreateProject(r) => respond(r.handle(cx).await),
        Request::UpdateProject(r) => respond(r.handle(cx).await),
        Request::DeleteProject(r) => respond(r.handle(cx).await),
        Request::UpdateProfile(r) => respond(r.handle(cx).await),
        Request::ChangePassword(r) => respond(r.handle(cx).await),
        Request::Log(r) => respond(r.handle(cx).await),
        Request::ListPhotos(r) => respond(r.handle(cx).await),
        Request::UpdatePhoto(r) => respond(r.handle(cx).await),
        Request::DeletePhoto(r) => respond(r.handle(cx).await),
        Request::SetFavourite(r) => respond(r.handle(cx).await),
        Request::ListComments(r) => respond(r.handle(cx).await),
        Request::AddComment(r) => respond(r.handle(cx).await),
        Request::GetMarkup(r) => respond(r.handle(cx).await),
        Request::SaveMarkup(r) => respond(r.handle(cx).await),
        Request::EditComment(r) => respond(r.handle(cx).await),
        Request::DeleteComment(r) => respond(r.handle(cx).await),
        Request::ListNotifications(r) => respond(r.handle(cx).await),
        Request::MarkNotificationRead(r) => respond(r.handle(cx).await),
        Request::MarkAllNotificationsRead(r) => respond(r.handle(cx).await),
        Request::GetMailPreferences(r) => respond(r.handle(cx).await),
        Request::UpdateMailPreferences(r) => respond(r.handle(cx).await),
        Request::ListMilestones(r) => respond(r.handle(cx).await),
        Request::AddMilestone(r) => respond(r.handle(cx).await),
        Request::AddMilestoneTemplate(r) => respond(r.handle(cx).await),
        Request::UpdateMilestone(r) => respond(r.handle(cx).await),
        Request::SetMilestoneDone(r) => respond(r.handle(cx).await),
        Request::MoveMilestone(r) => respond(r.handle(cx).await),
        Request::DeleteMilestone(r) => respond(r.handle(cx).await),
        Request::ListTimeline(r) => respond(r.handle(cx).await),
        Request::CreateGuestLink(r) => respond(r.handle(cx).await),
        Request::ListGuestLinks(r) => respond(r.handle(cx).await),
        Request::RevokeGuestLink(r) => respond(r.handle(cx).await),
        Request::Search(r) => respond(r.handle(cx).await),
        Request::EndSearch(r) => respond(r.handle(cx).await),
        Request::ListTags(r) => respond(r.handle(cx).await),
        Request::TagPhotos(r) => respond(r.handle(cx).await),
        Request::PublishUploads(r) => respond(r.handle(cx).await),
        Request::PreviewReport(r) => respond(r.handle(cx).await),
        Request::MakeReport(r) => respond(r.handle(cx).await),
        Request::ListReports(r) => respond(r.handle(cx).await),
        Request::DeleteReport(r) => respond(r.handle(cx).await),
        Request::ShareReport(r) => respond(r.handle(cx).await),
        Request::MailReport(r) => respond(r.handle(cx).await),
        Request::GetInstallationSettings(r) => respond(r.handle(cx).await),
        Request::UpdateInstallationSettings(r) => respond(r.handle(cx).await),
        Request::ListCompanies(r) => respond(r.handle(cx).await),
        Request::CreateCompany(r) => respond(r.handle(cx).await),
        Request::UpdateCompany(r) => respond(r.handle(cx).await),
        Request::DeleteCompany(r) => respond(r.handle(cx).await),
        Request::CompanyDeletionImpact(r) => respond(r.handle(cx).await),
        Request::InviteMember(r) => respond(r.handle(cx).await),
        Request::UpdateMember(r) => respond(r.handle(cx).await),
        Request::RemoveMember(r) => respond(r.handle(cx).await),
        Request::SetProjectCrew(r) => respond(r.handle(cx).await),
        Request::GetSecurity(r) => respond(r.handle(cx).await),
        Request::StartTotp(r) => respond(r.handle(cx).await),
        Request::ConfirmTotp(r) => respond(r.handle(cx).await),
        Request::RemoveTotp(r) => respond(r.handle(cx).await),
        Request::NewRecoveryCodes(r) => respond(r.handle(cx).await),
        Request::StartPasskey(r) => respond(r.handle(cx).await),
        Request::AddPasskey(r) => respond(r.handle(cx).await),
        Request::RenamePasskey(r) => respond(r.handle(cx).await),
        Request::RemovePasskey(r) => respond(r.handle(cx).await),
        Request::VerifyFactor(r) => respond(r.handle(cx).await),
        Request::StartFactorPasskey(r) => respond(r.handle(cx).await),
        Request::VerifyFactorPasskey(r) => respond(r.handle(cx).await),
        Request::EndSession(r) => respond(r.handle(cx).await),
        Request::EndOtherSessions(r) => respond(r.handle(cx).await),
        Request::ResetFactors(r) => respond(r.handle(cx).await),
        Request::GetPushSettings(r) => respond(r.handle(cx).await),
        Request::SubscribePush(r) => respond(r.handle(cx).await),
        Request::UnsubscribePush(r) => respond(r.handle(cx).await),
        Request::RemovePushDevice(r) => respond(r.handle(cx).await),
        Request::Subscribe(_) | Request::Unsubscribe(_) => Err(Error::internal("subscriptions are handled by the session actor")),
    }
}
