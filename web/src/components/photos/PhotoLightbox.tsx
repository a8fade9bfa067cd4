import { useEffect, useRef, type KeyboardEvent, type ReactNode, type TouchEvent } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { ChevronLeft, ChevronRight, Download, Heart, NotebookPen, X } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { lightboxDateLabel } from '../../lib/photoDates';
import { CategoryBadge } from './CategoryBadge';
import { PhotoImage } from './PhotoImage';

/** SPEC §9: the lightbox's image transition lasts 200 ms. */
const TRANSITION_MS = 200;
/** A horizontal swipe at least this long (px) moves to the next or previous photo. */
const SWIPE_PX = 50;

const barButton =
  'inline-flex size-10 items-center justify-center rounded-full text-white/85 transition hover:bg-white/15 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white';
const navButton =
  'absolute top-1/2 z-10 hidden -translate-y-1/2 items-center justify-center rounded-full bg-white/10 text-white backdrop-blur-sm transition hover:bg-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white sm:inline-flex sm:size-12';

/**
 * The full-screen viewer (SPEC §2 Image gallery and lightbox): category, "n / total",
 * previous and next with wrap-around (arrow keys, swipe), favourite, download, close
 * (Escape), caption and date. Radix Dialog gives the dialog role and the focus trap.
 */
