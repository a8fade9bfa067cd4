import {
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

export { PASSKEY_CANCELLED, passkeyCancelled, passkeyFailure, passkeysSupported } from './passkeySupport';

/** The options the server sends for a ceremony, parsed or as the socket's JSON string. */
export interface ServerOptions<T> {
  publicKey: T;
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
