import { PROTOCOL_VERSION, type Event, type Hello, type Profile, type ServerMsg } from '../protocol/types';
import type { AppState } from '../store';
import type { SignOutReason } from '../store/session';
import type { RequestTracker } from './requests';

/** The store actions frames may call; the socket passes `useAppStore.getState()`. */
export type SyncActions = Pick<
  AppState,
  | 'signedIn'
  | 'signedOut'
  | 'userUpdated'
  | 'projectsReplaced'
  | 'projectUpserted'
  | 'projectRemoved'
  | 'viewersChanged'
  | 'photosCleared'
  | 'photoUpserted'
  | 'photoRemoved'
  | 'favouriteChanged'
  | 'commentCountChanged'
  | 'markupCountChanged'
  | 'markupReceived'
  | 'markupsCleared'
  | 'milestonesReplaced'
  | 'timelineAdded'
  | 'timelineRemoved'
  | 'timelinesCleared'
  | 'reportUpserted'
  | 'reportRemoved'
  | 'reportsCleared'
  | 'commentUpserted'
  | 'commentRemoved'
  | 'threadsCleared'
  | 'notificationAdded'
  | 'notificationsRead'
  | 'usersReplaced'
  | 'userUpserted'
  | 'userRemoved'
  | 'presenceChanged'
  | 'companiesReplaced'
  | 'companyUpserted'
  | 'companyRemoved'
  | 'searchChanged'
  | 'liveSynced'
  | 'protocolOutdated'
> & { user: AppState['user'] };

/**
 * Whether this build can follow a server that says hello with `hello`. The protocol
 * version is bumped on any incompatible change, so another version (a deploy while
 * this tab was open) cannot be read safely and no reconnect will change that: only a
 * reload, which fetches the matching web app, helps.
 */
export function speaksOurProtocol(hello: Pick<Hello, 'protocolVersion'>, ours: number = PROTOCOL_VERSION): boolean {
  return hello.protocolVersion === ours;
}

/**
 * A Hello is the server's whole view for this user: it replaces everything held, on
 * first connect and on every reconnect, so nothing missed while offline stays stale.
 */
export function applyHello(hello: Hello, actions: SyncActions): void {
  if (!speaksOurProtocol(hello)) {
    // Nothing in it is trusted; what is on screen stays until the user reloads.
    actions.protocolOutdated();
    return;
  }
  actions.signedIn(hello.user);
  actions.projectsReplaced(hello.snapshot.projects, { next: hello.snapshot.nextProjects, total: hello.snapshot.projectCount });
  actions.usersReplaced(hello.snapshot.users, hello.snapshot.online);
  actions.companiesReplaced(hello.snapshot.companies);
  // Photos come with a project subscription, which belongs to the old connection: the
  // open page subscribes again (liveEpoch) and gets a fresh list.
  actions.photosCleared();
  // Timeline entries added while disconnected were missed: the open tab reads its pages
  // again. Milestone plans stay: each is whole and versioned, and the new subscribe
  // reply brings the current one.
  actions.timelinesCleared();
  // Reports too: a report made or finished meanwhile was missed; the open tab lists them again.
  actions.reportsCleared();
  actions.threadsCleared();
  actions.markupsCleared();
  actions.liveSynced();
}

/**
 * A copy of a user arrived (event or reply). The user's own profile comes this way
 * too; it lives in the session slice, everyone else in the directory.
 */
export function applyUser(user: Profile, actions: Pick<SyncActions, 'user' | 'userUpdated' | 'userUpserted'>): void {
  if (actions.user && actions.user.id === user.id) actions.userUpdated(user);
  else actions.userUpserted(user);
}

/**
 * Where a switch over every event type ends: at compile time `event` is `never` once
 * each type has its case, so an event type added to the protocol does not compile
 * until it is handled. At run time a newer server's event, one this build does not
 * know, lands here and is ignored rather than a crash.
 */
export function unknownEvent(event: never): void {
  void event;
}

/**
 * How the sign-out is told: a removal from one's company (docs/FEATURES.md, "Builder
 * companies") and a sign-out from another device (docs/SECURITY.md, "Signed-in devices"
 * under "Two-factor sign-in, passkeys and signed-in devices") say so; every other reason
 * (password changed, account deleted) is a session that ended under the user.
 */
export function sessionEndReason(reason: string): SignOutReason {
  if (reason === 'removed_from_company') return 'removed';
  if (reason === 'signed_out_elsewhere') return 'elsewhere';
  return 'revoked';
}

/**
 * The events about a project's own record (the project, its milestone plan, timeline,
 * photos and their markup) and the end of the session that follows it. A guest's page
 * follows that record live too (docs/FEATURES.md, "Guest links": progress, milestones,
 * timeline, photos), so these are handled once, through actions both stores provide;
 * `guestView.ts` picks which of them a guest applies.
 */
const PROJECT_EVENT_TYPES = [
  'session_ended',
  'project_created',
  'project_updated',
  'project_deleted',
  'milestones_changed',
  'timeline_added',
  'timeline_removed',
  'photo_added',
  'photo_updated',
  'photo_deleted',
  'markup_changed',
] as const satisfies readonly Event['type'][];

export type ProjectEvent = Extract<Event, { type: (typeof PROJECT_EVENT_TYPES)[number] }>;

const projectEventTypes: ReadonlySet<string> = new Set(PROJECT_EVENT_TYPES);

