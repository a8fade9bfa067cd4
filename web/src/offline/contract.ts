/**
 * What the page and the service worker (src/sw.ts) agree on
 * (docs/FEATURES.md, "On the phone"): the names of the caches and tags both touch, and
 * the messages the worker sends to the page. Plain values only: this file is compiled
 * into both.
 */

/** Thumbnails the user has seen, kept so projects open offline. */
export const THUMBNAIL_CACHE = 'sitecast-thumbnails';
/** Display-size photos the user has opened in the lightbox or compare view. */
export const DISPLAY_CACHE = 'sitecast-display-photos';
/** Photo bytes are private: these caches go when the session ends. */
export const PHOTO_CACHES: readonly string[] = [THUMBNAIL_CACHE, DISPLAY_CACHE];

/** The Background Sync tag under which queued uploads are sent once the device is online. */
export const UPLOAD_SYNC_TAG = 'sitecast-uploads';

/**
 * The Web Lock whoever sends a queued file holds for as long as it sends it, the page or
 * the service worker: one file never goes up twice at once.
 */
export const uploadLockName = (key: string) => `sitecast-upload:${key}`;

/** Messages from the service worker to the app's windows. */
export type WorkerMessage =
  /** A notification was tapped: route this window to the app path it names. */
  | { type: 'sitecast:navigate'; url: string }
  /** The service worker finished sending a queued file (Background Sync). */
  | { type: 'sitecast:upload-settled'; key: string; state: 'done' | 'refused'; reason?: string };

/** Messages from the app's windows to the service worker (besides workbox-window's SKIP_WAITING). */
export type PageMessage =
  /** The session ended: drop the cached photos and what the worker knows of them. */
  { type: 'sitecast:forget-photos' };

export function isWorkerMessage(data: unknown): data is WorkerMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return typeof type === 'string' && type.startsWith('sitecast:');
}
