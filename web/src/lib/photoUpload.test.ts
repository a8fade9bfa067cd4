import { describe, expect, it } from 'vitest';
import {
  favouriteMessage,
  FILE_INPUT_ACCEPT,
  imageTypeOf,
  formatBytes,
  MAX_FILE_BYTES,
  MAX_FILES_PER_UPLOAD,
  triageFiles,
  uploadedMessage,
} from './photoUpload';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('file triage', () => {
  it('keeps supported images and sorts out the rest', () => {
    const t = triageFiles(
      [
        file('a.jpg', 'image/jpeg'),
        file('notes.txt', 'text/plain'),
        file('b.PNG', 'image/png'),
        file('scan.pdf', 'application/pdf'),
        file('c.heic', 'image/heic'),
        file('scan.bmp', 'image/bmp'),
        file('huge.jpg', 'image/jpeg', MAX_FILE_BYTES + 1),
        file('d.webp', 'image/webp'),
        file('e.gif', 'image/gif', MAX_FILE_BYTES),
        file('unknown', ''),
      ],
      0,
    );
    expect(t.accepted.map((f) => f.name)).toEqual(['a.jpg', 'b.PNG', 'c.heic', 'd.webp', 'e.gif']);
    expect(t.notImages.map((f) => f.name)).toEqual(['notes.txt', 'scan.pdf', 'unknown']);
    expect(t.unsupported.map((f) => f.name)).toEqual(['scan.bmp']);
    expect(t.tooLarge.map((f) => f.name)).toEqual(['huge.jpg']);
    expect(t.overLimit).toEqual([]);
  });

  it('takes HEIC and HEIF by name where the browser gives no type', () => {
    const t = triageFiles(
      [
        file('IMG_0001.HEIC', ''),
        file('IMG_0002.heif', 'application/octet-stream'),
        file('IMG_0003.heif', 'image/heif'),
        file('IMG_0004.jpg', ''),
        file('heic', ''),
      ],
      0,
    );
    expect(t.accepted.map((f) => f.name)).toEqual(['IMG_0001.HEIC', 'IMG_0002.heif', 'IMG_0003.heif']);
    expect(t.notImages.map((f) => f.name)).toEqual(['IMG_0004.jpg', 'heic']);
  });

  it('reads the type a file is taken for', () => {
    expect(imageTypeOf(file('a.heic', ''))).toBe('image/heic');
    expect(imageTypeOf(file('a.HEIF', 'application/octet-stream'))).toBe('image/heif');
    expect(imageTypeOf(file('a.heic', 'image/jpeg'))).toBe('image/jpeg');
    expect(imageTypeOf(file('a.png', 'IMAGE/PNG'))).toBe('image/png');
    expect(imageTypeOf(file('a.txt', ''))).toBe('');
  });

  it('offers HEIC and HEIF to file pickers by type and by extension', () => {
    for (const accepted of ['image/jpeg', 'image/heic', 'image/heif', '.heic', '.heif']) expect(FILE_INPUT_ACCEPT.split(',')).toContain(accepted);
  });

  it('stops at the per-publish count, counting what is already selected', () => {
    const files = Array.from({ length: 5 }, (_, i) => file(`${i}.jpg`, 'image/jpeg'));
    const t = triageFiles(files, MAX_FILES_PER_UPLOAD - 2);
    expect(t.accepted.map((f) => f.name)).toEqual(['0.jpg', '1.jpg']);
    expect(t.overLimit.map((f) => f.name)).toEqual(['2.jpg', '3.jpg', '4.jpg']);
  });
});

describe('messages', () => {
  it('counts uploaded photos (SPEC §8)', () => {
    expect(uploadedMessage(1)).toBe('1 photo uploaded successfully');
    expect(uploadedMessage(3)).toBe('3 photos uploaded successfully');
  });

  it('names the photo in favourite toasts when it has a caption (SPEC §8)', () => {
    expect(favouriteMessage('Foundation slab poured', true)).toBe('"Foundation slab poured" added to favorites');
    expect(favouriteMessage('Foundation slab poured', false)).toBe('"Foundation slab poured" removed from favorites');
    expect(favouriteMessage(null, true)).toBe('Image added to favorites');
    expect(favouriteMessage('  ', false)).toBe('Image removed from favorites');
  });

  it('formats file sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MB');
  });
});
