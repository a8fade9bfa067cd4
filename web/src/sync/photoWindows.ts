import { coversAll, coversWindow, windowReadStart, type PhotoWindow } from '../lib/photoCoverage';
import { useAppStore, type AppState, type ProjectPhotos } from '../store';
import { afterPageFailure } from './commands';
import { requests, type RequestTracker } from './requests';

/**
 * The first page of a window is as big as the first page a project opens on
 * (`FIRST_PHOTO_PAGE`): a screenful and more, in a small reply that draws soon on a weak
 * signal. The pages after it are the server's whole page (`PHOTO_PAGE`).
 */
export const FIRST_WINDOW_PAGE = 60;
export const WINDOW_PAGE = 100;

/**
 * Whether the project's photos held now are all there is (docs/FEATURES.md, "Big
 * projects"): the background read reached the oldest photo, or nothing more is coming
 * (a saved copy shown offline, a project whose first page was all of it).
 */
export function holdsEveryPhoto(held: ProjectPhotos): boolean {
  if (!held.loaded) return false;
  return coversAll(held.covered) || (held.paging.next === null && !held.paging.loading && !held.paging.failed);
}

/** Whether every photo of the window is held (a direct read may stop, or need not start). */
export function holdsWindow(held: ProjectPhotos, window: Pick<PhotoWindow, 'start' | 'end'>): boolean {
  return holdsEveryPhoto(held) || (held.loaded && coversWindow(held.covered, window));
}

/** Where a gallery filtered to `window` stands. */
export type WindowStatus = 'held' | 'loading' | 'failed';

export function windowStatus(held: ProjectPhotos | undefined, window: PhotoWindow | null): WindowStatus {
  // Not subscribed yet: the gallery shows its skeleton; nothing to read directly.
  if (!window || !held?.loaded || holdsWindow(held, window)) return 'held';
  return held.window?.key === window.key && held.window.failed ? 'failed' : 'loading';
}

/** Reads are numbered across projects and connections: a leftover never passes for a new one. */
let windowRuns = 0;

/** Where a read that failed stopped, for Retry to go on from. */
export interface WindowResume {
  next: string;
  newest: number;
}

/**
 * Reads the photos of one date window directly, while the background read of the pages
 * has not reached it (docs/FEATURES.md, "Big projects"): `list_photos` with `before` the
 * window's end (or below the photos of it already held, `windowReadStart`), then its
 * `next` cursors, until a photo older than the window arrives or the oldest photo has.
 * Each page merges as a background page does (`photosListed`, with the stretch its read
 * holds), so pages of both reads may arrive in any order, and the background read goes
 * on from its own cursor. The read stops once the window is held, whichever read brought
 * it, and its answers are ignored once another window is read (the filter changed, a
 * retry) or the project closed. A page that fails is tried again after
 * `PHOTO_PAGE_RETRY_MS`; then the gallery offers Retry, which goes on from `resume`.
 */
export async function loadPhotoWindow(
  tracker: RequestTracker,
  store: () => AppState,
  projectId: string,
  window: PhotoWindow,
  resume: WindowResume | null = null,
): Promise<void> {
  const held = store().photos[projectId];
  if (!held?.loaded) return;
  const run = ++windowRuns;
  const newest = resume?.newest ?? windowReadStart(held.covered, window);
  const current = () => store().photos[projectId]?.window?.run === run;
  const holds = () => {
    const now = store().photos[projectId];
    return now !== undefined && holdsWindow(now, window);
  };
  let after = resume?.next ?? null;
  const state = (failed: boolean) => ({ key: window.key, run, next: after, newest, failed });
  store().photoWindowChanged(projectId, state(false));
  let failures = 0;
  while (current() && !holds()) {
    try {
      const page = await tracker.request(
        after === null
          ? { type: 'list_photos', projectId, before: newest, limit: FIRST_WINDOW_PAGE }
          : { type: 'list_photos', projectId, after, limit: WINDOW_PAGE },
      );
      if (!current()) return;
      store().photosListed(projectId, page.photos, page.favourites, { newest, next: page.next });
      failures = 0;
      if (page.next === null) break;
      after = page.next;
      store().photoWindowChanged(projectId, state(false));
    } catch (err) {
      if (!current()) return;
      // As the background read: a refusal is final, a lost or slow answer worth another try.
      const next = afterPageFailure(err, failures);
      if (next === null) {
        store().photoWindowChanged(projectId, state(true));
        return;
      }
      if (next.counts) failures += 1;
      await new Promise((resolve) => setTimeout(resolve, next.wait));
    }
  }
  if (current()) store().photoWindowChanged(projectId, null);
}

/** The gallery no longer shows the window: a read of it still underway is abandoned. */
export function abandonPhotoWindow(store: () => AppState, projectId: string, key: string): void {
  if (store().photos[projectId]?.window?.key === key) store().photoWindowChanged(projectId, null);
}

/** Retry after a failure: goes on from the page that failed. */
export function resumePhotoWindow(tracker: RequestTracker, store: () => AppState, projectId: string, window: PhotoWindow): Promise<void> {
  const held = store().photos[projectId]?.window;
  const resume = held?.key === window.key && held.next !== null ? { next: held.next, newest: held.newest } : null;
  return loadPhotoWindow(tracker, store, projectId, window, resume);
}

/** The app's own: over the live socket, into the app's store. */
export const photoWindows = {
  load: (projectId: string, window: PhotoWindow) => loadPhotoWindow(requests, () => useAppStore.getState(), projectId, window),
  abandon: (projectId: string, key: string) => abandonPhotoWindow(() => useAppStore.getState(), projectId, key),
  resume: (projectId: string, window: PhotoWindow) => resumePhotoWindow(requests, () => useAppStore.getState(), projectId, window),
};
