import { ImageOff } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { lazyPart, usePreloadWhenIdle } from '../lazyPart';
import { PhotoTile, type TileClick } from './PhotoTile';

export type GalleryColumns = 'responsive' | 'three';

// SPEC §9: image grids have 2/3/4 columns by width; the admin's Photos tab has three.
export const COLUMNS: Record<GalleryColumns, string> = {
  responsive: 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4',
  three: 'grid-cols-2 sm:grid-cols-3',
};

export interface PhotoGalleryProps {
  photos: ProjectImage[];
  favourites: Readonly<Record<string, true>>;
  now: Date;
  click: TileClick;
  canEdit: boolean;
  canDelete: boolean;
  columns?: GalleryColumns;
  /** Whether a photo arrived after the gallery opened (pushed live, just uploaded). */
  isEntering: (id: string) => boolean;
  onOpen: (photo: ProjectImage) => void;
  onToggleFavourite: (photo: ProjectImage) => void;
  onEdit: (photo: ProjectImage) => void;
  onDelete: (photo: ProjectImage) => void;
  /** Said under "No images available" when there are none. */
  emptyHint?: string;
  /** Looking only (a guest): tiles open the lightbox and offer nothing else. */
  viewOnly?: boolean;
  /** Choosing photos (to tag them): tiles toggle their selection. */
  selection?: { selected: ReadonlySet<string>; onToggle: (photo: ProjectImage) => void };
}

// A project can hold 20,000 photos (docs/FEATURES.md, "Big projects"): a tile is a dozen or
// more DOM nodes, so drawing them all makes a page of 100k+ nodes that takes seconds to lay
// out and scroll. Past this many, a gallery draws only the rows near the viewport; at or
// under it the markup is the plain grid that small projects (and their tests) always had.
export const WINDOWED_ABOVE = 120;

// The windowed gallery, with its virtualiser, is a chunk of its own: most projects never
// need it, and a big one opens on its newest page of photos (60) and grows from there.
// A gallery half way there fetches it once the page is idle; until it has arrived, the
// first WINDOWED_ABOVE tiles show as the plain grid (docs/LIMITS.md, "First paint").
const WindowedGallery = lazyPart(() => import('./WindowedPhotoGallery').then((m) => m.WindowedPhotoGallery), {
  what: 'The gallery',
  fallback: (props) => <PlainGallery {...props} photos={props.photos.slice(0, WINDOWED_ABOVE)} />,
});

/** Fetches the windowed gallery now (tests draw big galleries at once). */
export const preloadWindowedGallery = WindowedGallery.preload;
/** One photo's tile; `position` only in a windowed gallery, where not all tiles are drawn. */
export function tile(props: PhotoGalleryProps, photo: ProjectImage, position?: { index: number; of: number }) {
  const { favourites, now, click, canEdit, canDelete, isEntering, viewOnly = false, selection } = props;
  return (
    <PhotoTile
      key={photo.id}
      photo={photo}
      favourite={Boolean(favourites[photo.id])}
      now={now}
      click={click}
      canEdit={canEdit}
      canDelete={canDelete}
      entering={isEntering(photo.id)}
      viewOnly={viewOnly}
      selection={selection ? { selected: selection.selected.has(photo.id), onToggle: () => selection.onToggle(photo) } : undefined}
      position={position}
      onOpen={() => props.onOpen(photo)}
      onToggleFavourite={() => props.onToggleFavourite(photo)}
      onEdit={() => props.onEdit(photo)}
      onDelete={() => props.onDelete(photo)}
    />
  );
}

export function PhotoGallery(props: PhotoGalleryProps) {
  const { photos, emptyHint } = props;
  usePreloadWhenIdle([photos.length >= WINDOWED_ABOVE / 2 && WindowedGallery]);
  if (photos.length === 0) {
    return (
      <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700">
        <ImageOff className="size-8 text-slate-400 dark:text-slate-500" aria-hidden="true" />
        <p className="mt-3 text-sm font-medium text-slate-700 dark:text-slate-200">No images available</p>
        {emptyHint && <p className="mt-1 max-w-sm text-sm text-slate-600 dark:text-slate-300">{emptyHint}</p>}
      </div>
    );
  }
  if (photos.length > WINDOWED_ABOVE) return <WindowedGallery {...props} />;
  return <PlainGallery {...props} />;
}

/** Every tile in one grid: small projects' gallery, and a big one's first tiles while its windowed gallery loads. */
function PlainGallery(props: PhotoGalleryProps) {
  const { photos, columns = 'responsive' } = props;
  return (
    <ul aria-label="Photos" className={cn('grid gap-3 sm:gap-4', COLUMNS[columns])}>
      {photos.map((photo) => tile(props, photo))}
    </ul>
  );
}
