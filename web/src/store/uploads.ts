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
import { holdLock } from '../lib/locks';
import { NOT_IMAGES_MESSAGE, UPLOAD_FAILED_MESSAGE, uploadedMessage } from '../lib/photoUpload';
import { CHUNK_BYTES, needsSignIn, refusedFor, retryable, serverAnswer, UPLOAD_ENDPOINT, uploadMetadata } from '../lib/tusUploads';
import { decodeReason, isSettled, SpeedMeter, unsentBytes, type QueueFile } from '../lib/uploadQueue';
import { uploadStorage, type StoredUpload } from '../lib/uploadStorage';
import { uploadLockName } from '../offline/contract';
import { onWorkerMessage, requestUploadSync } from '../offline/serviceWorker';
import { useAppStore } from './index';

export { UPLOAD_ENDPOINT };
/** Files sent at once: enough to fill a phone's uplink, few enough to finish some early. */
const PARALLEL = 3;
/** What a file says while its owner's session is gone (401): it waits on the device. */
const SIGN_IN_AGAIN = 'Sign in again to send it';
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
  /** The service worker sent a queued file (Background Sync): it settles here too. */
  settledElsewhere: (key: string, state: 'done' | 'refused', reason?: string) => void;
}

/**
 * A file this page is sending: it holds the file's lock (offline/contract) from the
 * moment it is granted until the file settles or stops, and its tus upload once begun.
 */
interface Sending {
  upload?: tus.Upload;
  release: () => void;
  /** Stopped (paused, cancelled, settled) before or while the lock was granted. */
  stopped: boolean;
}

const running = new Map<string, Sending>();
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
    userId: u.userId,
    sendWhenOnline: u.sendWhenOnline,
    paused: u.paused,
  };
}

/** The device is offline as far as the browser knows (a "lie-fi" connection still says online). */
const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

