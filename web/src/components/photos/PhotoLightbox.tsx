import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type TouchEvent } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';
import { ChevronLeft, ChevronRight, Download, Heart, Layers, MapPin, NotebookPen, PenLine, X } from 'lucide-react';
import type { MarkupAccess } from '../../lib/markupRules';
import { markedPhotoPath } from '../../api/photos';
import { PhotoStage } from '../markup/PhotoStage';
import type { MarkupSource } from '../markup/markupSources';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { lightboxDateLabel } from '../../lib/photoDates';
import { byline } from '../../lib/names';
import { locationLabel, mapLink, mapPlatform } from '../../lib/mapLinks';
import { TagChipList } from '../tags/TagChip';
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

/** Who looks at the markup, and whether they may draw (lib/markupRules). */
export interface LightboxMarkup {
  source: MarkupSource;
  access: MarkupAccess;
  myId?: string;
}

/** Download: the original, in one tap (SPEC §2). */
function DownloadButton({ photo, className }: { photo: ProjectImage; className: string }) {
  return (
    <a href={photo.downloadUrl} download={photo.originalName} aria-label="Download" className={className}>
      <Download className="size-5" aria-hidden="true" />
    </a>
  );
}

/** A marked-up photo can also be had as a JPEG with its markup drawn on. */
function DownloadWithMarkup({ photo }: { photo: ProjectImage }) {
  return (
    <a
      href={markedPhotoPath(photo.id, true)}
      download
      className="mt-1.5 inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-white/85 underline-offset-4 hover:text-white hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
    >
      <PenLine className="size-4 text-rose-400" aria-hidden="true" />
      Download with markup
    </a>
  );
}

/** Where the photo was taken, as a link that opens the device's map app. */
function TakenNear({ photo }: { photo: ProjectImage }) {
  if (!photo.location) return null;
  const href = mapLink(photo.location, mapPlatform(navigator.userAgent), photo.caption?.trim() || 'Photo location');
  const web = href.startsWith('https:');
  return (
    <p className="mt-1 text-sm text-white/75" data-testid="lightbox-location">
      <a
        href={href}
        target={web ? '_blank' : undefined}
        rel={web ? 'noopener noreferrer' : undefined}
        className="inline-flex items-center gap-1.5 rounded-md underline-offset-4 hover:text-white hover:underline focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
      >
        <MapPin className="size-4 shrink-0" aria-hidden="true" />
        Taken near {locationLabel(photo.location)}
      </a>
    </p>
  );
}

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
  markup,
  tags,
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
  /** The photo's markup over it (shown by default), and the editor for those who may draw. */
  markup?: LightboxMarkup;
  /** The photo's tags with a way to change them; without it they show read only. */
  tags?: (photo: ProjectImage) => ReactNode;
}) {
  const total = photos.length;
  const photo = index !== null ? photos[index] : undefined;
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const doc = markup?.source.useDoc(photo?.id ?? null) ?? null;
  const [showMarkup, setShowMarkup] = useState(true);
  const [editing, setEditing] = useState(false);
  // Another photo (or closing) leaves the editor; what it had pending is saved on the way out.
  useEffect(() => setEditing(false), [photo?.id]);
  const markupCount = doc && doc.imageId === photo?.id ? doc.shapes.length : (photo?.markupCount ?? 0);
  const access = markup?.access ?? 'none';

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
    if (editing) return;
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
    if (!start || !t || editing) return;
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
                  <span className="text-sm font-medium whitespace-nowrap tabular-nums text-white/80" data-testid="lightbox-position" aria-live="polite">
                    {position}
                  </span>
                </div>
                <div className="flex items-center gap-1">
                  {markup && markupCount > 0 && !editing && (
                    <button
                      type="button"
                      onClick={() => setShowMarkup((v) => !v)}
                      aria-label="Show markup"
                      title={showMarkup ? 'Hide markup' : 'Show markup'}
                      aria-pressed={showMarkup}
                      className={cn(barButton, showMarkup && 'bg-white/15 text-white')}
                    >
                      <Layers className="size-5" aria-hidden="true" />
                    </button>
                  )}
                  {markup && access !== 'none' && !editing && (
                    <button
                      type="button"
                      onClick={() => {
                        setShowMarkup(true);
                        setEditing(true);
                      }}
                      disabled={!doc}
                      className="inline-flex h-10 items-center gap-1.5 rounded-full px-3 text-sm font-medium text-white/90 transition hover:bg-white/15 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-50"
                    >
                      {access === 'own-pins' ? <MapPin className="size-4" aria-hidden="true" /> : <PenLine className="size-4" aria-hidden="true" />}
                      {/* Phones keep the bar to one row: the words stay for screen readers. */}
                      <span className="whitespace-nowrap max-sm:sr-only">{access === 'own-pins' ? 'Add pin' : 'Draw'}</span>
                    </button>
                  )}
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
                  {canDownload && <DownloadButton photo={photo} className={barButton} />}
                  <RadixDialog.Close aria-label="Close" className={barButton}>
                    <X className="size-5" aria-hidden="true" />
                  </RadixDialog.Close>
                </div>
              </div>

              <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
                <div className="flex min-h-0 flex-1 flex-col">
                  <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-20">
                    {total > 1 && !editing && (
                      <button type="button" onClick={() => step(-1)} aria-label="Previous photo" className={cn(navButton, 'left-4')}>
                        <ChevronLeft className="size-6" aria-hidden="true" />
                      </button>
                    )}
                    {/* The thumbnail is cached from the grid: it holds the place while the display size fades in. */}
                    <div key={photo.id} className="relative size-full animate-[fade-in_200ms_ease-out]">
                      <PhotoStage
                        photo={photo}
                        doc={doc && doc.imageId === photo.id ? doc : null}
                        source={markup?.source}
                        show={showMarkup}
                        editing={editing}
                        access={access}
                        myId={markup?.myId}
                        onStopEditing={() => setEditing(false)}
                      >
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
                      </PhotoStage>
                    </div>
                    {total > 1 && !editing && (
                      <button type="button" onClick={() => step(1)} aria-label="Next photo" className={cn(navButton, 'right-4')}>
                        <ChevronRight className="size-6" aria-hidden="true" />
                      </button>
                    )}
                  </div>

                  <div className="flex items-end justify-between gap-4 px-4 pt-3 pb-3 sm:px-6 lg:pb-[max(1rem,env(safe-area-inset-bottom))]">
                    <div className="min-w-0">
                      {photo.caption && <p className="text-base font-medium text-white" data-testid="lightbox-caption">{photo.caption}</p>}
                      <p className="text-sm text-white/65" data-testid="lightbox-date">{lightboxDateLabel(photo)}</p>
                      {photo.uploadedBy && (
                        <p className="text-sm text-white/65" data-testid="lightbox-byline">
                          by {byline(photo.uploadedBy.name, photo.uploadedBy.company)}
                        </p>
                      )}
                      <TakenNear photo={photo} />
                      {tags ? tags(photo) : <TagChipList tags={photo.tags} tone="dark" size="sm" className="mt-2" label="Photo tags" />}
                      {canDownload && Boolean(markup) && markupCount > 0 && <DownloadWithMarkup photo={photo} />}
                      {photo.visitNote && (
                        <p className="mt-1.5 flex items-start gap-1.5 text-sm text-white/85" data-testid="lightbox-visit-note">
                          <NotebookPen className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                          <span>
                            <span className="font-medium">Site visit note:</span> “{photo.visitNote}”
                          </span>
                        </p>
                      )}
                    </div>
                    {total > 1 && !editing && (
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
