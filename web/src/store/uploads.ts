/**
 * The upload queue: resumable uploads (tus 1.0, with the official tus-js-client) that
 * outlive the page they were started on. Files selected together are one batch (a site
 * visit) with an optional note; each file is its own tus upload, sent a few at a time,
 * retried with backoff when the network drops and resumed from the server's offset.
 * Unfinished files are kept on the device (lib/uploadStorage) so a reload or a closed
 * tab can resume them. Its own store, apart from the app's: it is about this device,
 * not about the synced model, and outlives sign-in pages too.
 */
import { toast } from 'sonner';
import * as tus from 'tus-js-client';
import { create } from 'zustand';
import type { ImageCategory } from '../protocol/types';
import { NOT_IMAGES_MESSAGE, UPLOAD_FAILED_MESSAGE, uploadedMessage } from '../lib/photoUpload';
import { tagsMetadata } from '../lib/tags';
import { decodeReason, isSettled, SpeedMeter, unsentBytes, type QueueFile } from '../lib/uploadQueue';
import { uploadStorage, type StoredUpload } from '../lib/uploadStorage';

export const UPLOAD_ENDPOINT = '/api/uploads';
/** Files sent at once: enough to fill a phone's uplink, few enough to finish some early. */
const PARALLEL = 3;
/** One request per file of a phone photo; a larger file goes in several. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** tus-js-client's backoff: about ten minutes of trying before a file shows Retry. */
const RETRY_DELAYS = [0, 1000, 2000, 4000, 8000, 15000, 30000, 30000, 60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000];

/** A file in the queue: what is kept on the device, and its progress on this page. */
export interface QueuedUpload extends QueueFile, Omit<StoredUpload, 'key'> {
  /** Found on the device after a reload, not started from this page. */
  restored?: boolean;
}

export interface NewFile {
  file: File;
  caption?: string;
  category?: ImageCategory;
}

export interface UploadsState {
  uploads: QueuedUpload[];
  /** The device's unfinished uploads were read (once per page load). */
  restored: boolean;
  /** Batches every file of which has answered: how many photos each stored. */
  finished: Record<string, { stored: number; skipped: number }>;
  restore: () => Promise<void>;
  /** One batch (site visit): its optional note, milestone and tags go with every file. */
  publish: (projectId: string, files: NewFile[], note?: string, milestoneId?: string, tags?: string[]) => string;
  pause: (key: string) => void;
  resume: (key: string) => void;
  cancel: (key: string) => void;
  pauseProject: (projectId: string) => void;
  resumeProject: (projectId: string) => void;
  discardProject: (projectId: string) => void;
}

const running = new Map<string, tus.Upload>();
const meters = new Map<string, SpeedMeter>();
let nextKey = 0;

/** Per project: bytes per second across its uploads, for "time left". */
export function projectSpeed(projectId: string): number | null {
  return meters.get(projectId)?.bytesPerSecond() ?? null;
}

/** A random (version 4) UUID: the server takes only UUIDs as site-visit ids. Pages
 * served over plain HTTP have no crypto.randomUUID but do have getRandomValues. */
function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function stored(u: QueuedUpload): StoredUpload {
  return {
    key: u.key,
    projectId: u.projectId,
    batchId: u.batchId,
    batchSize: u.batchSize,
    note: u.note,
    milestoneId: u.milestoneId,
    tags: u.tags,
    caption: u.caption,
    category: u.category,
    file: u.file,
    uploadUrl: u.uploadUrl,
    createdAt: u.createdAt,
  };
}

