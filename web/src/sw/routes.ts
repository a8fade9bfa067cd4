/**
 * Which requests the service worker answers (docs/FEATURES.md, "On the phone").
 * Everything else — the API, uploads (tus), sign-in, the socket, downloads — goes to the
 * network untouched, as if there were no service worker.
 */

/** `/media/images/{id}/thumb` and `/display`: a photo's renditions, the same bytes for good. */
const RENDITION = /^\/media\/images\/[^/]+\/(thumb|display)$/;

/**
 * The photo rendition a request is for, or null. Only the plain URLs the pages show:
 * not originals, not markup drawn on (it changes), not downloads (`?download=1`).
 */
export function photoRendition(url: URL, origin: string): 'thumb' | 'display' | null {
  if (url.origin !== origin || url.search !== '') return null;
  const match = RENDITION.exec(url.pathname);
  return match ? (match[1] as 'thumb' | 'display') : null;
}

/** Paths the server answers itself, never with the web app's page. */
const SERVER_PATHS = /^\/(api|media|ws)(\/|$)/;

/**
 * A navigation the web app draws (its router has every page, its own 404 included):
 * offline, the cached app shell can answer it. Not the server's own paths: a mailed
 * confirmation link (`/api/auth/…`) or a zip download must reach the server.
 */
export function isAppNavigation(url: URL, origin: string): boolean {
  return url.origin === origin && !SERVER_PATHS.test(url.pathname);
}
