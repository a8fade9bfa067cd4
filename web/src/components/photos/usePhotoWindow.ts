import { useEffect, useMemo } from 'react';
import { dateWindow, type PhotoWindow } from '../../lib/photoCoverage';
import type { DateFilter } from '../../lib/photoFilters';
import { useAppStore } from '../../store';
import { holdsEveryPhoto, photoWindows, windowStatus, type WindowStatus } from '../../sync/photoWindows';

export interface PhotoWindowView {
  /** The month or year the date filter names (null: every year, or Favorites mode). */
  window: PhotoWindow | null;
  /** Whether every photo of that window is here, is being read, or failed to be. */
  status: WindowStatus;
  /** Every photo of the project is here (what Favorites and All Years need). */
  complete: boolean;
  retry: () => Promise<void>;
}

/**
 * Big projects (docs/FEATURES.md): a month or year the background read has not reached
 * yet is read directly while the gallery shows it, and abandoned when the filter moves on
 * or the gallery goes. Favorites ignore the dates (SPEC §2), so they read no window.
 */
export function usePhotoWindow(projectId: string, date: DateFilter, favouritesOnly: boolean): PhotoWindowView {
  const window = useMemo(() => (favouritesOnly ? null : dateWindow({ year: date.year, month: date.month })), [favouritesOnly, date.year, date.month]);
  const status = useAppStore((s) => windowStatus(s.photos[projectId], window));
  // Before the list (or while it is read again after a reconnect) there is nothing to
  // say: the gallery shows its skeleton, or the view it had.
  const complete = useAppStore((s) => {
    const held = s.photos[projectId];
    return !held?.loaded || holdsEveryPhoto(held);
  });
  const reading = window !== null && status !== 'held';
  useEffect(() => {
    if (!window || !reading) return;
    void photoWindows.load(projectId, window);
    return () => photoWindows.abandon(projectId, window.key);
    // A new window, or the window held (by either read), is what starts or ends a read.
  }, [projectId, window, reading]);
  return {
    window,
    status,
    complete,
    retry: () => (window ? photoWindows.resume(projectId, window) : Promise.resolve()),
  };
}
