import type { StateCreator } from 'zustand';
import type { ProjectImage } from '../protocol/types';
import { listedRange, withRange, type ShownRange } from '../lib/photoCoverage';
import { newerWins } from '../sync/versions';
import type { AppState } from './index';

/** One open project's photos on this connection. */
export interface ProjectPhotos {
  byId: Record<string, ProjectImage>;
  /**
   * Ids deleted on this connection: a list read before the deletion (a late
   * `subscribed` or `photos` reply) must not bring them back.
   */
  deleted: Record<string, true>;
  /** This user's favourites among the photos (effective: lists overlaid by `favouriteSeen`). */
  favourites: Record<string, true>;
  /**
   * The newest favourite state known per image from events or this tab's own toggles.
   * Every change to a favourite reaches the user's sockets as an event, so this is never
   * older than a list, and a list answered before a change cannot undo it.
   */
  favouriteSeen: Record<string, boolean>;
  /**
   * The newest markup version seen per image (`markup_changed`): a count from an older
   * version (events of two quick saves, a reply) cannot replace a newer one.
   */
  markupSeen: Record<string, number>;
  /** True once a list (subscribe or list_photos reply) has arrived. */
  loaded: boolean;
  /**
   * Older pages still to read (docs/FEATURES.md, "Big projects"): the project opens on
   * its first page and the rest arrive a page at a time. `next` is where the next page
   * starts, `null` once every photo is here.
   */
  paging: PhotoPaging;
  /**
   * The stretches of the gallery's order held whole (oldest first, apart): the read from
   * the newest and any month or year read directly. A date filter whose window they
   * cover shows every photo it has; one they do not is read directly (`sync/photoWindows`).
   */
  covered: ShownRange[];
  /** The month or year being read directly for the gallery's date filter, if any. */
  window: PhotoWindowLoad | null;
}

/** A direct read of the photos of one date window (docs/FEATURES.md, "Big projects"). */
export interface PhotoWindowLoad {
  /** The window's `PhotoWindow.key`. */
  key: string;
  /** Which read this is: a later one (another window, a retry) ends it. */
  run: number;
  /** Where its next page starts (null: at its first), for Retry to go on from. */
  next: string | null;
  /** The `before` its first page asked for: its pages hold every photo from there down. */
  newest: number;
  /** A page failed after its retries: the gallery offers Retry. */
  failed: boolean;
}

/**
 * Which stretch of the gallery's order a list is (see `photosListed`): every photo shown
 * before `newest` (infinite: from the newest) down to the list's oldest, or to the very
 * oldest when `next` is null. Each page of one read says the whole stretch its read holds.
 */
export interface ListedReach {
  newest: number;
  next: string | null;
}

export interface PhotoPaging {
  next: string | null;
  /** How many photos the project had when it was opened, for "n of total". */
  total: number;
  /** A page is on its way. */
  loading: boolean;
  /** The last page failed after its retries: the gallery offers Retry. */
  failed: boolean;
  /** Which read of the pages this is: a newer one (a refresh) ends an older one. */
  run: number;
}

export interface PhotosSlice {
  /**
   * Photos of the projects this tab has subscribed to, by project id. Events for other
   * projects are dropped: without a subscription a deletion could be missed, so a
   * project's photos are only held while its events are being received.
   */
  photos: Record<string, ProjectPhotos>;
  /** The page is about to subscribe: from now on this project's events are kept. */
  photosOpened: (projectId: string) => void;
  /** The page unsubscribed: its photos go, as later events will not reach this tab. */
  photosClosed: (projectId: string) => void;
  /**
   * A list of photos arrived (a page or all of them) with the user's favourites among
   * them: merged with what events already brought, never replacing it. A page of a read
   * in the gallery's order says how far that read holds the photos (`reach`); pages of
   * different reads may arrive in any order.
   */
  photosListed: (projectId: string, photos: ProjectImage[], favourites: string[], reach?: ListedReach) => void;
  /** Where the pages stand: after each page, when one starts or fails. */
  photoPagingChanged: (projectId: string, change: Partial<PhotoPaging>) => void;
  /** A direct read of a date window started, went on, failed, or ended (null). */
  photoWindowChanged: (projectId: string, window: PhotoWindowLoad | null) => void;
  /** A photo arrived (event, upload result, edit reply); the higher version wins. */
  photoUpserted: (photo: ProjectImage) => void;
  photoRemoved: (projectId: string, id: string) => void;
  /** A comment was added or deleted: the photo's count as the server counted it. */
  commentCountChanged: (projectId: string, imageId: string, count: number) => void;
  /** A photo's markup changed: the tile's badge counts its shapes, newest version wins. */
  markupCountChanged: (projectId: string, imageId: string, count: number, version: number) => void;
  /** A favourite was set or cleared (event, or this tab's optimistic toggle and its revert). */
  favouriteChanged: (projectId: string, imageId: string, favourite: boolean) => void;
  /** A new connection (Hello) or sign-out: nothing held is known to be current. */
  photosCleared: () => void;
}

