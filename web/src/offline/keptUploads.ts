/**
 * What the device keeps of uploads (lib/uploadStorage, lib/uploadDrafts), asked before
 * the upload queue is loaded: a chunk of its own, fetched once signed in
 * (offline/queuedUploads) or on an uploader's page (store/lazyUploads), so no first
 * screen waits for it (docs/LIMITS.md, "First paint").
 */
import { sendsInBackground } from '../lib/tusUploads';
import { selectionStorage } from '../lib/uploadDrafts';
import { uploadStorage, type StoredUpload } from '../lib/uploadStorage';

/** A selection's photo whose bytes are still to go, unless its owner paused it. */
const selectionSending = (file: StoredUpload, userId: string) => file.userId === userId && file.held === true && !file.published && !file.whole && !file.paused;

/**
 * Whether something of `userId`'s waits to go by itself: files queued offline or cut
 * off, a selection's bytes, a Publish pressed before the page was closed.
 */
export async function uploadsWaiting(userId: string): Promise<boolean> {
  const [kept, selections] = await Promise.all([uploadStorage.all(), selectionStorage.all()]);
  return (
    kept.some((file) => sendsInBackground(file, userId) || selectionSending(file, userId)) ||
    selections.some((s) => s.userId === userId && s.phase === 'publishing')
  );
}

/** Whether the device keeps any upload or unpublished selection: only then is there anything to restore. */
export async function keepsUploads(): Promise<boolean> {
  const [files, selections] = await Promise.all([uploadStorage.all(), selectionStorage.all()]);
  return files.length > 0 || selections.length > 0;
}
