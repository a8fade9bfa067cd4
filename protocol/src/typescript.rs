//! Builds `web/src/protocol/types.ts` from the wire types. A test in `tests/` fails
//! when the committed file differs, and rewrites it when `UPDATE_TS_TYPES=1`.

use ts_rs::{Config, TS};

use crate::error::{ApiError, ErrorCode, FieldError};
use crate::replies::REPLIES;
use crate::messages::{
    AddComment, AddMilestoneTemplate, GetMarkup, SaveMarkup, DeleteComment, DeleteMilestone, DeletePhoto, DeleteProject, DeleteUser, EditComment,
    GetMailPreferences, GetProject, ListComments, ListGuestLinks, ListMilestones, ListNotifications, ListPhotos, ListProjects,
    ListTimeline, ListUsers, MarkAllNotificationsRead, MarkNotificationRead, MoveMilestone, Ping, RevokeGuestLink,
    SetFavourite, Subscribe, Unsubscribe, UserDeletionImpact, Search, EndSearch, ListTags, TagPhotos, PublishUploads, PublishedFile, GetInstallationSettings,
    AddMilestone, ClientMsg, CreateGuestLink, CreateProject, CreateUser, Event, GuestHello, Hello, LogEntry, MilestoneStart,
    PasswordChange, ProfileUpdate, Request, Response, ServerMsg, SetMilestoneDone, Snapshot, UpdateMilestone,
    UpdatePhoto, UpdateProject, UpdateUser, UserCounts, UserSort, UserListing, PreviewReport, MakeReport, ListReports, DeleteReport, ShareReport, MailReport,
    ListCompanies, CreateCompany, UpdateCompany, DeleteCompany, CompanyDeletionImpact, InviteMember, UpdateMember, RemoveMember, SetProjectCrew,
    GetSecurity, StartTotp, ConfirmTotp, RemoveTotp, NewRecoveryCodes, StartPasskey, AddPasskey, RenamePasskey, RemovePasskey, GetPushSettings, SubscribePush, UnsubscribePush, RemovePushDevice,
    VerifyFactor, StartFactorPasskey, VerifyFactorPasskey, EndSession, EndOtherSessions, ResetFactors,
};
use crate::types::{
    Comment, Favourite, Geometry, GuestAccess, Markup, MarkupColor, Point, Shape, StrokeWidth, GuestLink, GuestPhotos, ImageCategory, MailPreferences, Milestone, MilestonePlan,
    Notification, NotificationKind, Profile, ProgressMode, Project, ProjectImage, ProjectStatus, Role, TimelineDetail,
    TimelineEntry, TimelinePhoto, UserSummary, GeoPoint, TagKind, TagUse, SearchResults, ProjectHit, PhotoHit, CommentHit,
    InstallationSettings, ReportPhotos, ReportGrouping, ReportPair, ReportOptions, ReportStatus, Report, ReportMilestoneState,
    ReportMilestone, ReportPhoto, ReportSection, ReportPairView, ReportContent, SharedReport,
    CompanyRole, Byline, Member, Company, Security, PasskeyInfo, DeviceSession, TotpEnrolment, PushSettings, PushDevice,
};

/// Path of the generated file, relative to the workspace root.
pub const TYPES_PATH: &str = "web/src/protocol/types.ts";

