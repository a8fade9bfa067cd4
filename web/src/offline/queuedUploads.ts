/**
 * Photos queued offline go by themselves on the next visit
 * (docs/FEATURES.md, "On the phone"), whichever page it opens on, not only once the
 * person opens a project's uploader: once signed in, and again whenever the device comes
 * back online, the device's queue is looked at, and the upload queue (a chunk of its own,
 * with tus) is loaded only if something waits.
 */
import { sendsInBackground } from '../lib/tusUploads';
import { uploadStorage } from '../lib/uploadStorage';
import { useAppStore } from '../store';

async function resumeWaiting(): Promise<void> {
  const userId = useAppStore.getState().user?.id ?? null;
  if (!userId || !navigator.onLine) return;
  const kept = await uploadStorage.all();
  if (!kept.some((file) => sendsInBackground(file, userId))) return;
  const { useUploads } = await import('../store/uploads');
  await useUploads.getState().restore();
}

let started = false;

export function startQueuedUploads(store = useAppStore): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  store.subscribe((state, prev) => {
    if (state.sessionStatus === 'authenticated' && state.user && state.user.id !== prev.user?.id) void resumeWaiting();
  });
  window.addEventListener('online', () => void resumeWaiting());
}
