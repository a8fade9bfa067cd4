import { describe, expect, it, vi } from 'vitest';
import type { ClientMsg, ServerMsg } from '../protocol/types';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';

describe('RequestTracker', () => {
  it('pairs a reply with its request by id', async () => {
    const sent: ClientMsg[] = [];
    const tracker = new RequestTracker();
    tracker.attach((msg) => sent.push(msg));
    const pending = tracker.request({ type: 'ping' });
    expect(sent).toEqual([{ id: 1, request: { type: 'ping' } }]);
    expect(tracker.reply(1, { type: 'pong' })).toBe(true);
    await expect(pending).resolves.toEqual({ type: 'pong' });
    expect(tracker.inFlight).toBe(0);
  });

  it('rejects with the server error and on timeout', async () => {
    vi.useFakeTimers();
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const failing = tracker.request({ type: 'ping' });
    tracker.fail(1, { code: 'forbidden', message: 'No.' });
    await expect(failing).rejects.toMatchObject({ code: 'forbidden', message: 'No.' });
    const slow = tracker.request({ type: 'ping' }, 100);
    vi.advanceTimersByTime(101);
    await expect(slow).rejects.toMatchObject({ code: 'timeout' });
    vi.useRealTimers();
  });

  it('rejects when not connected and fails everything on disconnect', async () => {
    const tracker = new RequestTracker();
    await expect(tracker.request({ type: 'ping' })).rejects.toMatchObject({ code: 'not_connected' });
    tracker.attach(() => {});
    const a = tracker.request({ type: 'ping' });
    const b = tracker.request({ type: 'ping' });
    tracker.failAll({ code: 'disconnected', message: 'gone' });
    await expect(a).rejects.toMatchObject({ code: 'disconnected' });
    await expect(b).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('routes server frames: replies settle requests, unknown events are ignored', async () => {
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const actions = { userUpdated: vi.fn(), snapshotReceived: vi.fn(), signedOut: vi.fn() };
    const pending = tracker.request({ type: 'ping' });
    applyServerMsg({ type: 'reply', id: 1, response: { type: 'pong' } }, actions, tracker);
    await expect(pending).resolves.toEqual({ type: 'pong' });
    const unknown = { type: 'event', event: { type: 'something_new' } } as unknown as ServerMsg;
    applyServerMsg(unknown, actions, tracker);
    expect(actions.userUpdated).not.toHaveBeenCalled();
    expect(actions.signedOut).not.toHaveBeenCalled();
    applyServerMsg({ type: 'event', event: { type: 'session_ended', reason: 'logout' } }, actions, tracker);
    expect(actions.signedOut).toHaveBeenCalledWith('revoked');
  });
});
