import type { FieldError } from '../protocol/types';
import type { ContactRequest } from '../lib/validation';
import { ApiRequestError, apiFetch } from './http';

// SPEC §8 "Contact and profile": the banner texts when the server gives none.
export const CONTACT_SENT_FALLBACK = 'Message sent successfully!';
export const CONTACT_FAILED = 'Failed to send message. Please try again.';
export const CONTACT_UNKNOWN_ERROR = 'An unknown error occurred.';

export type ContactOutcome =
  | { status: 'success'; message: string }
  | { status: 'error'; message: string; fields: FieldError[] };

/** What the contact page shows after a send attempt that resolved with `reply`. */
export function contactSuccess(reply: unknown): ContactOutcome {
  const message =
    typeof reply === 'object' && reply !== null && typeof (reply as { message?: unknown }).message === 'string'
      ? (reply as { message: string }).message.trim()
      : '';
  return { status: 'success', message: message || CONTACT_SENT_FALLBACK };
}

/** What the contact page shows after a send attempt that failed with `error`. */
export function contactFailure(error: unknown): ContactOutcome {
  if (error instanceof ApiRequestError) {
    // The server's own message; a well-formed body with an empty message is still an error.
    return { status: 'error', message: error.message.trim() || CONTACT_UNKNOWN_ERROR, fields: error.fields };
  }
  // Network down, proxy HTML, an unreadable body.
  return { status: 'error', message: CONTACT_FAILED, fields: [] };
}

/** POST /api/contact; never rejects — the outcome says what the banner shows. */
export async function sendContactMessage(body: ContactRequest): Promise<ContactOutcome> {
  try {
    return contactSuccess(await apiFetch<{ message: string }>('/api/contact', { body }));
  } catch (error) {
    return contactFailure(error);
  }
}