const emptyProject = (): ProjectPhotos => ({
  byId: {},
  deleted: {},
  favourites: {},
  favouriteSeen: {},
  markupSeen: {},
  loaded: false,
  paging: { next: null, total: 0, loading: false, failed: false, run: 0 },
  covered: [],
  window: null,
});

function withFavourite(favourites: Record<string, true>, id: string, on: boolean): Record<string, true> {
  if (Boolean(favourites[id]) === on) return favourites;
  const next = { ...favourites };
  if (on) next[id] = true;
  else delete next[id];
  return next;
}

/**
 * Every markup change reaches the project's sockets as `markup_changed`, so the count it
 * carried is never older than a photo copy read meanwhile (a list, a caption edit).
 */
function withSeenMarkup(held: ProjectPhotos, photo: ProjectImage): ProjectImage {
  if (held.markupSeen[photo.id] === undefined) return photo;
  const seen = held.byId[photo.id]?.markupCount;
  return seen === undefined || seen === photo.markupCount ? photo : { ...photo, markupCount: seen };
}

export const createPhotosSlice: StateCreator<AppState, [], [], PhotosSlice> = (set) => {
  /** Applies `change` to an open project's photos; projects not open are left alone. */
  const patch = (projectId: string, change: (held: ProjectPhotos) => ProjectPhotos | null) =>
    set((state) => {
      const held = state.photos[projectId];
      if (!held) return state;
      const next = change(held);
      return next && next !== held ? { photos: { ...state.photos, [projectId]: next } } : state;
    });

  return {
    photos: {},
    photosOpened: (projectId) =>
      set((state) => (state.photos[projectId] ? state : { photos: { ...state.photos, [projectId]: emptyProject() } })),
    photosClosed: (projectId) =>
      set((state) => {
        if (!state.photos[projectId]) return state;
        const photos = { ...state.photos };
        delete photos[projectId];
        return { photos };
      }),
    photosListed: (projectId, list, favourites, reach) =>
      patch(projectId, (held) => {
        const byId = { ...held.byId };
        // The list says which of its own photos are favourites; others keep theirs.
        const effective: Record<string, true> = { ...held.favourites };
        const listed = new Set(favourites);
        for (const photo of list) {
          if (photo.projectId !== projectId || held.deleted[photo.id]) continue;
          byId[photo.id] = withSeenMarkup(held, newerWins(byId[photo.id], photo));
          if (listed.has(photo.id)) effective[photo.id] = true;
          else delete effective[photo.id];
        }
        for (const [id, on] of Object.entries(held.favouriteSeen)) {
          if (on) effective[id] = true;
          else delete effective[id];
        }
        for (const id of Object.keys(held.deleted)) delete effective[id];
        const range = reach ? listedRange(list, reach.next, reach.newest) : null;
        const covered = range ? withRange(held.covered, range) : held.covered;
        return { ...held, byId, favourites: effective, loaded: true, covered };
      }),
    photoPagingChanged: (projectId, change) => patch(projectId, (held) => ({ ...held, paging: { ...held.paging, ...change } })),
    photoWindowChanged: (projectId, window) => patch(projectId, (held) => (held.window === window ? null : { ...held, window })),
    photoUpserted: (photo) =>
      patch(photo.projectId, (held) => {
        // A deleted photo never returns: photo_deleted carries no version, ids are not reused.
        if (held.deleted[photo.id]) return null;
        const newer = newerWins(held.byId[photo.id], photo);
        if (newer === held.byId[photo.id]) return null;
        const next = withSeenMarkup(held, newer);
        return { ...held, byId: { ...held.byId, [photo.id]: next } };
      }),
    photoRemoved: (projectId, id) =>
      patch(projectId, (held) => {
        const byId = { ...held.byId };
        delete byId[id];
        return {
          ...held,
          byId,
          deleted: { ...held.deleted, [id]: true },
          favourites: withFavourite(held.favourites, id, false),
        };
      }),
    commentCountChanged: (projectId, imageId, count) =>
      patch(projectId, (held) => {
        const photo = held.byId[imageId];
        if (!photo || photo.commentCount === count) return null;
        return { ...held, byId: { ...held.byId, [imageId]: { ...photo, commentCount: count } } };
      }),
    markupCountChanged: (projectId, imageId, count, version) =>
      patch(projectId, (held) => {
        if ((held.markupSeen[imageId] ?? -1) >= version) return null;
        const markupSeen = { ...held.markupSeen, [imageId]: version };
        const photo = held.byId[imageId];
        if (!photo) return { ...held, markupSeen };
        return { ...held, markupSeen, byId: { ...held.byId, [imageId]: { ...photo, markupCount: count } } };
      }),
    favouriteChanged: (projectId, imageId, favourite) =>
      patch(projectId, (held) => ({
        ...held,
        favourites: withFavourite(held.favourites, imageId, favourite),
        favouriteSeen: { ...held.favouriteSeen, [imageId]: favourite },
      })),
    photosCleared: () => set({ photos: {} }),
  };
};
