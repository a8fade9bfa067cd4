import type { ProjectImage } from '../../protocol/types';
import type { MarkupSource } from './markupSources';
import { MarkupOverlay } from './MarkupOverlay';

/** A photo's markup over a box of exactly the photo's shape, kept current while shown. */
export function PhotoMarkup({ photo, source }: { photo: ProjectImage; source: MarkupSource }) {
  const doc = source.useDoc(photo.id);
  if (!doc || doc.imageId !== photo.id || doc.shapes.length === 0) return null;
  return <MarkupOverlay markup={doc} width={photo.width} height={photo.height} interactivePins={false} />;
}
