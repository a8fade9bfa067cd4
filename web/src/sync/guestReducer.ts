import type { Event, ServerMsg } from '../protocol/types';
import type { GuestActions } from '../store/guest';
import { speaksOurProtocol } from './reducer';
import type { RequestTracker } from './requests';

/**
 * Applies one pushed event to the guest's visit. A guest's socket carries only the
 * linked project's events; anything else (a newer server's event, one meant for
 * signed-in users) is ignored rather than trusted.
 */
export function applyGuestEvent(event: Event, actions: GuestActions): void {
  const type: string = event.type;
  switch (type) {
    case 'session_ended':
      // The link was revoked or expired: the server closes with 4401 next.
      actions.guestEnded();
      return;
    case 'project_updated': {
      const { project } = event as Extract<Event, { type: 'project_updated' }>;
      actions.guestProjectUpdated(project);
      return;
    }
    case 'project_deleted': {
      const { id } = event as Extract<Event, { type: 'project_deleted' }>;
      actions.guestProjectDeleted(id);
      return;
    }
    case 'milestones_changed': {
      const { plan } = event as Extract<Event, { type: 'milestones_changed' }>;
      actions.guestMilestonesChanged(plan);
      return;
    }
    case 'timeline_added': {
      const { entry } = event as Extract<Event, { type: 'timeline_added' }>;
      actions.guestTimelineAdded(entry);
      return;
    }
    case 'timeline_removed': {
      const { projectId, id } = event as Extract<Event, { type: 'timeline_removed' }>;
      actions.guestTimelineRemoved(projectId, id);
      return;
    }
    case 'photo_added':
    case 'photo_updated': {
      const { photo } = event as Extract<Event, { type: 'photo_added' | 'photo_updated' }>;
      actions.guestPhotoUpserted(photo);
      return;
    }
    case 'photo_deleted': {
      const { id, projectId } = event as Extract<Event, { type: 'photo_deleted' }>;
      actions.guestPhotoRemoved(projectId, id);
      return;
    }
    default:
      return;
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
