import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useAppStore } from '../store';
import { toastRequestError } from '../sync/errors';
import { RequestError } from '../sync/requests';
import { openProject } from '../sync/subscriptions';

export type Load = 'loading' | 'ready';

/** Projects this tab is deleting: their deletion event is expected, not news to report. */
export const deletingHere = new Set<string>();

/**
 * Holds the project's subscription while the page is open (see `openProject`) and
 * says when its first view is in the store; a missing or someone else's project sends
 * the user away. A new Hello (liveEpoch) subscribes again on the new connection.
 */
export function useProjectSubscription(id: string): Load {
  const navigate = useNavigate();
  const epoch = useAppStore((s) => s.liveEpoch);
  const [load, setLoad] = useState<Load>('loading');

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

