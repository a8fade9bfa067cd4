import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../lib/toast';
import { useAppStore } from '../store';
import { toastRequestError } from '../sync/errors';
import { RequestError } from '../sync/requests';
import { openProject } from '../sync/subscriptions';
import { showSavedProject } from '../offline/mirror';

/** `unsaved`: offline, and this device kept no copy of the project (it was not opened lately). */
export type Load = 'loading' | 'ready' | 'unsaved';

/** Projects this tab is deleting: their deletion event is expected, not news to report. */
export const deletingHere = new Set<string>();

/**
 * Holds the project's subscription while the page is open (see `openProject`) and
 * says when its first view is in the store; a missing or someone else's project sends
 * the user away. A new Hello (liveEpoch) subscribes again on the new connection.
 * While the socket is down, the copy of the project kept on the device, if
 * it has one, stands in until then.
 */
export function useProjectSubscription(id: string): Load {
  const navigate = useNavigate();
  const epoch = useAppStore((s) => s.liveEpoch);
  const down = useAppStore((s) => s.connection === 'reconnecting');
  const [load, setLoad] = useState<Load>('loading');

  useEffect(() => {
    if (!down) return undefined;
    let active = true;
    void showSavedProject(id).then((shown) => {
      if (active) setLoad((held) => (shown ? 'ready' : held === 'ready' ? held : 'unsaved'));
    });
    return () => {
      active = false;
      // Connecting again: the live subscription decides.
      setLoad((held) => (held === 'unsaved' ? 'loading' : held));
    };
  }, [id, down]);

  useEffect(() => {
    if (epoch === 0) return undefined;
    let active = true;
    const subscription = openProject(id);
    subscription.ready
      .then(() => {
        if (active) setLoad('ready');
      })
      .catch((err: unknown) => {
        if (!active) return;
        // SPEC §2 Project detail: a missing project goes to /projects, someone else's
        // project (a homeowner's view) to /dashboard, each with its toast.
        if (err instanceof RequestError && err.code === 'not_found') {
          toast.error('Project not found');
          navigate('/projects', { replace: true });
        } else if (err instanceof RequestError && err.code === 'forbidden') {
          toast.error("You don't have access to this project");
          navigate('/dashboard', { replace: true });
        } else if (err instanceof RequestError && err.fromServer) {
          toastRequestError(err, 'Failed to load project data');
        }
        // Otherwise the socket dropped: the next Hello bumps the epoch and retries.
      });
    return () => {
      active = false;
      subscription.close();
    };
  }, [id, epoch, navigate]);

  return load;
}