export const useUploads = create<UploadsState>()((set, get) => {
  const update = (key: string, patch: Partial<QueuedUpload>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.key === key ? { ...u, ...patch } : u)) }));
  const find = (key: string) => get().uploads.find((u) => u.key === key);
  /** Changes what is kept on the device about a file, as well as what this page shows. */
  const keep = (key: string, patch: Parameters<typeof uploadStorage.change>[1]) => {
    update(key, patch);
    void uploadStorage.change(key, patch);
  };
  /** Lets go of a file this page was sending (or about to): its lock, its tus upload. */
  const letGo = (key: string): tus.Upload | undefined => {
    const sending = running.get(key);
    running.delete(key);
    if (!sending) return undefined;
    sending.stopped = true;
    sending.release();
    return sending.upload;
  };
  /**
   * The device went offline under the file, or it was chosen offline: it waits, kept on
   * the device, and the service worker is asked to send it once the device is back
   * online, even if this page is closed by then (Background Sync, where the browser has it).
   */
  const waitForNetwork = (key: string) => {
    update(key, { state: 'waiting', reason: undefined });
    keep(key, { sendWhenOnline: true });
    requestUploadSync();
  };

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
    const sending = running.get(key);
    running.delete(key);
    if (sending) sending.stopped = true;
    // Off the device first, then the lock: whoever takes the lock next finds it gone.
    void uploadStorage.remove(key).then(() => sending?.release());
    update(key, patch);
    const u = find(key);
    if (u) announce(u.batchId);
    pump();
  };

  /**
   * Sends one file once its lock is ours. The copy kept on the device is read again
   * under the lock: the service worker may have sent the file meanwhile (then it is
   * gone) or begun it (then it carries the server's upload URL to resume from).
   */
  const start = (u: QueuedUpload) => {
    const sending: Sending = { release: () => undefined, stopped: false };
    running.set(u.key, sending);
    update(u.key, { state: 'uploading', reason: undefined });
    holdLock(uploadLockName(u.key), (release) => {
      sending.release = release;
      if (sending.stopped) {
        release();
        return;
      }
      void uploadStorage.kept(u.key).then((kept) => {
        if (sending.stopped) return;
        // Sent from elsewhere (the service worker, another tab) while this page waited.
        if (kept === null) settle(u.key, { state: 'done', sent: u.size });
        else send(find(u.key) ?? u, sending, kept?.uploadUrl);
      });
    });
  };

  const send = (u: QueuedUpload, sending: Sending, keptUrl: string | undefined) => {
    const meter = meters.get(u.projectId) ?? new SpeedMeter();
    meters.set(u.projectId, meter);
    let lastSent = 0;
    const upload: tus.Upload = new tus.Upload(u.file, {
      endpoint: UPLOAD_ENDPOINT,
      uploadUrl: keptUrl ?? u.uploadUrl ?? null,
      metadata: uploadMetadata(u),
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      // This queue keeps the URLs itself, with the files (lib/uploadStorage).
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => {
        if (upload.url) keep(u.key, { uploadUrl: upload.url });
      },
      onProgress: (sent) => {
        // Project-wide bytes for the speed: what this file added since its last report.
        const all = get().uploads.filter((x) => x.projectId === u.projectId).reduce((a, x) => a + (x.key === u.key ? sent : x.sent), 0);
        if (sent >= lastSent) meter.add(Date.now(), all);
        lastSent = sent;
        update(u.key, { sent, state: 'uploading', reason: undefined });
      },
      onShouldRetry: (err) => {
        const { status } = serverAnswer(err);
        const again = retryable(status);
        if (again && find(u.key)?.state !== 'paused') update(u.key, { state: 'retrying' });
        // Should this page be closed before the network is back, the file still goes.
        if (again && offline() && !find(u.key)?.sendWhenOnline) {
          keep(u.key, { sendWhenOnline: true });
          requestUploadSync();
        }
        return again;
      },
      onSuccess: ({ lastResponse }) => {
        const refused = decodeReason(lastResponse.getHeader('Sitecast-Refused'));
        if (refused) settle(u.key, { state: 'refused', reason: refused });
        else settle(u.key, { state: 'done', sent: u.size });
      },
      onError: (err) => {
        const { status, message } = serverAnswer(err);
        if (refusedFor(status)) {
          // Refused for what it is (too large, no longer allowed…): final.
          settle(u.key, { state: 'refused', reason: message ?? `The server answered ${status}` });
          return;
        }
        letGo(u.key);
        if (status === 0 && offline()) waitForNetwork(u.key);
        else update(u.key, { state: 'failed', reason: needsSignIn(status) ? SIGN_IN_AGAIN : message });
        pump();
      },
    });
    sending.upload = upload;
    upload.start();
  };

  /** Starts queued files while there are free slots; offline, they wait for the network instead. */
  const pump = () => {
    const queued = get().uploads.filter((u) => u.state === 'queued');
    for (const u of queued) {
      if (offline()) waitForNetwork(u.key);
      else if (running.size < PARALLEL) start(u);
    }
  };

  const stop = (key: string, state: 'paused' | 'queued') => {
    void letGo(key)?.abort();
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
      const me = useAppStore.getState().user?.id;
      const found: QueuedUpload[] = kept
        // Someone else's photos wait on the device for them (files kept by older versions
        // name no one).
        .filter((k) => !known.has(k.key) && (k.userId === undefined || k.userId === me))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((k) => ({
          ...k,
          name: k.file.name,
          size: k.file.size,
          sent: 0,
          // Waiting for the network: they go by themselves. Cut off by leaving
          // the page: paused, until the person says Resume.
          state: k.sendWhenOnline && !k.paused ? 'queued' : 'paused',
          restored: true,
        }));
      if (found.length > 0) set((s) => ({ uploads: [...s.uploads, ...found] }));
      pump();
    },

    publish(projectId, files, note, milestoneId, tags) {
      const batchId = newId();
      const createdAt = Date.now();
      const userId = useAppStore.getState().user?.id;
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
        userId,
      }));
      set((s) => ({ uploads: [...s.uploads, ...added] }));
      // Kept on the device before any is sent: a file's lock-holder reads it back from there.
      void Promise.all(added.map((u) => uploadStorage.put(stored(u)))).then(pump);
      return batchId;
    },

    pause(key) {
      const u = find(key);
      if (!u || isSettled(u.state)) return;
      stop(key, 'paused');
      keep(key, { paused: true });
      meters.get(u.projectId)?.reset();
      pump();
    },

    resume(key) {
      const u = find(key);
      if (!u || isSettled(u.state) || running.has(key)) return;
      update(key, { state: 'queued', reason: undefined, restored: false });
      if (u.paused) keep(key, { paused: false });
      pump();
    },

    cancel(key) {
      const u = find(key);
      if (!u) return;
      const upload = letGo(key);
      // Termination: the server drops the bytes it has; the batch counts it as finished.
      if (upload) void upload.abort(true).catch(() => undefined);
      else if (u.uploadUrl) void tus.Upload.terminate(u.uploadUrl, { retryDelays: [0, 1000, 3000] }).catch(() => undefined);
      void uploadStorage.remove(key);
      set((s) => ({ uploads: s.uploads.filter((x) => x.key !== key) }));
      announce(u.batchId);
      pump();
    },

    pauseProject(projectId) {
      for (const u of get().uploads) {
        if (u.projectId !== projectId || isSettled(u.state)) continue;
        stop(u.key, 'paused');
        keep(u.key, { paused: true });
      }
      meters.get(projectId)?.reset();
    },

    resumeProject(projectId) {
      for (const u of get().uploads) if (u.projectId === projectId) get().resume(u.key);
    },

    settledElsewhere(key, state, reason) {
      const u = find(key);
      // A file this page is sending itself is not the service worker's to settle.
      if (!u || running.get(key)?.upload) return;
      settle(key, state === 'done' ? { state, sent: u.size } : { state, reason });
    },

    discardProject(projectId) {
      for (const u of get().uploads.filter((x) => x.projectId === projectId)) get().cancel(u.key);
    },
  };
});

/**
 * Bytes not yet sent, across every project: what leaving the page would hold up. Files
 * waiting for the network are not held up by it: they go by themselves once online.
 */
export const unsentNow = () => unsentBytes(useUploads.getState().uploads.filter((u) => u.state !== 'waiting'));

if (typeof window !== 'undefined') {
  // Leaving with bytes unsent: the browser asks first. (Unfinished files resume later.)
  window.addEventListener('beforeunload', (event) => {
    if (unsentNow() > 0) {
      event.preventDefault();
      event.returnValue = '';
    }
  });
  // Back online: files that waited, or gave up, while offline go at once.
  window.addEventListener('online', () => {
    const { uploads, resume } = useUploads.getState();
    for (const u of uploads) if (u.state === 'failed' || u.state === 'waiting') resume(u.key);
  });
  onWorkerMessage((message) => {
    if (message.type === 'sitecast:upload-settled') useUploads.getState().settledElsewhere(message.key, message.state, message.reason);
  });
}
