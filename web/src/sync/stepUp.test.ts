import { describe, expect, it, vi } from 'vitest';
import type { ClientMsg } from '../protocol/types';
import { RequestTracker } from './requests';

const FACTOR_REQUIRED = { code: 'factor_required', message: "Confirm it's you with your authenticator app or a passkey to continue." };

/** Lets the tracker's promise chain run (the retry is sent after the prompt settles). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const sent: ClientMsg[] = [];
  const tracker = new RequestTracker();
  tracker.attach((msg) => sent.push(msg));
  return { sent, tracker, last: () => sent[sent.length - 1] };
}

describe('step-up ("Confirm it\'s you")', () => {
  it('asks once the server wants a fresh factor, then sends the same request again', async () => {
    const { sent, tracker, last } = setup();
    const prompt = vi.fn(() => Promise.resolve(true));
    tracker.stepUp.setPrompt(prompt);
    const deleting = tracker.request({ type: 'delete_user', id: 'u1' });
    tracker.fail(last().id, FACTOR_REQUIRED);
    await settle();
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(2);
    expect(last().request).toEqual({ type: 'delete_user', id: 'u1' });
    expect(last().id).not.toBe(sent[0].id);
    tracker.reply(last().id, { type: 'done' });
    await expect(deleting).resolves.toEqual({ type: 'done' });
  });

  it("rejects with the server's error when the user gives up, and does not ask again on a second refusal", async () => {
    const { sent, tracker, last } = setup();
    let answer = false;
    const prompt = vi.fn(() => Promise.resolve(answer));
    tracker.stepUp.setPrompt(prompt);
    const cancelled = tracker.request({ type: 'delete_company', id: 'c1' });
    tracker.fail(last().id, FACTOR_REQUIRED);
    await expect(cancelled).rejects.toMatchObject(FACTOR_REQUIRED);
    expect(sent).toHaveLength(1);

    answer = true;
    const twice = tracker.request({ type: 'delete_company', id: 'c1' });
    tracker.fail(last().id, FACTOR_REQUIRED);
    await settle();
    tracker.fail(last().id, FACTOR_REQUIRED);
    await expect(twice).rejects.toMatchObject(FACTOR_REQUIRED);
    expect(prompt).toHaveBeenCalledTimes(2);
  });

  it('asks one question for requests refused together', async () => {
    const { sent, tracker } = setup();
    let proved: (ok: boolean) => void = () => undefined;
    const prompt = vi.fn(() => new Promise<boolean>((resolve) => (proved = resolve)));
    tracker.stepUp.setPrompt(prompt);
    const a = tracker.request({ type: 'new_recovery_codes' });
    const b = tracker.request({ type: 'remove_passkey', id: 'p1', password: 'pw' });
    tracker.fail(sent[0].id, FACTOR_REQUIRED);
    tracker.fail(sent[1].id, FACTOR_REQUIRED);
    await settle();
    expect(prompt).toHaveBeenCalledTimes(1);
    proved(true);
    await settle();
    expect(sent.map((m) => m.request.type)).toEqual(['new_recovery_codes', 'remove_passkey', 'new_recovery_codes', 'remove_passkey']);
    tracker.reply(sent[2].id, { type: 'recovery_codes', codes: ['a'] });
    tracker.reply(sent[3].id, { type: 'security', security: { totp: true, recoveryCodesLeft: 1, passkeys: [], devices: [], required: false, factorAt: 1 } });
    await expect(a).resolves.toMatchObject({ type: 'recovery_codes' });
    await expect(b).resolves.toMatchObject({ type: 'security' });
  });

  it('never asks while proving a factor, nor without a screen to ask on', async () => {
    const { tracker, last } = setup();
    const proving = tracker.request({ type: 'verify_factor', code: '123456' });
    const prompt = vi.fn(() => Promise.resolve(true));
    const remove = tracker.stepUp.setPrompt(prompt);
    tracker.fail(last().id, FACTOR_REQUIRED);
    await expect(proving).rejects.toMatchObject(FACTOR_REQUIRED);
    remove();
    const sharing = tracker.request({ type: 'revoke_guest_link', id: 'l1' });
    tracker.fail(last().id, FACTOR_REQUIRED);
    await expect(sharing).rejects.toMatchObject(FACTOR_REQUIRED);
    expect(prompt).not.toHaveBeenCalled();
  });

  it('tells the app when the session must enrol a factor first', async () => {
    const { tracker, last } = setup();
    const enrol = vi.fn();
    tracker.onEnrolRequired = enrol;
    const listing = tracker.request({ type: 'list_users', role: 'homeowner', query: '', sort: 'name', descending: false, page: 0 });
    tracker.fail(last().id, { code: 'enrol_required', message: 'Set one up.' });
    await expect(listing).rejects.toMatchObject({ code: 'enrol_required' });
    expect(enrol).toHaveBeenCalledTimes(1);
  });
});
