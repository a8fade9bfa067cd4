import type {
  AddMilestone,
  Comment,
  Company,
  InviteMember,
  UpdateMember,
  CreateGuestLink,
  CreateProject,
  CreateUser,
  GuestLink,
  InstallationSettings,
  Markup,
  MailPreferences,
  MilestonePlan,
  Notification,
  PasswordChange,
  Profile,
  ProfileUpdate,
  Project,
  ProjectImage,
  PushSettings,
  Report,
  ReportContent,
  ReportOptions,
  SetMilestoneDone,
  ShareReport,
  SearchResults,
  Security,
  Shape,
  SubscribePush,
  TagPhotos,
  TagUse,
  TotpEnrolment,
  UpdatePhoto,
  UpdateProject,
  UpdateMilestone,
  UpdateUser,
  ListUsers,
  Response,
} from '../protocol/types';
import { useAppStore, type AppState } from '../store';
import { applyUser } from './reducer';
import { RequestError, requests, type RequestTracker } from './requests';

/** Tries of one page of photos before the gallery shows Retry, and the waits between them. */
export const PHOTO_PAGE_RETRY_MS = [1_000, 3_000];
/**
 * The pause before asking again when the server says the socket sends too fast (200
 * requests per 10 s): a big project's pages on a fast link can reach that. It does not
 * count as a failed try.
 */
export const PHOTO_PAGE_BUSY_MS = 5_000;

/** How a photo page read goes on after `err`: a pause and the same page again, or give up. */
export function afterPageFailure(err: unknown, failures: number): { wait: number; counts: boolean } | null {
  if (err instanceof RequestError && err.busy) return { wait: PHOTO_PAGE_BUSY_MS, counts: false };
  // A refusal (the project went away, access ended) is final; a lost or slow answer is
  // worth another try.
  if (err instanceof RequestError && err.fromServer) return null;
  const wait = PHOTO_PAGE_RETRY_MS[failures];
  return wait === undefined ? null : { wait, counts: true };
}

/**
 * Reads are numbered across projects and connections, so a read left over from a
 * project closed and opened again (or an earlier connection) never passes for the new one.
 */
let pagingRuns = 0;

/**
 * Reads a project's photos page by page from the cursor `next` to the oldest, while the
 * project stays open (docs/FEATURES.md, "Big projects"). A later read (a refresh, a new
 * subscription) ends this one; a page that fails is tried again, then the gallery says
 * so and offers Retry from where it stopped.
 */
export async function loadPhotoPages(tracker: RequestTracker, store: () => AppState, projectId: string, next: string | null): Promise<void> {
  const held = store().photos[projectId];
  if (!held) return;
  const run = ++pagingRuns;
  const current = () => store().photos[projectId]?.paging.run === run;
  store().photoPagingChanged(projectId, { run, next, loading: next !== null, failed: false });
  let after = next;
  let failures = 0;
  while (after !== null && current()) {
    try {
      const page = await tracker.request({ type: 'list_photos', projectId, after });
      if (!current()) return;
      store().photosListed(projectId, page.photos, page.favourites, { newest: Infinity, next: page.next });
      after = page.next;
      failures = 0;
      store().photoPagingChanged(projectId, { next: after, loading: after !== null });
    } catch (err) {
      if (!current()) return;
      const next = afterPageFailure(err, failures);
      if (next === null) {
        store().photoPagingChanged(projectId, { loading: false, failed: true });
        return;
      }
      if (next.counts) failures += 1;
      await new Promise((resolve) => setTimeout(resolve, next.wait));
    }
  }
}

/** Photos tagged by one request of a bigger selection (the server takes up to 500). */
export const TAG_CHUNK = 100;

/** One page of a user table, as the server answers it. */
export type UserPage = Extract<Response, { type: 'user_page' }>;

/**
 * Waits, at most `most` ms, for the socket's other requests to be answered: a
 * background read goes behind what the person on the page asked for (on a weak
 * signal a 56 KiB page ahead of a search's answer is a third of a second).
 */
