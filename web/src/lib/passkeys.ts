import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's half of passkeys (docs/SECURITY.md, "Two-factor sign-in"). The server
 * (webauthn-rs) sends its options as `{publicKey: {...}}` with base64url fields, the
 * standard JSON form that @simplewebauthn/browser reads; the browser's answer goes back
 * as that library returns it.
 */

/** The options the server sends for a ceremony, parsed or as the socket's JSON string. */
export interface ServerOptions<T> {
  publicKey: T;
}

/** The user closed the browser's prompt, or it timed out: nothing went wrong. */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled. You can try again when you are ready.';
const PASSKEY_ALREADY_HERE = 'This device already has a passkey for your account.';
const PASSKEY_UNSUPPORTED = 'This browser cannot use passkeys. Try another browser or device.';
const PASSKEY_BROKEN = 'The passkey could not be used. Please try again.';

export function passkeysSupported(): boolean {
  return browserSupportsWebAuthn();
}

function parse<T>(options: string | ServerOptions<T>): T {
  const parsed: ServerOptions<T> = typeof options === 'string' ? (JSON.parse(options) as ServerOptions<T>) : options;
  return parsed.publicKey;
}

/** Makes a passkey; resolves with the browser's answer as the JSON string `add_passkey` takes. */
export async function createPasskey(options: string | ServerOptions<PublicKeyCredentialCreationOptionsJSON>): Promise<string> {
  const answer = await startRegistration({ optionsJSON: parse(options) });
  return JSON.stringify(answer);
}

/** Signs a challenge with a passkey (sign-in, or "confirm it's you"). */
export async function signWithPasskey(options: string | ServerOptions<PublicKeyCredentialRequestOptionsJSON>): Promise<AuthenticationResponseJSON> {
  return startAuthentication({ optionsJSON: parse(options) });
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