export function isProjectEvent(event: Event): event is ProjectEvent {
  return projectEventTypes.has(event.type);
}

/** The actions `applyProjectEvent` calls, under the signed-in store's names. */
export type ProjectEventActions = Pick<
  SyncActions,
  | 'signedOut'
  | 'projectUpserted'
  | 'projectRemoved'
  | 'milestonesReplaced'
  | 'timelineAdded'
  | 'timelineRemoved'
  | 'photoUpserted'
  | 'photoRemoved'
  | 'markupReceived'
  | 'markupCountChanged'
>;

/** Applies one event about a project's record. Every such type has its case (see `unknownEvent`). */
export function applyProjectEvent(event: ProjectEvent, actions: ProjectEventActions): void {
  switch (event.type) {
    case 'session_ended':
      // The server closes the socket next; clearing now sends the user to /login at once.
      actions.signedOut(sessionEndReason(event.reason));
      return;
    case 'project_created':
    case 'project_updated': {
      // A project not held yet is added, whichever of the two it comes as: crew put on a
      // project hear `project_updated` for a project that is new to them (docs/FEATURES.md,
      // "Builder companies").
      const { project } = event;
      actions.projectUpserted(project);
      return;
    }
    case 'project_deleted': {
      const { id, version } = event;
      actions.projectRemoved(id, version);
      return;
    }
    case 'milestones_changed': {
      const { plan } = event;
      actions.milestonesReplaced(plan);
      return;
    }
    case 'timeline_added': {
      const { entry } = event;
      actions.timelineAdded(entry);
      return;
    }
    case 'timeline_removed': {
      const { projectId, id } = event;
      actions.timelineRemoved(projectId, id);
      return;
    }
    case 'photo_added':
    case 'photo_updated': {
      const { photo } = event;
      actions.photoUpserted(photo);
      return;
    }
    case 'photo_deleted': {
      const { id, projectId } = event;
      actions.photoRemoved(projectId, id);
      return;
    }
    case 'markup_changed': {
      const { markup } = event;
      actions.markupReceived(markup);
      actions.markupCountChanged(markup.projectId, markup.imageId, markup.shapes.length, markup.version);
      return;
    }
    default:
      unknownEvent(event);
  }
}

/**
 * Applies one pushed event to the signed-in app's store: a project's record through
 * `applyProjectEvent`, the rest (people, conversations, reports, companies) here. Every
 * event type has its case (see `unknownEvent`).
 */
export function applyEvent(event: Event, actions: SyncActions): void {
  if (isProjectEvent(event)) {
    applyProjectEvent(event, actions);
    return;
  }
  switch (event.type) {
    case 'user_created':
    case 'user_updated': {
      const { user } = event;
      applyUser(user, actions);
      return;
    }
    case 'user_deleted': {
      const { id, version } = event;
      actions.userRemoved(id, version);
      return;
    }
    case 'presence': {
      const { userId, online } = event;
      actions.presenceChanged(userId, online);
      return;
    }
    case 'viewers': {
      const { projectId, viewers } = event;
      actions.viewersChanged(projectId, viewers);
      return;
    }
    case 'favourite_changed': {
      const { projectId, imageId, favourite } = event;
      actions.favouriteChanged(projectId, imageId, favourite);
      return;
    }
    case 'comment_added': {
      const { comment, commentCount } = event;
      actions.commentUpserted(comment);
      actions.commentCountChanged(comment.projectId, comment.imageId, commentCount);
      return;
    }
    case 'comment_updated': {
      const { comment } = event;
      actions.commentUpserted(comment);
      return;
    }
    case 'comment_deleted': {
      const { id, imageId, projectId, commentCount } = event;
      actions.commentRemoved(imageId, id);
      actions.commentCountChanged(projectId, imageId, commentCount);
      return;
    }
    case 'notification_added': {
      const { notification, unread } = event;
      actions.notificationAdded(notification, unread);
      return;
    }
    case 'notifications_read': {
      const { ids, all, unread } = event;
      actions.notificationsRead(ids, all, unread);
      return;
    }
    case 'search_changed': {
      // Only sent while this socket's search is watched: the open results run again.
      const { projectId } = event;
      actions.searchChanged(projectId);
      return;
    }
    case 'report_changed': {
      // Kept only for a project whose reports are held (its Reports tab was opened).
      const { report } = event;
      actions.reportUpserted(report);
      return;
    }
    case 'report_deleted': {
      const { id, projectId } = event;
      actions.reportRemoved(projectId, id);
      return;
    }
    case 'company_changed': {
      const { company } = event;
      actions.companyUpserted(company);
      return;
    }
    case 'company_deleted': {
      const { id, version } = event;
      actions.companyRemoved(id, version);
      return;
    }
    default:
      unknownEvent(event);
  }
}

/** Routes one decoded server frame: state goes to the store, replies to their requests. */
export function applyServerMsg(msg: ServerMsg, actions: SyncActions, tracker: RequestTracker): void {
  switch (msg.type) {
    case 'hello':
      applyHello(msg, actions);
      return;
    case 'reply':
      tracker.reply(msg.id, msg.response);
      return;
    case 'error':
      if (msg.id !== null) tracker.fail(msg.id, msg.error);
      else console.warn('Server error', msg.error.code, msg.error.message);
      return;
    case 'event':
      applyEvent(msg.event, actions);
      return;
    default:
      return;
  }
}
