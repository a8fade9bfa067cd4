/**
 * Sitecast's service worker (docs/FEATURES.md, "On the phone"), built by vite-plugin-pwa
 * (injectManifest) with the list of built files in `self.__WB_MANIFEST`:
 * - the app shell is precached, so the app opens offline;
 * - page loads go to the network first and fall back to the cached shell;
 * - thumbnails and display photos already seen are kept (bounded), so projects open
 *   offline with their pictures; the page deletes them when the session ends;
 * - nothing else is touched: the API, uploads (tus), sign-in and the socket always go
 *   to the network as if there were no service worker;
 * - push notifications (sw/push) and queued uploads sent by Background Sync
 *   (sw/backgroundUploads).
 * A new version waits until the page asks it to take over (the "Reload" prompt).
 */
import { clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { DISPLAY_CACHE, THUMBNAIL_CACHE, type PageMessage } from './offline/contract';
import { installBackgroundUploads } from './sw/backgroundUploads';
import { installPushHandlers } from './sw/push';
import { isAppNavigation, photoRendition } from './sw/routes';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const origin = self.location.origin;

/** A page load that has not answered in this long is drawn from the cached shell (a site's weak signal). */
const NAVIGATION_TIMEOUT_MS = 8000;
/** Thumbnails are small (~30 KB): a few hundred projects' worth of browsing. */
const THUMBNAILS_KEPT = 600;
/** Display sizes are ~300 KB each: the last hundred opened. */
const DISPLAYS_KEPT = 100;
const KEPT_FOR_S = 60 * 60 * 24 * 30;

/** The app shell, for navigations the network cannot answer (in time). */
async function shell(): Promise<Response> {
  return (await matchPrecache('/index.html')) ?? Response.error();
}

// Navigations first (routes match in the order registered): network first, so a deploy
// is picked up on the next load; the precache's own route would answer `/` from cache.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isAppNavigation(url, origin),
  async ({ request }) => {
    const network = fetch(request);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), NAVIGATION_TIMEOUT_MS);
    });
    try {
      const first = await Promise.race([network, slow]);
      return first === 'slow' ? await shell() : first;
    } catch {
      return shell();
    } finally {
      clearTimeout(timer);
    }
  },
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Each cache's expiry: a bound on entries and age; it also forgets its records at sign-out. */
const thumbnailsExpiry = new ExpirationPlugin({ maxEntries: THUMBNAILS_KEPT, maxAgeSeconds: KEPT_FOR_S, purgeOnQuotaError: true });
const displaysExpiry = new ExpirationPlugin({ maxEntries: DISPLAYS_KEPT, maxAgeSeconds: KEPT_FOR_S, purgeOnQuotaError: true });
const photoCache = (cacheName: string, expiry: ExpirationPlugin) =>
  new CacheFirst({
    cacheName,
    // Only whole photos: never an error, a redirect or a 304 stood in for one.
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), expiry],
  });
// A photo's bytes never change under its id (the server says `immutable`), so what is
// kept is served first; the session's end deletes these caches (offline/mirror).
registerRoute(({ request, url }) => request.method === 'GET' && photoRendition(url, origin) === 'thumb', photoCache(THUMBNAIL_CACHE, thumbnailsExpiry));
registerRoute(({ request, url }) => request.method === 'GET' && photoRendition(url, origin) === 'display', photoCache(DISPLAY_CACHE, displaysExpiry));

installPushHandlers(self);
installBackgroundUploads(self);

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  // 'prompt': a new version takes over only when a page asks (offline/serviceWorker `applyUpdate`).
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // Signed out: the cached photos and the expiry records of them.
  if (type === ('sitecast:forget-photos' satisfies PageMessage['type'])) event.waitUntil(Promise.all([thumbnailsExpiry.deleteCacheAndMetadata(), displaysExpiry.deleteCacheAndMetadata()]));
});
// The first install controls the open page at once, so what it shows is kept for offline.
clientsClaim();
