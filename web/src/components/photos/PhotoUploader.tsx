import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { UploadResult } from '../../protocol/types';
import { uploadPhotos, type UploadProgress } from '../../api/photos';
import { ApiRequestError } from '../../api/http';
import {
  type Triage,
  fileProgress,
  MAX_FILES_PER_UPLOAD,
  NOT_IMAGES_MESSAGE,
  overallPercent,
  triageFiles,
  UPLOAD_FAILED_MESSAGE,
  uploadedMessage,
} from '../../lib/photoUpload';
import { useAppStore } from '../../store';
import { SelectedPhotosPanel, type SelectedPhoto } from './SelectedPhotosPanel';
import { UploadDropZone } from './UploadDropZone';

const names = (files: { name: string }[]) => files.map((f) => f.name).join(', ');

/** Says which files the drop zone turned away, and why. */
function reportRefused(t: Triage<File>) {
  if (t.notImages.length > 0) toast.warning(NOT_IMAGES_MESSAGE, { description: names(t.notImages) });
  if (t.unsupported.length > 0) {
    toast.warning('Some images were skipped because their format is not supported', {
      description: `Use JPEG, PNG, GIF or WebP: ${names(t.unsupported)}`,
    });
  }
  if (t.tooLarge.length > 0) {
    toast.error(t.tooLarge.length === 1 ? 'A photo is larger than 30 MB and was skipped' : 'Some photos are larger than 30 MB and were skipped', {
      description: names(t.tooLarge),
    });
  }
  if (t.overLimit.length > 0) {
    toast.warning(`You can publish up to ${MAX_FILES_PER_UPLOAD} photos at a time`, {
      description: `Not added: ${names(t.overLimit)}`,
    });
  }
}

/** The files the server turned away, one "name: reason" per line. */
function skippedList(result: UploadResult): string | undefined {
  if (result.skipped.length === 0) return undefined;
  return result.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n');
}

let nextKey = 0;

/**
 * Drop zone, selected-photos panel and publishing (SPEC §2 Photo upload). One Publish
 * is one request; the stored photos go into the store at once (the live `photo_added`
 * events for them are merged by id).
 */
export function PhotoUploader({ projectId, onUploaded }: { projectId: string; onUploaded?: () => void }) {
  const [items, setItems] = useState<SelectedPhoto[]>([]);
  const [publishing, setPublishing] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  // Object URLs live as long as their preview: revoked on remove, discard, publish and
  // unmount. An upload under way is not cancelled by leaving: it finishes and says so.
  const held = useRef(items);
  useEffect(() => {
    held.current = items;
  }, [items]);
  useEffect(
    () => () => {
      for (const item of held.current) URL.revokeObjectURL(item.previewUrl);
    },
    [],
  );

  const add = (files: File[]) => {
    const triage = triageFiles(files, items.length);
    reportRefused(triage);
    if (triage.accepted.length === 0) return;
    const added = triage.accepted.map((file) => ({ key: `f${nextKey++}`, file, previewUrl: URL.createObjectURL(file) }));
    setItems((current) => [...current, ...added]);
  };

  const remove = (key: string) => {
    setItems((current) => {
      const gone = current.find((i) => i.key === key);
      if (gone) URL.revokeObjectURL(gone.previewUrl);
      return current.filter((i) => i.key !== key);
    });
  };

  const discard = () => {
    for (const item of items) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
  };

  const publish = async () => {
    // SPEC §5 Upload: nothing selected, nothing to do.
    if (items.length === 0 || publishing) return;
    const sending = items;
    setPublishing(true);
    setProgress({ loaded: 0 });
    try {
      const { status, result } = await uploadPhotos(projectId, sending.map((i) => i.file), setProgress);
      const store = useAppStore.getState();
      for (const photo of result.photos) store.photoUpserted(photo);
      const skipped = skippedList(result);
      const stored = result.photos.length > 0;
      if (stored) {
        toast.success(uploadedMessage(result.photos.length));
        if (skipped) toast.warning(result.message ?? 'Some files were skipped', { description: skipped });
      } else if (status === 422) {
        // Every file was refused for what it is: say why (SPEC §5 wording for non-images).
        toast.error(result.message ?? UPLOAD_FAILED_MESSAGE, { description: skipped });
      } else {
        // Storage failed (503) or nothing arrived: the files are fine, so they stay for a retry.
        toast.error(UPLOAD_FAILED_MESSAGE, { description: skipped ?? result.message ?? undefined });
        return;
      }
      // Every file got an answer (stored or refused): the selection is done with.
      for (const item of sending) URL.revokeObjectURL(item.previewUrl);
      setItems((current) => current.filter((i) => !sending.includes(i)));
      if (stored) onUploaded?.();
    } catch (err) {
      // Kept selected so Publish can be tried again.
      const detail = err instanceof ApiRequestError ? err.message : undefined;
      toast.error(UPLOAD_FAILED_MESSAGE, detail && detail !== UPLOAD_FAILED_MESSAGE ? { description: detail } : undefined);
    } finally {
      setPublishing(false);
      setProgress(null);
    }
  };

  const sizes = items.map((i) => i.file.size);
  const perFile = progress ? fileProgress(sizes, progress.loaded, progress.total) : null;
  const total = progress?.total ?? sizes.reduce((a, b) => a + b, 0);
  const percent = progress ? overallPercent(progress.loaded, total) : 0;

  return (
    <div className="space-y-4">
      {/* Once photos are chosen the drop zone steps back for the panel. */}
      <UploadDropZone onFiles={add} disabled={publishing} compact={items.length > 0} />
      {items.length > 0 && (
        <SelectedPhotosPanel
          items={items}
          progress={perFile}
          publishing={publishing}
          percent={percent}
          onRemove={remove}
          onDiscard={discard}
          onPublish={() => void publish()}
        />
      )}
    </div>
  );
}
