import { useEffect, useMemo, useState } from 'react';
import { Check } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { beforeAfter } from '../../lib/comparePaths';
import { photoDayLabel } from '../../lib/photoDates';
import { PhotoImage } from '../photos/PhotoImage';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';

/**
 * Picks the two photos to compare from the project's photos (newest first). One may
 * come chosen (the photo open in the lightbox): then one tap on another is enough.
 * The earlier of the two becomes "before", whatever the order they were tapped in.
 * A report's before/after pair is picked the same way, under its own words.
 */
export function ComparePicker({
  open,
  onOpenChange,
  photos,
  initial,
  onCompare,
  title = 'Compare photos',
  actionLabel = 'Compare',
  tooFewText = 'Comparing needs at least two photos of this project.',
  listLabel = 'Photos to compare',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  photos: ProjectImage[];
  /** Ids chosen when the picker opens (zero, one or two). */
  initial: string[];
  onCompare: (before: ProjectImage, after: ProjectImage) => void;
  title?: string;
  actionLabel?: string;
  /** Said when there are fewer than two photos to pick from. */
  tooFewText?: string;
  listLabel?: string;
}) {
  const [chosen, setChosen] = useState<string[]>(initial);
  // Each opening starts from what the caller chose.
  const initialKey = initial.join(',');
  useEffect(() => {
    if (open) setChosen(initialKey ? initialKey.split(',') : []);
  }, [open, initialKey]);

  const byId = useMemo(() => new Map(photos.map((p) => [p.id, p])), [photos]);
  const picked = chosen.map((id) => byId.get(id)).filter((p): p is ProjectImage => p !== undefined);
  const pair = picked.length === 2 ? beforeAfter(picked[0], picked[1]) : null;
  const sideOf = (id: string): 'Before' | 'After' | 'Chosen' | null => {
    if (!chosen.includes(id)) return null;
    if (!pair) return 'Chosen';
    return pair[0].id === id ? 'Before' : 'After';
  };

  const toggle = (id: string) =>
    setChosen((now) => {
      if (now.includes(id)) return now.filter((x) => x !== id);
      // A third tap replaces the last one chosen; the first stays.
      return now.length < 2 ? [...now, id] : [now[0], id];
    });

  const first = picked.length === 1 ? picked[0] : null;
  const description =
    photos.length < 2
      ? tooFewText
      : first
        ? `Now pick the photo to compare with “${first.caption?.trim() || 'this photo'}”.`
        : 'Pick two photos. The earlier one shows as before.';

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} widthClass="max-w-[760px]">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 md:grid-cols-4" aria-label={listLabel} data-testid="compare-picker">
        {photos.map((photo) => {
          const side = sideOf(photo.id);
          const name = photo.caption?.trim() || 'Untitled photo';
          return (
            <li key={photo.id}>
              <button
                type="button"
                onClick={() => toggle(photo.id)}
                aria-pressed={side !== null}
                data-photo-id={photo.id}
                className={cn(
                  'group relative block aspect-[4/3] w-full overflow-hidden rounded-lg bg-slate-100 ring-offset-2 transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:bg-slate-800 dark:ring-offset-slate-900',
                  side ? 'ring-[3px] ring-brand-500' : 'ring-1 ring-slate-900/5 hover:opacity-90 dark:ring-white/10',
                )}
              >
                <PhotoImage src={photo.thumbUrl} alt="" className="size-full object-cover" />
                {side && (
                  <span className="absolute top-1.5 left-1.5 inline-flex items-center gap-1 rounded-full bg-brand-500 px-2 py-0.5 text-[11px] font-semibold text-slate-950 shadow-sm">
                    <Check className="size-3" aria-hidden="true" />
                    {side}
                  </span>
                )}
                <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-950/80 to-transparent px-2 pt-5 pb-1.5 text-left text-[11px] leading-tight text-white">
                  <span className="block truncate font-medium">{name}</span>
                  <span className="block truncate text-white/85">{photoDayLabel(photo)}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {/* Kept in view under a long list of photos. */}
      <DialogActions className="sticky -bottom-5 -mx-5 mt-4 border-t border-slate-100 bg-white px-5 py-3 sm:-bottom-6 sm:-mx-6 sm:px-6 dark:border-slate-800 dark:bg-slate-900">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="secondary" disabled={!pair} onClick={() => pair && onCompare(pair[0], pair[1])}>
          {actionLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
