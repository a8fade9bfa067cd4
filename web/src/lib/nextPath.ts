/**
 * Where to go after signing in: a deep link the user opened signed out (a notification
 * mail's `/projects/{id}?photo={photoId}`) survives the login page. Only paths of this
 * site are followed, never another origin.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/login' || value.startsWith('/login?')) return null;
  return value;
}

/** The login URL that comes back to `path` (with its query) after signing in. */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next && next !== '/dashboard' ? `/login?next=${encodeURIComponent(next)}` : '/login';
}
