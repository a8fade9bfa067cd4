/**
 * The page's side of the service worker (src/sw.ts): registers it in built
 * apps, follows a new version until the person chooses to reload into it, hands its
 * messages to whoever listens, and asks it to send queued uploads in the background.
 */
import type { Workbox } from 'workbox-window';
import { create } from 'zustand';
import { whenIdle } from '../lib/lazyModule';
import { isWorkerMessage, PHOTO_CACHES, UPLOAD_SYNC_TAG, type PageMessage, type WorkerMessage } from './contract';

export interface UpdateState {
  /** A new version of the app is installed and waits for this tab to reload into it. */
  ready: boolean;
  /** The new version already controls this tab (another tab chose it): a reload is all it takes. */
  inControl: boolean;
}

/** Whether a new version waits; the update prompt reads it. */
export const useAppUpdate = create<UpdateState>(() => ({ ready: false, inControl: false }));

let workbox: Workbox | null = null;
/** This tab asked the waiting version to take over, and reloads once it has. */
let reloadWhenInControl = false;

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

/**
 * Registers /sw.js (built apps only: the dev server has none). A new version never
 * takes over by itself (`registerType: 'prompt'`): it waits until the person taps
 * Reload (`applyUpdate`), so nothing changes under a page mid-upload. workbox-window
 * comes once the page has loaded and is idle (the registration would wait for the load
 * anyway): it is not among the scripts a first screen waits for (docs/LIMITS.md, "First
 * paint").
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !supported()) return;
  // The page's own event, not workbox-window's 'controlling': that one says `isUpdate`
  // only for a page that was controlled when it loaded, not for the first visit's tab.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloadWhenInControl) window.location.reload();
    // Another tab chose to reload: this one runs the old code under the new worker
    // until its person reloads too (the prompt stays). The first install's claim is no update.
    else if (controlled) useAppUpdate.setState({ ready: true, inControl: true });
    controlled = true;
  });
  const start = () =>
    void import('workbox-window')
      .then(({ Workbox }) => {
        const wb = new Workbox('/sw.js', { scope: '/' });
        workbox = wb;
        wb.addEventListener('waiting', () => useAppUpdate.setState({ ready: true }));
        void wb.register().catch((err: unknown) => console.warn('Service worker not registered', err));
        // A phone keeps a tab open for days: look for a new version whenever it comes back.
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') void wb.update().catch(() => undefined);
        });
      })
      .catch((err: unknown) => console.warn('Service worker not registered', err));
  whenIdle(start);
}

/** Reloads into the new version: at once if it already controls the tab, else once it has taken over. */
export function applyUpdate(): void {
  if (!workbox || useAppUpdate.getState().inControl) {
    window.location.reload();
    return;
  }
  reloadWhenInControl = true;
  workbox.messageSkipWaiting();
}

/** Calls `listener` with every message the service worker sends this window; returns how to stop. */
export function onWorkerMessage(listener: (message: WorkerMessage) => void): () => void {
  if (!supported()) return () => undefined;
  const handle = (event: MessageEvent) => {
    if (isWorkerMessage(event.data)) listener(event.data);
  };
  navigator.serviceWorker.addEventListener('message', handle);
  return () => navigator.serviceWorker.removeEventListener('message', handle);
}

/** Background Sync is Chromium's; the type is not in TypeScript's DOM library. */
type SyncRegistration = ServiceWorkerRegistration & { sync?: { register: (tag: string) => Promise<void> } };

/**
 * Asks the service worker to send the queued uploads once the device is online, even
 * if every tab is closed by then. Where the browser has no Background Sync the next
 * visit sends them (store/uploads `restore`).
 */
export function requestUploadSync(): void {
  if (!supported() || !import.meta.env.PROD) return;
  void navigator.serviceWorker.ready
    .then((registration) => (registration as SyncRegistration).sync?.register(UPLOAD_SYNC_TAG))
    .catch(() => undefined);
}

/**
 * Photo bytes are private: the cached ones go when the session ends. The page deletes
 * the caches itself (with or without a worker running), and asks the worker to forget
 * its expiry records of them too (which photo ids were seen when).
 */
export async function forgetCachedPhotos(): Promise<void> {
  if (supported()) {
    const forget: PageMessage = { type: 'sitecast:forget-photos' };
    navigator.serviceWorker.controller?.postMessage(forget);
  }
  if (typeof caches === 'undefined') return;
  await Promise.all(PHOTO_CACHES.map((name) => caches.delete(name).catch(() => false)));
}
