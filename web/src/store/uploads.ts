/**
 * The upload queue: resumable uploads (tus 1.0, with the official tus-js-client) that
 * outlive the page they were started on. Each file is its own tus upload, sent a few at
 * a time, retried with backoff when the network drops and resumed from the server's
 * offset. Its own store, apart from the app's: it is about this device, not about the
 * synced model, and outlives sign-in pages too.
 *
 * Photos chosen on a project's uploader are its **selection** (one per project): each is
 * a held upload (docs/FEATURES.md, "Photo upload") whose bytes go at once, while the
 * person writes captions and the visit's note; the photo waits for Publish. Publish is
 * one `publish_uploads` naming the selection's uploads with their captions, the note,
 * milestone and tags, under the batch (site visit) id chosen with the first photo: the
 * files already whole become photos at once, the rest on their last byte. The files, the
 * selection's fields and each file's upload URL are kept on the device
 * (lib/uploadStorage, lib/uploadDrafts), so a reload or a closed tab brings the
 * selection back as it was left. Files queued by older versions carry their whole batch
 * in their metadata and become photos on their last byte, as do the files of a
 * selection published while offline before any of it could begin.
 */
import { toast } from '../lib/toast';
import * as tus from 'tus-js-client';
import { create } from 'zustand';
import type { ImageCategory } from '../protocol/types';
import { holdLock } from '../lib/locks';
import { NOT_IMAGES_MESSAGE, UPLOAD_FAILED_MESSAGE, uploadedMessage } from '../lib/photoUpload';
import {
  answerOf,
  CHUNK_BYTES,
  createUpload,
  headUpload,
  needsSignIn,
  publishRequest,
  refusalReason,
  refusedFor,
  retryable,
  serverAnswer,
  tusEndpoint,
  UPLOAD_ENDPOINT,
  UploadAnswerError,
  uploadMetadata,
} from '../lib/tusUploads';
import { defaultCaption, restoreKept, selectionStorage, type SelectionPhase, type StoredSelection } from '../lib/uploadDrafts';
import { isSettled, isWhole, SpeedMeter, unsentBytes, type QueueFile } from '../lib/uploadQueue';
import { uploadStorage, type StoredUpload, type UploadChange } from '../lib/uploadStorage';
import { uploadLockName } from '../offline/contract';
import { onWorkerMessage, requestUploadSync } from '../offline/serviceWorker';
import { toastRequestError } from '../sync/errors';
import { request, RequestError } from '../sync/requests';
import { useAppStore } from './index';
import { uploadQueueArrived } from './lazyUploads';

export { UPLOAD_ENDPOINT };
/** Files sent at once: enough to fill a phone's uplink, few enough to finish some early. */
const PARALLEL = 3;
/**
 * Uploads made ahead of their turn to send, at once: Publish needs every file's upload
 * id, not its bytes, so a selection can be published while most of it is still to go.
 */
const CREATE_AHEAD = 4;
/** Published whole files asked at once how their storing went (each HEAD waits for it). */
const CHECKS = 3;
/** What a file says while its owner's session is gone (401): it waits on the device. */
const SIGN_IN_AGAIN = 'Sign in again to send it';
/** tus-js-client's backoff: about ten minutes of trying before a file shows Retry. */
const RETRY_DELAYS = [0, 1000, 2000, 4000, 8000, 15000, 30000, 30000, 60000, 60000, 60000, 60000, 60000, 60000, 60000, 60000];
/** Asking again how a published file's storing went, before it shows Retry. */
const CHECK_DELAYS = [1000, 2000, 4000, 8000, 15000, 30000];
/** A `publish_uploads` the connection lost is sent again after these waits (and at every new connection). */
const PUBLISH_RETRY_MS = [1000, 3000, 10000, 30000];
/** What Publish says when the server would not take the selection and gave no reason. */
const PUBLISH_FAILED = 'The photos could not be published';

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

/**
 * A project's selection: photos chosen on its uploader, sent ahead as held uploads,
 * with the visit's fields. `editing` while it is written; `publishing` from Publish until
 * the server answers (or, offline, until it can be sent); `published` while its files
 * settle, after which it is gone.
 */
export interface UploadSelection {
  projectId: string;
  /** The site visit's id, chosen with the first photo; `publish_uploads` names it. */
  batchId: string;
  note: string;
  /** '' for none. */
  milestoneId: string;
  tags: string[];
  phase: SelectionPhase | 'published';
  createdAt: number;
  userId?: string;
}

