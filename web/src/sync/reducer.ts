import type { Event, ServerMsg } from '../protocol/types';
import type { AppState } from '../store';
import type { RequestTracker } from './requests';

type Actions = Pick<AppState, 'userUpdated' | 'snapshotReceived' | 'signedOut'>;

/** Applies one pushed event to the store. Unknown events are ignored (newer server). */
export function applyEvent(event: Event, actions: Actions): void {
  // Compared as a plain string so an event this build doesn't know is a no-op, not a crash.
  const type: string = event.type;
  switch (type) {
    case 'session_ended':
      // The server closes the socket next; clearing now sends the user to /login at once.
      actions.signedOut('revoked');
      return;
    default:
      return;
  }
}

/** Routes one decoded server frame: state goes to the store, replies to their requests. */
export function applyServerMsg(msg: ServerMsg, actions: Actions, tracker: RequestTracker): void {
  switch (msg.type) {
    case 'hello':
      actions.userUpdated(msg.user);
      actions.snapshotReceived(msg.snapshot.projects);
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
