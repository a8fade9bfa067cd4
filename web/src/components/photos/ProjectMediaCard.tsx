import { useEffect, useState } from 'react';
import { ImagePlus } from 'lucide-react';
import { SectionCard } from '../SectionCard';
import { Button } from '../ui/Button';
import { usePreloadWhenIdle } from '../lazyPart';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/Tabs';
import { PhotoBrowser, type GalleryRole } from './PhotoBrowser';
import { PhotoSectionActions } from './PhotoSectionActions';
import { PhotoUploader } from './LazyPhotoUploader';
import { refreshPhotos, usePhotoFilters, useProjectPhotos } from './usePhotos';
import { useRestoredUploads, useUploadsState } from '../../store/lazyUploads';

// SPEC §2 Admin view: the Photos tab is a three-column grid; admins edit and delete.
const ADMIN: GalleryRole = { click: 'open', canEdit: true, canDelete: true, canPickThumbnail: true, columns: 'three', emptyText: 'admin' };

type MediaTab = 'upload' | 'photos';

/** The admin's "Project Media" card: Upload Photos and Photos tabs; `onReport` makes a report of the selected photos. */
export function ProjectMediaCard({ projectId, onReport }: { projectId: string; onReport?: () => void }) {
  const filters = usePhotoFilters();
  const { photos } = useProjectPhotos(projectId);
  const [tab, setTab] = useState<MediaTab>('photos');
  // Uploads found unfinished after a reload: the Upload tab shows them, to resume.
  const restored = useUploadsState((s) => s.uploads.some((u) => u.projectId === projectId && u.restored), false);
  useRestoredUploads(true);
  // The uploader is drawn once its tab first opens, then stays; its code is fetched once
  // the page is idle.
  const [uploaderShown, setUploaderShown] = useState(false);
  if (tab === 'upload' && !uploaderShown) setUploaderShown(true);
  usePreloadWhenIdle([PhotoUploader]);
  useEffect(() => {
    if (restored) setTab('upload');
  }, [restored]);

  // SPEC §2: after an upload completes the card switches to Photos and refreshes them.
  const uploaded = () => {
    filters.reset();
    setTab('photos');
    void refreshPhotos(projectId, { quiet: true });
  };

  return (
    <SectionCard title="Project Media" actions={<PhotoSectionActions projectId={projectId} />}>
      <Tabs value={tab} onValueChange={(v) => setTab(v as MediaTab)}>
        <TabsList label="Project media" className="mb-5 w-full sm:w-auto">
          <TabsTrigger value="upload">Upload Photos</TabsTrigger>
          <TabsTrigger value="photos">
            Photos
            <span aria-hidden="true" className="rounded-full bg-slate-200/80 px-1.5 text-xs tabular-nums text-slate-600 dark:bg-slate-700 dark:text-slate-300">
              {photos.length}
            </span>
          </TabsTrigger>
        </TabsList>
        {/* Both stay mounted while hidden (the uploader once first shown): a selection
            survives a look at the Photos tab, and photos just uploaded play their
            entrance when Photos shows again. */}
        <TabsContent value="upload" forceMount className="focus-visible:outline-none data-[state=inactive]:hidden">
          {uploaderShown && <PhotoUploader projectId={projectId} onUploaded={uploaded} />}
        </TabsContent>
        <TabsContent value="photos" forceMount className="focus-visible:outline-none data-[state=inactive]:hidden">
          <PhotoBrowser
            projectId={projectId}
            filters={filters}
            role={ADMIN}
            onReport={onReport}
            emptyAction={
              <Button variant="outline" size="sm" onClick={() => setTab('upload')}>
                <ImagePlus className="size-4" aria-hidden="true" />
                Upload Photos
              </Button>
            }
          />
        </TabsContent>
      </Tabs>
    </SectionCard>
  );
}