export type SelectionFields = Partial<Pick<UploadSelection, 'note' | 'milestoneId' | 'tags'>>;
export type PhotoFields = { caption?: string; category?: ImageCategory };

export interface UploadsState {
  uploads: QueuedUpload[];
  /** By project: the photos chosen on its uploader and not yet settled. */
  selections: Record<string, UploadSelection>;
  /** The device's unfinished uploads were read (once per page load). */
  restored: boolean;
  /** Batches every file of which has answered: how many photos each stored. */
  finished: Record<string, { stored: number; skipped: number }>;
  restore: () => Promise<void>;
  /** Adds photos to the project's selection; their bytes start at once. */
  choose: (projectId: string, files: NewFile[]) => void;
  editPhoto: (key: string, fields: PhotoFields) => void;
  editAllPhotos: (projectId: string, fields: PhotoFields) => void;
  editSelection: (projectId: string, fields: SelectionFields) => void;
  /** Publishes the selection (`publish_uploads`), with `milestoneId` if one is still offered. */
  publishSelection: (projectId: string, milestoneId?: string) => void;
  /** Drops the selection and its uploads, here and on the server. */
  discardSelection: (projectId: string) => void;
  pause: (key: string) => void;
  resume: (key: string) => void;
  /** Drops a file, here and on the server (tus termination); a selection's photo leaves it. */
  cancel: (key: string) => void;
  /** These three act on the project's files outside its selection (the unfinished ones). */
  pauseProject: (projectId: string) => void;
  resumeProject: (projectId: string) => void;
  discardProject: (projectId: string) => void;
  /** The service worker sent a queued file (Background Sync): it settles here too. */
  settledElsewhere: (key: string, state: 'done' | 'refused', reason?: string) => void;
  /** The connection is back: a Publish that waited for it goes now. */
  publishWaiting: () => void;
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

/** A held upload being made ahead of its turn (under the file's lock too). */
interface Creating {
  cancelled: boolean;
}

const running = new Map<string, Sending>();
const creating = new Map<string, Creating>();
/** Made ahead once per page: after a failure, its turn to send makes it (with retries). */
const createTried = new Set<string>();
const checking = new Set<string>();
/** Chosen and not yet written to the device: nothing sends them before (their lock-holder reads them back from there). */
const unsaved = new Set<string>();
/** Projects whose `publish_uploads` is on its way. */
const publishing = new Set<string>();
const publishRetries = new Map<string, { tries: number; timer?: ReturnType<typeof setTimeout> }>();
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
    held: u.held,
    whole: u.whole,
    published: u.published,
  };
}

function fromStored(s: StoredSelection): UploadSelection {
  return { projectId: s.projectId, batchId: s.batchId, note: s.note, milestoneId: s.milestoneId, tags: s.tags, phase: s.phase, createdAt: s.createdAt, userId: s.userId };
}

