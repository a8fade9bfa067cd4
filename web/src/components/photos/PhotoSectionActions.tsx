import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from '../ui/Button';
import { PhotoDownloadMenu } from './PhotoDownloadMenu';
import { refreshPhotos, useProjectPhotos } from './usePhotos';
import { CompareButton, useComparePicker } from '../compare/useComparePicker';
import { projectCompareBase } from '../../lib/comparePaths';

/** Download menu and a manual refresh, at the top right of a photo section. */
export function PhotoSectionActions({ projectId }: { projectId: string }) {
  const { photos, favourites } = useProjectPhotos(projectId);
  const [refreshing, setRefreshing] = useState(false);
  const favouriteCount = photos.filter((p) => favourites[p.id]).length;
  const { openPicker, picker } = useComparePicker(photos, projectCompareBase(projectId));

  const refresh = async () => {
    setRefreshing(true);
    await refreshPhotos(projectId);
    setRefreshing(false);
  };

  return (
    <>
      <CompareButton count={photos.length} onClick={() => openPicker()} />
      {picker}
      <PhotoDownloadMenu projectId={projectId} photoCount={photos.length} favouriteCount={favouriteCount} markedCount={photos.filter((p) => p.markupCount > 0).length} />
      <Button variant="ghost" size="sm" onClick={() => void refresh()} disabled={refreshing} aria-label="Refresh photos" title="Refresh photos" className="px-2">
        <RefreshCw className={cn('size-4', refreshing && 'animate-spin')} aria-hidden="true" />
      </Button>
    </>
  );
}