pub fn typescript_bindings() -> String {
    // Timestamps and versions are i64 but stay below 2^53, so JavaScript reads them as
    // plain numbers (msgpackr decodes them that way too).
    let cfg = Config::new().with_large_int("number");
    let decls = [
        Role::decl(&cfg),
        CompanyRole::decl(&cfg),
        ProjectStatus::decl(&cfg),
        ImageCategory::decl(&cfg),
        ProgressMode::decl(&cfg),
        Profile::decl(&cfg),
        UserSummary::decl(&cfg),
        Byline::decl(&cfg),
        Member::decl(&cfg),
        Company::decl(&cfg),
        Project::decl(&cfg),
        GeoPoint::decl(&cfg),
        ProjectImage::decl(&cfg),
        TagKind::decl(&cfg),
        TagUse::decl(&cfg),
        Favourite::decl(&cfg),
        Comment::decl(&cfg),
        Point::decl(&cfg),
        MarkupColor::decl(&cfg),
        StrokeWidth::decl(&cfg),
        Geometry::decl(&cfg),
        Shape::decl(&cfg),
        Markup::decl(&cfg),
        MailPreferences::decl(&cfg),
        PushSettings::decl(&cfg),
        PushDevice::decl(&cfg),
        NotificationKind::decl(&cfg),
        Notification::decl(&cfg),
        Milestone::decl(&cfg),
        MilestonePlan::decl(&cfg),
        TimelinePhoto::decl(&cfg),
        TimelineDetail::decl(&cfg),
        TimelineEntry::decl(&cfg),
        GuestPhotos::decl(&cfg),
        GuestLink::decl(&cfg),
        GuestAccess::decl(&cfg),
        ProjectHit::decl(&cfg),
        PhotoHit::decl(&cfg),
        CommentHit::decl(&cfg),
        SearchResults::decl(&cfg),
        ReportPhotos::decl(&cfg),
        ReportGrouping::decl(&cfg),
        ReportPair::decl(&cfg),
        ReportOptions::decl(&cfg),
        ReportStatus::decl(&cfg),
        Report::decl(&cfg),
        ReportMilestoneState::decl(&cfg),
        ReportMilestone::decl(&cfg),
        ReportPhoto::decl(&cfg),
        ReportSection::decl(&cfg),
        ReportPairView::decl(&cfg),
        ReportContent::decl(&cfg),
        SharedReport::decl(&cfg),
        InstallationSettings::decl(&cfg),
        Security::decl(&cfg),
        PasskeyInfo::decl(&cfg),
        DeviceSession::decl(&cfg),
        TotpEnrolment::decl(&cfg),
        ErrorCode::decl(&cfg),
        FieldError::decl(&cfg),
        ApiError::decl(&cfg),
        ClientMsg::decl(&cfg),
        CreateUser::decl(&cfg),
        UpdateUser::decl(&cfg),
        CreateProject::decl(&cfg),
        UpdateProject::decl(&cfg),
        ProfileUpdate::decl(&cfg),
        PasswordChange::decl(&cfg),
        LogEntry::decl(&cfg),
        UpdatePhoto::decl(&cfg),
        MilestoneStart::decl(&cfg),
        AddMilestone::decl(&cfg),
        UpdateMilestone::decl(&cfg),
        SetMilestoneDone::decl(&cfg),
        CreateGuestLink::decl(&cfg),
        Ping::decl(&cfg),
        ListUsers::decl(&cfg),
        DeleteUser::decl(&cfg),
        UserDeletionImpact::decl(&cfg),
        ListProjects::decl(&cfg),
        GetProject::decl(&cfg),
        DeleteProject::decl(&cfg),
        Subscribe::decl(&cfg),
        Unsubscribe::decl(&cfg),
        ListPhotos::decl(&cfg),
        DeletePhoto::decl(&cfg),
        SetFavourite::decl(&cfg),
        ListComments::decl(&cfg),
        AddComment::decl(&cfg),
        GetMarkup::decl(&cfg),
        SaveMarkup::decl(&cfg),
        EditComment::decl(&cfg),
        DeleteComment::decl(&cfg),
        ListNotifications::decl(&cfg),
        MarkNotificationRead::decl(&cfg),
        MarkAllNotificationsRead::decl(&cfg),
        GetMailPreferences::decl(&cfg),
        ListMilestones::decl(&cfg),
        AddMilestoneTemplate::decl(&cfg),
        MoveMilestone::decl(&cfg),
        DeleteMilestone::decl(&cfg),
        ListTimeline::decl(&cfg),
        ListGuestLinks::decl(&cfg),
        RevokeGuestLink::decl(&cfg),
        Search::decl(&cfg),
        EndSearch::decl(&cfg),
        PreviewReport::decl(&cfg),
        MakeReport::decl(&cfg),
        ListReports::decl(&cfg),
        DeleteReport::decl(&cfg),
        ShareReport::decl(&cfg),
        MailReport::decl(&cfg),
        ListCompanies::decl(&cfg),
        CreateCompany::decl(&cfg),
        UpdateCompany::decl(&cfg),
        DeleteCompany::decl(&cfg),
        CompanyDeletionImpact::decl(&cfg),
        InviteMember::decl(&cfg),
        UpdateMember::decl(&cfg),
        RemoveMember::decl(&cfg),
        SetProjectCrew::decl(&cfg),
        GetSecurity::decl(&cfg),
        StartTotp::decl(&cfg),
        ConfirmTotp::decl(&cfg),
        RemoveTotp::decl(&cfg),
        NewRecoveryCodes::decl(&cfg),
        StartPasskey::decl(&cfg),
        AddPasskey::decl(&cfg),
        RenamePasskey::decl(&cfg),
        RemovePasskey::decl(&cfg),
        VerifyFactor::decl(&cfg),
        StartFactorPasskey::decl(&cfg),
        VerifyFactorPasskey::decl(&cfg),
        EndSession::decl(&cfg),
        EndOtherSessions::decl(&cfg),
        ResetFactors::decl(&cfg),
        GetPushSettings::decl(&cfg),
        SubscribePush::decl(&cfg),
        UnsubscribePush::decl(&cfg),
        RemovePushDevice::decl(&cfg),
        ListTags::decl(&cfg),
        TagPhotos::decl(&cfg),
        PublishedFile::decl(&cfg),
        PublishUploads::decl(&cfg),
        GetInstallationSettings::decl(&cfg),
        Request::decl(&cfg),
        UserListing::decl(&cfg),
        UserCounts::decl(&cfg),
        UserSort::decl(&cfg),
        Response::decl(&cfg),
        Snapshot::decl(&cfg),
        Hello::decl(&cfg),
        GuestHello::decl(&cfg),
        Event::decl(&cfg),
        ServerMsg::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust `protocol` crate by `cargo test -p sitecast-protocol`.\n\
         // Do not edit: change the Rust types and run `UPDATE_TS_TYPES=1 cargo test -p sitecast-protocol`.\n\n",
    );
    out.push_str(&format!("export const PROTOCOL_VERSION = {};\n", crate::PROTOCOL_VERSION));
    // The largest client frame the server reads: requests that carry lists are checked
    // against it in the web app's tests.
    out.push_str(&format!("export const MAX_FRAME_BYTES = {};\n", crate::MAX_FRAME_BYTES));
    for decl in decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(decl.trim());
        out.push('\n');
    }
    out.push_str(&reply_map());
    out
}

/// The request/reply pairing (`replies.rs`) in both forms the client needs: a value, to
/// check at run time that a reply is the declared one, and a type, so that `request(req)`
/// resolves with `ReplyTo[typeof req.type]` without any call naming its reply.
fn reply_map() -> String {
    let mut out = String::from(
        "\n/** The reply type that answers each request type; any request may fail with an `ApiError` instead. */\n\
         export const REPLY_TYPES = {\n",
    );
    for pairing in REPLIES {
        out.push_str(&format!("  \"{}\": \"{}\",\n", pairing.request_type(), pairing.response_type()));
    }
    out.push_str("} as const satisfies { [K in Request[\"type\"]]: Response[\"type\"] };\n");
    out.push_str("\n/** The reply that answers each request type. */\nexport type ReplyTo = {\n");
    for pairing in REPLIES {
        out.push_str(&format!(
            "  \"{}\": Extract<Response, {{ \"type\": \"{}\" }}>,\n",
            pairing.request_type(),
            pairing.response_type()
        ));
    }
    out.push_str("};\n");
    out
}