/** The device is offline as far as the browser knows (a "lie-fi" connection still says online). */
const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** A selection's file that Publish still has to account for: not refused, not already a photo. */
const publishable = (u: Pick<QueueFile, 'state'>) => u.state !== 'refused' && u.state !== 'done';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const useUploads = create<UploadsState>()((set, get) => {
  const update = (key: string, patch: Partial<QueuedUpload>) =>
    set((s) => ({ uploads: s.uploads.map((u) => (u.key === key ? { ...u, ...patch } : u)) }));
  const find = (key: string) => get().uploads.find((u) => u.key === key);
  /** Changes what is kept on the device about a file, as well as what this page shows. */
  const keep = (key: string, patch: UploadChange) => {
    update(key, patch);
    return uploadStorage.change(key, patch);
  };
  const filesOf = (selection: Pick<UploadSelection, 'batchId'>) => get().uploads.filter((u) => u.batchId === selection.batchId);
  /** The selection a batch is, while it is one. */
  const selectionOf = (batchId: string) => Object.values(get().selections).find((s) => s.batchId === batchId);
  /** Part of its project's selection (which the selection panel shows, not the unfinished list). */
  const inSelection = (u: Pick<QueuedUpload, 'projectId' | 'batchId'>) => get().selections[u.projectId]?.batchId === u.batchId;
  const changeSelection = (projectId: string, patch: Partial<UploadSelection>) =>
    set((s) => {
      const current = s.selections[projectId];
      return current ? { selections: { ...s.selections, [projectId]: { ...current, ...patch } } } : s;
    });

  /** Keeps the selection's fields and its files' captions on the device, until it is published. */
  const saveSelection = (projectId: string) => {
    const s = get().selections[projectId];
    if (!s || s.phase === 'published') return;
    const files = filesOf(s);
    void selectionStorage.put({
      batchId: s.batchId,
      projectId: s.projectId,
      userId: s.userId,
      note: s.note,
      milestoneId: s.milestoneId,
      tags: s.tags,
      captions: Object.fromEntries(files.map((f) => [f.key, { caption: f.caption ?? '', category: f.category }])),
      order: files.map((f) => f.key),
      phase: s.phase,
      createdAt: s.createdAt,
    });
  };
  const dropSelection = (projectId: string) => {
    const s = get().selections[projectId];
    if (!s) return;
    const retry = publishRetries.get(projectId);
    if (retry?.timer) clearTimeout(retry.timer);
    publishRetries.delete(projectId);
    set((state) => {
      const rest = { ...state.selections };
      delete rest[projectId];
      return { selections: rest };
    });
    void selectionStorage.remove(s.batchId);
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
    void keep(key, { sendWhenOnline: true });
    requestUploadSync();
    const u = find(key);
    if (u) tryPublish(u.projectId);
  };

  /** Says how a batch went once every file of it has an answer; a selection only once published. */
  const announce = (batchId: string) => {
    const selection = selectionOf(batchId);
    if (selection && selection.phase !== 'published') return;
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
    if (selection) dropSelection(selection.projectId);
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
   * A held upload's bytes are all on the server. Before Publish it waits there ("Sent");
   * published, the server is making it a photo and a HEAD asks how that went.
   */
  const whole = (key: string) => {
    const sending = running.get(key);
    running.delete(key);
    if (sending) sending.stopped = true;
    void uploadStorage.change(key, { whole: true, sendWhenOnline: false }).then(() => sending?.release());
    const u = find(key);
    if (!u) return;
    update(key, { whole: true, sendWhenOnline: false, sent: u.size, reason: undefined, state: u.published ? 'storing' : 'held' });
    if (!u.published) tryPublish(u.projectId);
    pump();
  };

  /**
   * Sends one file once its lock is ours. The copy kept on the device is read again
   * under the lock: the service worker may have sent the file meanwhile (then it is
   * gone) or begun it (then it carries the server's upload URL to resume from), or sent
   * a held file's every byte (then it waits for Publish).
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
        const current = find(u.key) ?? u;
        if (kept === null && current.held && !current.published) {
          // A selection's file discarded from another tab: nothing of it is left to send.
          letGo(u.key);
          set((s) => ({ uploads: s.uploads.filter((x) => x.key !== u.key) }));
          pump();
        } else if (kept === null) {
          // Sent from elsewhere (the service worker, another tab) while this page waited.
          settle(u.key, { state: 'done', sent: u.size });
        } else if (kept?.held && kept.whole && current.whole !== false && !current.published) {
          whole(u.key);
        } else {
          send(current, sending, kept?.uploadUrl);
        }
      });
    });
  };

  const send = (u: QueuedUpload, sending: Sending, keptUrl: string | undefined) => {
    const meter = meters.get(u.projectId) ?? new SpeedMeter();
    meters.set(u.projectId, meter);
    let lastSent = 0;
    const uploadUrl = keptUrl ?? u.uploadUrl;
    const upload: tus.Upload = new tus.Upload(u.file, {
      endpoint: tusEndpoint({ ...u, uploadUrl }),
      uploadUrl: uploadUrl ?? null,
      metadata: uploadMetadata(u),
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      // This queue keeps the URLs itself, with the files (lib/uploadStorage).
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => {
        if (upload.url && upload.url !== find(u.key)?.uploadUrl) void keep(u.key, { uploadUrl: upload.url });
        tryPublish(u.projectId);
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
          void keep(u.key, { sendWhenOnline: true });
          requestUploadSync();
        }
        return again;
      },
      onSuccess: ({ lastResponse }) => {
        const answer = answerOf((name) => lastResponse.getHeader(name));
        if (answer.kind === 'refused') settle(u.key, { state: 'refused', reason: answer.reason });
        else if (answer.kind === 'photo' || !u.held) settle(u.key, { state: 'done', sent: u.size });
        // Held, or published and still being stored: the answer says no more.
        else whole(u.key);
      },
      onError: (err) => {
        const { status, message } = serverAnswer(err);
        if (refusedFor(status)) {
          // Refused for what it is (too large, no longer allowed, expired…): final.
          settle(u.key, { state: 'refused', reason: refusalReason(status, message) });
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

  /** Makes a chosen file's held upload before its turn to send, so Publish can name it. */
  const createAhead = (u: QueuedUpload) => {
    const job: Creating = { cancelled: false };
    creating.set(u.key, job);
    createTried.add(u.key);
    holdLock(uploadLockName(u.key), (release) => {
      const done = () => {
        creating.delete(u.key);
        release();
        pump();
      };
      if (job.cancelled) {
        done();
        return;
      }
      void (async () => {
        const kept = await uploadStorage.kept(u.key);
        const known = kept?.uploadUrl ?? find(u.key)?.uploadUrl;
        if (job.cancelled || kept === null) return done();
        if (known) {
          if (!find(u.key)?.uploadUrl) await keep(u.key, { uploadUrl: known });
          done();
          tryPublish(u.projectId);
          return;
        }
        try {
          const url = await createUpload(u.size, uploadMetadata(u));
          if (job.cancelled) {
            void tus.Upload.terminate(url, { retryDelays: [0, 1000, 3000] }).catch(() => undefined);
            return done();
          }
          // Kept before the lock goes: whoever sends it next resumes this upload.
          await keep(u.key, { uploadUrl: url });
          done();
          tryPublish(u.projectId);
        } catch (err) {
          const status = err instanceof UploadAnswerError ? err.status : 0;
          const message = err instanceof UploadAnswerError ? err.serverMessage : undefined;
          creating.delete(u.key);
          if (refusedFor(status)) settle(u.key, { state: 'refused', reason: refusalReason(status, message) });
          else if (needsSignIn(status) && !running.has(u.key) && find(u.key)?.state === 'queued') update(u.key, { state: 'failed', reason: SIGN_IN_AGAIN });
          // Anything else (the network, the server's bad moment): its turn to send makes it.
          done();
          tryPublish(u.projectId);
        }
      })();
    });
  };

  /**
   * Asks the server how a published whole file's storing went (a HEAD waits while it is
   * stored). Cut off or unanswered, the file shows Retry, which resumes it over tus:
   * its HEAD answers the same.
   */
  const checkOutcome = async (key: string) => {
    checking.add(key);
    try {
      for (let attempt = 0; ; attempt += 1) {
        const u = find(key);
        if (!u || u.state !== 'storing' || !u.uploadUrl) return;
        const head = await headUpload(u.uploadUrl);
        if (find(key)?.state !== 'storing') return;
        const { status, answer } = head;
        if (status >= 200 && status < 300) {
          if (answer.kind === 'photo') return settle(key, { state: 'done', sent: u.size });
          if (answer.kind === 'refused') return settle(key, { state: 'refused', reason: answer.reason });
          if (head.offset !== undefined && head.length !== undefined && head.offset < head.length) {
            // The server lacks bytes after all: they go.
            update(key, { state: 'queued', sent: head.offset });
            await keep(key, { whole: false });
            pump();
            return;
          }
        } else if (refusedFor(status)) {
          return settle(key, { state: 'refused', reason: refusalReason(status, undefined) });
        } else if (needsSignIn(status)) {
          update(key, { state: 'failed', reason: SIGN_IN_AGAIN });
          return;
        } else if (status === 0 && offline()) {
          // Asked again (over tus) once the device is back online.
          update(key, { state: 'waiting' });
          return;
        }
        const wait = CHECK_DELAYS[attempt];
        if (wait === undefined) {
          update(key, { state: 'failed', reason: 'No answer from the server' });
          return;
        }
        await sleep(wait);
      }
    } finally {
      checking.delete(key);
      pump();
    }
  };

  /**
   * Sends the project's selection's `publish_uploads` once every file has its upload;
   * until then, or while the connection is away, the selection waits (kept on the
   * device, so a reload goes on with it).
   */
  const tryPublish = (projectId: string) => {
    const s = get().selections[projectId];
    if (!s || s.phase !== 'publishing' || publishing.has(projectId)) return;
    const files = filesOf(s).filter(publishable);
    if (files.length === 0) {
      published(projectId, s.batchId);
      return;
    }
    if (files.every((f) => !f.uploadUrl && !running.has(f.key) && !creating.has(f.key))) {
      // Chosen offline and published before any of it could begin: the files go as
      // files queued offline always have, each carrying its visit, so the service
      // worker can send them with every tab closed.
      if (offline()) sendAsBatch(projectId);
      return;
    }
    // Waiting for some uploads to be made (each is a small request).
    if (files.some((f) => !f.uploadUrl)) return;
    publishing.add(projectId);
    const { batchId } = s;
    request({ type: 'publish_uploads', ...publishRequest(s, files.map((f) => ({ uploadUrl: f.uploadUrl ?? '', caption: f.caption, category: f.category }))) })
      .then(
        () => {
          publishing.delete(projectId);
          published(projectId, batchId);
        },
        (err: unknown) => {
          publishing.delete(projectId);
          if (get().selections[projectId]?.batchId !== batchId) return;
          if (!(err instanceof RequestError) || !err.fromServer) {
            // Never answered (no connection, a timeout): sent again; a request that did
            // arrive answers the same the second time.
            retryPublish(projectId);
            return;
          }
          changeSelection(projectId, { phase: 'editing' });
          saveSelection(projectId);
          toastRequestError(err, PUBLISH_FAILED);
          // An upload expired, or was published elsewhere: every sent file is asked
          // again over tus (a lost upload is made again), so the next Publish can go.
          if (err.code === 'not_found' || err.code === 'conflict') recheck(projectId);
        },
      );
  };

  const retryPublish = (projectId: string) => {
    const retry = publishRetries.get(projectId) ?? { tries: 0 };
    if (retry.timer) clearTimeout(retry.timer);
    const wait = PUBLISH_RETRY_MS[Math.min(retry.tries, PUBLISH_RETRY_MS.length - 1)] ?? 30000;
    retry.tries += 1;
    retry.timer = setTimeout(() => {
      retry.timer = undefined;
      tryPublish(projectId);
    }, wait);
    publishRetries.set(projectId, retry);
  };

  /** The selection's files held on the server are looked at again (a tus HEAD each). */
  const recheck = (projectId: string) => {
    const s = get().selections[projectId];
    if (!s) return;
    for (const f of filesOf(s)) {
      if (f.state !== 'held') continue;
      update(f.key, { state: 'queued', whole: false });
      void uploadStorage.change(f.key, { whole: false });
    }
    pump();
  };

  /** The server took the selection: it is a site visit now, and each file settles by itself. */
  const published = (projectId: string, batchId: string) => {
    const s = get().selections[projectId];
    if (!s || s.batchId !== batchId) return;
    const retry = publishRetries.get(projectId);
    if (retry?.timer) clearTimeout(retry.timer);
    publishRetries.delete(projectId);
    changeSelection(projectId, { phase: 'published' });
    void selectionStorage.remove(batchId);
    for (const f of filesOf(s)) {
      if (isSettled(f.state)) continue;
      void keep(f.key, { published: true });
      if (f.state === 'held') update(f.key, { state: 'storing' });
    }
    announce(batchId);
    pump();
  };

  /** A selection published offline before any file began: each file carries its visit, as before held uploads. */
  const sendAsBatch = (projectId: string) => {
    const s = get().selections[projectId];
    if (!s) return;
    const files = filesOf(s).filter(publishable);
    for (const f of files) {
      const patch: Partial<QueuedUpload> = {
        held: false,
        batchSize: files.length,
        caption: f.caption?.trim() || undefined,
        category: f.category,
        note: s.note.trim() || undefined,
        milestoneId: s.milestoneId || undefined,
        tags: s.tags.length > 0 ? [...s.tags] : undefined,
      };
      update(f.key, patch);
      void uploadStorage.put(stored({ ...f, ...patch }));
    }
    changeSelection(projectId, { phase: 'published' });
    void selectionStorage.remove(s.batchId);
    requestUploadSync();
    pump();
  };

  /**
   * Starts queued files while there are free slots (offline, they wait for the network
   * instead), makes the uploads of a selection's files ahead of their turn, and asks how
   * published whole files were stored.
   */
  const pump = () => {
    const queued = get().uploads.filter((u) => u.state === 'queued' && !unsaved.has(u.key));
    for (const u of queued) {
      if (offline()) waitForNetwork(u.key);
      // One being made ahead starts once it has its URL (never made twice).
      else if (running.size < PARALLEL && !creating.has(u.key)) start(u);
    }
    if (!offline()) {
      for (const u of get().uploads) {
        if (creating.size >= CREATE_AHEAD) break;
        if (u.held && !u.uploadUrl && u.state === 'queued' && !unsaved.has(u.key) && !running.has(u.key) && !creating.has(u.key) && !createTried.has(u.key)) createAhead(u);
      }
    }
    for (const u of get().uploads) {
      if (checking.size >= CHECKS) break;
      if (u.state === 'storing' && !checking.has(u.key)) void checkOutcome(u.key);
    }
  };

  const stop = (key: string, state: 'paused' | 'queued') => {
    void letGo(key)?.abort();
    update(key, { state });
  };

  return {
    uploads: [],
    selections: {},
    restored: false,
    finished: {},

    async restore() {
      if (get().restored) return;
      set({ restored: true });
      const [kept, keptSelections] = await Promise.all([uploadStorage.all(), selectionStorage.all()]);
      const me = useAppStore.getState().user?.id;
      const here = get().selections;
      // A project whose published selection is still settling on this page takes no
      // other until then; its kept files are found at the next visit.
      const busy = new Set(Object.values(here).filter((s) => s.phase === 'published').map((s) => s.projectId));
      const known = new Set([...get().uploads.map((u) => u.key), ...kept.filter((k) => k.held && !k.published && busy.has(k.projectId)).map((k) => k.key)]);
      const active = new Map(Object.values(here).filter((s) => s.phase !== 'published').map((s) => [s.projectId, s.batchId]));
      const { files, selections, forget } = restoreKept(kept, keptSelections, me, known, active);
      for (const id of forget) void selectionStorage.remove(id);
      const moved = files.filter((f) => kept.find((k) => k.key === f.key)?.batchId !== f.batchId);
      for (const f of moved) void uploadStorage.change(f.key, { batchId: f.batchId });
      const found: QueuedUpload[] = files.map((f) => ({ ...f, name: f.file.name, size: f.file.size, restored: true }));
      set((s) => ({
        uploads: [...s.uploads, ...found],
        selections: { ...s.selections, ...Object.fromEntries(selections.map((sel) => [sel.projectId, fromStored(sel)])) },
      }));
      for (const projectId of new Set([...selections.map((s) => s.projectId), ...active.keys()])) saveSelection(projectId);
      pump();
      for (const sel of selections) tryPublish(sel.projectId);
    },

    choose(projectId, files) {
      if (files.length === 0) return;
      const current = get().selections[projectId];
      // A published selection is settling: the uploader takes new photos once it has.
      if (current && current.phase !== 'editing') return;
      const createdAt = Date.now();
      const userId = useAppStore.getState().user?.id;
      const selection: UploadSelection = current ?? { projectId, batchId: newId(), note: '', milestoneId: '', tags: [], phase: 'editing', createdAt, userId };
      const added: QueuedUpload[] = files.map(({ file, caption, category }) => ({
        key: `u${createdAt}-${nextKey++}`,
        projectId,
        batchId: selection.batchId,
        batchSize: 0,
        held: true,
        caption: caption ?? defaultCaption(file.name),
        category,
        file,
        name: file.name,
        size: file.size,
        sent: 0,
        state: 'queued',
        createdAt,
        userId,
      }));
      set((s) => ({ uploads: [...s.uploads, ...added], selections: { ...s.selections, [projectId]: selection } }));
      saveSelection(projectId);
      // Kept on the device before any is sent: a file's lock-holder reads it back from there.
      for (const u of added) unsaved.add(u.key);
      void Promise.all(added.map((u) => uploadStorage.put(stored(u)))).then(() => {
        for (const u of added) unsaved.delete(u.key);
        pump();
      });
    },

    editPhoto(key, fields) {
      const u = find(key);
      if (!u || get().selections[u.projectId]?.phase !== 'editing' || !inSelection(u)) return;
      update(key, fields);
      saveSelection(u.projectId);
    },

    editAllPhotos(projectId, fields) {
      const s = get().selections[projectId];
      if (!s || s.phase !== 'editing') return;
      set((state) => ({
        uploads: state.uploads.map((u) =>
          u.batchId === s.batchId ? { ...u, caption: fields.caption ?? u.caption, category: fields.category ?? u.category } : u,
        ),
      }));
      saveSelection(projectId);
    },

    editSelection(projectId, fields) {
      if (get().selections[projectId]?.phase !== 'editing') return;
      changeSelection(projectId, fields);
      saveSelection(projectId);
    },

    publishSelection(projectId, milestoneId) {
      const s = get().selections[projectId];
      // SPEC §5 Upload: nothing selected, nothing to do.
      if (!s || s.phase !== 'editing' || !filesOf(s).some(publishable)) return;
      changeSelection(projectId, { phase: 'publishing', milestoneId: milestoneId ?? s.milestoneId });
      saveSelection(projectId);
      publishRetries.delete(projectId);
      // Publish means send: a paused photo of the selection goes too.
      for (const f of filesOf(s)) if (f.state === 'paused') get().resume(f.key);
      tryPublish(projectId);
    },

    discardSelection(projectId) {
      const s = get().selections[projectId];
      if (!s || s.phase !== 'editing') return;
      for (const f of filesOf(s)) get().cancel(f.key);
      dropSelection(projectId);
    },

    pause(key) {
      const u = find(key);
      if (!u || isSettled(u.state) || isWhole(u.state)) return;
      stop(key, 'paused');
      void keep(key, { paused: true });
      meters.get(u.projectId)?.reset();
      pump();
    },

    resume(key) {
      const u = find(key);
      if (!u || isSettled(u.state) || u.state === 'held' || running.has(key)) return;
      update(key, { state: 'queued', reason: undefined, restored: false });
      if (u.paused) void keep(key, { paused: false });
      pump();
    },

    cancel(key) {
      const u = find(key);
      if (!u) return;
      const upload = letGo(key);
      const made = creating.get(key);
      if (made) made.cancelled = true;
      // Termination: the server drops the bytes it has; a batch counts it as finished.
      if (upload) void upload.abort(true).catch(() => undefined);
      else if (u.uploadUrl) void tus.Upload.terminate(u.uploadUrl, { retryDelays: [0, 1000, 3000] }).catch(() => undefined);
      void uploadStorage.remove(key);
      set((s) => ({ uploads: s.uploads.filter((x) => x.key !== key) }));
      const selection = selectionOf(u.batchId);
      if (selection && selection.phase !== 'published') {
        // The last photo of a selection gone: so is the selection.
        if (filesOf(selection).length === 0) dropSelection(selection.projectId);
        else saveSelection(selection.projectId);
      }
      announce(u.batchId);
      pump();
    },

    pauseProject(projectId) {
      for (const u of get().uploads) {
        if (u.projectId !== projectId || isSettled(u.state) || isWhole(u.state) || inSelection(u)) continue;
        stop(u.key, 'paused');
        void keep(u.key, { paused: true });
      }
      meters.get(projectId)?.reset();
    },

    resumeProject(projectId) {
      for (const u of get().uploads) if (u.projectId === projectId && !inSelection(u)) get().resume(u.key);
    },

    settledElsewhere(key, state, reason) {
      const u = find(key);
      // A file this page is sending itself is not the service worker's to settle.
      if (!u || running.get(key)?.upload) return;
      settle(key, state === 'done' ? { state, sent: u.size } : { state, reason });
    },

    discardProject(projectId) {
      for (const u of get().uploads.filter((x) => x.projectId === projectId && !inSelection(x))) get().cancel(u.key);
    },

    publishWaiting() {
      // Back online: a selection's uploads not made yet are tried again ahead of their turn.
      createTried.clear();
      for (const s of Object.values(get().selections)) {
        if (s.phase !== 'publishing') continue;
        const retry = publishRetries.get(s.projectId);
        if (retry?.timer) clearTimeout(retry.timer);
        publishRetries.delete(s.projectId);
        tryPublish(s.projectId);
      }
      pump();
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
  // Back online: files that waited, or gave up, while offline go at once, and so does a
  // Publish that waited.
  window.addEventListener('online', () => {
    const { uploads, resume } = useUploads.getState();
    for (const u of uploads) if (u.state === 'failed' || u.state === 'waiting') resume(u.key);
    useUploads.getState().publishWaiting();
  });
  onWorkerMessage((message) => {
    if (message.type === 'sitecast:upload-settled') useUploads.getState().settledElsewhere(message.key, message.state, message.reason);
  });
  // A new connection (Hello): a Publish the last one lost goes again.
  useAppStore.subscribe((state, prev) => {
    if (state.liveEpoch !== prev.liveEpoch) useUploads.getState().publishWaiting();
  });
}

// Pages that drew before the queue was loaded follow it from now on (store/lazyUploads).
uploadQueueArrived(useUploads);
