import { Play, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatBytes } from '../../lib/photoUpload';
import { isSending, isSettled } from '../../lib/uploadQueue';
import { projectSpeed, useUploads, type QueuedUpload } from '../../store/uploads';
import { Button } from '../ui/Button';
import { FileStatus, TotalsLine } from './SelectedPhotosPanel';

/**
 * Uploads of this project that are not this panel's current selection: found on the
 * device after a reload or a closed tab (paused until the person says Resume), or still
 * going from an earlier visit to this page. Resume continues each from the server's
 * offset; Discard drops them here and on the server.
 */
export function UnfinishedUploadsPanel({ projectId, files }: { projectId: string; files: QueuedUpload[] }) {
  const { pause, resume, cancel, resumeProject, discardProject } = useUploads.getState();
  const waiting = files.filter((f) => !isSettled(f.state));
  const running = waiting.some((f) => isSending(f.state));
  // Kept for the network; they go by themselves once the device is online.
  const offline = !running && waiting.some((f) => f.state === 'waiting');
  const restored = files.some((f) => f.restored);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  const bytes = waiting.reduce((sum, f) => sum + f.size, 0);
  const title = offline
    ? `Waiting for connection (${waiting.length})`
    : restored && !running
      ? `Unfinished uploads (${waiting.length})`
      : `Uploading (${waiting.length})`;
  return (
    <section aria-label="Unfinished uploads" className="rounded-xl border border-amber-300 bg-amber-50/60 dark:border-amber-700 dark:bg-amber-950/30">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-amber-200 px-4 py-3 dark:border-amber-800">
        <div>
          <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
          {offline && <p className="text-xs text-slate-700 dark:text-slate-300">{formatBytes(bytes)} saved on this device, sent automatically once you're back online.</p>}
          {restored && !running && !offline && (
            <p className="text-xs text-slate-700 dark:text-slate-300">
              {formatBytes(bytes)} did not finish uploading when this page was last open. Resume to send the rest.
            </p>
          )}
        </div>
        <div className="flex gap-2">
          {!running && !offline && (
            <Button variant="secondary" size="sm" onClick={() => resumeProject(projectId)}>
              <Play className="size-4" aria-hidden="true" /> Resume
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => discardProject(projectId)}>
            <Trash2 className="size-4" aria-hidden="true" /> Discard
          </Button>
        </div>
      </div>
      {running && <TotalsLine files={files} speed={projectSpeed(projectId)} label="Uploading…" />}
      <ul className="divide-y divide-amber-100 px-4 py-2 dark:divide-amber-900">
        {files.map((f) => (
          <li key={f.key} data-testid="unfinished-upload" className="grid grid-cols-[minmax(0,1fr)_minmax(0,12rem)] items-center gap-3 py-2">
            <p className="truncate text-sm text-slate-800 dark:text-slate-100" title={f.name}>
              {f.name} <span className="text-xs text-slate-600 tabular-nums dark:text-slate-400">· {formatBytes(f.size)}</span>
            </p>
            <FileStatus file={f} actions={{ onPause: pause, onResume: resume, onCancel: cancel }} />
          </li>
        ))}
      </ul>
    </section>
  );
}
