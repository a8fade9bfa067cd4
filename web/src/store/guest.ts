import { create } from 'zustand';
import type { GuestAccess, GuestHello, Markup, MilestonePlan, Project, ProjectImage, SharedReport, TimelineEntry } from '../protocol/types';
import { isNewer, newerWins } from '../sync/versions';

/**
 * Where a guest's visit stands: opening the link (POST), connecting the socket,
 * live, or one of the ends. `inactive` is final for this token (unknown, revoked,
 * expired, project deleted): nothing but a new link brings it back.
 */
export type GuestPhase = 'opening' | 'connecting' | 'live' | 'inactive' | 'failed' | 'outdated';
export type GuestConnection = 'idle' | 'connecting' | 'open' | 'reconnecting';

/** The project's timeline as far as the guest has paged it, newest first. */
export interface GuestTimeline {
  entries: TimelineEntry[];
  /** The cursor of the next older page; null once the first entry is held. */
  next: string | null;
  /** The first page of this connection arrived. */
  loaded: boolean;
  loading: boolean;
  error: string | null;
  /**
   * Entries pushed since this connection's hello: a first page read before they were
   * written must not drop them. Entries from before the hello are replaced by the page.
   */
  fresh: Record<string, true>;
  /** Removed on this connection: a page read before the removal must not bring them back. */
  removed: Record<string, true>;
}

export interface GuestData {
  token: string | null;
  phase: GuestPhase;
  /** What went wrong, for `failed` (the server unreachable, a rate limit). */
  failure: string | null;
  access: GuestAccess | null;
  project: Project | null;
  plan: MilestonePlan | null;
  photos: Record<string, ProjectImage>;
  /**
   * A report link's report: its page shows this, as it was made, instead of
   * the project; `photos` and `plan` are then empty, and the socket carries no requests.
   */
  report: SharedReport | null;
  /** Deleted on this connection: ids are never reused and photo_deleted carries no version. */
  deletedPhotos: Record<string, true>;
  timeline: GuestTimeline;
  /** Markup of the photos the guest has opened (read only), by image id; newest version wins. */
  markups: Record<string, Markup>;
  connection: GuestConnection;
  /**
   * Counts photo events (added, updated, deleted): a guest's search is not watched
   * (no `search_changed` on the guest socket), so open results run again when it moves.
   */
  photoChanges: number;
  /** Counts hellos: each starts a connection whose requests (the timeline) are made afresh. */
  epoch: number;
  /**
   * The link's older photos, read a page at a time after the hello's first page
   * (docs/FEATURES.md, "Big projects"): the next page's cursor, how many the link shows.
   */
  photoPaging: GuestPhotoPaging;
}

export interface GuestPhotoPaging {
  next: string | null;
  total: number;
  loading: boolean;
  failed: boolean;
}

export interface GuestActions {
  /** A (new) link is being opened: nothing of another link's survives. */
  guestReset: (token: string) => void;
  guestOpened: (access: GuestAccess) => void;
  guestOpenFailed: (kind: 'inactive' | 'failed', message?: string) => void;
  /** The socket's first frame: it replaces everything held, on every (re)connect. */
  guestHello: (hello: GuestHello) => void;
  guestProjectUpdated: (project: Project) => void;
  guestProjectDeleted: (id: string) => void;
  guestMilestonesChanged: (plan: MilestonePlan) => void;
  guestPhotoUpserted: (photo: ProjectImage) => void;
  guestPhotoRemoved: (projectId: string, id: string) => void;
  /** A page of older photos: merged with what live events did meanwhile (a deleted one stays gone, the newer version wins). */
  guestPhotosListed: (projectId: string, photos: ProjectImage[]) => void;
  guestPhotoPagingChanged: (change: Partial<GuestPhotoPaging>) => void;
  /** A photo's markup (get_markup reply or `markup_changed`); its tile counts the shapes. */
  guestMarkupReceived: (markup: Markup) => void;
  guestTimelineAdded: (entry: TimelineEntry) => void;
  guestTimelineRemoved: (projectId: string, id: string) => void;
  guestTimelineLoading: () => void;
  /** A page of the timeline: the first (newest) one replaces what the last connection held. */
  guestTimelineListed: (entries: TimelineEntry[], next: string | null, first: boolean) => void;
  guestTimelineFailed: (message: string) => void;
  /** The link was revoked or expired under an open page (session_ended, close 4401, a refused reopen). */
  guestEnded: () => void;
  guestConnectionChanged: (connection: GuestConnection) => void;
  /** The server speaks another protocol version: only a reload helps. */
  guestOutdated: () => void;
}

