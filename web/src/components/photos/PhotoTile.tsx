import { Check, Expand, Heart, NotebookPen, Pencil, PenLine, Trash2 } from 'lucide-react';
import { CommentCountBadge } from '../comments/CommentCountBadge';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { photoDate, tileDateLabel } from '../../lib/photoDates';
import { byline } from '../../lib/names';
import { PhotoImage } from './PhotoImage';

/** What a tile does on click: open the lightbox, or (homeowners, SPEC §2) toggle the favourite. */
export type TileClick = 'open' | 'favourite';

export interface PhotoTileProps {
  photo: ProjectImage;
  favourite: boolean;
  now: Date;
  click: TileClick;
  canEdit: boolean;
  canDelete: boolean;
  /** Added while the gallery was open: plays the entrance animation. */
  entering: boolean;
  /** Looking only (a guest): no favourite and no comment count. */
  viewOnly?: boolean;
  /** The gallery is choosing photos (to tag them): a click selects, nothing else shows. */
  selection?: { selected: boolean; onToggle: () => void };
  /** Where the tile stands among all the gallery's photos, for a windowed gallery that draws
   *  only some of them (its screen reader still hears "12 of 5,000"). */
  position?: { index: number; of: number };
  onOpen: () => void;
  onToggleFavourite: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export const photoName = (photo: ProjectImage) => photo.caption?.trim() || 'photo';

// Round glassy buttons over the photo: visible on hover or focus with a mouse, always on touch.
const overlayButton =
  'inline-flex size-8 items-center justify-center rounded-full bg-slate-950/55 text-white shadow-sm backdrop-blur-sm transition hover:bg-slate-950/75 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white';
const revealOnHover =
  'opacity-0 group-hover:opacity-100 group-focus-within:opacity-100 pointer-coarse:opacity-100';

/** The photo has markup (shown over it in the lightbox). */
function MarkupBadge({ count }: { count: number }) {
  const label = count === 1 ? '1 markup shape' : `${count} markup shapes`;
  return (
    <span
      data-testid="markup-badge"
      role="img"
      aria-label={label}
      title={label}
      className="pointer-events-none inline-flex items-center gap-1 rounded-full bg-rose-600/90 px-2 py-0.5 text-xs font-semibold tabular-nums text-white shadow-sm backdrop-blur-sm"
    >
      <PenLine className="size-3.5" aria-hidden="true" />
      {count}
    </span>
  );
}

export function PhotoTile(props: PhotoTileProps) {
  const { photo, favourite, now, click, canEdit, canDelete, entering, viewOnly = false, selection, position } = props;
  const name = photoName(photo);
  const date = tileDateLabel(photoDate(photo), now);

  return (
    <li
      data-testid="photo-tile"
      data-photo-id={photo.id}
      data-favourite={favourite || undefined}
      data-selected={selection?.selected || undefined}
      aria-posinset={position?.index}
      aria-setsize={position?.of}
      className={cn(
        'group relative aspect-[4/3] overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10',
        selection?.selected && 'ring-4 ring-brand-500 dark:ring-brand-400',
        entering && 'animate-[photo-in_420ms_cubic-bezier(0.2,0.8,0.2,1)]',
      )}
    >
      <button
        type="button"
        onClick={selection ? selection.onToggle : click === 'open' ? props.onOpen : props.onToggleFavourite}
        aria-label={selection ? `Select ${name}` : click === 'open' ? `View ${name}` : `Favorite ${name}`}
        aria-pressed={selection ? selection.selected : click === 'favourite' ? favourite : undefined}
        data-opens-lightbox={(!selection && click === 'open') || undefined}
        className="absolute inset-0 block size-full cursor-pointer after:pointer-events-none after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:ring-4 focus-visible:after:ring-brand-500 focus-visible:after:ring-inset"
      >
        <PhotoImage
          key={photo.thumbUrl}
          src={photo.thumbUrl}
          alt={photo.caption ?? ''}
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
      </button>

      {/* Caption and date (SPEC §2: the date on hover; no year for the current year).
          Phones have no hover, so there they always show. */}
      <div
        data-testid="photo-caption"
        className={cn(
          'pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-950/85 via-slate-950/50 to-transparent px-3 pt-8 pb-2.5 text-white transition-opacity duration-200 max-sm:px-2 max-sm:pt-6 max-sm:pb-1.5 max-sm:opacity-100',
          revealOnHover,
        )}
      >
        {photo.caption && <p className={cn('truncate text-sm font-medium max-sm:text-xs', ((photo.commentCount > 0 && !viewOnly) || photo.markupCount > 0) && (photo.markupCount > 0 && photo.commentCount > 0 && !viewOnly ? 'pr-24' : 'pr-12'))}>{photo.caption}</p>}
        <p className="text-xs text-white/90" data-testid="photo-date">
          {date}
        </p>
        {photo.uploadedBy && (
          <p className="truncate text-xs text-white/90 max-sm:hidden" data-testid="photo-byline">
            by {byline(photo.uploadedBy.name, photo.uploadedBy.company)}
          </p>
        )}
        {photo.visitNote && (
          <p className="mt-0.5 flex items-center gap-1 text-xs text-white/90 max-sm:hidden" data-testid="photo-visit-note">
            <NotebookPen className="size-3 shrink-0" aria-hidden="true" />
            <span className="truncate">
              <span className="sr-only">Site visit note: </span>
              {photo.visitNote}
            </span>
          </p>
        )}
      </div>

      <div className="pointer-events-none absolute right-2 bottom-2 z-10 flex items-center gap-1.5">
        {photo.markupCount > 0 && <MarkupBadge count={photo.markupCount} />}
        {!viewOnly && <CommentCountBadge count={photo.commentCount} />}
      </div>

      {selection ? (
        <span
          aria-hidden="true"
          className={cn(
            'pointer-events-none absolute top-2 left-2 inline-flex size-7 items-center justify-center rounded-full border-2 shadow-sm transition',
            selection.selected ? 'border-brand-500 bg-brand-500 text-slate-950' : 'border-white bg-slate-950/35 text-transparent',
          )}
        >
          <Check className="size-4" strokeWidth={3} />
        </span>
      ) : viewOnly ? null : click === 'favourite' ? (
        <>
          <span
            aria-hidden="true"
            className={cn(
              'pointer-events-none absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-full shadow-sm backdrop-blur-sm transition',
              favourite ? 'bg-white text-rose-500' : 'bg-slate-950/45 text-white',
            )}
          >
            <Heart className={cn('size-4', favourite && 'fill-current')} />
          </span>
          <button type="button" onClick={props.onOpen} aria-label={`View ${name} full size`} data-opens-lightbox className={cn(overlayButton, 'absolute top-2 left-2')}>
            <Expand className="size-4" aria-hidden="true" />
          </button>
        </>
      ) : (
        <div className="absolute top-2 right-2 flex gap-1.5">
          {canEdit && (
            <button type="button" onClick={props.onEdit} aria-label={`Edit details of ${name}`} className={cn(overlayButton, revealOnHover)}>
              <Pencil className="size-3.5" aria-hidden="true" />
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              onClick={props.onDelete}
              aria-label={`Delete ${name}`}
              className={cn(overlayButton, 'hover:bg-red-600', revealOnHover)}
            >
              <Trash2 className="size-3.5" aria-hidden="true" />
            </button>
          )}
          <button
            type="button"
            onClick={props.onToggleFavourite}
            aria-label={`Favorite ${name}`}
            aria-pressed={favourite}
            className={cn(overlayButton, favourite ? 'bg-white text-rose-500 hover:bg-white' : revealOnHover)}
          >
            <Heart className={cn('size-4', favourite && 'fill-current')} aria-hidden="true" />
          </button>
        </div>
      )}
    </li>
  );
}
