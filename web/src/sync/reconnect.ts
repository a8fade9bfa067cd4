// How both live sockets (the signed-in one and the guest's) close and come back.

/** Close code the server uses when the session behind the socket is gone. */
export const SESSION_GONE_CLOSE_CODE = 4401;

/**
 * Close code for "reconnect now": the instance is stopping (a deploy; the proxy sends
 * the new socket to another one) or events may have been missed. Nothing is wrong with
 * the session, so the client neither asks the API about it nor backs off.
 */
export const RESTART_CLOSE_CODE = 1012;

const MAX_BACKOFF_MS = 30_000;
/** After a 1012 the client returns within this long, at a random moment. */
const RESTART_SPREAD_MS = 500;

/**
 * Exponential backoff from 500 ms, capped, with jitter so tabs don't reconnect in
 * lockstep; right after a 1012, a random moment in the next half second.
 */
export function reconnectDelay(attempt: number, lastCloseCode?: number): number {
  if (attempt === 0 && lastCloseCode === RESTART_CLOSE_CODE) return Math.round(Math.random() * RESTART_SPREAD_MS);
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
  return Math.round(base / 2 + Math.random() * (base / 2));
}
