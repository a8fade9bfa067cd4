import { useEffect } from 'react';
import type { Markup } from '../../protocol/types';
import { useGuestStore } from '../../store/guest';
import { guestCommands } from '../../sync/guestCommands';
import type { MarkupSource } from './markupSources';

// A guest link's markup, read only: apart from the signed-in app's source
// (markupSources), so neither loads the other's store and socket commands.

function useGuestMarkup(imageId: string | null): Markup | null {
  const epoch = useGuestStore((s) => s.epoch);
  useEffect(() => {
    if (imageId && epoch > 0) guestCommands.getMarkup(imageId).catch(() => undefined);
  }, [imageId, epoch]);
  return useGuestStore((s) => (imageId ? (s.markups[imageId] ?? null) : null));
}

export const guestMarkupSource: MarkupSource = { useDoc: useGuestMarkup };
