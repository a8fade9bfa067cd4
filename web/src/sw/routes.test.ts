import { describe, expect, it } from 'vitest';
import { isAppNavigation, photoRendition } from './routes';

const origin = 'https://sitecast.example';
const at = (path: string) => new URL(path, origin);

describe('what the service worker answers', () => {
  it('caches the thumbnails and display sizes the pages show', () => {
    expect(photoRendition(at('/media/images/4f2a/thumb'), origin)).toBe('thumb');
    expect(photoRendition(at('/media/images/4f2a/display'), origin)).toBe('display');
  });

  it('leaves originals, markup, downloads and zips to the network', () => {
    for (const path of ['/media/images/4f2a/original', '/media/images/4f2a/marked', '/media/images/4f2a/display?download=1', '/media/projects/p1/photos.zip', '/media/images/thumb']) {
      expect(photoRendition(at(path), origin), path).toBeNull();
    }
    expect(photoRendition(new URL('/media/images/4f2a/thumb', 'https://elsewhere.example'), origin)).toBeNull();
  });

  it('draws the app’s pages from the app shell, and leaves the server’s paths alone', () => {
    for (const path of ['/', '/dashboard', '/projects/p1?photo=i1', '/login?expired=true', '/guest/tok', '/no-such-page']) expect(isAppNavigation(at(path), origin), path).toBe(true);
    for (const path of ['/api/auth/confirm?token=x', '/api', '/media/projects/p1/photos.zip', '/ws']) expect(isAppNavigation(at(path), origin), path).toBe(false);
    expect(isAppNavigation(new URL('/dashboard', 'https://elsewhere.example'), origin)).toBe(false);
  });
});
