import type { StateCreator } from 'zustand';
import type { Markup } from '../protocol/types';
import type { AppState } from './index';

/** One photo's markup, held while some screen (lightbox, compare) shows the photo. */
export interface HeldMarkup {
  /** How many screens show it: the last to close drops it (later events would be missed). */
  watchers: number;
  /** Null until the get_markup reply (or an event) arrives. */
  doc: Markup | null;
}

export interface MarkupSlice {
  /** Markup of the photos on screen, by image id. */
  markups: Record<string, HeldMarkup>;
  /** A screen shows the photo: from now on its markup events are kept. */
  markupOpened: (imageId: string) => void;
  markupClosed: (imageId: string) => void;
  /**
   * A copy arrived (reply or `markup_changed`): kept only when newer than the one held
   * (DESIGN §2), so a late reply never undoes a newer event. `force` takes it whatever
   * its version (after a conflict the server's copy is the truth).
   */
  markupReceived: (markup: Markup, force?: boolean) => void;
  /** A new connection: copies held may be stale, the screens read them again. */
  markupsCleared: () => void;
}

export const createMarkupSlice: StateCreator<AppState, [], [], MarkupSlice> = (set) => ({
  markups: {},
  markupOpened: (imageId) =>
    set((state) => {
      const held = state.markups[imageId];
      return { markups: { ...state.markups, [imageId]: { watchers: (held?.watchers ?? 0) + 1, doc: held?.doc ?? null } } };
    }),
  markupClosed: (imageId) =>
    set((state) => {
      const held = state.markups[imageId];
      if (!held) return state;
      const markups = { ...state.markups };
      if (held.watchers <= 1) delete markups[imageId];
      else markups[imageId] = { ...held, watchers: held.watchers - 1 };
      return { markups };
    }),
  markupReceived: (markup, force = false) =>
    set((state) => {
      const held = state.markups[markup.imageId];
      if (!held) return state;
      if (!force && held.doc && markup.version <= held.doc.version) return state;
      return { markups: { ...state.markups, [markup.imageId]: { ...held, doc: markup } } };
    }),
  markupsCleared: () =>
    set((state) => ({
      markups: Object.fromEntries(Object.entries(state.markups).map(([id, held]) => [id, { ...held, doc: null }])),
    })),
});
