/**
 * The upload queue (store/uploads, with tus-js-client) is a chunk of its own, loaded
 * when something needs it: the uploader opens, the device keeps uploads to resume or
 * send (offline/queuedUploads), a new version waits to reload. A project page draws
 * without it (docs/LIMITS.md, "First paint"); what it shows of the queue follows it
 * once loaded.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { UploadsState } from './uploads';

type UploadsStore = (typeof import('./uploads'))['useUploads'];

let queue: UploadsStore | null = null;
const listeners = new Set<() => void>();

/** store/uploads says it has arrived, however it was loaded (the uploader imports it too). */
export function uploadQueueArrived(store: UploadsStore): void {
  queue = store;
  for (const listener of listeners) listener();
}

/** The upload queue, fetched once. */
export function loadUploads(): Promise<UploadsStore> {
  return import('./uploads').then((module) => module.useUploads);
}

const subscribeArrival = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const nothing = () => () => undefined;

/**
 * `select` over the upload queue's state, `idle` until the queue is loaded (nothing is
 * queued then on this page). `select` should return a plain value (a flag, a count).
 */
export function useUploadsState<T>(select: (state: UploadsState) => T, idle: T): T {
  const store = useSyncExternalStore(subscribeArrival, () => queue);
  return useSyncExternalStore(store ? store.subscribe : nothing, () => (store ? select(store.getState()) : idle));
}

/**
 * On an uploader's page (`enabled`): the uploads kept on the device come back into the
 * queue (`restore`), as the uploader itself would do on opening. The queue is loaded for
 * that only if the device keeps some.
 */
export function useRestoredUploads(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    void (async () => {
      if (!queue && !(await import('../offline/keptUploads').then((kept) => kept.keepsUploads()).catch(() => true))) return;
      const store = await loadUploads();
      await store.getState().restore();
    })().catch(() => undefined);
  }, [enabled]);
}
