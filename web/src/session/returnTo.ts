/**
 * Where a sign-in returns to. A session that ends under a user (expired, revoked, the
 * password changed elsewhere; SPEC §4) sends them to /login with the page they were on,
 * and signing in again brings them back there instead of to the dashboard.
 */

/** SPEC §4, §8 wording when a session ends under the user. */
export const SESSION_EXPIRED = 'Your session has expired. Please log in again.';
/** The words when the session ended because the user left their company. */
export const REMOVED_FROM_COMPANY = 'You were removed from your company, so you were signed out.';
/** The words when the user signed this session out from another device. */
export const SIGNED_OUT_ELSEWHERE = 'You were signed out from another device.';
/** SPEC §9: log out this long after an expired session is noticed. */
export const SESSION_EXPIRED_LOGOUT_MS = 1500;

const DEFAULT_AFTER_LOGIN = '/dashboard';

/**
 * The login page for someone sent away from `path` (pathname + search). Someone removed
 * from their company is not brought back: the page was their company's. Someone signed
 * out from another device is, once they sign in here again.
 */
export function loginPathFor(path: string, options: { expired?: boolean; removed?: boolean; elsewhere?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (options.removed) params.set('removed', 'true');
  else if (options.elsewhere) params.set('elsewhere', 'true');
  else if (options.expired) params.set('expired', 'true');
  if (!options.removed && isReturnablePath(path) && path !== DEFAULT_AFTER_LOGIN) params.set('next', path);
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}

/** The page to open after signing in, from the login page's query string. */
export function pathAfterLogin(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && isReturnablePath(next) ? next : DEFAULT_AFTER_LOGIN;
}

/**
 * Only a path on this site: "//evil.example" and "/\evil.example" are other hosts to a
 * browser, and the login page itself would loop.
 */
function isReturnablePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return false;
  const pathname = path.split(/[?#]/)[0];
  return pathname !== '/' && pathname !== '/login';
}
