import { describe, expect, it } from 'vitest';
import { needsSignIn, refusedFor, retryable, sendsInBackground, uploadMetadata } from './tusUploads';

describe('sending a queued photo', () => {
  it('tells the server the batch and the photo’s own fields', () => {
    expect(
      uploadMetadata({ projectId: 'p1', batchId: 'b1', batchSize: 2, name: 'IMG_1.HEIC', caption: 'Slab', category: 'structural', note: 'Poured', milestoneId: 'm1', tags: ['Kitchen', 'Wet room'] }),
    ).toEqual({ projectId: 'p1', filename: 'IMG_1.HEIC', batchId: 'b1', batchSize: '2', caption: 'Slab', category: 'structural', note: 'Poured', milestoneId: 'm1', tags: 'Kitchen,Wet room' });
    expect(uploadMetadata({ projectId: 'p1', batchId: 'b1', batchSize: 1, name: 'a.jpg' })).toEqual({ projectId: 'p1', filename: 'a.jpg', batchId: 'b1', batchSize: '1' });
  });

  it('retries the network and the server’s bad moments; a refusal is final; a lost session waits', () => {
    for (const status of [0, 500, 502, 409, 423]) expect(retryable(status), String(status)).toBe(true);
    for (const status of [400, 403, 404, 413]) expect(refusedFor(status), String(status)).toBe(true);
    for (const status of [401, 408, 429, 500]) expect(refusedFor(status), String(status)).toBe(false);
    expect(needsSignIn(401)).toBe(true);
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