/** The server's `{message}` of an error answer, when it sent one. */
function serverMessage(err: unknown): { status: number; message?: string } {
  const detailed = err as tus.DetailedError;
  const response = detailed?.originalResponse;
  if (!response) return { status: 0 };
  let message: string | undefined;
  try {
    const body = JSON.parse(response.getBody()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    message = undefined;
  }
  return { status: response.getStatus(), message };
}

/** Network trouble, 5xx, and tus' "try again" answers are retried; a 4xx is final. */
function retryable(status: number): boolean {
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

export const useUploads = create<UploadsState>()((set, get) => {
  const update = (key: string, patch: Partial<QueuedUpload>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.key === key ? { ...u, ...patch } : u)) }));
  const find = (key: string) => get().uploads.find((u) => u.key === key);

  /** Says how a batch went once every file of it has an answer. */
  const announce = (batchId: string) => {
    const files = get().uploads.filter((u) => u.batchId === batchId);
    if (files.length === 0 || !files.every((f) => isSettled(f.state))) return;
    const done = files.filter((f) => f.state === 'done');
    const refused = files.filter((f) => f.state === 'refused');
    if (done.length > 0) toast.success(uploadedMessage(done.length));
    if (refused.length > 0) {
      const notImages = refused.some((f) => f.reason?.startsWith('Not an image'));
      const description = refused.map((f) => `${f.name}: ${f.reason ?? 'skipped'}`).join('\n');
      if (done.length > 0) toast.warning(notImages ? NOT_IMAGES_MESSAGE : 'Some files were skipped', { description });
      else toast.error(notImages ? NOT_IMAGES_MESSAGE : UPLOAD_FAILED_MESSAGE, { description });
    }
    // Settled files leave the queue; the photos are in the gallery now.
    set((s) => ({
      uploads: s.uploads.filter((u) => u.batchId !== batchId),
      finished: { ...s.finished, [batchId]: { stored: done.length, skipped: refused.length } },
    }));
  };

  const settle = (key: string, patch: Partial<QueuedUpload>) => {
    running.delete(key);
    update(key, patch);
    void uploadStorage.remove(key);
    const u = find(key);
    if (u) announce(u.batchId);
    pump();
  };

  const start = (u: QueuedUpload) => {
    const meter = meters.get(u.projectId) ?? new SpeedMeter();
    meters.set(u.projectId, meter);
    const metadata: Record<string, string> = {
      projectId: u.projectId,
      filename: u.name,
      batchId: u.batchId,
      batchSize: String(u.batchSize),
    };
    if (u.caption) metadata.caption = u.caption;
    if (u.category) metadata.category = u.category;
    if (u.note) metadata.note = u.note;
    if (u.milestoneId) metadata.milestoneId = u.milestoneId;
    // The server splits them at commas, which no tag may contain.
    const tags = tagsMetadata(u.tags ?? []);
    if (tags) metadata.tags = tags;
    let lastSent = 0;
    const upload: tus.Upload = new tus.Upload(u.file, {
      endpoint: UPLOAD_ENDPOINT,
      uploadUrl: u.uploadUrl ?? null,
      metadata,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      // This queue keeps the URLs itself, with the files (lib/uploadStorage).
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => {
        const current = find(u.key);
        if (!current || !upload.url) return;
        update(u.key, { uploadUrl: upload.url });
        void uploadStorage.put(stored({ ...current, uploadUrl: upload.url }));
      },
      onProgress: (sent) => {
        // Project-wide bytes for the speed: what this file added since its last report.
        const all = get().uploads.filter((x) => x.projectId === u.projectId).reduce((a, x) => a + (x.key === u.key ? sent : x.sent), 0);
        if (sent >= lastSent) meter.add(Date.now(), all);
        lastSent = sent;
        update(u.key, { sent, state: 'uploading', reason: undefined });
      },
      onShouldRetry: (err) => {
        const { status } = serverMessage(err);
        const again = retryable(status);
        if (again && find(u.key)?.state !== 'paused') update(u.key, { state: 'retrying' });
        return again;
      },
      onSuccess: ({ lastResponse }) => {
        const refused = decodeReason(lastResponse.getHeader('Sitecast-Refused'));
        if (refused) settle(u.key, { state: 'refused', reason: refused });
        else settle(u.key, { state: 'done', sent: u.size });
      },
      onError: (err) => {
        const { status, message } = serverMessage(err);
        if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
          // Refused for what it is (too large, no longer allowed…): final.
          settle(u.key, { state: 'refused', reason: message ?? `The server answered ${status}` });
          return;
        }
        running.delete(u.key);
        update(u.key, { state: 'failed', reason: message ?? (navigator.onLine ? undefined : 'You are offline') });
        pump();
      },
    });
    running.set(u.key, upload);
    update(u.key, { state: 'uploading', reason: undefined });
    upload.start();
  };

  /** Starts queued files while there are free slots. */
  const pump = () => {
    const waiting = get().uploads.filter((u) => u.state === 'queued');
    for (const u of waiting) {
      if (running.size >= PARALLEL) break;
      start(u);
    }
  };

  const stop = (key: string, state: 'paused' | 'queued') => {
    const upload = running.get(key);
    running.delete(key);
    if (upload) void upload.abort();
    update(key, { state });
  };

  return {
    uploads: [],
    restored: false,
    finished: {},

    async restore() {
      if (get().restored) return;
      set({ restored: true });
      const kept = await uploadStorage.all();
      const known = new Set(get().uploads.map((u) => u.key));
      const found: QueuedUpload[] = kept
        .filter((k) => !known.has(k.key))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((k) => ({
          ...k,
          name: k.file.name,
          size: k.file.size,
          sent: 0,
          state: 'paused',
          restored: true,
        }));
      if (found.length > 0) set((s) => ({ uploads: [...s.uploads, ...found] }));
    },

    publish(projectId, files, note, milestoneId, tags) {
      const batchId = newId();
      const createdAt = Date.now();
      const added: QueuedUpload[] = files.map(({ file, caption, category }) => ({
        key: `u${createdAt}-${nextKey++}`,
        projectId,
        batchId,
        batchSize: files.length,
        note: note?.trim() || undefined,
        milestoneId: milestoneId || undefined,
        tags: tags && tags.length > 0 ? [...tags] : undefined,
        caption: caption?.trim() || undefined,
        category,
        file,
        name: file.name,
        size: file.size,
        sent: 0,
        state: 'queued',
        createdAt,
      }));
      set((s) => ({ uploads: [...s.uploads, ...added] }));
      for (const u of added) void uploadStorage.put(stored(u));
      pump();
      return batchId;
    },

    pause(key) {
      const u = find(key);
      if (!u || isSettled(u.state)) return;
      stop(key, 'paused');
      meters.get(u.projectId)?.reset();
      pump();
    },

    resume(key) {
      const u = find(key);
      if (!u || isSettled(u.state) || running.has(key)) return;
      update(key, { state: 'queued', reason: undefined, restored: false });
      pump();
    },

    cancel(key) {
      const u = find(key);
      if (!u) return;
      const upload = running.get(key);
      running.delete(key);
      // Termination: the server drops the bytes it has; the batch counts it as finished.
      if (upload) void upload.abort(true).catch(() => undefined);
      else if (u.uploadUrl) void tus.Upload.terminate(u.uploadUrl, { retryDelays: [0, 1000, 3000] }).catch(() => undefined);
      void uploadStorage.remove(key);
      set((s) => ({ uploads: s.uploads.filter((x) => x.key !== key) }));
      announce(u.batchId);
      pump();
    },

    pauseProject(projectId) {
      for (const u of get().uploads) if (u.projectId === projectId && !isSettled(u.state)) stop(u.key, 'paused');
      meters.get(projectId)?.reset();
    },

    resumeProject(projectId) {
      for (const u of get().uploads) {
        if (u.projectId === projectId && !isSettled(u.state) && !running.has(u.key)) update(u.key, { state: 'queued', reason: undefined, restored: false });
      }
      pump();
    },

    discardProject(projectId) {
      for (const u of get().uploads.filter((x) => x.projectId === projectId)) get().cancel(u.key);
    },
  };
});

/** Bytes not yet sent, across every project: what leaving the page would hold up. */
export const unsentNow = () => unsentBytes(useUploads.getState().uploads);

if (typeof window !== 'undefined') {
  // Leaving with bytes unsent: the browser asks first. (Unfinished files resume later.)
  window.addEventListener('beforeunload', (event) => {
    if (unsentNow() > 0) {
      event.preventDefault();
      event.returnValue = '';
    }
  });
  // Back online: files that gave up while offline try again at once.
  window.addEventListener('online', () => {
    const { uploads, resume } = useUploads.getState();
    for (const u of uploads) if (u.state === 'failed') resume(u.key);
  });
}
