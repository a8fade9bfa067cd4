import { useMemo } from 'react';
import type { ProjectImage } from '../../protocol/types';
import { markupAccess } from '../../lib/markupRules';
import { useAppStore } from '../../store';
import { PhotoComments } from '../comments/PhotoComments';
import { LightboxCompareButton } from '../compare/useComparePicker';
import { appMarkupSource } from '../markup/markupSources';
import { PhotoTagEditor } from '../tags/PhotoTagEditor';
import { PhotoLightbox } from './PhotoLightbox';
import { ThumbnailPick } from './ThumbnailPick';

export interface ProjectLightboxProps {
  projectId: string;
  photos: ProjectImage[];
  /** The photo shown; the lightbox is closed when null. */
  index: number | null;
  favourite: (id: string) => boolean;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  onToggleFavourite: (photo: ProjectImage) => void;
  onCloseAutoFocus: (event: Event) => void;
  /** Admins pick the project's thumbnail from here (SPEC §3). */
  canPickThumbnail: boolean;
  canTag: boolean;
  /** Compare the shown photo with another: absent when the project has only one. */
  onCompare?: (photo: ProjectImage) => void;
  /** A comment to show in the photo's thread (`&comment=`, from the search). */
  focusComment: string | null;
}

/**
 * The signed-in project page's lightbox: the viewer with the photo's comments beside it,
 * its tags, the markup (drawn by those who may), the thumbnail pick and Compare. Its own
 * chunk, loaded when a photo first opens or once the page is idle (PhotoBrowser).
 */
export function ProjectLightbox({ projectId, canPickThumbnail, canTag, onCompare, focusComment, ...viewer }: ProjectLightboxProps) {
  const me = useAppStore((s) => s.user);
  const project = useAppStore((s) => s.projects[projectId]);
  const markup = useMemo(() => ({ source: appMarkupSource, access: markupAccess(me, project), myId: me?.id }), [me, project]);
  return (
    <PhotoLightbox
      {...viewer}
      actions={(photo, buttonClass) => (
        <>
          {canPickThumbnail && <ThumbnailPick photo={photo} className={buttonClass} />}
          {onCompare && <LightboxCompareButton className={buttonClass} onClick={() => onCompare(photo)} />}
        </>
      )}
      aside={(photo) => <PhotoComments photo={photo} focusComment={focusComment} />}
      markup={markup}
      tags={(photo) => <PhotoTagEditor photo={photo} canTag={canTag} />}
    />
  );
}
