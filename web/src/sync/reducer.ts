import { PROTOCOL_VERSION, type Event, type Hello, type Profile, type ServerMsg } from '../protocol/types';
import type { AppState } from '../store';
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
  | 'milestonesReplaced'
  | 'timelineAdded'
  | 'timelineRemoved'
  | 'timelinesCleared'
  | 'commentUpserted'
  | 'commentRemoved'
  | 'threadsCleared'
  | 'notificationAdded'
  | 'notificationsRead'
  | 'usersReplaced'
  | 'userUpserted'
  | 'userRemoved'
  | 'presenceChanged'
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
  actions.projectsReplaced(hello.snapshot.projects);
  actions.usersReplaced(hello.snapshot.users, hello.snapshot.online);
  // Photos come with a project subscription, which belongs to the old connection: the
  // open page subscribes again (liveEpoch) and gets a fresh list.
  actions.photosCleared();
  // Timeline entries added while disconnected were missed: the open tab reads its pages
  // again. Milestone plans stay: each is whole and versioned, and the new subscribe
  // reply brings the current one.
  actions.timelinesCleared();
  actions.threadsCleared();
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

/** Applies one pushed event to the store. Unknown events are ignored (newer server). */
export function applyEvent(event: Event, actions: SyncActions): void {
  // Switch on a plain string so an event this build doesn't know is a no-op, not a crash.
  const type: string = event.type;
  switch (type) {
    case 'session_ended':
      // The server closes the socket next; clearing now sends the user to /login at once.
      actions.signedOut('revoked');
      return;
    case 'project_created':
    case 'project_updated': {
      const { project } = event as Extract<Event, { type: 'project_created' | 'project_updated' }>;
      actions.projectUpserted(project);
      return;
    }
    case 'project_deleted': {
      const { id, version } = event as Extract<Event, { type: 'project_deleted' }>;
      actions.projectRemoved(id, version);
      return;
    }
    case 'user_created':
    case 'user_updated': {
      const { user } = event as Extract<Event, { type: 'user_created' | 'user_updated' }>;
      applyUser(user, actions);
      return;
    }
    case 'user_deleted': {
      const { id, version } = event as Extract<Event, { type: 'user_deleted' }>;
      actions.userRemoved(id, version);
      return;
    }
    case 'presence': {
      const { userId, online } = event as Extract<Event, { type: 'presence' }>;
      actions.presenceChanged(userId, online);
      return;
    }
    case 'viewers': {
      const { projectId, viewers } = event as Extract<Event, { type: 'viewers' }>;
      actions.viewersChanged(projectId, viewers);
      return;
    }
    case 'photo_added':
    case 'photo_updated': {
      const { photo } = event as Extract<Event, { type: 'photo_added' | 'photo_updated' }>;
      actions.photoUpserted(photo);
      return;
    }
    case 'photo_deleted': {
      const { id, projectId } = event as Extract<Event, { type: 'photo_deleted' }>;
      actions.photoRemoved(projectId, id);
      return;
    }
    case 'favourite_changed': {
      const { projectId, imageId, favourite } = event as Extract<Event, { type: 'favourite_changed' }>;
      actions.favouriteChanged(projectId, imageId, favourite);
      return;
    }
    case 'comment_added': {
      const { comment, commentCount } = event as Extract<Event, { type: 'comment_added' }>;
      actions.commentUpserted(comment);
      actions.commentCountChanged(comment.projectId, comment.imageId, commentCount);
      return;
    }
    case 'comment_updated': {
      const { comment } = event as Extract<Event, { type: 'comment_updated' }>;
      actions.commentUpserted(comment);
      return;
    }
    case 'comment_deleted': {
      const { id, imageId, projectId, commentCount } = event as Extract<Event, { type: 'comment_deleted' }>;
      actions.commentRemoved(imageId, id);
      actions.commentCountChanged(projectId, imageId, commentCount);
      return;
    }
    case 'notification_added': {
      const { notification, unread } = event as Extract<Event, { type: 'notification_added' }>;
      actions.notificationAdded(notification, unread);
      return;
    }
    case 'notifications_read': {
      const { ids, all, unread } = event as Extract<Event, { type: 'notifications_read' }>;
      actions.notificationsRead(ids, all, unread);
      return;
    }
    case 'milestones_changed': {
      const { plan } = event as Extract<Event, { type: 'milestones_changed' }>;
      actions.milestonesReplaced(plan);
      return;
    }
    case 'timeline_added': {
      const { entry } = event as Extract<Event, { type: 'timeline_added' }>;
      actions.timelineAdded(entry);
      return;
    }
    case 'timeline_removed': {
      const { projectId, id } = event as Extract<Event, { type: 'timeline_removed' }>;
      actions.timelineRemoved(projectId, id);
      return;
    }
    default:
      return;
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
