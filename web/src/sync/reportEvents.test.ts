import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type Event, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { profile, project, report, reportOptions } from '../testing/fixtures';
import { createCommands } from './commands';
import { applyGuestEvent } from './guestView';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';
import { createSubscriptions } from './subscriptions';

const builder = profile({ id: 'b1', role: 'builder', name: 'Summit Homes' });

/** A builder's store fed frames the way the socket does, with commands bound to it. */
function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const event = (e: Event) => feed({ type: 'event', event: e });
  const hello = () =>
    feed({ type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: builder, snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [], online: [], companies: [] } });
  hello();
  const commands = createCommands(tracker, store.getState);
  const last = () => sent[sent.length - 1];
  const list = (projectId = 'p1') => (store.getState().reports[projectId]?.list ?? []).map((r) => [r.id, r.status, r.done]);
  return { store, tracker, sent, feed, event, hello, commands, last, list };
}

describe('reports: the list and its events', () => {
  it('lists on open and keeps what events brought while the list was on its way', async () => {
    const { tracker, commands, last, event, list, store } = setup();
    const loading = commands.loadReports('p1');
    expect(last().request).toEqual({ type: 'list_reports', projectId: 'p1' });
    expect(store.getState().reports.p1.loading).toBe(true);
    // Made and moved on before the list, which was read earlier, arrives.
    event({ type: 'report_changed', report: report({ id: 'r3', createdAt: 3000, done: 4 }) });
    tracker.reply(last().id, {
      type: 'reports',
      projectId: 'p1',
      reports: [report({ id: 'r3', createdAt: 3000, done: 1 }), report({ id: 'r1', createdAt: 1000, status: 'ready', done: 10, pages: 6 })],
    });
    await loading;
    expect(list()).toEqual([
      ['r3', 'generating', 4],
      ['r1', 'ready', 10],
    ]);
    expect(store.getState().reports.p1).toMatchObject({ loaded: true, loading: false, error: null });
  });

  it('upserts by id, newest first, and a ready report stays ready', async () => {
    const { tracker, commands, last, event, list } = setup();
    const loading = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [report({ id: 'r1', createdAt: 1000 })] });
    await loading;
    event({ type: 'report_changed', report: report({ id: 'r2', createdAt: 2000 }) });
    event({ type: 'report_changed', report: report({ id: 'r1', createdAt: 1000, done: 5 }) });
    event({ type: 'report_changed', report: report({ id: 'r1', createdAt: 1000, status: 'ready', done: 10, pages: 6, byteSize: 1000 }) });
    event({ type: 'report_changed', report: report({ id: 'r1', createdAt: 1000, done: 9 }) });
    expect(list()).toEqual([
      ['r2', 'generating', 0],
      ['r1', 'ready', 10],
    ]);
  });

  it('removes a deleted report, and a list read before the deletion does not bring it back', async () => {
    const { tracker, commands, last, event, list } = setup();
    const first = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [report({ id: 'r1' }), report({ id: 'r2', createdAt: 2000 })] });
    await first;
    event({ type: 'report_deleted', id: 'r1', projectId: 'p1' });
    expect(list()).toEqual([['r2', 'generating', 0]]);
    const again = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [report({ id: 'r1' }), report({ id: 'r2', createdAt: 2000 })] });
    await again;
    // A progress event of the deleted report, sent before the deletion, arrives late.
    event({ type: 'report_changed', report: report({ id: 'r1', done: 3 }) });
    expect(list()).toEqual([['r2', 'generating', 0]]);
  });

  it('ignores events of projects whose reports are not held', () => {
    const { event, store } = setup();
    event({ type: 'report_changed', report: report({ projectId: 'p2' }) });
    event({ type: 'report_deleted', id: 'r1', projectId: 'p2' });
    expect(store.getState().reports).toEqual({});
  });

  it('make, delete: the replies go in like the events', async () => {
    const { tracker, commands, last, list } = setup();
    const loading = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [] });
    await loading;
    const options = reportOptions({ from: '2026-03-01', perPage: 4 });
    const making = commands.makeReport('p1', options);
    expect(last().request).toEqual({ type: 'make_report', projectId: 'p1', options });
    tracker.reply(last().id, { type: 'report', report: report({ id: 'r9', options }) });
    const made = await making;
    expect(list()).toEqual([['r9', 'generating', 0]]);
    const deleting = commands.deleteReport(made);
    expect(last().request).toEqual({ type: 'delete_report', id: 'r9' });
    tracker.reply(last().id, { type: 'done' });
    await deleting;
    expect(list()).toEqual([]);
  });

  it('share and mail: the link comes back once; the mailed copy goes in, and its event keeps it', async () => {
    const { tracker, commands, last, event, store } = setup();
    const loading = commands.loadReports('p1');
    const ready = report({ id: 'r1', status: 'ready', done: 10, pages: 6, byteSize: 1000 });
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [ready] });
    await loading;

    const sharing = commands.shareReport({ reportId: 'r1', expiresInDays: 30 });
    expect(last().request).toEqual({ type: 'share_report', reportId: 'r1', expiresInDays: 30 });
    const link = { id: 'l1', projectId: 'p1', photos: 'all' as const, downloads: false, expiresAt: 9, createdAt: 1, createdBy: null, revokedAt: null, lastOpenedAt: null, reportId: 'r1' };
    tracker.reply(last().id, { type: 'guest_link_created', link, url: 'http://site/guest/secret' });
    expect(await sharing).toEqual({ link, url: 'http://site/guest/secret' });

    const mailing = commands.mailReport(ready);
    expect(last().request).toEqual({ type: 'mail_report', id: 'r1' });
    const mailed = { ...ready, mailedAt: 5000, mailedTo: 'Jamie Carter' };
    tracker.reply(last().id, { type: 'report', report: mailed });
    expect(await mailing).toEqual(mailed);
    expect(store.getState().reports.p1.list[0]).toMatchObject({ mailedAt: 5000, mailedTo: 'Jamie Carter' });
    // The same change heard as an event, and a list read before it, leave it mailed.
    event({ type: 'report_changed', report: mailed });
    const again = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [ready] });
    await again;
    expect(store.getState().reports.p1.list[0]).toMatchObject({ mailedAt: 5000, mailedTo: 'Jamie Carter' });
  });

  it('a report mailed on another page arrives as report_changed', async () => {
    const { tracker, commands, last, event, store } = setup();
    const loading = commands.loadReports('p1');
    const ready = report({ id: 'r1', status: 'ready', done: 10, pages: 6 });
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [ready] });
    await loading;
    event({ type: 'report_changed', report: { ...ready, mailedAt: 7000, mailedTo: 'Jamie Carter' } });
    expect(store.getState().reports.p1.list[0]).toMatchObject({ mailedAt: 7000, mailedTo: 'Jamie Carter' });
  });

  it('a failed list lands in the slice with the server’s words', async () => {
    const { tracker, commands, last, store } = setup();
    const loading = commands.loadReports('p1');
    tracker.fail(last().id, { code: 'forbidden', message: 'You do not have access to this project.' });
    await loading;
    expect(store.getState().reports.p1).toMatchObject({ loading: false, error: 'You do not have access to this project.' });
  });

  it('a new connection and closing the page forget the lists', async () => {
    const { tracker, commands, last, hello, store } = setup();
    const { openProject } = createSubscriptions(tracker, store.getState);
    const sub = openProject('p1');
    const loading = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [report({})] });
    await loading;
    hello();
    expect(store.getState().reports).toEqual({});
    const again = commands.loadReports('p1');
    tracker.reply(last().id, { type: 'reports', projectId: 'p1', reports: [report({})] });
    await again;
    sub.close();
    expect(store.getState().reports.p1).toBeUndefined();
  });

  it('a guest socket ignores report events', () => {
    const called: string[] = [];
    const actions = new Proxy({}, { get: (_, name) => () => called.push(String(name)) });
    applyGuestEvent({ type: 'report_changed', report: report({}) }, actions as never);
    applyGuestEvent({ type: 'report_deleted', id: 'r1', projectId: 'p1' }, actions as never);
    expect(called).toEqual([]);
  });
});

describe('gallery selection', () => {
  it('is held per project while choosing, and gone when the gallery stops', () => {
    const { store } = setup();
    store.getState().gallerySelectionChanged('p1', []);
    store.getState().gallerySelectionChanged('p1', ['i2', 'i1']);
    expect(store.getState().gallerySelections).toEqual({ p1: ['i2', 'i1'] });
    store.getState().gallerySelectionChanged('p1', null);
    expect(store.getState().gallerySelections).toEqual({});
  });
});
