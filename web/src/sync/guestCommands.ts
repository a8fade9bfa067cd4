import { useGuestStore, type GuestState } from '../store/guest';
import { RequestTracker } from './requests';

/**
 * The guest socket's own request/reply pairing: a guest page may be open beside the
 * signed-in app's socket in the same tab, and each socket answers only its own ids.
 */
export const guestRequests = new RequestTracker();

/** What the guest asks over its socket (a guest may only read). */
export function createGuestCommands(tracker: RequestTracker, store: () => GuestState) {
  return {
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
