import { describe, expect, it, vi } from 'vitest';
import {
  answerOf,
  createUpload,
  encodeMetadata,
  EXPIRED_MESSAGE,
  headUpload,
  needsSignIn,
  publishRequest,
  refusalReason,
  refusedFor,
  retryable,
  sendsInBackground,
  tusEndpoint,
  UPLOAD_ENDPOINT,
  UploadAnswerError,
  uploadIdOf,
  uploadMetadata,
} from './tusUploads';

const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe('sending a queued photo', () => {
  it('tells the server the batch and the photo’s own fields', () => {
    expect(
      uploadMetadata({ projectId: 'p1', batchId: 'b1', batchSize: 2, name: 'IMG_1.HEIC', caption: 'Slab', category: 'structural', note: 'Poured', milestoneId: 'm1', tags: ['Kitchen', 'Wet room'] }),
    ).toEqual({ projectId: 'p1', filename: 'IMG_1.HEIC', batchId: 'b1', batchSize: '2', caption: 'Slab', category: 'structural', note: 'Poured', milestoneId: 'm1', tags: 'Kitchen,Wet room' });
    expect(uploadMetadata({ projectId: 'p1', batchId: 'b1', batchSize: 1, name: 'a.jpg' })).toEqual({ projectId: 'p1', filename: 'a.jpg', batchId: 'b1', batchSize: '1' });
  });

  it('sends a held upload with its project and name only: the rest goes with Publish', () => {
    expect(uploadMetadata({ projectId: 'p1', batchId: 'b1', batchSize: 0, name: 'a.jpg', caption: 'Slab', note: 'Poured', tags: ['Kitchen'], held: true })).toEqual({
      projectId: 'p1',
      filename: 'a.jpg',
      held: '1',
    });
  });

  it('retries the network and the server’s bad moments; a refusal is final; a lost session waits', () => {
    for (const status of [0, 500, 502, 409, 423]) expect(retryable(status), String(status)).toBe(true);
    for (const status of [400, 403, 404, 413]) expect(refusedFor(status), String(status)).toBe(true);
    for (const status of [401, 408, 429, 500]) expect(refusedFor(status), String(status)).toBe(false);
    expect(needsSignIn(401)).toBe(true);
    expect(refusalReason(413, 'Larger than 30 MB')).toBe('Larger than 30 MB');
    expect(refusalReason(404, undefined)).toBe(EXPIRED_MESSAGE);
    expect(refusalReason(403, undefined)).toBe('The server answered 403');
  });

  it('never makes a new upload for a held one already published', () => {
    expect(tusEndpoint({ held: true, published: true, uploadUrl: 'http://x/api/uploads/1' })).toBeNull();
    expect(tusEndpoint({ held: true, uploadUrl: 'http://x/api/uploads/1' })).toBe(UPLOAD_ENDPOINT);
    expect(tusEndpoint({})).toBe(UPLOAD_ENDPOINT);
  });

  it('sends in the background only its owner’s files that wait for the network and are not paused', () => {
    const waiting = { userId: 'u1', sendWhenOnline: true };
    expect(sendsInBackground(waiting, 'u1')).toBe(true);
    expect(sendsInBackground(waiting, 'u2')).toBe(false);
    expect(sendsInBackground(waiting, null)).toBe(false);
    expect(sendsInBackground({ ...waiting, paused: true }, 'u1')).toBe(false);
    expect(sendsInBackground({ userId: 'u1' }, 'u1')).toBe(false);
    expect(sendsInBackground({ sendWhenOnline: true }, 'u1')).toBe(false);
  });
});

describe('what an upload became', () => {
  it('reads the photo, the refusal (percent-encoded) or the wait for Publish off an answer', () => {
    expect(answerOf(headers({ 'Sitecast-Photo': 'ph1' }))).toEqual({ kind: 'photo', photoId: 'ph1' });
    expect(answerOf(headers({ 'Sitecast-Refused': 'Not%20an%20image' }))).toEqual({ kind: 'refused', reason: 'Not an image' });
    expect(answerOf(headers({ 'Sitecast-Held': '1' }))).toEqual({ kind: 'held' });
    expect(answerOf(headers({}))).toEqual({ kind: 'open' });
  });

  it('names an upload by its URL’s last segment', () => {
    expect(uploadIdOf('http://127.0.0.1:8099/api/uploads/0f9a-77')).toBe('0f9a-77');
    expect(uploadIdOf('/api/uploads/abc/')).toBe('abc');
    expect(uploadIdOf('/api/uploads/abc?x=1')).toBe('abc');
  });
});

describe('publishing a selection', () => {
  it('sends the visit’s fields once and each file’s upload, caption and category, leaving out what is empty', () => {
    const request = publishRequest({ projectId: 'p1', batchId: 'b1', note: '  Deck framed ', milestoneId: 'm1', tags: ['Kitchen'] }, [
      { uploadUrl: 'http://x/api/uploads/u1', caption: ' North wall ', category: 'structural' },
      { uploadUrl: 'http://x/api/uploads/u2', caption: '   ' },
    ]);
    expect(request).toEqual({
      projectId: 'p1',
      batchId: 'b1',
      note: 'Deck framed',
      milestoneId: 'm1',
      tags: ['Kitchen'],
      files: [{ uploadId: 'u1', caption: 'North wall', category: 'structural' }, { uploadId: 'u2' }],
    });
    const bare = publishRequest({ projectId: 'p1', batchId: 'b1', note: ' ', milestoneId: '' }, [{ uploadUrl: '/api/uploads/u1' }]);
    expect(bare).toEqual({ projectId: 'p1', batchId: 'b1', tags: [], files: [{ uploadId: 'u1' }] });
    expect('note' in bare || 'milestoneId' in bare).toBe(false);
  });
});

describe('tus requests of its own', () => {
  it('encodes metadata as tus does: base64 of UTF-8', () => {
    expect(encodeMetadata({ projectId: 'p1', filename: 'Façade.jpg', held: '1' })).toBe(`projectId cDE=,filename RmHDp2FkZS5qcGc=,held MQ==`);
  });

  it('makes an upload ahead and answers its URL, or the server’s refusal', async () => {
    const send = vi.fn(async () => new Response(null, { status: 201, headers: { Location: '/api/uploads/new1' } }));
    await expect(createUpload(1234, { projectId: 'p1', filename: 'a.jpg', held: '1' }, send)).resolves.toBe('/api/uploads/new1');
    const [url, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(UPLOAD_ENDPOINT);
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'Tus-Resumable': '1.0.0', 'Upload-Length': '1234' });

    const refused = vi.fn(async () => new Response(JSON.stringify({ code: 'too_large', message: 'Larger than 30 MB' }), { status: 413 }));
    const error = await createUpload(1, {}, refused).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadAnswerError);
    expect(error).toMatchObject({ status: 413, serverMessage: 'Larger than 30 MB' });
    const offline = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createUpload(1, {}, offline)).rejects.toMatchObject({ status: 0 });
  });

  it('asks where an upload stands with a HEAD', async () => {
    const send = vi.fn(async () => new Response(null, { status: 200, headers: { 'Upload-Offset': '10', 'Upload-Length': '10', 'Sitecast-Photo': 'ph9' } }));
    await expect(headUpload('/api/uploads/u1', send)).resolves.toEqual({ status: 200, answer: { kind: 'photo', photoId: 'ph9' }, offset: 10, length: 10 });
    const [, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(init).toMatchObject({ method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
    const gone = vi.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(headUpload('/api/uploads/u1', gone)).resolves.toEqual({ status: 0, answer: { kind: 'open' } });
  });
});
