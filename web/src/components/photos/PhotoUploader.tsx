import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { useShallow } from 'zustand/react/shallow';
import { MAX_FILES_PER_UPLOAD, NOT_IMAGES_MESSAGE, SUPPORTED_FORMATS_TEXT, type Triage, triageFiles } from '../../lib/photoUpload';
import { isSending } from '../../lib/uploadQueue';
import { orderedMilestones } from '../../lib/milestones';
import { useOnline } from '../../offline/useOnline';
import { useAppStore } from '../../store';
import { projectSpeed, useUploads, type QueuedUpload } from '../../store/uploads';
import { SelectedPhotosPanel, type SelectedPhoto } from './SelectedPhotosPanel';
import { UnfinishedUploadsPanel } from './UnfinishedUploadsPanel';
import { UploadDropZone } from './UploadDropZone';
import { useProjectTags } from '../tags/useProjectTags';

const names = (files: { name: string }[]) => files.map((f) => f.name).join(', ');

/** Says which files the drop zone turned away, and why. */
function reportRefused(t: Triage<File>) {
  if (t.notImages.length > 0) toast.warning(NOT_IMAGES_MESSAGE, { description: names(t.notImages) });
  if (t.unsupported.length > 0) {
    toast.warning('Some images were skipped because their format is not supported', {
      description: `Use ${SUPPORTED_FORMATS_TEXT}: ${names(t.unsupported)}`,
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

/**
 * Object URLs for the selection's previews, made from the files (or the Blobs kept on
 * the device, after a reload) and revoked when a photo leaves the selection or the
 * uploader unmounts. Leaving does not stop the uploads.
 */
function usePreviews(files: readonly Pick<QueuedUpload, 'key' | 'file'>[]): ReadonlyMap<string, string> {
  const urls = useRef(new Map<string, string>());
  const [, redraw] = useState(0);
  const keys = files.map((f) => f.key).join('|');
  useEffect(() => {
    const map = urls.current;
    const live = new Set(files.map((f) => f.key));
    let changed = false;
    for (const f of files) {
      if (map.has(f.key)) continue;
      map.set(f.key, URL.createObjectURL(f.file));
      changed = true;
    }
    for (const [key, url] of map) {
      if (live.has(key)) continue;
      URL.revokeObjectURL(url);
      map.delete(key);
      changed = true;
    }
    if (changed) redraw((n) => n + 1);
    // The keys say when the files changed; a new array of the same files does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys]);
  useEffect(
    () => () => {
      for (const url of urls.current.values()) URL.revokeObjectURL(url);
      urls.current.clear();
    },
    [],
  );
  return urls.current;
}

/**
 * Drop zone, selected-photos panel and publishing (SPEC §2 Photo upload;
 * docs/FEATURES.md, "Photo upload"). Chosen photos are the project's selection in the
 * upload queue (store/uploads): their bytes go at once, as held uploads, while the
 * person writes captions and the note, and the selection is kept on the device, so a
 * reload brings it back. Publish makes them photos (instant when the bytes are there);
 * the panel follows them until every file has an answer, and they arrive in the gallery
 * live.
 */
export function PhotoUploader({ projectId, onUploaded }: { projectId: string; onUploaded?: () => void }) {
  const selection = useUploads((s) => s.selections[projectId]);
  const queue = useUploads(useShallow((s) => s.uploads.filter((u) => u.projectId === projectId)));
  const store = useUploads(
    useShallow((s) => ({
      restore: s.restore,
      choose: s.choose,
      editPhoto: s.editPhoto,
      editAllPhotos: s.editAllPhotos,
      editSelection: s.editSelection,
      publishSelection: s.publishSelection,
      discardSelection: s.discardSelection,
      pause: s.pause,
      resume: s.resume,
      cancel: s.cancel,
    })),
  );
  const online = useOnline();
  const connection = useAppStore((s) => s.connection);
  // Tags for the whole visit, suggested from the project's (read once photos are chosen).
  const { tags: knownTags } = useProjectTags(selection ? projectId : null);
  const plan = useAppStore((s) => s.milestones[projectId]);
  const milestoneOptions = useMemo(() => (plan ? orderedMilestones(plan).map((m) => ({ value: m.id, label: m.name })) : []), [plan]);
  // A milestone deleted while chosen is no longer offered, nor sent.
  const chosenMilestone = selection && milestoneOptions.some((o) => o.value === selection.milestoneId) ? selection.milestoneId : '';
  const [, tick] = useState(0);

  useEffect(() => {
    void store.restore();
  }, [store]);

  const files = useMemo(() => (selection ? queue.filter((u) => u.batchId === selection.batchId) : []), [queue, selection]);
  const others = selection ? queue.filter((u) => u.batchId !== selection.batchId) : queue;
  const previews = usePreviews(files);
  const items: SelectedPhoto[] = files.map((f) => ({
    key: f.key,
    file: f.file,
    previewUrl: previews.get(f.key),
    caption: f.caption ?? '',
    category: f.category,
    status: f,
  }));
  const phase = selection?.phase ?? 'editing';
  const sending = files.some((f) => isSending(f.state));

  // A published selection gone (every file answered): the photos are in the gallery.
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (selection && selection.phase !== 'editing') {
      followed.current = selection.batchId;
      return;
    }
    const batchId = followed.current;
    if (batchId === null || selection?.batchId === batchId) return;
    followed.current = null;
    if ((useUploads.getState().finished[batchId]?.stored ?? 0) > 0) onUploaded?.();
  }, [selection, onUploaded]);

  // "Time left" moves with the clock while bytes go.
  useEffect(() => {
    if (!sending) return;
    const timer = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [sending]);

  const add = (chosen: File[]) => {
    const triage = triageFiles(chosen, files.length);
    reportRefused(triage);
    if (triage.accepted.length > 0) store.choose(projectId, triage.accepted.map((file) => ({ file })));
  };

  // Publish waits for the connection: it goes by itself once the device is back online.
  const waitingToPublish = phase === 'publishing' && (!online || connection === 'reconnecting' || connection === 'closed');

  return (
    <div className="space-y-4">
      {others.length > 0 && <UnfinishedUploadsPanel projectId={projectId} files={others} />}
      {/* Once photos are chosen the drop zone steps back for the panel. */}
      <UploadDropZone onFiles={add} disabled={phase !== 'editing'} compact={items.length > 0} />
      {items.length > 0 && (
        <SelectedPhotosPanel
          items={items}
          note={selection?.note ?? ''}
          stage={phase}
          waitingToPublish={waitingToPublish}
          speed={projectSpeed(projectId)}
          actions={{ onPause: store.pause, onResume: store.resume, onCancel: phase === 'published' ? store.cancel : undefined }}
          onChange={store.editPhoto}
          onApplyToAll={(fields) => store.editAllPhotos(projectId, fields)}
          onNote={(note) => store.editSelection(projectId, { note })}
          milestoneId={chosenMilestone}
          milestoneOptions={milestoneOptions}
          onMilestone={(milestoneId) => store.editSelection(projectId, { milestoneId })}
          tags={selection?.tags ?? []}
          knownTags={knownTags}
          onTags={(tags) => store.editSelection(projectId, { tags })}
          onRemove={store.cancel}
          onDiscard={() => store.discardSelection(projectId)}
          onPublish={() => store.publishSelection(projectId, chosenMilestone)}
          onPauseAll={() => files.forEach((f) => store.pause(f.key))}
          onResumeAll={() => files.forEach((f) => store.resume(f.key))}
        />
      )}
    </div>
  );
}
