import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { REPLY_TYPES, type ClientMsg, type ReplyTo, type Request, type Response, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { profile } from '../testing/fixtures';
import { applyServerMsg } from './reducer';
import { LONGEST_WAIT_MS, RequestTracker } from './requests';

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

  it('waits again while frames keep arriving, up to the longest wait, and times out in silence', async () => {
    vi.useFakeTimers();
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const busy = tracker.request({ type: 'ping' }, 100);
    let settled = false;
    busy.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Frames every 80 ms for a second: each starts the 100 ms wait again.
    for (let i = 0; i < 12; i++) {
      vi.advanceTimersByTime(80);
      tracker.heard();
    }
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(tracker.reply(1, { type: 'pong' })).toBe(true);
    await expect(busy).resolves.toEqual({ type: 'pong' });

    // Silence after the last frame times out; a busy socket stops extending at the cap.
    const quiet = tracker.request({ type: 'ping' }, 100);
    tracker.heard();
    vi.advanceTimersByTime(101);
    await expect(quiet).rejects.toMatchObject({ code: 'timeout' });
    const endless = tracker.request({ type: 'ping' }, 100);
    for (let t = 0; t < LONGEST_WAIT_MS + 1_000; t += 50) {
      vi.advanceTimersByTime(50);
      tracker.heard();
    }
    await expect(endless).rejects.toMatchObject({ code: 'timeout' });
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

  it('resolves with the reply paired with the request type, and rejects any other reply', async () => {
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const ok = tracker.request({ type: 'ping' });
    tracker.reply(1, { type: 'pong' });
    const pong = await ok;
    // Typed by the pairing: a ping's reply is a pong, nothing else.
    const kind: 'pong' = pong.type;
    expect(kind).toBe('pong');

    const wrong = tracker.request({ type: 'delete_user', id: 'u1' });
    tracker.reply(2, { type: 'pong' });
    await expect(wrong).rejects.toMatchObject({ code: 'unexpected_reply', fromServer: false });

    const subscribing = tracker.request({ type: 'subscribe', id: 'p1' });
    tracker.reply(3, { type: 'done' });
    await expect(subscribing).rejects.toMatchObject({ code: 'unexpected_reply', message: 'Expected subscribed, got done.' });
  });

  it('types each reply by its request without naming it', async () => {
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const listing = tracker.request({ type: 'list_photos', projectId: 'p1' });
    tracker.reply(1, { type: 'photos', projectId: 'p1', photos: [], favourites: ['i1'], next: null });
    const { favourites } = await listing;
    expect(favourites).toEqual(['i1']);

    const saving = tracker.request({ type: 'update_profile', firstName: 'Ada', lastName: '', phone: '' });
    tracker.reply(2, { type: 'user', user: profile({ id: 'me', firstName: 'Ada' }) });
    const { user } = await saving;
    expect(user.firstName).toBe('Ada');
  });

  it('accepts only well-formed requests (checked by tsc -b in npm run build)', () => {
    const tracker = new RequestTracker();
    expectTypeOf(tracker.request).toBeCallableWith({ type: 'delete_user', id: 'u1' });
    // @ts-expect-error delete_user needs an id
    expectTypeOf(tracker.request).toBeCallableWith({ type: 'delete_user' });
    // @ts-expect-error no such request
    expectTypeOf(tracker.request).toBeCallableWith({ type: 'pong' });
    expectTypeOf<ReplyTo['subscribe']>().toEqualTypeOf<Extract<Response, { type: 'subscribed' }>>();
    expectTypeOf<ReplyTo['list_photos']>().not.toHaveProperty('user');
    expect(tracker.inFlight).toBe(0);
  });

  it('has a declared reply for every request type', () => {
    const requestTypes: Record<Request['type'], true> = {
      ping: true,
      list_users: true,
      create_user: true,
      update_user: true,
      delete_user: true,
      user_deletion_impact: true,
      list_projects: true,
      get_project: true,
      create_project: true,
      update_project: true,
      delete_project: true,
      subscribe: true,
      unsubscribe: true,
      update_profile: true,
      change_password: true,
      log: true,
      list_photos: true,
      update_photo: true,
      delete_photo: true,
      set_favourite: true,
      list_comments: true,
      get_markup: true,
      save_markup: true,
      add_comment: true,
      edit_comment: true,
      delete_comment: true,
      list_notifications: true,
      mark_notification_read: true,
      mark_all_notifications_read: true,
      get_mail_preferences: true,
      update_mail_preferences: true,
      list_milestones: true,
      add_milestone: true,
      add_milestone_template: true,
      update_milestone: true,
      set_milestone_done: true,
      move_milestone: true,
      delete_milestone: true,
      list_timeline: true,
      create_guest_link: true,
      list_guest_links: true,
      revoke_guest_link: true,
      search: true,
      end_search: true,
      list_tags: true,
      tag_photos: true,
      publish_uploads: true,
      preview_report: true,
      make_report: true,
      list_reports: true,
      delete_report: true,
      share_report: true,
      mail_report: true,
      get_installation_settings: true,
      update_installation_settings: true,
      list_companies: true,
      create_company: true,
      update_company: true,
      delete_company: true,
      company_deletion_impact: true,
      invite_member: true,
      update_member: true,
      remove_member: true,
      set_project_crew: true,
      get_security: true,
      start_totp: true,
      confirm_totp: true,
      remove_totp: true,
      new_recovery_codes: true,
      start_passkey: true,
      add_passkey: true,
      rename_passkey: true,
      remove_passkey: true,
      verify_factor: true,
      start_factor_passkey: true,
      verify_factor_passkey: true,
      end_session: true,
      end_other_sessions: true,
      reset_factors: true,
      get_push_settings: true,
      subscribe_push: true,
      unsubscribe_push: true,
      remove_push_device: true,
    };
    expect(Object.keys(REPLY_TYPES).sort()).toEqual(Object.keys(requestTypes).sort());
  });

  it("keeps the server's field errors", async () => {
    const tracker = new RequestTracker();
    tracker.attach(() => {});
    const invalid = tracker.request({ type: 'change_password', currentPassword: 'x', newPassword: '', confirmPassword: '' });
    tracker.fail(1, {
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
