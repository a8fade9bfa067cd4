import { describe, expect, it } from 'vitest';
import { decodeReason, isSending, isSettled, isWhole, SpeedMeter, stateLabel, timeLeft, totals, unsentBytes, type QueueFile } from './uploadQueue';

const file = (over: Partial<QueueFile>): QueueFile => ({ key: 'k', name: 'a.jpg', size: 100, sent: 0, state: 'queued', ...over });

describe('upload queue arithmetic', () => {
  it('adds bytes over the files that will be stored, refused ones aside', () => {
    const t = totals([
      file({ key: 'a', sent: 50, state: 'uploading' }),
      file({ key: 'b', sent: 0, state: 'done' }),
      file({ key: 'c', sent: 100, state: 'refused' }),
      file({ key: 'd', sent: 20, state: 'failed' }),
    ]);
    expect(t).toMatchObject({ sent: 170, total: 300, percent: 56, done: 1, refused: 1, failed: 1, active: 1, waiting: 0 });
    expect(totals([file({ state: 'waiting' }), file({ state: 'queued' })])).toMatchObject({ active: 1, waiting: 1 });
    expect(totals([])).toMatchObject({ percent: 0, total: 0 });
  });

  it('counts unsent bytes of every file not settled', () => {
    expect(unsentBytes([file({ sent: 30, state: 'paused' }), file({ state: 'done' }), file({ sent: 100, state: 'refused' })])).toBe(70);
  });

  it('tells files being sent from those waiting, paused or settled', () => {
    expect((['uploading', 'queued', 'retrying'] as const).every(isSending)).toBe(true);
    expect((['waiting', 'paused', 'failed', 'done', 'refused'] as const).some(isSending)).toBe(false);
  });

  it('smooths speed over its window and starts again when bytes go back', () => {
    const meter = new SpeedMeter(5000);
    meter.add(0, 0);
    expect(meter.bytesPerSecond()).toBeNull();
    meter.add(1000, 1000);
    meter.add(2000, 3000);
    expect(meter.bytesPerSecond()).toBe(1500);
    meter.add(2500, 100);
    expect(meter.bytesPerSecond()).toBeNull();
  });

  it('says time left in words, or nothing without a speed', () => {
    expect(timeLeft(1000, null)).toBeNull();
    expect(timeLeft(0, 100)).toBeNull();
    expect(timeLeft(500, 100)).toBe('a few seconds left');
    expect(timeLeft(3500, 100)).toBe('about 40 s left');
    expect(timeLeft(12_000, 100)).toBe('about 2 min left');
    expect(timeLeft(400_000, 100)).toBe('about 1 h 7 min left');
  });

  it('labels each state, with the reason when there is one', () => {
    expect(stateLabel(file({ state: 'uploading', sent: 42 }))).toBe('42%');
    expect(stateLabel(file({ state: 'retrying' }))).toBe('Connection lost, retrying…');
    expect(stateLabel(file({ state: 'waiting' }))).toBe('Waiting for connection');
    expect(stateLabel(file({ state: 'refused', reason: 'Not an image (JPEG, PNG, GIF or WebP)' }))).toBe('Skipped: Not an image (JPEG, PNG, GIF or WebP)');
    expect(stateLabel(file({ state: 'failed' }))).toBe('Failed');
  });

  it('counts a held file as sent, though not settled: it waits for Publish', () => {
    const held = file({ key: 'h', sent: 100, state: 'held' });
    const storing = file({ key: 's', sent: 0, state: 'storing' });
    const going = file({ key: 'g', sent: 40, state: 'uploading' });
    expect(totals([held, storing, going])).toMatchObject({ sent: 240, total: 300, percent: 80, held: 1, active: 1, done: 0 });
    expect(unsentBytes([held, storing, going])).toBe(60);
    expect([isSending('held'), isSending('storing'), isSettled('held'), isSettled('storing')]).toEqual([false, false, false, false]);
    expect([isWhole('held'), isWhole('storing'), isWhole('done'), isWhole('uploading')]).toEqual([true, true, true, false]);
    expect(stateLabel(held)).toBe('Sent');
    expect(stateLabel(storing)).toBe('Processing…');
  });

  it('decodes the server’s percent-encoded reasons', () => {
    expect(decodeReason('Not%20an%20image%20%E2%80%94%20ok')).toBe('Not an image — ok');
    expect(decodeReason('%E0%A4%A')).toBe('%E0%A4%A');
    expect(decodeReason(undefined)).toBeUndefined();
  });
});
