import { useEffect, useState } from 'react';
import { ArrowLeftRight, Columns2, Images, Layers, Link2, SplitSquareHorizontal, X } from 'lucide-react';
import type { MarkupSource } from '../markup/markupSources';
import { PhotoMarkup } from '../markup/PhotoMarkup';
import { toast } from '../../lib/toast';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { DIVIDER_START, fitContain } from '../../lib/compareDivider';
import { photoDayLabel, timeApartLabel } from '../../lib/photoDates';
import { PhotoImage } from '../photos/PhotoImage';
import { CompareSlider } from './CompareSlider';
import { SideLabel } from './SideLabel';
import { useBoxSize } from './useBoxSize';

export type CompareMode = 'side-by-side' | 'slider';

const MODES: { value: CompareMode; label: string; icon: typeof Columns2 }[] = [
  { value: 'side-by-side', label: 'Side by side', icon: Columns2 },
  { value: 'slider', label: 'Slider', icon: SplitSquareHorizontal },
];

const barButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg px-3 text-sm font-medium text-white/90 transition hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white';

/** Copies the address of this comparison (the pair is all of its state). */
async function copyCompareLink(note: string): Promise<void> {
  const url = window.location.href;
  try {
    await navigator.clipboard.writeText(url);
    toast.success('Link copied', { description: note });
  } catch {
    toast.error("Couldn't copy the link", { description: url });
  }
}

function ModeSwitch({ mode, onChange, className }: { mode: CompareMode; onChange: (mode: CompareMode) => void; className?: string }) {
  return (
    <div role="group" aria-label="Compare view" className={cn('inline-flex rounded-lg bg-white/10 p-1', className)}>
      {MODES.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={mode === value}
          onClick={() => onChange(value)}
          className={cn(
            'inline-flex h-8 flex-1 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white',
            mode === value ? 'bg-white text-slate-900 shadow-sm' : 'text-white/80 hover:text-white',
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}

function Caption({ photo, side }: { photo: ProjectImage; side: 'before' | 'after' }) {
  return (
    <div className={cn('min-w-0', side === 'after' && 'text-right')} data-testid={`compare-caption-${side}`}>
      <p className="text-xs font-semibold tracking-wide text-white/60 uppercase">{side === 'before' ? 'Before' : 'After'}</p>
      <p className="truncate text-sm font-medium text-white sm:text-base">{photo.caption?.trim() || 'Untitled photo'}</p>
      <p className="text-xs text-white/70 sm:text-sm">{photoDayLabel(photo)}</p>
    </div>
  );
}

/** One photo, as large as its half allows, with its label on the photo itself. */
function SidePane({ photo, side, markup }: { photo: ProjectImage; side: 'before' | 'after'; markup?: MarkupSource }) {
  const [ref, space] = useBoxSize<HTMLDivElement>();
  const box = fitContain(space.width, space.height, photo.width / photo.height);
  return (
    <div ref={ref} className="flex min-h-0 min-w-0 items-center justify-center" data-testid={`compare-pane-${side}`}>
      <figure className="relative overflow-hidden rounded-lg bg-slate-900" style={{ width: box.width, height: box.height }}>
        <PhotoImage key={photo.id} src={photo.displayUrl} alt={photo.caption ?? (side === 'before' ? 'Before' : 'After')} eager className="size-full object-cover" />
        {markup && <PhotoMarkup photo={photo} source={markup} />}
        <SideLabel side={side} className="absolute top-3 left-3" />
      </figure>
    </div>
  );
}

/**
 * Before and after, full screen: side by side (stacked on a phone held upright) or laid
 * over each other with a divider. Swap, Copy link and Change photos act on the pair,
 * which lives in the address; Escape or Close leaves.
 */
export function CompareView({
  before,
  after,
  projectTitle,
  onSwap,
  onChangePhotos,
  onClose,
  linkNote,
  markupSource,
}: {
  before: ProjectImage;
  after: ProjectImage;
  projectTitle: string;
  /** Said when the link is copied: who can open it. */
  linkNote: string;
  onSwap: () => void;
  onChangePhotos: () => void;
  onClose: () => void;
  markupSource?: MarkupSource;
}) {
  const [showMarkup, setShowMarkup] = useState(true);
  const hasMarkup = before.markupCount > 0 || after.markupCount > 0;
  const markup = markupSource && showMarkup ? markupSource : undefined;
  const [mode, setMode] = useState<CompareMode>('slider');
  const [divider, setDivider] = useState(DIVIDER_START);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A dialog over the view (the picker) handles its own Escape.
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[role="dialog"]')) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="fixed inset-0 z-40 flex flex-col bg-slate-950 text-white" data-testid="compare-view" data-mode={mode}>
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 pt-3 pb-2 sm:px-5">
        <button type="button" onClick={onClose} aria-label="Close compare view" className={cn(barButton, 'w-10 px-0')}>
          <X className="size-5" aria-hidden="true" />
        </button>
        <div className="min-w-0 flex-1">
          <h1 className="text-base font-semibold sm:text-lg">Before / after</h1>
          <p className="flex min-w-0 text-xs text-white/70 sm:text-sm">
            <span className="truncate">{projectTitle}</span>
            <span className="shrink-0 whitespace-pre" data-testid="compare-apart">
              {' · '}
              {timeApartLabel(before, after)}
            </span>
          </p>
        </div>
        <ModeSwitch mode={mode} onChange={setMode} className="max-sm:order-last max-sm:w-full" />
        <div className="flex items-center gap-1">
          {markupSource && hasMarkup && (
            <button
              type="button"
              onClick={() => setShowMarkup((v) => !v)}
              aria-pressed={showMarkup}
              className={cn(barButton, showMarkup && 'bg-white/15')}
              aria-label="Show markup"
              title="Show markup"
            >
              <Layers className="size-4" aria-hidden="true" />
              <span className="max-lg:sr-only">Show markup</span>
            </button>
          )}
          <button type="button" onClick={onSwap} className={barButton} aria-label="Swap before and after" title="Swap before and after">
            <ArrowLeftRight className="size-4" aria-hidden="true" />
            <span className="max-lg:sr-only">Swap</span>
          </button>
          <button type="button" onClick={onChangePhotos} className={barButton} aria-label="Change photos" title="Change photos">
            <Images className="size-4" aria-hidden="true" />
            <span className="max-lg:sr-only">Change photos</span>
          </button>
          <button type="button" onClick={() => void copyCompareLink(linkNote)} className={barButton} aria-label="Copy link" title="Copy link">
            <Link2 className="size-4" aria-hidden="true" />
            <span className="max-lg:sr-only">Copy link</span>
          </button>
        </div>
      </header>

      <main className="flex min-h-0 flex-1 flex-col px-2 sm:px-5">
        {mode === 'slider' ? (
          <CompareSlider before={before} after={after} value={divider} onChange={setDivider} markup={markup} />
        ) : (
          <div className="grid min-h-0 flex-1 grid-rows-2 gap-2 landscape:grid-cols-2 landscape:grid-rows-1 sm:gap-3">
            <SidePane photo={before} side="before" markup={markup} />
            <SidePane photo={after} side="after" markup={markup} />
          </div>
        )}
      </main>

      <footer className="grid grid-cols-2 gap-4 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
        <Caption photo={before} side="before" />
        <Caption photo={after} side="after" />
      </footer>
    </div>
  );
}
