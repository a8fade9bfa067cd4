// Whether passkeys work in this browser, and what to say when one fails: without the
// WebAuthn library (lib/passkeys), which a page loads only when a passkey is used, so the
// login page draws without it (docs/LIMITS.md, "First paint").

/** The user closed the browser's prompt, or it timed out: nothing went wrong. */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled. You can try again when you are ready.';
const PASSKEY_ALREADY_HERE = 'This device already has a passkey for your account.';
const PASSKEY_UNSUPPORTED = 'This browser cannot use passkeys. Try another browser or device.';
const PASSKEY_BROKEN = 'The passkey could not be used. Please try again.';

/** Whether this browser has WebAuthn, as @simplewebauthn/browser's browserSupportsWebAuthn() asks. */
export function passkeysSupported(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}

/** The name of the DOMException behind a failure (the library wraps some in its own error). */
function failureName(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (error.name === 'WebAuthnError' && cause instanceof Error) return cause.name;
  return error.name;
}

/**
 * What to tell the user when the browser's part failed. Cancelling (NotAllowedError:
 * closed, timed out, or no passkey chosen) is said calmly: it is not an error of theirs.
 */
export function passkeyFailure(error: unknown): string {
  const name = failureName(error);
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_CANCELLED;
  if (name === 'InvalidStateError') return PASSKEY_ALREADY_HERE;
  if (name === 'NotSupportedError') return PASSKEY_UNSUPPORTED;
  return PASSKEY_BROKEN;
}

/** Whether the failure was the user closing the prompt (shown as information, not an error). */
export function passkeyCancelled(error: unknown): boolean {
  return passkeyFailure(error) === PASSKEY_CANCELLED;
}
