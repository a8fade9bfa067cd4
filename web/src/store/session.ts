import type { StateCreator } from 'zustand';
import type { Profile } from '../protocol/types';
import { isNewer } from '../sync/versions';
import type { AppState } from './index';

/** unknown: still asking the server; anonymous: no session; authenticated: user known. */
export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated';
/**
 * logout: the user asked; revoked: the server ended it (socket 4401, 401); removed: the
 * server ended it because the user was taken out of their company;
 * elsewhere: the user signed this session out from another device.
 */
export type SignOutReason = 'logout' | 'revoked' | 'removed' | 'elsewhere';

/** Reasons that say more than the socket's close (4401) or a 401 that follow them. */
const PRECISE_REASONS: readonly SignOutReason[] = ['removed', 'elsewhere'];

export interface SessionSlice {
  user: Profile | null;
  sessionStatus: SessionStatus;
  /** Why the last session ended; decides where protected pages send the user. */
  signOutReason: SignOutReason | null;
  /**
   * The installation requires a second factor of this user and they have none:
   * until they set one up, the server answers nothing else and the app shows only that.
   */
  enrolRequired: boolean;
  /** What the sign-in or /api/auth/me said (and a request refused with `enrol_required`). */
  enrolmentRequired: (required: boolean) => void;
  signedIn: (user: Profile) => void;
  /** The server says the session is gone (logout, 401, socket closed with 4401). */
  signedOut: (reason?: SignOutReason) => void;
  /**
   * The user asked to log out: the server's "session ended" that follows (socket event,
   * 4401) is their own logout, not a session that ended under them.
   */
  loggingOut: () => void;
  /** A newer copy of the user arrived (hello, events); older versions are ignored. */
  userUpdated: (user: Profile) => void;
}

export const createSessionSlice: StateCreator<AppState, [], [], SessionSlice> = (set, get) => ({
  user: null,
  sessionStatus: 'unknown',
  signOutReason: null,
  enrolRequired: false,
  enrolmentRequired: (required) => set({ enrolRequired: required }),
  signedIn: (user) => set({ user, sessionStatus: 'authenticated', signOutReason: null }),
  signedOut: (reason) => {
    const { signOutReason: held, sessionStatus } = get();
    // An explicit logout stays one; so does a removal from the company or a sign-out from
    // another device once signed out, when the socket's close (4401) or a 401 says again,
    // less precisely, that it ended.
    const keep = held === 'logout' || (held !== null && PRECISE_REASONS.includes(held) && sessionStatus === 'anonymous');
    set({ user: null, sessionStatus: 'anonymous', signOutReason: keep ? held : (reason ?? null), enrolRequired: false, showingSavedCopy: false });
    get().projectsCleared();
    get().photosCleared();
    get().threadsCleared();
    get().notificationsCleared();
    get().usersCleared();
    get().companiesCleared();
  },
  loggingOut: () => set({ signOutReason: 'logout' }),
  userUpdated: (user) => {
    const current = get().user;
    if (current && current.id === user.id && !isNewer(current, user)) return;
    set({ user, sessionStatus: 'authenticated' });
  },
});
