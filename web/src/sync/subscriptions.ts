import { useAppStore, type AppState } from '../store';
import { loadPhotoPages } from './commands';
import { requests, type RequestTracker } from './requests';

/** One page's hold on a project's live events. */
export interface ProjectSubscription {
  /**
   * Settles with the subscribe reply: the project, who else is viewing, its photos and
   * this user's favourites are in the store once it resolves. Rejects with the
   * server's `RequestError` (`not_found`, `forbidden`, …) or a dropped connection.
   */
  ready: Promise<void>;
  /** The page is gone: stop receiving the project's events unless another page still wants them. */
  close: () => void;
}

/**
 * Project subscriptions of one tab. The server keeps one subscription per socket and
 * project, while pages may open the same project twice at once (StrictMode's double
 * effect, a quick away-and-back): a count per project decides when the socket really
 * unsubscribes, so a late reply or a cleanup never ends a subscription another page
 * still relies on.
 */
export function createSubscriptions(tracker: RequestTracker, store: () => AppState) {
  const wanted = new Map<string, number>();
  const want = (id: string, delta: number) => {
    const n = (wanted.get(id) ?? 0) + delta;
    if (n > 0) wanted.set(id, n);
    else wanted.delete(id);
    return n;
  };
  const unsubscribe = (id: string) => void tracker.request({ type: 'unsubscribe', id }).catch(() => undefined);

  /**
   * Subscribes to a project's detail events (photos, viewers) for as long as the page is
   * open. Subscriptions belong to one connection: after a new Hello (`liveEpoch`) the
   * page opens the project again.
   */
  function openProject(id: string): ProjectSubscription {
    let open = true;
    let subscribed = false;
    want(id, 1);
    // Photo events may overtake the reply; from here on they are kept and merged.
    store().photosOpened(id);
    const ready = tracker.request({ type: 'subscribe', id }).then(({ project, viewers, photos, favourites, milestones, nextPhotos, photoCount }) => {
      if (!open) {
        if (!wanted.has(id)) unsubscribe(id);
        return;
      }
      subscribed = true;
      const actions = store();
      actions.projectUpserted(project);
      actions.viewersChanged(project.id, viewers);
      actions.photosListed(project.id, photos, favourites, { newest: Infinity, next: nextPhotos ?? null });
      // Older servers (before milestones) sent no plan.
      if (milestones) actions.milestonesReplaced(milestones);
      // The project is open on its first page; the older ones follow in the background.
      actions.photoPagingChanged(project.id, { total: photoCount ?? photos.length });
      void loadPhotoPages(tracker, store, project.id, nextPhotos ?? null);
    });
    const close = () => {
      if (!open) return;
      open = false;
      const left = want(id, -1);
      if (left > 0) return;
      store().photosClosed(id);
      store().timelineClosed(id);
      store().reportsClosed(id);
      if (subscribed) unsubscribe(id);
    };
    return { ready, close };
  }

  return { openProject };
}

export const { openProject } = createSubscriptions(requests, () => useAppStore.getState());
