import type { Event, ServerMsg } from '../protocol/types';
import type { GuestActions } from '../store/guest';
import { applyProjectEvent, speaksOurProtocol, type ProjectEvent, type ProjectEventActions } from './reducer';
import type { RequestTracker } from './requests';

/**
 * The events a guest's page applies: the linked project's record and the link's end.
 * The server sends a guest no others (`GuestView::event`; docs/ARCHITECTURE.md, "Adding a
 * feature", step 4): one arriving anyway is ignored rather than trusted, and so is a
 * newer server's event, so a new event type reaches guests only once it is added here,
 * as on the server. Left out: a guest has no account, directory, presence, favourites,
 * comment threads or notifications, and holds no project but the linked one (so no
 * `project_created`); its searches are not watched, the page searches again on photo
 * events (docs/FEATURES.md, "Tags and search"); reports and builder companies are the
 * project's people's (docs/FEATURES.md, "Progress reports" and "Builder companies").
 */
const GUEST_EVENT_TYPES = [
  'session_ended',
  'project_updated',
  'project_deleted',
  'milestones_changed',
  'timeline_added',
  'timeline_removed',
  'photo_added',
  'photo_updated',
  'photo_deleted',
  'markup_changed',
] as const satisfies readonly ProjectEvent['type'][];

/** An event a guest's page applies. */
export type GuestEvent = Extract<Event, { type: (typeof GUEST_EVENT_TYPES)[number] }>;

const guestEventTypes: ReadonlySet<string> = new Set(GUEST_EVENT_TYPES);

/** The guest's view of the live events: whether a guest's page applies this one. */
export function guestSees(event: Event): event is GuestEvent {
  return guestEventTypes.has(event.type);
}

/**
 * The guest store's actions under the names the reducer calls. A guest's page holds one
 * project, the linked one, so each keeps only what is about it; where a guest's action
 * takes less than the member's, the comment says why nothing is lost.
 */
function guestProjectActions(actions: GuestActions): ProjectEventActions {
  return {
    // The link was revoked or expired (the server closes with 4401 next): the page says
    // the link is no longer active whatever the reason (docs/FEATURES.md, "Guest links").
    signedOut: () => actions.guestEnded(),
    projectUpserted: (project) => actions.guestProjectUpdated(project),
    // The project is gone and the link with it: `inactive` is final for a link (see
    // `GuestPhase`), so no later copy is ever weighed against the deletion's version.
    projectRemoved: (id) => actions.guestProjectDeleted(id),
    milestonesReplaced: (plan) => actions.guestMilestonesChanged(plan),
    timelineAdded: (entry) => actions.guestTimelineAdded(entry),
    timelineRemoved: (projectId, id) => actions.guestTimelineRemoved(projectId, id),
    photoUpserted: (photo) => actions.guestPhotoUpserted(photo),
    photoRemoved: (projectId, id) => actions.guestPhotoRemoved(projectId, id),
    markupReceived: (markup) => actions.guestMarkupReceived(markup),
    // guestMarkupReceived keeps the markup of any photo the link shows and counts that
    // tile's shapes with it, newest version winning, so the count has no action of its own.
    markupCountChanged: () => {},
  };
}

/** Applies one pushed event to the guest's visit: the signed-in app's reducer, through the guest's view. */
export function applyGuestEvent(event: Event, actions: GuestActions): void {
  if (guestSees(event)) applyProjectEvent(event, guestProjectActions(actions));
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
