import type { Event, ServerMsg } from '../protocol/types';
import type { GuestActions } from '../store/guest';
import { speaksOurProtocol, unknownEvent } from './reducer';
import type { RequestTracker } from './requests';

/**
 * Applies one pushed event to the guest's visit. A guest's socket carries only the
 * linked project's events; one meant for signed-in users is ignored rather than
 * trusted, and so is a newer server's event. Every event type has its case.
 */
export function applyGuestEvent(event: Event, actions: GuestActions): void {
  switch (event.type) {
    case 'session_ended':
      // The link was revoked or expired: the server closes with 4401 next.
      actions.guestEnded();
      return;
    case 'project_updated': {
      const { project } = event;
      actions.guestProjectUpdated(project);
      return;
    }
    case 'project_deleted': {
      const { id } = event;
      actions.guestProjectDeleted(id);
      return;
    }
    case 'milestones_changed': {
      const { plan } = event;
      actions.guestMilestonesChanged(plan);
      return;
    }
    case 'timeline_added': {
      const { entry } = event;
      actions.guestTimelineAdded(entry);
      return;
    }
    case 'timeline_removed': {
      const { projectId, id } = event;
      actions.guestTimelineRemoved(projectId, id);
      return;
    }
    case 'photo_added':
    case 'photo_updated': {
      const { photo } = event;
      actions.guestPhotoUpserted(photo);
      return;
    }
    case 'markup_changed': {
      const { markup } = event;
      actions.guestMarkupReceived(markup);
      return;
    }
    case 'photo_deleted': {
      const { id, projectId } = event;
      actions.guestPhotoRemoved(projectId, id);
      return;
    }
    // Signed-in users' events: a guest has no account, directory, presence or
    // comment threads.
    case 'project_created':
    case 'user_created':
    case 'user_updated':
    case 'user_deleted':
    case 'presence':
    case 'viewers':
    case 'favourite_changed':
    case 'comment_added':
    case 'comment_updated':
    case 'comment_deleted':
    case 'notification_added':
    case 'notifications_read':
    // Guests' searches are not watched: the guest page searches again on photo events.
    case 'search_changed':
    // Reports are for the project's people (issue 28); a guest link shows none.
    case 'report_changed':
    case 'report_deleted':
    // Builder companies (issue 30) are for signed-in members and admins, never a guest's.
    case 'company_changed':
    case 'company_deleted':
      return;
    default:
      unknownEvent(event);
  }
}

/** Routes one frame of the guest socket: the visit's state to the guest store, replies to their requests. */
export function applyGuestServerMsg(msg: ServerMsg, actions: GuestActions, tracker: RequestTracker): void {
  switch (msg.type) {
    case 'guest_hello':
      if (!speaksOurProtocol(msg)) actions.guestOutdated();
      else actions.guestHello(msg);
      return;
    case 'reply':
      tracker.reply(msg.id, msg.response);
      return;
    case 'error':
      if (msg.id !== null) tracker.fail(msg.id, msg.error);
      return;
    case 'event':
      applyGuestEvent(msg.event, actions);
      return;
    default:
      // A signed-in `hello` never belongs on this socket.
      return;
  }
}
