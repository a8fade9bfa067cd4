import type { StateCreator } from 'zustand';
import type { TimelineEntry } from '../protocol/types';
import { mergeEntries } from '../lib/timeline';
import type { AppState } from './index';

/** One open project's timeline on this connection. */
export interface ProjectTimeline {
  /** Newest first, each id once. */
  entries: TimelineEntry[];
  /** The cursor of the next older page; null before the first page and at the end. */
  next: string | null;
  /** Older entries remain: true until a page says there is no next one. */
  hasMore: boolean;
  /** A page request is on its way. */
  loading: boolean;
  /** True once the newest page has arrived. */
  loaded: boolean;
  /** The last page request failed with this message. */
  error: string | null;
  /** Ids removed on this connection: a page read before the removal must not bring them back. */
  removed: Record<string, true>;
  /** Which request is the awaited one: a reply to an older one (before a reset) is dropped. */
  request: number;
}

export interface TimelineSlice {
  /**
   * Timelines of the projects whose page is open, by project id. Like photos, a project's
   * timeline is only held while its events arrive (the page's subscription): live
   * entries go on top, pages of older entries below, merged by id so neither a gap nor a
   * repeat can appear.
   */
  timelines: Record<string, ProjectTimeline>;
  /** A page request starts; returns its number, to hand back with its reply. */
  timelineLoading: (projectId: string) => number;
  /** A page arrived: `next` is the cursor for the page after it (null at the first entry). */
  timelinePage: (projectId: string, request: number, entries: TimelineEntry[], next: string | null) => void;
  timelineFailed: (projectId: string, request: number, message: string) => void;
  /** A live entry (`timeline_added`): on top, unless it is already held. */
  timelineAdded: (entry: TimelineEntry) => void;
  timelineRemoved: (projectId: string, id: string) => void;
  /** The page closed: later events will not reach this tab. */
  timelineClosed: (projectId: string) => void;
  /** A new connection (Hello): entries may have been missed meanwhile, so pages start over. */
  timelinesCleared: () => void;
}

export const emptyTimeline = (): ProjectTimeline => ({
  entries: [],
  next: null,
  hasMore: true,
  loading: false,
  loaded: false,
  error: null,
  removed: {},
  request: 0,
});

let requestCounter = 0;

export const createTimelineSlice: StateCreator<AppState, [], [], TimelineSlice> = (set) => {
  const patch = (projectId: string, change: (held: ProjectTimeline) => ProjectTimeline | null) =>
    set((state) => {
      const held = state.timelines[projectId];
      if (!held) return state;
      const next = change(held);
      return next && next !== held ? { timelines: { ...state.timelines, [projectId]: next } } : state;
    });

  return {
    timelines: {},
    timelineLoading: (projectId) => {
      requestCounter += 1;
      const request = requestCounter;
      set((state) => ({
        timelines: {
          ...state.timelines,
          [projectId]: { ...(state.timelines[projectId] ?? emptyTimeline()), loading: true, error: null, request },
        },
      }));
      return request;
    },
    timelinePage: (projectId, request, entries, next) =>
      patch(projectId, (held) => {
        if (held.request !== request) return null;
        const mine = entries.filter((e) => e.projectId === projectId);
        return {
          ...held,
          entries: mergeEntries(held.entries, mine, held.removed),
          next,
          hasMore: next !== null,
          loading: false,
          loaded: true,
          error: null,
        };
      }),
    timelineFailed: (projectId, request, message) =>
      patch(projectId, (held) => (held.request !== request ? null : { ...held, loading: false, error: message })),
    timelineAdded: (entry) =>
      patch(entry.projectId, (held) => {
        if (held.removed[entry.id] || held.entries.some((e) => e.id === entry.id)) return null;
        return { ...held, entries: mergeEntries(held.entries, [entry]) };
      }),
    timelineRemoved: (projectId, id) =>
      patch(projectId, (held) => ({
        ...held,
        entries: held.entries.filter((e) => e.id !== id),
        removed: { ...held.removed, [id]: true },
      })),
    timelineClosed: (projectId) =>
      set((state) => {
        if (!state.timelines[projectId]) return state;
        const timelines = { ...state.timelines };
        delete timelines[projectId];
        return { timelines };
      }),
    timelinesCleared: () => set({ timelines: {} }),
  };
};
