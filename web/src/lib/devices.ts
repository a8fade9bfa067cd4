import type { DeviceSession } from '../protocol/types';

/**
 * How the security screen names devices (docs/SECURITY.md, "Two-factor sign-in"). The
 * server describes each session (browser, system, kind); a new passkey is named here,
 * from this browser, before any session describes it.
 */

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** "Chrome on Linux", "Safari on iPhone": what a passkey made in this browser is first called. */
export function passkeyNameFor(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'My passkey';
}

/** The device kinds the list draws an icon for; anything else is "other". */
export type DeviceKind = 'desktop' | 'phone' | 'tablet' | 'other';

export function deviceKind(kind: string): DeviceKind {
  return kind === 'desktop' || kind === 'phone' || kind === 'tablet' ? kind : 'other';
}

/** "Chrome 131 · macOS" (the system left out when the server could not tell it). */
export function deviceTitle(device: Pick<DeviceSession, 'browser' | 'system'>): string {
  return [device.browser, device.system].filter((part) => part.trim() !== '').join(' · ');
}

/** "Home network · 192.168.1.4", or whichever of the two is known; null when neither. */
export function deviceWhere(device: Pick<DeviceSession, 'place' | 'ip'>): string | null {
  const parts = [device.place, device.ip].filter((part): part is string => Boolean(part && part.trim()));
  return parts.length ? parts.join(' · ') : null;
}
