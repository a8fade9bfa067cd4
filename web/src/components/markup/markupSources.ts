import { useEffect } from 'react';
import type { Markup, Shape } from '../../protocol/types';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';

/**
 * Where a screen gets a photo's markup from: the signed-in app's socket and store (here),
 * or the guest's (read only: guestMarkupSource). `useDoc` is a hook: it keeps the
 * photo's markup current while the calling component shows it (read once, then
 * `markup_changed`).
 */
export interface MarkupSource {
  useDoc: (imageId: string | null) => Markup | null;
  /** Absent where nobody may draw (the guest page). */
  save?: (imageId: string, baseVersion: number, shapes: Shape[]) => Promise<Markup>;
  /** The server's copy, replacing what is held whatever its version (after a conflict). */
  reload?: (imageId: string) => Promise<Markup>;
}

function useAppMarkup(imageId: string | null): Markup | null {
  const epoch = useAppStore((s) => s.liveEpoch);
  useEffect(() => {
    if (!imageId) return undefined;
    const store = useAppStore.getState();
    store.markupOpened(imageId);
    return () => useAppStore.getState().markupClosed(imageId);
  }, [imageId]);
  useEffect(() => {
    // Each connection reads it again: changes made while away came as no event.
    if (imageId && epoch > 0) commands.getMarkup(imageId).catch(() => undefined);
  }, [imageId, epoch]);
  return useAppStore((s) => (imageId ? (s.markups[imageId]?.doc ?? null) : null));
}

export const appMarkupSource: MarkupSource = {
  useDoc: useAppMarkup,
  save: (imageId, baseVersion, shapes) => commands.saveMarkup(imageId, baseVersion, shapes),
  reload: (imageId) => commands.getMarkup(imageId, true),
};
