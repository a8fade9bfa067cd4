import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type Project, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { profile, project } from '../testing/fixtures';
import { createCommands, loadProjectPages } from './commands';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';

const admin = profile({ id: 'a1', role: 'admin' });
const p = (id: string) => project({ id });
const ids = (projects: Record<string, Project>) => Object.keys(projects).sort();
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** An admin's store, greeted by hellos that carry the first page of projects. */
function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const hello = (projects: Project[], projectCount: number, nextProjects: string | null) =>
    feed({ type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: admin, snapshot: { projects, projectCount, nextProjects, users: [], online: [], companies: [] } });
  const last = () => sent[sent.length - 1];
  /** Answers the last request with a page of projects, and lets the read go on. */
  const page = async (projects: Project[], next: string | null) => {
    tracker.reply(last().id, { type: 'projects', projects, next });
    await settle();
  };
  const read = (next: string) => loadProjectPages(tracker, store.getState, next);
  return { store, tracker, feed, hello, last, page, read };
}

describe('the projects a hello did not carry', () => {
  it('are read page by page, and the paging says where it stands', async () => {
    const { store, hello, last, page, read } = setup();
    hello([p('p1'), p('p2')], 5, 'c1');
    expect(store.getState().projectPaging).toMatchObject({ next: 'c1', total: 5, loading: true });
    const reading = read('c1');
    expect(last().request).toEqual({ type: 'list_projects', after: 'c1' });
    await page([p('p3'), p('p4')], 'c2');
    expect(last().request).toEqual({ type: 'list_projects', after: 'c2' });
    expect(store.getState().projectPaging).toMatchObject({ next: 'c2', loading: true });
    await page([p('p5')], null);
    await reading;
    expect(ids(store.getState().projects)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(store.getState().projectPaging).toMatchObject({ next: null, loading: false, failed: false });
  });

  it('a page older than a live event keeps the newer copy', async () => {
    const { store, feed, hello, page, read } = setup();
    hello([p('p1')], 2, 'c1');
    const reading = read('c1');
    feed({ type: 'event', event: { type: 'project_updated', project: project({ id: 'p2', progress: 80, version: 9 }), actor: null } });
    await page([project({ id: 'p2', progress: 10, version: 3 })], null);
    await reading;
    expect(store.getState().projects.p2).toMatchObject({ progress: 80, version: 9 });
  });

  it('after a reconnect, what was held stays until the read ends without it', async () => {
    const { store, hello, page, read } = setup();
    hello([p('p1'), p('p2'), p('p3'), p('p9')], 4, null);
    // The new connection's hello carries p1 only: p2, p3 and p9 wait to be named again
    // (an open project does not vanish meanwhile).
    hello([p('p1')], 3, 'c1');
    expect(ids(store.getState().projects)).toEqual(['p1', 'p2', 'p3', 'p9']);
    const reading = read('c1');
    await page([p('p2'), p('p3')], null);
    await reading;
    expect(ids(store.getState().projects)).toEqual(['p1', 'p2', 'p3']);
    // A hello that carries every project replaces what is held at once.
    hello([p('p3')], 1, null);
    expect(ids(store.getState().projects)).toEqual(['p3']);
  });

  it('a refused page stops the read, and Retry goes on from where it stopped', async () => {
    const { store, tracker, hello, last, page, read } = setup();
    hello([p('p1')], 3, 'c1');
    const reading = read('c1');
    await page([p('p2')], 'c2');
    tracker.fail(last().id, { code: 'bad_request', message: 'Invalid project cursor.' });
    await reading;
    expect(store.getState().projectPaging).toMatchObject({ next: 'c2', loading: false, failed: true });
    const commands = createCommands(tracker, store.getState);
    const retried = commands.retryProjectPages();
    expect(last().request).toEqual({ type: 'list_projects', after: 'c2' });
    await page([p('p3')], null);
    await retried;
    expect(ids(store.getState().projects)).toEqual(['p1', 'p2', 'p3']);
    expect(store.getState().projectPaging).toMatchObject({ failed: false, loading: false });
  });

  it('a newer hello ends the read it started', async () => {
    const { store, tracker, hello, last, page, read } = setup();
    hello([p('p1')], 3, 'c1');
    const first = read('c1');
    const asked = last().id;
    hello([p('p1')], 3, 'c1');
    const second = read('c1');
    // The first read's answer arrives late: it is dropped, and its read ends.
    tracker.reply(asked, { type: 'projects', projects: [p('p7')], next: null });
    await first;
    expect(store.getState().projects.p7).toBeUndefined();
    expect(store.getState().projectPaging.loading).toBe(true);
    await page([p('p2'), p('p3')], null);
    await second;
    expect(ids(store.getState().projects)).toEqual(['p1', 'p2', 'p3']);
  });
});
