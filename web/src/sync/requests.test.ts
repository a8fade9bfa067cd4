import { describe, expect, it, vi } from 'vitest';
import type { ClientMsg, ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { applyServerMsg } from './reducer';
import { call, RequestTracker } from './requests';

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
    const store = createAppStore();
    const signedOut = vi.fn();
    const actions = { ...store.getState(), signedOut };
    const pending = tracker.request({ type: 'ping' });
    applyServerMsg({ type: 'reply', id: 1, response: { type: 'pong' } }, actions, tracker);
    await expect(pending).resolves.toEqual({ type: 'pong' });
    const unknown = { type: 'event', event: { type: 'something_new' } } as unknown as ServerMsg;
    applyServerMsg(unknown, actions, tracker);
    expect(signedOut).not.toHaveBeenCalled();
    applyServerMsg({ type: 'event', event: { type: 'session_ended', reason: 'logout' } }, actions, tracker);
    expect(signedOut).toHaveBeenCalledWith('revoked');
  });

  it('call() narrows the reply type and keeps the server\'s field errors', async () => {
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const ok = call({ type: 'ping' }, 'pong', { tracker });
    tracker.reply(1, { type: 'pong' });
    await expect(ok).resolves.toEqual({ type: 'pong' });

    const wrong = call({ type: 'ping' }, 'done', { tracker });
    tracker.reply(2, { type: 'pong' });
    await expect(wrong).rejects.toMatchObject({ code: 'unexpected_reply', fromServer: false });

    const invalid = call({ type: 'change_password', currentPassword: 'x', newPassword: '', confirmPassword: '' }, 'done', { tracker });
    tracker.fail(3, {
      code: 'validation',
      message: 'New password cannot be empty.',
      fields: [{ field: 'newPassword', message: 'New password cannot be empty.' }],
    });
    const error = await invalid.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'validation', fromServer: true });
    expect((error as { fieldMessage: (f: string) => string | undefined }).fieldMessage('newPassword')).toBe(
      'New password cannot be empty.',
    );
  });
});
