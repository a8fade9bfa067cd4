import { describe, expect, it } from 'vitest';
import { PASSKEY_CANCELLED, passkeyCancelled, passkeyFailure } from './passkeys';

const domError = (name: string) => Object.assign(new Error('x'), { name });

describe('passkey failures', () => {
  it('calls a closed or timed-out prompt a cancellation, also when the library wraps it', () => {
    expect(passkeyFailure(domError('NotAllowedError'))).toBe(PASSKEY_CANCELLED);
    const wrapped = Object.assign(new Error('wrapped', { cause: domError('NotAllowedError') }), { name: 'WebAuthnError' });
    expect(passkeyCancelled(wrapped)).toBe(true);
  });

  it('says when this device already has a passkey, and otherwise asks to try again', () => {
    expect(passkeyFailure(domError('InvalidStateError'))).toBe('This device already has a passkey for your account.');
    expect(passkeyFailure(new Error('boom'))).toBe('The passkey could not be used. Please try again.');
    expect(passkeyCancelled('nonsense')).toBe(false);
  });
});
