import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadResult } from '../protocol/types';
import { photo } from '../testing/fixtures';
import { ApiRequestError } from './http';
import { photosZipPath, uploadPhotos, type UploadProgress } from './photos';

/** Stands in for XMLHttpRequest: records the request, then answers as told. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

afterEach(() => vi.unstubAllGlobals());

const files = () => [new File(['a'.repeat(10)], 'a.jpg', { type: 'image/jpeg' }), new File(['b'.repeat(20)], 'b.png', { type: 'image/png' })];

describe('uploadPhotos', () => {
  it('sends one multipart request with a `photos` part per file, in order, and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: UploadProgress[] = [];
    const result: UploadResult = { photos: [photo({ id: 'n1' }), photo({ id: 'n2' })], skipped: [], message: null };
    const pending = uploadPhotos('p/1', files(), (p) => seen.push(p));
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/projects/p%2F1/photos');
    const parts = xhr.body?.getAll('photos') as File[];
    expect(parts.map((f) => f.name)).toEqual(['a.jpg', 'b.png']);
    xhr.upload.onprogress?.({ loaded: 15, total: 400, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 5, total: 0, lengthComputable: false });
    expect(seen).toEqual([{ loaded: 15, total: 400 }, { loaded: 5, total: undefined }]);
    xhr.answer(201, result);
    await expect(pending).resolves.toEqual({ status: 201, result });
  });

  it('resolves an UploadResult whatever the status (422 refused, 503 storage failed)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const refused: UploadResult = {
      photos: [],
      skipped: [{ name: 'notes.jpg', reason: 'Not an image' }],
      message: 'Some files were skipped because they are not images',
    };
    const pending = uploadPhotos('p1', files(), () => undefined);
    FakeXhr.last.answer(422, refused);
    await expect(pending).resolves.toEqual({ status: 422, result: refused });

    const failed: UploadResult = { photos: [], skipped: [{ name: 'a.jpg', reason: 'Failed to upload file to storage' }], message: null };
    const storage = uploadPhotos('p1', files(), () => undefined);
    FakeXhr.last.answer(503, failed);
    await expect(storage).resolves.toEqual({ status: 503, result: failed });
  });

  it('rejects with the server error for other failures, and a plain Error without one', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const tooLarge = uploadPhotos('p1', files(), () => undefined);
    FakeXhr.last.answer(413, { code: 'too_large', message: 'Too large', fields: [] });
    await expect(tooLarge).rejects.toBeInstanceOf(ApiRequestError);
    await expect(tooLarge).rejects.toMatchObject({ status: 413, code: 'too_large' });

    const proxy = uploadPhotos('p1', files(), () => undefined);
    FakeXhr.last.answer(502, '<html>Bad gateway</html>');
    await expect(proxy).rejects.not.toBeInstanceOf(ApiRequestError);

    const offline = uploadPhotos('p1', files(), () => undefined);
    FakeXhr.last.onerror?.();
    await expect(offline).rejects.toThrow('Network error');
  });
});

describe('zip paths', () => {
  it('names all photos or this user’s favourites', () => {
    expect(photosZipPath('p1')).toBe('/media/projects/p1/photos.zip');
    expect(photosZipPath('p1', true)).toBe('/media/projects/p1/photos.zip?favourites=true');
  });
});
