import type { GuestAccess } from '../protocol/types';
import { apiFetch, ApiRequestError } from './http';

/**
 * Opens a guest link: the server checks the token and sets the guest's cookie, which
 * the guest socket and the photo bytes then go by. The token travels in the body, not
 * in a query string a log would keep.
 */
export async function openGuestLink(token: string): Promise<GuestAccess> {
  const { access } = await apiFetch<{ access: GuestAccess }>('/api/guest/open', { body: { token } });
  return access;
}

/** The guest socket, on this origin (the cookie is same-site). */
export function guestSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/guest`;
}

/**
 * Whether a failed open means the link itself is dead (unknown, revoked, expired) —
 * the inactive page — rather than a failure worth trying again.
 */
export function isDeadLink(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.code === 'invalid_token' || error.code === 'not_found' || error.status === 404 || error.status === 410);
}
