import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../api/auth';
import { unsubscribeThisBrowser } from '../lib/webPush';
import { useAppStore } from '../store';

/** Logout revokes the session server-side, clears local state, then shows /login?logout=true (SPEC §4). */
export function useLogout() {
  const navigate = useNavigate();
  return useCallback(async () => {
    useAppStore.getState().loggingOut();
    // The server forgets this session's push subscription as the session ends;
    // the browser's is ended too (best effort, beside the request), so the next person
    // signing in on this device starts with notifications off.
    const [, loggedOut] = await Promise.allSettled([unsubscribeThisBrowser(), logout()]);
    if (loggedOut.status === 'rejected') {
      // Local state is cleared regardless; the cookie dies with its idle expiry.
      console.warn('Logout request failed', loggedOut.reason);
    }
    // Protected pages redirect by the reason; the explicit navigate covers public pages.
    useAppStore.getState().signedOut('logout');
    navigate('/login?logout=true', { replace: true });
  }, [navigate]);
}
