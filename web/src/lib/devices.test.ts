import { describe, expect, it } from 'vitest';
import { deviceKind, deviceTitle, deviceWhere, passkeyNameFor } from './devices';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('device names', () => {
  it('names a new passkey after this browser and system', () => {
    expect(passkeyNameFor(CHROME_LINUX)).toBe('Chrome on Linux');
    expect(passkeyNameFor(SAFARI_IPHONE)).toBe('Safari on iPhone');
    expect(passkeyNameFor(EDGE_WINDOWS)).toBe('Edge on Windows');
    expect(passkeyNameFor(FIREFOX_MAC)).toBe('Firefox on macOS');
    expect(passkeyNameFor('')).toBe('My passkey');
  });

  it('describes a session from what the server said of it', () => {
    expect(deviceTitle({ browser: 'Chrome 131', system: 'macOS' })).toBe('Chrome 131 · macOS');
    expect(deviceTitle({ browser: 'Unknown browser', system: '' })).toBe('Unknown browser');
    expect(deviceWhere({ place: 'This computer', ip: '127.0.0.1' })).toBe('This computer · 127.0.0.1');
    expect(deviceWhere({ place: null, ip: '10.0.0.4' })).toBe('10.0.0.4');
    expect(deviceWhere({ place: null, ip: null })).toBeNull();
    expect(deviceKind('phone')).toBe('phone');
    expect(deviceKind('watch')).toBe('other');
  });
});
