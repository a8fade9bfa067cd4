import { describe, expect, it } from 'vitest';
import { photosZipPath } from './photos';

describe('zip paths', () => {
  it('names all photos or this user’s favourites', () => {
    expect(photosZipPath('p1')).toBe('/media/projects/p1/photos.zip');
    expect(photosZipPath('p1', true)).toBe('/media/projects/p1/photos.zip?favourites=true');
  });
});
