import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { SplitSquareHorizontal } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { comparePath } from '../../lib/comparePaths';
import { lazyPart } from '../lazyPart';
import { Button } from '../ui/Button';

// Loaded when first opened: a gallery draws without it.
const ComparePicker = lazyPart(() => import('./ComparePicker').then((m) => m.ComparePicker), {
  what: 'Compare',
  overlay: { isOpen: (p) => p.open, close: (p) => p.onOpenChange(false) },
});

/**
 * The photo picker that leads into the compare view from a gallery or the lightbox.
 * The view is pushed onto the history, so closing it comes back here (the lightbox
 * included: its photo is in the address).
 */
export function useComparePicker(photos: ProjectImage[], basePath: string): { openPicker: (initial?: string[]) => void; picker: ReactNode } {
  const navigate = useNavigate();
  const [initial, setInitial] = useState<string[] | null>(null);
  const picker = (
    <ComparePicker
      open={initial !== null}
      onOpenChange={(open) => (open ? undefined : setInitial(null))}
      photos={photos}
      initial={initial ?? []}
      onCompare={(before, after) => {
        setInitial(null);
        navigate(comparePath(basePath, before.id, after.id));
      }}
    />
  );
  return { openPicker: (ids = []) => setInitial(ids), picker };
}

/** "Compare" at the top of a gallery, once there are two photos to compare. */
export function CompareButton({ count, onClick }: { count: number; onClick: () => void }) {
  if (count < 2) return null;
  return (
    <Button variant="outline" size="sm" onClick={onClick} title="Compare two photos">
      <SplitSquareHorizontal className="size-4" aria-hidden="true" />
      Compare
    </Button>
  );
}

/** The lightbox's Compare: the photo shown is one of the two. */
export function LightboxCompareButton({ className, onClick }: { className: string; onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} aria-label="Compare" title="Compare with another photo" className={className}>
      <SplitSquareHorizontal className="size-5" aria-hidden="true" />
    </button>
  );
}
