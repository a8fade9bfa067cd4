import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onWorkerMessage } from './serviceWorker';

/**
 * A tapped push notification (sw/push) routes this window to the page it names, inside
 * the app (no reload: the live connection stays). Only paths of this app are followed.
 */
export function NotificationRouting() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onWorkerMessage((message) => {
        if (message.type !== 'sitecast:navigate') return;
        const target = new URL(message.url, window.location.origin);
        if (target.origin === window.location.origin) navigate(target.pathname + target.search + target.hash);
      }),
    [navigate],
  );
  return null;
}
