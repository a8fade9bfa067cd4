import { useEffect } from 'react';
import { toast } from 'sonner';
import { getMe } from '../api/auth';
import { ApiRequestError } from '../api/http';
import { useAppStore } from '../store';

async function refreshSession(initial: boolean): Promise<void> {
  const store = useAppStore.getState();
  try {
    const { user, enrolRequired } = await getMe();
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
    if (initial) {
      toast.error('Authentication Error', { description: 'Failed to initialize authentication. Please try again.' });
      store.signedOut();
    }
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
