import { ImageOff } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { PhotoTile, type TileClick } from './PhotoTile';

export type GalleryColumns = 'responsive' | 'three';

// SPEC §9: image grids have 2/3/4 columns by width; the admin's Photos tab has three.
const COLUMNS: Record<GalleryColumns, string> = {
  responsive: 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4',
  three: 'grid-cols-2 sm:grid-cols-3',
};

export function PhotoGallery({
  photos,
  favourites,
  now,
  click,
  canEdit,
  canDelete,
  columns = 'responsive',
  isEntering,
  onOpen,
  onToggleFavourite,
  onEdit,
  onDelete,
  emptyHint,
  viewOnly = false,
  selection,
}: {
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
}) {
  if (photos.length === 0) {
    return (
      <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700">
        <ImageOff className="size-8 text-slate-400 dark:text-slate-500" aria-hidden="true" />
        <p className="mt-3 text-sm font-medium text-slate-700 dark:text-slate-200">No images available</p>
        {emptyHint && <p className="mt-1 max-w-sm text-sm text-slate-600 dark:text-slate-300">{emptyHint}</p>}
      </div>
    );
  }

  return (
    <ul aria-label="Photos" className={cn('grid gap-3 sm:gap-4', COLUMNS[columns])}>
      {photos.map((photo) => (
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
          onOpen={() => onOpen(photo)}
          onToggleFavourite={() => onToggleFavourite(photo)}
          onEdit={() => onEdit(photo)}
          onDelete={() => onDelete(photo)}
        />
      ))}
    </ul>
  );
}
