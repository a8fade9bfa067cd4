import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useShallow } from 'zustand/react/shallow';
import type { ImageCategory } from '../../protocol/types';
import { MAX_FILES_PER_UPLOAD, NOT_IMAGES_MESSAGE, SUPPORTED_FORMATS_TEXT, type Triage, triageFiles } from '../../lib/photoUpload';
import type { QueueFile } from '../../lib/uploadQueue';
import { orderedMilestones } from '../../lib/milestones';
import { useAppStore } from '../../store';
import { projectSpeed, useUploads } from '../../store/uploads';
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

/** SPEC §3: the caption a photo gets unless one is typed: its name without the extension. */
const captionOf = (name: string) => name.replace(/\.[^.]+$/, '');

let nextKey = 0;

/**
 * Drop zone, selected-photos panel and publishing (SPEC §2 Photo upload). Publish hands
 * the selection to the upload queue (store/uploads) as one batch: resumable uploads
 * that go on if this page is left, and resume after a reload. The panel follows the
 * batch until every file has an answer; the photos arrive in the gallery live.
 */
export function PhotoUploader({ projectId, onUploaded }: { projectId: string; onUploaded?: () => void }) {
  const [items, setItems] = useState<SelectedPhoto[]>([]);
  const [note, setNote] = useState('');
  const [milestoneId, setMilestoneId] = useState('');
  // Tags for the whole batch, suggested from the project's (read once photos are chosen).
  const [tags, setTags] = useState<string[]>([]);
  const { tags: knownTags } = useProjectTags(items.length > 0 ? projectId : null);
  const plan = useAppStore((s) => s.milestones[projectId]);
  const milestoneOptions = useMemo(() => (plan ? orderedMilestones(plan).map((m) => ({ value: m.id, label: m.name })) : []), [plan]);
  // A milestone deleted while chosen is no longer offered, nor sent.
  const chosenMilestone = milestoneOptions.some((o) => o.value === milestoneId) ? milestoneId : '';
  /** The batch this uploader published and still follows. */
  const [batchId, setBatchId] = useState<string | null>(null);
  const queue = useUploads(useShallow((s) => s.uploads.filter((u) => u.projectId === projectId)));
  const { restore, publish: enqueue, pause, resume, cancel } = useUploads(
    useShallow((s) => ({ restore: s.restore, publish: s.publish, pause: s.pause, resume: s.resume, cancel: s.cancel })),
  );
  const [, tick] = useState(0);

  useEffect(() => {
    void restore();
  }, [restore]);

  // Object URLs live as long as their preview: revoked on remove, discard, when the
  // batch is done and on unmount. Leaving does not stop the uploads.
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

  // Queue entries are keyed like the selection's items.
  const batchFiles = useMemo(() => (batchId ? queue.filter((u) => u.batchId === batchId) : []), [queue, batchId]);
  const publishing = batchId !== null && batchFiles.length > 0;
  const byKey = useMemo(() => Object.fromEntries(batchFiles.map((u) => [u.key, u as QueueFile])), [batchFiles]);

  // The batch's files all answered (the queue let them go): the selection is done with.
  useEffect(() => {
    if (batchId === null || batchFiles.length > 0) return;
    for (const item of held.current) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
    setNote('');
    setMilestoneId('');
    setTags([]);
    setBatchId(null);
    if ((useUploads.getState().finished[batchId]?.stored ?? 0) > 0) onUploaded?.();
  }, [batchId, batchFiles.length, onUploaded]);

  // "Time left" moves with the clock while bytes go.
  useEffect(() => {
    if (!publishing) return;
    const timer = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [publishing]);

  const add = (files: File[]) => {
    const triage = triageFiles(files, items.length);
    reportRefused(triage);
    if (triage.accepted.length === 0) return;
    const added = triage.accepted.map((file) => ({
      key: `f${nextKey++}`,
      file,
      previewUrl: URL.createObjectURL(file),
      caption: captionOf(file.name),
    }));
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
    if (publishing) return;
    for (const item of items) URL.revokeObjectURL(item.previewUrl);
    setItems([]);
    setNote('');
    setTags([]);
  };

  const change = (key: string, patch: { caption?: string; category?: ImageCategory }) =>
    setItems((current) => current.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const applyToAll = (patch: { caption?: string; category?: ImageCategory }) =>
    setItems((current) =>
      current.map((i) => ({ ...i, caption: patch.caption ?? i.caption, category: patch.category ?? i.category })),
    );

  const publish = () => {
    // SPEC §5 Upload: nothing selected, nothing to do.
    if (items.length === 0 || publishing) return;
    const id = enqueue(
      projectId,
      items.map((i) => ({ file: i.file, caption: i.caption, category: i.category })),
      note,
      chosenMilestone || undefined,
      tags,
    );
    // The queue's keys for this batch, in order, become the items' keys.
    const mine = useUploads.getState().uploads.filter((u) => u.batchId === id);
    setItems((current) => current.map((item, n) => ({ ...item, key: mine[n]?.key ?? item.key })));
    setBatchId(id);
  };

  const others = queue.filter((u) => u.batchId !== batchId);

  return (
    <div className="space-y-4">
      {others.length > 0 && <UnfinishedUploadsPanel projectId={projectId} files={others} />}
      {/* Once photos are chosen the drop zone steps back for the panel. */}
      <UploadDropZone onFiles={add} disabled={publishing} compact={items.length > 0} />
      {items.length > 0 && (
        <SelectedPhotosPanel
          items={items}
          note={note}
          publishing={publishing}
          queue={publishing ? byKey : null}
          speed={projectSpeed(projectId)}
          actions={{ onPause: pause, onResume: resume, onCancel: cancel }}
          onChange={change}
          onApplyToAll={applyToAll}
          onNote={setNote}
          milestoneId={chosenMilestone}
          milestoneOptions={milestoneOptions}
          onMilestone={setMilestoneId}
          tags={tags}
          knownTags={knownTags}
          onTags={setTags}
          onRemove={remove}
          onDiscard={discard}
          onPublish={publish}
          onPauseAll={() => batchFiles.forEach((f) => pause(f.key))}
          onResumeAll={() => batchFiles.forEach((f) => resume(f.key))}
        />
      )}
    </div>
  );
}
