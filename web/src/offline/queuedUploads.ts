/**
 * Photos queued offline go by themselves on the next visit
 * (docs/FEATURES.md, "On the phone"), whichever page it opens on, not only once the
 * person opens a project's uploader: once signed in, and again whenever the device comes
 * back online, the device's queue is looked at (offline/keptUploads), and the upload
 * queue (a chunk of its own, with tus) is loaded only if something waits. So do the bytes
 * of a selection not yet published, and a Publish pressed before the page was closed
 * (docs/FEATURES.md, "Photo upload").
 */
import { whenIdle } from '../lib/lazyModule';
import { useAppStore } from '../store';
import { loadUploads } from '../store/lazyUploads';

async function resumeWaiting(): Promise<void> {
  const userId = useAppStore.getState().user?.id ?? null;
  if (!userId || !navigator.onLine) return;
  // What the device keeps is read by a chunk of its own (offline/keptUploads).
  const { uploadsWaiting } = await import('./keptUploads');
  if (!(await uploadsWaiting(userId))) return;
  const useUploads = await loadUploads();
  await useUploads.getState().restore();
}

let started = false;

export function startQueuedUploads(store = useAppStore): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  store.subscribe((state, prev) => {
    // Once the first screen has drawn: its scripts come first.
    if (state.sessionStatus === 'authenticated' && state.user && state.user.id !== prev.user?.id) whenIdle(() => void resumeWaiting());
  });
  window.addEventListener('online', () => void resumeWaiting());
}