async function behindOthers(tracker: RequestTracker, most = 5_000): Promise<void> {
  const until = Date.now() + most;
  while (tracker.inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Numbers the background reads of projects, as `pagingRuns` does photos'. */
let projectRuns = 0;

/**
 * Reads the projects a hello did not carry, page by page from the cursor `next`
 * (docs/FEATURES.md, "Big projects"). A newer hello starts a new read, which ends this
 * one; a page that fails is tried again, then the projects page offers Retry.
 */
export async function loadProjectPages(tracker: RequestTracker, store: () => AppState, next: string | null): Promise<void> {
  const run = ++projectRuns;
  const current = () => store().projectPaging.run === run;
  store().projectPagingChanged({ run, next, loading: next !== null, failed: false });
  let after = next;
  let failures = 0;
  while (after !== null && current()) {
    try {
      const page = await tracker.request({ type: 'list_projects', after });
      if (!current()) return;
      store().projectsPaged(page.projects);
      after = page.next;
      failures = 0;
      store().projectPagingChanged({ next: after, loading: after !== null });
      if (after !== null && tracker.inFlight > 0) await behindOthers(tracker);
    } catch (err) {
      if (!current()) return;
      const wait = afterPageFailure(err, failures);
      if (wait === null) {
        store().projectPagingChanged({ loading: false, failed: true });
        return;
      }
      if (wait.counts) failures += 1;
      await new Promise((resolve) => setTimeout(resolve, wait.wait));
    }
  }
}

/** The installation's settings as an admin's cards hold them, with how many photos keep a location. */
export type HeldSettings = InstallationSettings & { photosWithLocation: number };

/**
 * Every change a screen asks the server for. Each sends its request, applies the reply
 * to the store through the same version-checked actions as events (the event of the
 * same change may come first or after), and resolves with what the screen shows.
 * Failures reject with a `RequestError`; screens choose the toast.
 */
export function createCommands(tracker: RequestTracker, store: () => AppState) {
  const applyPlan = (plan: MilestonePlan): MilestonePlan => {
    store().milestonesReplaced(plan);
    return store().milestones[plan.projectId] ?? plan;
  };

  const listCompanies = async (): Promise<Company[]> => {
    const { companies } = await tracker.request({ type: 'list_companies' });
    for (const company of companies) store().companyUpserted(company);
    return companies;
  };

  return {
    /**
     * A page of a user table (SPEC §2 Tables), searched, sorted and paged by the server.
     * Its people are not added to the store: an admin's tables are read, not mirrored.
     */
    listUsers(input: ListUsers): Promise<UserPage> {
      return tracker.request({ type: 'list_users', ...input });
    },

    /** Reads the rest of the projects again after a failed background read. */
    retryProjectPages(): Promise<void> {
      return loadProjectPages(tracker, store, store().projectPaging.next);
    },

    /** Admin: invite a user of any role (SPEC §5 Create user). */
    async createUser(input: CreateUser): Promise<Profile> {
      const { user } = await tracker.request({ type: 'create_user', ...input });
      applyUser(user, store());
      // An invited builder owns a new company of their name, which the server announces
      // only as the user's event; the Companies tab reads it here (docs/FEATURES.md,
      // "Builder companies"). The user is made whether or not this answers.
      if (user.role === 'builder') await listCompanies().catch(() => undefined);
      return user;
    },

    /** Admin (anyone) or builder (their homeowners). */
    async updateUser(input: UpdateUser): Promise<Profile> {
      const { user } = await tracker.request({ type: 'update_user', ...input });
      applyUser(user, store());
      return user;
    },

    /** Admin, not self: the projects and photos that deleting this user removes. */
    async userDeletionImpact(id: string): Promise<{ projects: number; photos: number }> {
      const { projects, photos } = await tracker.request({ type: 'user_deletion_impact', id });
      return { projects, photos };
    },

    /** Admin, not self; the user leaves the directory with its `user_deleted` event. */
    async deleteUser(id: string): Promise<void> {
      await tracker.request({ type: 'delete_user', id });
    },

    /** Admin. */
    async createProject(input: CreateProject): Promise<Project> {
      const { project } = await tracker.request({ type: 'create_project', ...input });
      store().projectUpserted(project);
      return project;
    },

    /** Details: admin or the project's builder; status and progress: admin. */
    async updateProject(input: UpdateProject): Promise<Project> {
      const { project } = await tracker.request({ type: 'update_project', ...input });
      store().projectUpserted(project);
      return project;
    },

    /** Admin; the project leaves the store with its `project_deleted` event. */
    async deleteProject(id: string): Promise<void> {
      await tracker.request({ type: 'delete_project', id });
    },

    /** Own name and phone. */
    async updateProfile(input: ProfileUpdate): Promise<Profile> {
      const { user } = await tracker.request({ type: 'update_profile', ...input });
      applyUser(user, store());
      return user;
    },

    /** Own password; the server ends this user's other sessions. */
    async changePassword(input: PasswordChange): Promise<void> {
      await tracker.request({ type: 'change_password', ...input });
    },

    /**
     * SPEC §4: favouriting is optimistic. The heart changes at once and goes back if
     * the server refuses (the promise then rejects).
     */
    async setFavourite(photo: ProjectImage, favourite: boolean): Promise<void> {
      store().favouriteChanged(photo.projectId, photo.id, favourite);
      try {
        await tracker.request({ type: 'set_favourite', imageId: photo.id, favourite });
      } catch (err) {
        store().favouriteChanged(photo.projectId, photo.id, !favourite);
        throw err;
      }
    },

    /** Caption and category (admins and the project's builder). */
    async updatePhoto(input: UpdatePhoto): Promise<ProjectImage> {
      const { photo } = await tracker.request({ type: 'update_photo', ...input });
      store().photoUpserted(photo);
      return photo;
    },

    /** Admins only (SPEC §6). */
    async deletePhoto(photo: ProjectImage): Promise<void> {
      await tracker.request({ type: 'delete_photo', id: photo.id });
      store().photoRemoved(photo.projectId, photo.id);
    },

    /** A photo's thread and who may be mentioned in it; events merge into it meanwhile. */
    async listComments(imageId: string): Promise<void> {
      store().threadOpened(imageId);
      const { comments, people } = await tracker.request({ type: 'list_comments', imageId });
      store().threadListed(imageId, comments, people);
    },

    /** Anyone who may see the photo's project. */
    async addComment(imageId: string, body: string): Promise<Comment> {
      const { comment } = await tracker.request({ type: 'add_comment', imageId, body });
      store().commentUpserted(comment);
      return comment;
    },

    /** The author only. */
    async editComment(comment: Comment, body: string): Promise<Comment> {
      const { comment: edited } = await tracker.request({ type: 'edit_comment', id: comment.id, body });
      store().commentUpserted(edited);
      return edited;
    },

    /** The author, or an admin. */
    async deleteComment(comment: Comment): Promise<void> {
      await tracker.request({ type: 'delete_comment', id: comment.id });
      store().commentRemoved(comment.imageId, comment.id);
    },

    /** A photo's markup (anyone who may see the photo); a never-marked photo has version 0. */
    async getMarkup(imageId: string, force = false): Promise<Markup> {
      const { markup } = await tracker.request({ type: 'get_markup', imageId });
      store().markupReceived(markup, force);
      return markup;
    },

    /**
     * The whole shape list, saved over `baseVersion` (admins and the project's builder:
     * any shape; its homeowner: their own pins). Shapes drawn here go with an empty
     * `authorId`, which the server stamps. Rejects with `conflict` when someone saved first.
     */
    async saveMarkup(imageId: string, baseVersion: number, shapes: Shape[]): Promise<Markup> {
      const { markup } = await tracker.request({ type: 'save_markup', imageId, baseVersion, shapes });
      store().markupReceived(markup);
      store().markupCountChanged(markup.projectId, markup.imageId, markup.shapes.length, markup.version);
      return markup;
    },

    /** The newest page of notifications (and the unread count), or the page before `before`. */
    async listNotifications(before?: number): Promise<void> {
      // An absent field, not `undefined` (which msgpackr would encode as a value).
      const request = before === undefined ? { type: 'list_notifications' as const } : { type: 'list_notifications' as const, before };
      const { notifications, unread, hasMore } = await tracker.request(request);
      store().notificationsListed(notifications, unread, hasMore, before === undefined);
    },

    /** Read at once here; the other tabs and devices follow with `notifications_read`. */
    async markNotificationRead(notification: Notification): Promise<void> {
      if (notification.readAt !== null) return;
      const unread = Math.max(0, store().unreadNotifications - 1);
      store().notificationsRead([notification.id], false, unread);
      await tracker.request({ type: 'mark_notification_read', id: notification.id });
    },

    async markAllNotificationsRead(): Promise<void> {
      store().notificationsRead([], true, 0);
      await tracker.request({ type: 'mark_all_notifications_read' });
    },

    /** Own notification preferences: each kind by email and by push (Profile & Settings, Notifications). */
    async mailPreferences(): Promise<MailPreferences> {
      const { preferences } = await tracker.request({ type: 'get_mail_preferences' });
      return preferences;
    },

    async updateMailPreferences(input: MailPreferences): Promise<MailPreferences> {
      const { preferences } = await tracker.request({ type: 'update_mail_preferences', ...input });
      return preferences;
    },

    /**
     * The devices this account has push notifications on, and the server's key to
     * subscribe with (docs/FEATURES.md, "Comments, notifications and mail"); `endpoint`
     * (this browser's subscription) marks this device.
     */
    async pushSettings(endpoint?: string): Promise<PushSettings> {
      return (await tracker.request({ type: 'get_push_settings', ...(endpoint ? { endpoint } : {}) })).settings;
    },

    /** Turns push notifications on for this browser, for as long as this session lasts. */
    async subscribePush(subscription: SubscribePush): Promise<PushSettings> {
      return (await tracker.request({ type: 'subscribe_push', ...subscription })).settings;
    },

    async unsubscribePush(endpoint: string): Promise<PushSettings> {
      return (await tracker.request({ type: 'unsubscribe_push', endpoint })).settings;
    },

    /** Turns them off for another of the account's devices. */
    async removePushDevice(id: string, endpoint?: string): Promise<PushSettings> {
      return (await tracker.request({ type: 'remove_push_device', id, ...(endpoint ? { endpoint } : {}) })).settings;
    },

    /** A project's milestones (admins, the project's builder and homeowner). */
    async listMilestones(projectId: string): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'list_milestones', projectId })).plan);
    },

    /**
     * Milestone edits (admins and the project's builder). No optimism: each reply is the
     * whole plan after the change, applied like `milestones_changed` (newer version wins).
     */
    async addMilestone(input: AddMilestone): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'add_milestone', ...input })).plan);
    },

    /** The standard residential plan, for a project without milestones. */
    async addMilestoneTemplate(projectId: string): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'add_milestone_template', projectId })).plan);
    },

    /** Rename and/or (re)date; an empty `targetDate` clears it. */
    async updateMilestone(input: UpdateMilestone): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'update_milestone', ...input })).plan);
    },

    /** Complete (done date: `doneDate`, else today on the server) or reopen. */
    async setMilestoneDone(input: SetMilestoneDone): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'set_milestone_done', ...input })).plan);
    },

    /** To 0-based `position` in the plan. */
    async moveMilestone(id: string, position: number): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'move_milestone', id, position })).plan);
    },

    async deleteMilestone(id: string): Promise<MilestonePlan> {
      return applyPlan((await tracker.request({ type: 'delete_milestone', id })).plan);
    },

    /**
     * The next page of the project's timeline: the newest when nothing is held (or
     * `fromStart`), else the page older than the held cursor. Failures land in the
     * slice (the feed shows them with a retry) and are not thrown.
     */
    async loadTimeline(projectId: string, fromStart = false): Promise<void> {
      const held = store().timelines[projectId];
      if (held?.loading) return;
      const before = !fromStart && held?.loaded ? held.next : null;
      if (held?.loaded && !fromStart && before === null) return; // at the first entry already
      const request = store().timelineLoading(projectId);
      try {
        // An absent field, not `undefined` (which msgpackr would encode as a value).
        const { entries, next } = await tracker.request(
          before === null ? { type: 'list_timeline', projectId } : { type: 'list_timeline', projectId, before },
        );
        store().timelinePage(projectId, request, entries, next);
      } catch (err) {
        // The server's own message when it refused; ours when it never answered.
        const message = err instanceof RequestError && err.fromServer ? err.message : 'Failed to load the timeline.';
        store().timelineFailed(projectId, request, message);
      }
    },

    /**
     * The project's photos again from the newest, merged with what events brought
     * meanwhile; the older pages follow in the background. Rejects if the first page
     * fails.
     */
    async refreshPhotos(projectId: string): Promise<void> {
      const { photos, favourites, next } = await tracker.request({ type: 'list_photos', projectId });
      store().photosListed(projectId, photos, favourites, { newest: Infinity, next });
      void loadPhotoPages(tracker, store, projectId, next);
    },

    /** The pages not read yet, after a failure (the gallery's Retry). */
    async resumePhotos(projectId: string): Promise<void> {
      const paging = store().photos[projectId]?.paging;
      if (paging?.next) await loadPhotoPages(tracker, store, projectId, paging.next);
    },

    /**
     * A read-only link to the project (its homeowner, its builder, admins). The reply's
     * URL carries the secret token and is never shown again: only its hash is stored.
     */
    async createGuestLink(input: CreateGuestLink): Promise<{ link: GuestLink; url: string }> {
      const { link, url } = await tracker.request({ type: 'create_guest_link', ...input });
      return { link, url };
    },

    /** The caller's links to the project (an admin's view: everyone's). */
    async listGuestLinks(projectId: string): Promise<GuestLink[]> {
      const { links } = await tracker.request({ type: 'list_guest_links', projectId });
      return links;
    },

    /** Stops the link at once, open guest pages included. */
    async revokeGuestLink(id: string): Promise<void> {
      await tracker.request({ type: 'revoke_guest_link', id });
    },

    /**
     * What this user may see that matches the query, everywhere or in one project
     * (docs/FEATURES.md, "Tags and search"). Watched, the socket hears `search_changed`
     * until `endSearch` (or a search that is not watched), so open results can run again.
     */
    async search(query: string, projectId: string | null = null, watch = true): Promise<SearchResults> {
      const { results } = await tracker.request({ type: 'search', query, projectId, watch });
      return results;
    },

    /** The search box closed: no more `search_changed` for this socket. */
    async endSearch(): Promise<void> {
      await tracker.request({ type: 'end_search' });
    },

    /** The project's tags: used ones first (most photos first), then suggestions not used yet. */
    async listTags(projectId: string): Promise<TagUse[]> {
      const { tags } = await tracker.request({ type: 'list_tags', projectId });
      return tags;
    },

    /**
     * Adds and removes tags on photos of one project (admins and the project's builder).
     * The tagged photos come back whole and go in like `photo_updated` (newer wins). A
     * selection of thousands ("Select all" on a year of photos) goes `TAG_CHUNK` photos a
     * request, one after another: each request and reply stays small, and the server's
     * limit per request is never reached.
     */
    async tagPhotos(input: TagPhotos): Promise<ProjectImage[]> {
      const tagged: ProjectImage[] = [];
      for (let from = 0; from < input.imageIds.length; from += TAG_CHUNK) {
        const imageIds = input.imageIds.slice(from, from + TAG_CHUNK);
        const { photos } = await tracker.request({ type: 'tag_photos', ...input, imageIds });
        for (const photo of photos) store().photoUpserted(photo);
        tagged.push(...photos);
      }
      return tagged;
    },

    /**
     * What a report with these options would show now, for the New report dialog's
     * preview (whoever may make it; docs/FEATURES.md, "Progress reports"). Nothing is
     * stored. `content` names the photos of the report's first pages only; `photos` and
     * `pages` are the whole report's (its sections' photos and 2 per pair; the PDF's exact
     * page count).
     */
    async previewReport(projectId: string, options: ReportOptions): Promise<{ content: ReportContent; photos: number; pages: number }> {
      const { content, photos, pages } = await tracker.request({ type: 'preview_report', projectId, options });
      return { content, photos, pages };
    },

    /**
     * Starts a report (admins and the project's builder; its homeowner, of their
     * favourites). The reply comes at once with the report generating; its progress
     * and its end arrive as `report_changed`.
     */
    async makeReport(projectId: string, options: ReportOptions): Promise<Report> {
      const { report } = await tracker.request({ type: 'make_report', projectId, options });
      store().reportUpserted(report);
      return report;
    },

    /**
     * The project's reports, newest first, merged with what events brought meanwhile.
     * Failures land in the slice (the tab shows them with a retry) and are not thrown.
     */
    async loadReports(projectId: string): Promise<void> {
      if (store().reports[projectId]?.loading) return;
      const request = store().reportsLoading(projectId);
      try {
        const { reports } = await tracker.request({ type: 'list_reports', projectId });
        store().reportsListed(projectId, request, reports);
      } catch (err) {
        const message = err instanceof RequestError && err.fromServer ? err.message : 'Failed to load the reports.';
        store().reportsFailed(projectId, request, message);
      }
    },

    /** Its maker or an admin; everyone else with the project open hears `report_deleted`. */
    async deleteReport(report: Report): Promise<void> {
      await tracker.request({ type: 'delete_report', id: report.id });
      store().reportRemoved(report.projectId, report.id);
    },

    /**
     * A view-only link to one ready report, for whoever may share the project
     * (docs/FEATURES.md, "Progress reports").
     * It is a guest link: `listGuestLinks` lists it (its `reportId` set) and
     * `revokeGuestLink` stops it. The URL carries the secret token and is shown once.
     */
    async shareReport(input: ShareReport): Promise<{ link: GuestLink; url: string }> {
      const { link, url } = await tracker.request({ type: 'share_report', ...input });
      return { link, url };
    },

    /**
     * Mails a ready report to the project's homeowner (admins and its builder). The
     * reply carries `mailedAt`/`mailedTo`; the project's other pages hear `report_changed`.
     */
    async mailReport(report: Pick<Report, 'id'>): Promise<Report> {
      const { report: mailed } = await tracker.request({ type: 'mail_report', id: report.id });
      store().reportUpserted(mailed);
      return mailed;
    },

    /** The companies this user sees, merged into the store (newer version wins). */
    listCompanies,

    /**
     * A new builder company (docs/FEATURES.md, "Builder companies"), with no members yet
     * (admins). The reply goes in like `company_changed` (newer version wins).
     */
    async createCompany(name: string): Promise<Company> {
      const { company } = await tracker.request({ type: 'create_company', name });
      store().companyUpserted(company);
      return company;
    },

    /** Its name, which homeowners see as their builder (admins and its owners). */
    async renameCompany(id: string, name: string): Promise<Company> {
      const { company } = await tracker.request({ type: 'update_company', id, name });
      store().companyUpserted(company);
      return company;
    },

    /** Admins: what deleting the company takes with it. */
    async companyDeletionImpact(id: string): Promise<{ projects: number; photos: number; members: number }> {
      const { projects, photos, members } = await tracker.request({ type: 'company_deletion_impact', id });
      return { projects, photos, members };
    },

    /** Admins; the company leaves the store with its `company_deleted` event. */
    async deleteCompany(id: string): Promise<void> {
      await tracker.request({ type: 'delete_company', id });
    },

    /**
     * Invites someone into a company in a role (admins any; its owners any; managers
     * crew). They are mailed the invitation to set their password.
     */
    async inviteMember(input: InviteMember): Promise<Company> {
      const { company } = await tracker.request({ type: 'invite_member', ...input });
      store().companyUpserted(company);
      return company;
    },

    /** A member's role, or whether crew see every project (admins and the company's owners). */
    async updateMember(input: UpdateMember): Promise<Company> {
      const { company } = await tracker.request({ type: 'update_member', ...input });
      store().companyUpserted(company);
      return company;
    },

    /** Takes a member out of their company; their sessions end everywhere at once. */
    async removeMember(id: string): Promise<Company> {
      const { company } = await tracker.request({ type: 'remove_member', id });
      store().companyUpserted(company);
      return company;
    },

    /** Who of the company's people is on the project's crew (admins, its owners and managers). */
    async setProjectCrew(projectId: string, userIds: string[]): Promise<Project> {
      const { project } = await tracker.request({ type: 'set_project_crew', projectId, userIds });
      store().projectUpserted(project);
      return project;
    },

    /** Admins: the installation's settings, and how many photos keep a location. */
    async installationSettings(): Promise<HeldSettings> {
      const { settings, photosWithLocation } = await tracker.request({ type: 'get_installation_settings' });
      return { ...settings, photosWithLocation };
    },

    /**
     * Admins. The whole set goes each time: a card changes its own setting and sends the
     * others as it read them. Turning locations off also forgets every location kept so far.
     */
    async updateInstallationSettings(settings: InstallationSettings): Promise<HeldSettings> {
      const { settings: saved, photosWithLocation } = await tracker.request({ type: 'update_installation_settings', ...settings });
      return { ...saved, photosWithLocation };
    },

    /**
     * This account's factors and signed-in devices (docs/SECURITY.md,
     * "Two-factor sign-in").
     */
    async security(): Promise<Security> {
      return (await tracker.request({ type: 'get_security' })).security;
    },

    /** A new authenticator-app secret, waiting for its first code (`confirmTotp`). */
    async startTotp(): Promise<TotpEnrolment> {
      return (await tracker.request({ type: 'start_totp' })).enrolment;
    },

    /**
     * The first code from the app turns it on; the reply is the ten recovery codes, shown
     * once. The server then reconnects this user's sockets (their session is no longer
     * waiting for an enrolment).
     */
    async confirmTotp(code: string): Promise<string[]> {
      return (await tracker.request({ type: 'confirm_totp', code })).codes;
    },

    /** `password` may be empty when this session used a passkey in the last minutes. */
    async removeTotp(password: string): Promise<Security> {
      return (await tracker.request({ type: 'remove_totp', password })).security;
    },

    /** Ten new recovery codes; the old ones stop working. */
    async newRecoveryCodes(): Promise<string[]> {
      return (await tracker.request({ type: 'new_recovery_codes' })).codes;
    },

    /** Creation options for a new passkey (a JSON string of `{publicKey}`) and their challenge. */
    async startPasskey(): Promise<{ challengeId: string; options: string }> {
      const { challengeId, options } = await tracker.request({ type: 'start_passkey' });
      return { challengeId, options };
    },

    /** The browser's answer to `startPasskey` (a JSON string), under the name the user gave it. */
    async addPasskey(challengeId: string, name: string, credential: string): Promise<Security> {
      return (await tracker.request({ type: 'add_passkey', challengeId, name, credential })).security;
    },

    async renamePasskey(id: string, name: string): Promise<Security> {
      return (await tracker.request({ type: 'rename_passkey', id, name })).security;
    },

    /** `password` may be empty when this session used a passkey in the last minutes. */
    async removePasskey(id: string, password: string): Promise<Security> {
      return (await tracker.request({ type: 'remove_passkey', id, password })).security;
    },

    /** "Confirm it's you" with an app or recovery code: this session has a fresh factor. */
    async verifyFactor(code: string): Promise<void> {
      await tracker.request({ type: 'verify_factor', code });
    },

    /** "Confirm it's you" with a passkey: the request options (a JSON string) to sign. */
    async startFactorPasskey(): Promise<{ challengeId: string; options: string }> {
      const { challengeId, options } = await tracker.request({ type: 'start_factor_passkey' });
      return { challengeId, options };
    },

    async verifyFactorPasskey(challengeId: string, credential: string): Promise<void> {
      await tracker.request({ type: 'verify_factor_passkey', challengeId, credential });
    },

    /** Signs another of this account's sessions out; its tabs hear `session_ended`. */
    async endSession(id: string): Promise<Security> {
      return (await tracker.request({ type: 'end_session', id })).security;
    },

    async endOtherSessions(): Promise<Security> {
      return (await tracker.request({ type: 'end_other_sessions' })).security;
    },

    /** Admins: removes another user's app, recovery codes and passkeys; they are mailed. */
    async resetFactors(userId: string): Promise<void> {
      await tracker.request({ type: 'reset_factors', userId });
    },
  };
}

export type Commands = ReturnType<typeof createCommands>;

export const commands: Commands = createCommands(requests, () => useAppStore.getState());
