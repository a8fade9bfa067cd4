import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../api/auth';
import { useAppStore } from '../store';

/** Logout revokes the session server-side, clears local state, then shows /login?logout=true (SPEC §4). */
export function useLogout() {
  const navigate = useNavigate();
  return useCallback(async () => {
    useAppStore.getState().loggingOut();
    try {
      await logout();
    } catch (err) {
      // Local state is cleared regardless; the cookie dies with its idle expiry.
      console.warn('Logout request failed', err);
    }
    // Protected pages redirect by the reason; the explicit navigate covers public pages.
    useAppStore.getState().signedOut('logout');
    navigate('/login?logout=true', { replace: true });
  }, [navigate]);
}