export type GuestState = GuestData & GuestActions;

const emptyTimeline = (): GuestTimeline => ({ entries: [], next: null, loaded: false, loading: false, error: null, fresh: {}, removed: {} });

export const initialGuestData = (token: string | null = null): GuestData => ({
  token,
  phase: 'opening',
  failure: null,
  access: null,
  project: null,
  plan: null,
  photos: {},
  report: null,
  deletedPhotos: {},
  timeline: emptyTimeline(),
  markups: {},
  connection: 'idle',
  photoChanges: 0,
  epoch: 0,
  photoPaging: { next: null, total: 0, loading: false, failed: false },
});

/** Newest first; the id breaks ties so the order is stable across pages. */
function byNewest(a: TimelineEntry, b: TimelineEntry): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function mergeEntries(held: readonly TimelineEntry[], incoming: readonly TimelineEntry[], removed: Record<string, true>): TimelineEntry[] {
  const byId = new Map<string, TimelineEntry>();
  for (const e of held) byId.set(e.id, e);
  for (const e of incoming) byId.set(e.id, e);
  return [...byId.values()].filter((e) => !removed[e.id]).sort(byNewest);
}

/** Phases after which nothing from the socket is applied any more. */
const isOver = (phase: GuestPhase) => phase === 'inactive' || phase === 'outdated';

