import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, madeWithKey, NO_SERVICE_WORKER, PUSH_UNSUPPORTED, pushFailure, PushSetupError, PUSH_UNSUPPORTED_IOS, subscriptionRequest, unsupportedMessage } from './webPush';

describe('web push', () => {
  it('decodes the server key from base64url, padded or not', () => {
    // 0xfb 0xff 0xbf: the bytes base64 writes with "+" and "/", base64url with "-" and "_".
    expect(Array.from(base64UrlToBytes('-_-_'))).toEqual([0xfb, 0xff, 0xbf]);
    expect(Array.from(base64UrlToBytes('AQI'))).toEqual([1, 2]);
    expect(Array.from(base64UrlToBytes('AQI='))).toEqual([1, 2]);
    // A P-256 public key, as the server sends it: 65 bytes, uncompressed (0x04 first).
    const key = base64UrlToBytes(`BA${'A'.repeat(85)}`);
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
  });

  it('keeps a subscription only when it was made with the same key', () => {
    const key = base64UrlToBytes('AQID');
    expect(madeWithKey(new Uint8Array([1, 2, 3]).buffer, key)).toBe(true);
    expect(madeWithKey(new Uint8Array([1, 2, 4]).buffer, key)).toBe(false);
    expect(madeWithKey(new Uint8Array([1, 2]).buffer, key)).toBe(false);
    expect(madeWithKey(null, key)).toBe(false);
  });

  it("takes the endpoint and keys subscribe_push needs from the subscription's JSON", () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    expect(subscriptionRequest({ endpoint, expirationTime: null, keys: { p256dh: 'BPk', auth: 'c2VjcmV0' } })).toEqual({ endpoint, p256dh: 'BPk', auth: 'c2VjcmV0' });
    expect(subscriptionRequest({ endpoint, keys: { p256dh: 'BPk' } })).toBeNull();
    expect(subscriptionRequest({ keys: { p256dh: 'BPk', auth: 'x' } })).toBeNull();
  });

  it('tells iPhone and iPad users where Web Push is', () => {
    expect(unsupportedMessage('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15')).toBe(PUSH_UNSUPPORTED_IOS);
    expect(unsupportedMessage('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(PUSH_UNSUPPORTED);
  });

  it("says what went wrong in the browser's part", () => {
    expect(pushFailure(new PushSetupError(NO_SERVICE_WORKER))).toBe(NO_SERVICE_WORKER);
    expect(pushFailure(new DOMException('Registration failed - push service not available', 'AbortError'))).toMatch(/push service could not be reached/);
    expect(pushFailure(new DOMException('Permission denied', 'NotAllowedError'))).toMatch(/did not allow notifications/);
    expect(pushFailure(new Error('?'))).toBe('Notifications could not be turned on in this browser.');
  });
});
