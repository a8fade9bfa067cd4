import { describe, expect, it } from 'vitest';
import {
  favouriteMessage,
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
        file('huge.jpg', 'image/jpeg', MAX_FILE_BYTES + 1),
        file('d.webp', 'image/webp'),
        file('e.gif', 'image/gif', MAX_FILE_BYTES),
        file('unknown', ''),
      ],
      0,
    );
    expect(t.accepted.map((f) => f.name)).toEqual(['a.jpg', 'b.PNG', 'd.webp', 'e.gif']);
    expect(t.notImages.map((f) => f.name)).toEqual(['notes.txt', 'scan.pdf', 'unknown']);
    expect(t.unsupported.map((f) => f.name)).toEqual(['c.heic']);
    expect(t.tooLarge.map((f) => f.name)).toEqual(['huge.jpg']);
    expect(t.overLimit).toEqual([]);
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
