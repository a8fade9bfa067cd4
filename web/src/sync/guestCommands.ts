import type { ProjectImage, SearchResults } from '../protocol/types';
import { useGuestStore, type GuestState } from '../store/guest';
import { afterPageFailure } from './commands';
import { RequestTracker } from './requests';

/**
 * The guest socket's own request/reply pairing: a guest page may be open beside the
 * signed-in app's socket in the same tab, and each socket answers only its own ids.
 */
export const guestRequests = new RequestTracker();

/** What the guest asks over its socket (a guest may only read). */
export function createGuestCommands(tracker: RequestTracker, store: () => GuestState) {
  return {
    /** A photo's markup, to show read only; `markup_changed` keeps it current after. */
    async getMarkup(imageId: string): Promise<void> {
      const epoch = store().epoch;
      const { markup } = await tracker.request({ type: 'get_markup', imageId });
      if (store().epoch === epoch) store().guestMarkupReceived(markup);
    },

    /**
     * The link's photos that match the query (docs/FEATURES.md, "Tags and search"): the
     * server narrows a guest's search to their project and to photos; it is never watched.
     */
    async search(query: string): Promise<SearchResults> {
      const { results } = await tracker.request({ type: 'search', query, projectId: store().project?.id ?? null, watch: false });
      return results;
    },

    /**
     * The link's older photos, page by page from the hello's cursor to the oldest, as a
     * member's gallery reads them (sync/commands `loadPhotoPages`): a new connection's
     * hello starts over; a failed page is tried again, then the page offers Retry.
     */
    async loadPhotos(): Promise<void> {
      const start = store();
      const projectId = start.project?.id;
      if (!projectId || start.photoPaging.next === null) return;
      const epoch = start.epoch;
      const current = () => store().epoch === epoch;
      let after: string | null = start.photoPaging.next;
      let failures = 0;
      start.guestPhotoPagingChanged({ loading: true, failed: false });
      while (after !== null && current()) {
        try {
          const page: { photos: ProjectImage[]; next: string | null } = await tracker.request({ type: 'list_photos', projectId, after });
          if (!current()) return;
          store().guestPhotosListed(projectId, page.photos);
          after = page.next;
          failures = 0;
          store().guestPhotoPagingChanged({ next: after, loading: after !== null });
        } catch (err) {
          if (!current()) return;
          const next = afterPageFailure(err, failures);
          if (next === null) {
            store().guestPhotoPagingChanged({ loading: false, failed: true });
            return;
          }
          if (next.counts) failures += 1;
          await new Promise((resolve) => setTimeout(resolve, next.wait));
        }
      }
    },

    /**
     * The newest page of the project's timeline (`older` false), or the page after the
     * oldest held. Failures are kept in the store for the feed to show, not thrown.
     */
    async loadTimeline(older: boolean): Promise<void> {
      const state = store();
      const projectId = state.project?.id;
      if (!projectId || (older && (state.timeline.next === null || state.timeline.loading))) return;
      const before = older ? state.timeline.next : null;
      const epoch = state.epoch;
      state.guestTimelineLoading();
      try {
        // An absent field, not `undefined` (which msgpackr would encode as a value).
        const request = before ? { type: 'list_timeline' as const, projectId, before } : { type: 'list_timeline' as const, projectId };
        const { entries, next } = await tracker.request(request);
        // A page asked on an earlier connection belongs to that connection's view.
        if (store().epoch === epoch) store().guestTimelineListed(entries, next, !older);
      } catch (err) {
        if (store().epoch === epoch) store().guestTimelineFailed(err instanceof Error ? err.message : 'Failed to load the timeline');
      }
    },
  };
}

export const guestCommands = createGuestCommands(guestRequests, () => useGuestStore.getState());
