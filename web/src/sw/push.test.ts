import { describe, expect, it } from 'vitest';
import { appPath, NOTIFICATION_BADGE, NOTIFICATION_ICON, notificationOptions, readPush, windowToUse } from './push';

const origin = 'https://sitecast.example';

describe('push payloads', () => {
  it('reads the server’s payload', () => {
    const message = readPush({ title: '3 new photos', body: 'Lakeview Cottage: framing', url: '/projects/p1?photo=i9', tag: 'project-p1' }, origin);
    expect(message).toEqual({ title: '3 new photos', body: 'Lakeview Cottage: framing', url: '/projects/p1?photo=i9', tag: 'project-p1' });
    expect(notificationOptions(message)).toEqual({
      body: 'Lakeview Cottage: framing',
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      data: { url: '/projects/p1?photo=i9' },
      tag: 'project-p1',
      renotify: true,
    });
  });

  it('shows something sensible for a payload missing parts, or plain text', () => {
    expect(readPush({}, origin)).toEqual({ title: 'Sitecast', body: '', url: '/dashboard' });
    expect(readPush(null, origin)).toEqual({ title: 'Sitecast', body: '', url: '/dashboard' });
    expect(readPush('Your project was updated', origin)).toEqual({ title: 'Sitecast', body: 'Your project was updated', url: '/dashboard' });
    expect(readPush({ title: 42, body: ['x'], url: 7, tag: '' }, origin)).toEqual({ title: 'Sitecast', body: '', url: '/dashboard' });
    expect(notificationOptions(readPush({ title: 'Hi' }, origin))).not.toHaveProperty('tag');
  });

  it('never leads away from this app', () => {
    expect(appPath('/projects/p1?photo=i1#c2', origin)).toBe('/projects/p1?photo=i1#c2');
    expect(appPath(`${origin}/dashboard`, origin)).toBe('/dashboard');
    expect(appPath('https://evil.example/projects/p1', origin)).toBe('/dashboard');
    expect(appPath('//evil.example/x', origin)).toBe('/dashboard');
    expect(appPath('javascript:alert(1)', origin)).toBe('/dashboard');
    expect(appPath(undefined, origin)).toBe('/dashboard');
  });
});

describe('the window a tapped notification uses', () => {
  const win = (url: string, focused = false, visibilityState: DocumentVisibilityState = 'hidden') => ({ url, focused, visibilityState });

  it('prefers the focused window, then a visible one, then any of this app’s', () => {
    const hidden = win(`${origin}/dashboard`);
    const visible = win(`${origin}/projects/p1`, false, 'visible');
    const focused = win(`${origin}/projects/p2`, true, 'visible');
    expect(windowToUse([hidden, visible, focused], origin)).toBe(focused);
    expect(windowToUse([hidden, visible], origin)).toBe(visible);
    expect(windowToUse([hidden], origin)).toBe(hidden);
  });

  it('opens a new window when none of this app’s is open', () => {
    expect(windowToUse([], origin)).toBeUndefined();
    expect(windowToUse([win('https://elsewhere.example/', true, 'visible')], origin)).toBeUndefined();
  });
});
