import { useEffect } from 'react';
import { toast } from '../lib/toast';
import { getMe, getMeAtStart } from '../api/auth';
import { ApiRequestError } from '../api/http';
import { viewStorage } from '../offline/viewStorage';
import { useAppStore } from '../store';

/**
 * A first session check unanswered this long (a site's weak signal, where requests hang
 * rather than fail) opens the app as the last signed-in user meanwhile; the answer, when
 * it comes, still decides.
 */
const SESSION_CHECK_PATIENCE_MS = 8000;

/**
 * Signing in needs the network, but whoever was signed in on this device opens the app
 * on what it saw last when the session cannot be checked; the socket, once it
 * connects, or the next check says whether the session still holds. True when the app
 * is open as someone.
 */
async function openAsLastUser(): Promise<boolean> {
  const last = await viewStorage.signedInUser();
  const { sessionStatus, signedIn } = useAppStore.getState();
  if (sessionStatus === 'authenticated') return true;
  if (!last || sessionStatus !== 'unknown') return false;
  signedIn(last);
  return true;
}

async function refreshSession(initial: boolean): Promise<void> {
  const store = useAppStore.getState();
  const patience = initial ? setTimeout(() => void openAsLastUser(), SESSION_CHECK_PATIENCE_MS) : undefined;
  try {
    const { user, enrolRequired } = await (initial ? getMeAtStart() : getMe());
    useAppStore.getState().userUpdated(user);
    useAppStore.getState().enrolmentRequired(enrolRequired);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) {
      // On start there was no session to lose: plain /login. Later (the tab comes back
      // after the session ended) the user is told it expired (SPEC §4).
      if (initial) store.signedOut();
      else if (useAppStore.getState().sessionStatus !== 'anonymous') store.signedOut('revoked');
      return;
    }
    // No answer (offline, or the server unreachable).
    if (initial && !(await openAsLastUser())) {
      toast.error('Authentication Error', { description: 'Failed to initialize authentication. Please try again.' });
      store.signedOut();
    }
  } finally {
    clearTimeout(patience);
  }
}

/** Asks the server who we are on start, and again whenever the tab becomes visible (SPEC §4). */
export function AuthBootstrap() {
  useEffect(() => {
    void refreshSession(true);
    const onVisible = () => {
      if (document.visibilityState === 'visible' && useAppStore.getState().sessionStatus === 'authenticated') {
        void refreshSession(false);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  return null;
}
