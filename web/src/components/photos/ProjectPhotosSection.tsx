import { useState } from 'react';
import { ImagePlus, X } from 'lucide-react';
import { usePreloadWhenIdle } from '../lazyPart';
import { SectionCard } from '../SectionCard';
import { Button } from '../ui/Button';
import { PhotoBrowser, type GalleryRole } from './PhotoBrowser';
import { PhotoSectionActions } from './PhotoSectionActions';
import { PhotoUploader } from './LazyPhotoUploader';
import { refreshPhotos, usePhotoFilters, useProjectPhotos } from './usePhotos';
import { useRestoredUploads, useUploadsState } from '../../store/lazyUploads';

// SPEC §2 and §6: builders edit captions and categories (no delete); homeowners only
// look, and a click on a photo toggles its favourite.
const BUILDER: GalleryRole = { click: 'open', canEdit: true, canDelete: false, canPickThumbnail: false, columns: 'responsive', emptyText: 'standard' };
const HOMEOWNER: GalleryRole = { click: 'favourite', canEdit: false, canDelete: false, canPickThumbnail: false, columns: 'responsive', emptyText: 'standard' };

function countLabel(n: number) {
  return n === 1 ? '1 photo' : `${n} photos`;
}

/**
 * "Project Photos" on the builder's and the homeowner's project page; `onReport` makes a
 * progress report of the photos selected in it.
 */
export function ProjectPhotosSection({ projectId, canUpload, onReport }: { projectId: string; canUpload: boolean; onReport?: () => void }) {
  const filters = usePhotoFilters();
  const { photos, loaded } = useProjectPhotos(projectId);
  const [uploadOpen, setUploading] = useState(false);
  // Uploads of this project still on their way (or found unfinished after a reload)
  // keep the uploader open, so they are seen and can be resumed.
  const unfinished = useUploadsState((s) => s.uploads.some((u) => u.projectId === projectId), false);
  useRestoredUploads(canUpload);
  usePreloadWhenIdle([canUpload && PhotoUploader]);
  const uploading = canUpload && (uploadOpen || unfinished);

  const uploaded = () => {
    // New photos are dated now: the default filters show them.
    filters.reset();
    setUploading(false);
    void refreshPhotos(projectId, { quiet: true });
  };

  const uploadToggle = canUpload && (
    <Button variant={uploading ? 'outline' : 'secondary'} size="sm" onClick={() => setUploading(!uploading)} aria-expanded={uploading}>
      {uploading ? <X className="size-4" aria-hidden="true" /> : <ImagePlus className="size-4" aria-hidden="true" />}
      {uploading ? 'Close upload' : 'Upload Photos'}
    </Button>
  );

  return (
    <SectionCard
      title="Project Photos"
      subtitle={loaded ? countLabel(photos.length) : 'Loading photos…'}
      actions={
        <>
          {uploadToggle}
          <PhotoSectionActions projectId={projectId} />
        </>
      }
    >
      <div className="space-y-5">
        {uploading && (
          <div className="border-b border-slate-100 pb-5 dark:border-slate-800">
            <PhotoUploader projectId={projectId} onUploaded={uploaded} />
          </div>
        )}
        <PhotoBrowser
          projectId={projectId}
          filters={filters}
          role={canUpload ? BUILDER : HOMEOWNER}
          onReport={onReport}
          emptyAction={
            canUpload && !uploading ? (
              <Button variant="outline" size="sm" onClick={() => setUploading(true)}>
                <ImagePlus className="size-4" aria-hidden="true" />
                Upload the first photos
              </Button>
            ) : undefined
          }
        />
      </div>
    </SectionCard>
  );
}