export const createGuestStore = () =>
  create<GuestState>()((set) => {
    /** Applies a change to the linked project's data only, and only while the visit is on. */
    const live = (change: (state: GuestState) => Partial<GuestData> | null) =>
      set((state) => {
        if (isOver(state.phase) || !state.project) return state;
        return change(state) ?? state;
      });
    const ofProject = (state: GuestState, projectId: string) => state.project?.id === projectId;

    return {
      ...initialGuestData(),
      guestReset: (token) => set(initialGuestData(token)),
      guestOpened: (access) => set((state) => (state.phase === 'opening' ? { access, phase: 'connecting' } : { access })),
      guestOpenFailed: (kind, message) =>
        set((state) => {
          if (isOver(state.phase)) return state;
          return kind === 'inactive' ? { phase: 'inactive', failure: null } : { phase: 'failed', failure: message ?? null };
        }),
      guestHello: (hello) =>
        set((state) => {
          if (isOver(state.phase)) return state;
          const photos: Record<string, ProjectImage> = {};
          for (const p of hello.photos) if (p.projectId === hello.project.id) photos[p.id] = p;
          const next = hello.nextPhotos ?? null;
          return {
            photoPaging: { next, total: Math.max(hello.photoCount ?? 0, hello.photos.length), loading: next !== null, failed: false },
            phase: 'live',
            failure: null,
            access: hello.access,
            project: hello.project,
            plan: hello.milestones,
            photos,
            report: hello.report ?? null,
            deletedPhotos: {},
            // Held markup may have changed while away: the open lightbox reads it again.
            markups: {},
            // What was paged stays on screen until this connection's first page replaces it.
            timeline: { ...state.timeline, loading: false, error: null, fresh: {}, removed: {} },
            connection: 'open',
            epoch: state.epoch + 1,
          };
        }),
      guestProjectUpdated: (project) =>
        live((state) => {
          if (!ofProject(state, project.id)) return null;
          const next = newerWins(state.project, project);
          return next === state.project ? null : { project: next };
        }),
      // The project is gone, and the link with it.
      guestProjectDeleted: (id) => live((state) => (ofProject(state, id) ? { phase: 'inactive' } : null)),
      guestMilestonesChanged: (plan) =>
        live((state) => {
          if (!ofProject(state, plan.projectId) || !isNewer(state.plan, plan)) return null;
          return { plan };
        }),
      guestPhotoUpserted: (photo) =>
        live((state) => {
          if (!ofProject(state, photo.projectId) || state.deletedPhotos[photo.id]) return null;
          const next = newerWins(state.photos[photo.id], photo);
          return next === state.photos[photo.id] ? null : { photos: { ...state.photos, [photo.id]: next }, photoChanges: state.photoChanges + 1 };
        }),
      guestPhotoRemoved: (projectId, id) =>
        live((state) => {
          if (!ofProject(state, projectId)) return null;
          const photos = { ...state.photos };
          delete photos[id];
          return { photos, deletedPhotos: { ...state.deletedPhotos, [id]: true }, photoChanges: state.photoChanges + 1 };
        }),
      guestPhotosListed: (projectId, listed) =>
        live((state) => {
          if (!ofProject(state, projectId)) return null;
          let photos: Record<string, ProjectImage> | null = null;
          for (const photo of listed) {
            if (photo.projectId !== projectId || state.deletedPhotos[photo.id]) continue;
            const held = (photos ?? state.photos)[photo.id];
            const next = newerWins(held, photo);
            if (next === held) continue;
            photos ??= { ...state.photos };
            photos[photo.id] = next;
          }
          return photos ? { photos } : null;
        }),
      guestPhotoPagingChanged: (change) => live((state) => ({ photoPaging: { ...state.photoPaging, ...change } })),
      guestMarkupReceived: (markup) =>
        live((state) => {
          // Only the link's photos: a guest never holds markup of a photo it may not see.
          const photo = state.photos[markup.imageId];
          if (!ofProject(state, markup.projectId) || !photo) return null;
          const held = state.markups[markup.imageId];
          if (held && markup.version <= held.version) return null;
          return {
            markups: { ...state.markups, [markup.imageId]: markup },
            photos: { ...state.photos, [photo.id]: { ...photo, markupCount: markup.shapes.length } },
          };
        }),
      guestTimelineAdded: (entry) =>
        live((state) => {
          const t = state.timeline;
          if (!ofProject(state, entry.projectId) || t.removed[entry.id]) return null;
          return { timeline: { ...t, entries: mergeEntries(t.entries, [entry], t.removed), fresh: { ...t.fresh, [entry.id]: true } } };
        }),
      guestTimelineRemoved: (projectId, id) =>
        live((state) => {
          if (!ofProject(state, projectId)) return null;
          const t = state.timeline;
          return { timeline: { ...t, entries: t.entries.filter((e) => e.id !== id), removed: { ...t.removed, [id]: true } } };
        }),
      guestTimelineLoading: () => live((state) => ({ timeline: { ...state.timeline, loading: true, error: null } })),
      guestTimelineListed: (entries, next, first) =>
        live((state) => {
          const t = state.timeline;
          const mine = entries.filter((e) => ofProject(state, e.projectId));
          const held = first ? t.entries.filter((e) => t.fresh[e.id]) : t.entries;
          return { timeline: { ...t, entries: mergeEntries(held, mine, t.removed), next, loaded: true, loading: false, error: null } };
        }),
      guestTimelineFailed: (message) => live((state) => ({ timeline: { ...state.timeline, loading: false, error: message } })),
      guestEnded: () => set((state) => (state.phase === 'outdated' ? state : { phase: 'inactive', connection: 'idle' })),
      guestConnectionChanged: (connection) => set((state) => (isOver(state.phase) ? state : { connection })),
      guestOutdated: () => set({ phase: 'outdated', connection: 'idle' }),
    };
  });

/** The guest's visit. Apart from the signed-in app's store: a guest has no user, snapshot or notifications. */
export const useGuestStore = createGuestStore();

/** The photos the link shows, as a list (the page sorts them). */
export const guestPhotoList = (state: Pick<GuestData, 'photos'>): ProjectImage[] => Object.values(state.photos);