export function PhotoLightbox({
  photos,
  index,
  favourite,
  onIndexChange,
  onClose,
  onToggleFavourite,
  onCloseAutoFocus,
  actions,
  canDownload = true,
  aside,
}: {
  photos: ProjectImage[];
  /** The photo shown; the lightbox is closed when null. */
  index: number | null;
  favourite?: (id: string) => boolean;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Without it there is no favourite button (a guest has no favourites). */
  onToggleFavourite?: (photo: ProjectImage) => void;
  /** Where focus goes once closed (the dialog has no trigger to hand it back to). */
  onCloseAutoFocus?: (event: Event) => void;
  /** Role-specific buttons for the shown photo, placed before favourite and download. */
  actions?: (photo: ProjectImage, buttonClass: string) => ReactNode;
  /** False hides Download (a guest link without downloads). */
  canDownload?: boolean;
  /** A panel beside the photo (below it on phones): the comments, for signed-in users. */
  aside?: (photo: ProjectImage) => ReactNode;
}) {
  const total = photos.length;
  const photo = index !== null ? photos[index] : undefined;
  const touchStart = useRef<{ x: number; y: number } | null>(null);

  const step = (delta: number) => {
    if (index === null || total === 0) return;
    onIndexChange((index + delta + total) % total);
  };

  // The neighbours load while this one is looked at, so stepping is instant.
  useEffect(() => {
    if (index === null || total < 2) return;
    for (const i of [(index + 1) % total, (index - 1 + total) % total]) {
      const img = new Image();
      img.src = photos[i].displayUrl;
    }
  }, [index, total, photos]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      step(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      step(-1);
    }
  };
  const onTouchStart = (e: TouchEvent) => {
    const t = e.touches[0];
    touchStart.current = t ? { x: t.clientX, y: t.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touchStart.current;
    const t = e.changedTouches[0];
    touchStart.current = null;
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
  };

  const isFavourite = photo && favourite ? favourite(photo.id) : false;
  const position = index !== null ? `${index + 1} / ${total}` : '';

  return (
    <RadixDialog.Root open={photo !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950 data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <RadixDialog.Content
          data-testid="lightbox"
          onKeyDown={onKeyDown}
          onTouchStart={onTouchStart}
          onTouchEnd={onTouchEnd}
          onCloseAutoFocus={onCloseAutoFocus}
          onEscapeKeyDown={(e) => {
            // Escape in the comment box closes its mention list or edit, or keeps a draft.
            const active = document.activeElement;
            if (active instanceof HTMLElement && active.dataset.keepEscape === 'true') e.preventDefault();
          }}
          className="fixed inset-0 z-50 flex flex-col text-white focus:outline-none data-[state=open]:animate-[fade-in_150ms_ease-out]"
        >
          {photo && (
            <>
              <RadixDialog.Title className="sr-only">{photo.caption?.trim() || 'Project photo'}</RadixDialog.Title>
              <RadixDialog.Description className="sr-only">
                Photo {position}. Use the arrow keys to move between photos.
              </RadixDialog.Description>

              <div className="flex items-center justify-between gap-3 px-3 py-3 sm:px-5">
                <div className="flex min-w-0 items-center gap-3">
                  <CategoryBadge category={photo.category} />
                  <span className="text-sm font-medium tabular-nums text-white/80" data-testid="lightbox-position" aria-live="polite">
                    {position}
                  </span>
                </div>
                <div className="flex items-center gap-1">
                  {actions?.(photo, barButton)}
                  {onToggleFavourite && (
                    <button
                      type="button"
                      onClick={() => onToggleFavourite(photo)}
                      aria-label="Favorite"
                      aria-pressed={isFavourite}
                      className={cn(barButton, isFavourite && 'text-rose-400 hover:text-rose-300')}
                    >
                      <Heart className={cn('size-5', isFavourite && 'fill-current')} aria-hidden="true" />
                    </button>
                  )}
                  {canDownload && (
                    <a href={photo.downloadUrl} download={photo.originalName} aria-label="Download" className={barButton}>
                      <Download className="size-5" aria-hidden="true" />
                    </a>
                  )}
                  <RadixDialog.Close aria-label="Close" className={barButton}>
                    <X className="size-5" aria-hidden="true" />
                  </RadixDialog.Close>
                </div>
              </div>

              <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
                <div className="flex min-h-0 flex-1 flex-col">
                  <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-20">
                    {total > 1 && (
                      <button type="button" onClick={() => step(-1)} aria-label="Previous photo" className={cn(navButton, 'left-4')}>
                        <ChevronLeft className="size-6" aria-hidden="true" />
                      </button>
                    )}
                    {/* The thumbnail is cached from the grid: it holds the place while the display size fades in. */}
                    <div key={photo.id} className="relative size-full animate-[fade-in_200ms_ease-out]">
                      <img
                        src={photo.thumbUrl}
                        alt=""
                        aria-hidden="true"
                        draggable={false}
                        className="absolute inset-0 size-full object-contain"
                      />
                      <PhotoImage
                        src={photo.displayUrl}
                        alt={photo.caption ?? ''}
                        eager
                        fadeMs={TRANSITION_MS}
                        className="absolute inset-0 size-full object-contain select-none"
                      />
                    </div>
                    {total > 1 && (
                      <button type="button" onClick={() => step(1)} aria-label="Next photo" className={cn(navButton, 'right-4')}>
                        <ChevronRight className="size-6" aria-hidden="true" />
                      </button>
                    )}
                  </div>

                  <div className="flex items-end justify-between gap-4 px-4 pt-3 pb-3 sm:px-6 lg:pb-[max(1rem,env(safe-area-inset-bottom))]">
                    <div className="min-w-0">
                      {photo.caption && <p className="text-base font-medium text-white" data-testid="lightbox-caption">{photo.caption}</p>}
                      <p className="text-sm text-white/65" data-testid="lightbox-date">{lightboxDateLabel(photo)}</p>
                      {photo.visitNote && (
                        <p className="mt-1.5 flex items-start gap-1.5 text-sm text-white/85" data-testid="lightbox-visit-note">
                          <NotebookPen className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                          <span>
                            <span className="font-medium">Site visit note:</span> “{photo.visitNote}”
                          </span>
                        </p>
                      )}
                    </div>
                    {total > 1 && (
                      <div className="flex gap-2 sm:hidden">
                        <button type="button" onClick={() => step(-1)} aria-label="Previous photo" className={cn(barButton, 'bg-white/10')}>
                          <ChevronLeft className="size-5" aria-hidden="true" />
                        </button>
                        <button type="button" onClick={() => step(1)} aria-label="Next photo" className={cn(barButton, 'bg-white/10')}>
                          <ChevronRight className="size-5" aria-hidden="true" />
                        </button>
                      </div>
                    )}
                  </div>
                </div>
                {aside && (
                  <aside className="flex max-h-[45dvh] min-h-0 flex-col border-t border-white/10 bg-slate-900/60 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l">
                    {aside(photo)}
                  </aside>
                )}
              </div>
            </>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
