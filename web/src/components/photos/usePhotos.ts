import { useCallback, useMemo, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import type { ImageCategory, ProjectImage } from '../../protocol/types';
import { defaultDateFilter, newestFirst, type DateFilter } from '../../lib/photoFilters';
import { favouriteMessage } from '../../lib/photoUpload';
import { useAppStore, type PhotoPaging, type ProjectPhotos } from '../../store';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';

const NO_FAVOURITES: Readonly<Record<string, true>> = Object.freeze({});
const NO_PAGING: Readonly<PhotoPaging> = Object.freeze({ next: null, total: 0, loading: false, failed: false, run: 0 });

/**
 * A project's photos held on this connection, newest first, and this user's favourites.
 * While the page subscribes again after a reconnect, the last full view stays on screen
 * (an open lightbox included) until the fresh list replaces it.
 */
export function useProjectPhotos(projectId: string) {
  const live = useAppStore((s) => s.photos[projectId]);
  const last = useRef<{ projectId: string; held: ProjectPhotos } | null>(null);
  if (live?.loaded) last.current = { projectId, held: live };
  const held = live?.loaded || last.current?.projectId !== projectId ? live : last.current.held;
  // On the photos only: a favourite, a page's progress or a window's state leave the
  // order as it was, and a year of photos is not sorted again for a heart's tap.
  const byId = held?.byId;
  const photos = useMemo(() => (byId ? newestFirst(Object.values(byId)) : []), [byId]);
  return {
    photos,
    favourites: held?.favourites ?? NO_FAVOURITES,
    loaded: held?.loaded ?? false,
    paging: held?.paging ?? NO_PAGING,
  };
}

/** The gallery's filter state: year and month (SPEC §2 defaults) and Favorites mode. */
export function usePhotoFilters() {
  const [now] = useState(() => new Date());
  const [date, setDate] = useState<DateFilter>(() => defaultDateFilter(now));
  const [favouritesOnly, setFavouritesOnly] = useState(false);
  const reset = useCallback(() => {
    setDate(defaultDateFilter(now));
    setFavouritesOnly(false);
  }, [now]);
  return { now, date, setDate, favouritesOnly, setFavouritesOnly, reset };
}

export type PhotoFilters = ReturnType<typeof usePhotoFilters>;

/** A failure toast with the screen's own title and, when the server said why, its words. */
function toastFailure(title: string, error: unknown) {
  const detail = error instanceof RequestError && error.fromServer && error.message !== title ? error.message : undefined;
  toast.error(title, detail ? { description: detail } : undefined);
}

/**
 * SPEC §4: favouriting is optimistic; the heart changes at once and goes back, with
 * "Failed to update favorites", if the server refuses.
 */
export async function toggleFavourite(photo: ProjectImage): Promise<void> {
  // SPEC §6: favouriting requires login. The gallery is only shown signed in, but a
  // session can end under an open page (see RequireAuth) before it is replaced.
  if (useAppStore.getState().sessionStatus !== 'authenticated') {
    toast.error('You must be logged in to favorite images');
    return;
  }
  const was = Boolean(useAppStore.getState().photos[photo.projectId]?.favourites[photo.id]);
  try {
    await commands.setFavourite(photo, !was);
    toast.success(favouriteMessage(photo.caption, !was));
  } catch (err) {
    toastFailure('Failed to update favorites', err);
  }
}

/** Caption, category and milestone tag (admins and the project's builder). Resolves whether it saved. */
export async function updatePhoto(id: string, change: { caption?: string; category?: ImageCategory; milestoneId?: string }): Promise<boolean> {
  try {
    await commands.updatePhoto({ id, ...change });
    return true;
  } catch (err) {
    toastFailure('Failed to update image', err);
    return false;
  }
}

/** Admins only (SPEC §6). Resolves whether it was deleted. */
export async function deletePhoto(photo: ProjectImage): Promise<boolean> {
  try {
    await commands.deletePhoto(photo);
    toast.success('Image deleted successfully');
    return true;
  } catch (err) {
    toastFailure('Failed to delete image', err);
    return false;
  }
}

/** Asks for the project's photos again; merged, so nothing pushed meanwhile is lost. */
export async function refreshPhotos(projectId: string, options: { quiet?: boolean } = {}): Promise<void> {
  try {
    await commands.refreshPhotos(projectId);
    if (!options.quiet) toast.success('Images refreshed successfully');
  } catch (err) {
    if (!options.quiet) toastFailure('Failed to refresh images', err);
  }
}
