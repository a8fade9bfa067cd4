/**
 * Queued photos sent by the service worker (docs/FEATURES.md, "On the phone"): the page
 * asks for a Background Sync when a photo waits for the network (store/uploads), and the
 * browser fires it once the device is online, even with every Sitecast tab closed. Each
 * file goes under its Web Lock (offline/contract), so the page and the worker never send
 * one file twice at once, and the copy on the device is read again under it. Where the
 * browser has no Background Sync (Safari, Firefox) the next visit sends them instead.
 *
 * A photo of a selection not yet published (a held upload; docs/FEATURES.md, "Photo
 * upload") goes the same way, but its last answer says it waits for Publish: it stays
 * on the device, marked whole, for the page to publish (a WebSocket request, which only
 * the page makes). The files of a selection published offline before any could begin
 * carry their visit and become photos on their last byte, as queued files always have.
 */
import * as tus from 'tus-js-client';
import { FetchHttpStack } from '../lib/fetchHttpStack';
import { answerOf, CHUNK_BYTES, refusalReason, refusedFor, retryable, sendsInBackground, serverAnswer, tusEndpoint, uploadMetadata } from '../lib/tusUploads';
import { uploadStorage } from '../lib/uploadStorage';
import { UPLOAD_SYNC_TAG, uploadLockName, type WorkerMessage } from '../offline/contract';
import { viewStorage } from '../offline/viewStorage';

/** Files sent at once, as the page does. */
const PARALLEL = 3;
/**
 * A few quick retries within one sync event: past them the event fails and the browser
 * fires it again later (minutes, then longer), resuming from the server's offset.
 */
const RETRY_DELAYS = [0, 2000, 5000, 10000];

type Outcome = 'sent' | 'refused' | 'failed' | 'gone' | 'busy';

/** Background Sync's event; not in TypeScript's worker library. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

async function tell(sw: ServiceWorkerGlobalScope, message: WorkerMessage): Promise<void> {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const w of windows) w.postMessage(message);
}

/** Sends one kept file, holding its lock; the page shows the outcome if it is open. */
async function sendOne(sw: ServiceWorkerGlobalScope, key: string): Promise<Outcome> {
  const kept = await uploadStorage.kept(key);
  if (!kept) return 'gone';
  return new Promise<Outcome>((resolve) => {
    const finish = async (state: 'done' | 'refused', reason?: string) => {
      await uploadStorage.remove(key);
      await tell(sw, { type: 'sitecast:upload-settled', key, state, ...(reason ? { reason } : {}) });
      resolve(state === 'done' ? 'sent' : 'refused');
    };
    const upload: tus.Upload = new tus.Upload(kept.file, {
      endpoint: tusEndpoint(kept),
      uploadUrl: kept.uploadUrl ?? null,
      metadata: uploadMetadata({ ...kept, name: kept.file.name }),
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      httpStack: new FetchHttpStack(),
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: true,
      onUploadUrlAvailable: () => {
        if (upload.url) void uploadStorage.change(key, { uploadUrl: upload.url });
      },
      onShouldRetry: (err) => retryable(serverAnswer(err).status),
      onSuccess: ({ lastResponse }) => {
        const answer = answerOf((name) => lastResponse.getHeader(name));
        if (answer.kind === 'refused') void finish('refused', answer.reason);
        else if (answer.kind === 'photo' || !kept.held) void finish('done');
        // Every byte is there and it waits for Publish (or, published, is being stored):
        // kept for the page, which publishes it or asks how it went.
        else void uploadStorage.change(key, { whole: true, sendWhenOnline: false }).then(() => resolve('sent'));
      },
      onError: (err) => {
        const { status, message } = serverAnswer(err);
        // Refused for what it is: final, as on the page. Anything else (the network,
        // the server, a session that ended) leaves the file on the device for later.
        if (refusedFor(status)) void finish('refused', refusalReason(status, message));
        else resolve('failed');
      },
    });
    upload.start();
  });
}

/** Sends every file the signed-in user queued for the network; rejects if some could not go, so the browser tries again. */
export async function sendQueuedUploads(sw: ServiceWorkerGlobalScope): Promise<void> {
  const locks = sw.navigator.locks;
  // Without Web Locks the page and the worker could send a file twice: the page sends.
  if (!locks) return;
  // Fired as the device came online and lost it again: the browser tries later.
  if (sw.navigator.onLine === false) throw new Error('Offline');
  const signedIn = (await viewStorage.signedInUser())?.id ?? null;
  const queue = (await uploadStorage.all()).filter((f) => sendsInBackground(f, signedIn)).sort((a, b) => a.createdAt - b.createdAt);
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const key = file.key;
      // Taken: a page is sending it right now.
      outcomes.push(await locks.request(uploadLockName(key), { ifAvailable: true }, (lock) => (lock ? sendOne(sw, key) : 'busy')));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (outcomes.includes('failed')) throw new Error('Some queued photos could not be sent yet');
}

export function installBackgroundUploads(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === UPLOAD_SYNC_TAG) sync.waitUntil(sendQueuedUploads(sw));
  });
}
