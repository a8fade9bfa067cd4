import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type Event, type GuestHello, type ServerMsg, type TimelineEntry } from '../protocol/types';
import { createGuestStore } from '../store/guest';
import { photo, project } from '../testing/fixtures';
import { createGuestCommands } from './guestCommands';
import { applyGuestServerMsg } from './guestReducer';
import { RequestTracker } from './requests';

const access = { linkId: 'l1', projectId: 'p1', photos: 'all' as const, downloads: false, expiresAt: null, sharedBy: 'Jamie Carter', reportId: null };
const plan = (version: number, names: string[] = ['Foundation']) => ({
  projectId: 'p1',
  version,
  milestones: names.map((name, position) => ({ id: `m${position}`, projectId: 'p1', name, position, targetDate: null, doneDate: null })),
});
const entry = (id: string, createdAt: number, projectId = 'p1'): TimelineEntry => ({
  id,
  projectId,
  actorName: 'Summit Homes',
  actorRole: 'builder',
  createdAt,
  detail: { type: 'progress_changed', from: 40, to: 45 },
});

function hello(over: Partial<GuestHello> = {}): ServerMsg {
  return {
    type: 'guest_hello',
    protocolVersion: PROTOCOL_VERSION,
    serverTime: 0,
    access,
    project: project({}),
    milestones: plan(3),
    photos: [photo({ id: 'i1' }), photo({ id: 'i2' })],
    report: null,
    ...over,
  };
}

/** A fresh guest store, opened for token "tok", and a function that feeds it frames the way the socket does. */
function setup() {
  const store = createGuestStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  store.getState().guestReset('tok');
  store.getState().guestOpened(access);
  const feed = (msg: ServerMsg) => applyGuestServerMsg(msg, store.getState(), tracker);
  const event = (e: Event) => feed({ type: 'event', event: e });
  const commands = createGuestCommands(tracker, () => store.getState());
  return { store, tracker, sent, feed, event, commands };
}

describe('opening a link', () => {
  it('goes from opening to connecting to live with the hello', () => {
    const store = createGuestStore();
    store.getState().guestReset('tok');
    expect(store.getState().phase).toBe('opening');
    store.getState().guestOpened(access);
    expect(store.getState().phase).toBe('connecting');
    applyGuestServerMsg(hello(), store.getState(), new RequestTracker());
    const s = store.getState();
    expect(s.phase).toBe('live');
    expect(s.project?.title).toBe('Maple Street Residence');
    expect(s.access?.sharedBy).toBe('Jamie Carter');
    expect(Object.keys(s.photos).sort()).toEqual(['i1', 'i2']);
    expect(s.plan?.milestones).toHaveLength(1);
    expect(s.epoch).toBe(1);
    expect(s.connection).toBe('open');
  });

  it('a dead link is inactive; a server that could not be reached is a failure to retry', () => {
    const store = createGuestStore();
    store.getState().guestReset('tok');
    store.getState().guestOpenFailed('failed', 'Network error');
    expect(store.getState()).toMatchObject({ phase: 'failed', failure: 'Network error' });
    store.getState().guestReset('tok');
    store.getState().guestOpenFailed('inactive');
    expect(store.getState().phase).toBe('inactive');
  });

  it('another link starts from nothing', () => {
    const { store, feed } = setup();
    feed(hello());
    store.getState().guestReset('other');
    expect(store.getState()).toMatchObject({ token: 'other', phase: 'opening', project: null, photos: {}, epoch: 0 });
  });

  it('a hello of another protocol version stops the visit, asking for a reload', () => {
    const { store, feed } = setup();
    feed({ ...(hello() as Extract<ServerMsg, { type: 'guest_hello' }>), protocolVersion: PROTOCOL_VERSION + 1 });
    expect(store.getState().phase).toBe('outdated');
    expect(store.getState().project).toBeNull();
  });
});

describe('live events', () => {
  it('a newer project copy replaces the held one; an older one is ignored', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_updated', project: project({ progress: 60, version: 5 }), actor: null });
    expect(store.getState().project?.progress).toBe(60);
    event({ type: 'project_updated', project: project({ progress: 50, version: 4 }), actor: null });
    expect(store.getState().project?.progress).toBe(60);
  });

  it('ignores other projects’ events', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_updated', project: project({ id: 'p2', title: 'Other', version: 9 }), actor: null });
    event({ type: 'photo_added', photo: photo({ id: 'x', projectId: 'p2' }) });
    event({ type: 'timeline_added', entry: entry('t9', 5, 'p2') });
    const s = store.getState();
    expect(s.project?.title).toBe('Maple Street Residence');
    expect(s.photos.x).toBeUndefined();
    expect(s.timeline.entries).toEqual([]);
  });

  it('adds, updates and removes photos; a deleted photo does not come back', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'photo_added', photo: photo({ id: 'i3', caption: 'Roof on' }) });
    expect(store.getState().photos.i3.caption).toBe('Roof on');
    event({ type: 'photo_updated', photo: photo({ id: 'i3', caption: 'Roof trusses', version: 2 }) });
    expect(store.getState().photos.i3.caption).toBe('Roof trusses');
    event({ type: 'photo_deleted', id: 'i3', projectId: 'p1' });
    event({ type: 'photo_updated', photo: photo({ id: 'i3', caption: 'late copy', version: 3 }) });
    expect(store.getState().photos.i3).toBeUndefined();
  });

  it('keeps the newest milestone plan', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'milestones_changed', plan: plan(5, ['Foundation', 'Framing']) });
    expect(store.getState().plan?.milestones.map((m) => m.name)).toEqual(['Foundation', 'Framing']);
    event({ type: 'milestones_changed', plan: plan(4, ['stale']) });
    expect(store.getState().plan?.version).toBe(5);
  });

  it('a revoked or expired link ends the visit, and nothing after it is applied', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'session_ended', reason: 'revoked' });
    expect(store.getState().phase).toBe('inactive');
    event({ type: 'project_updated', project: project({ progress: 99, version: 50 }), actor: null });
    expect(store.getState().project?.progress).toBe(45);
    // A reconnect that slipped through does not revive it either.
    feed(hello());
    expect(store.getState().phase).toBe('inactive');
  });

  it('a deleted project ends the visit', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_deleted', id: 'p1', version: 9 });
    expect(store.getState().phase).toBe('inactive');
  });

  it('a report link’s hello holds its report, and one without keeps none', () => {
    const { store, feed } = setup();
    const report = { id: 'r1', pages: 3, byteSize: 4096, createdAt: 1, madeBy: 'Summit Homes', content: null, pdfUrl: '/api/reports/r1/pdf' };
    feed(hello({ access: { ...access, reportId: 'r1' }, photos: [], milestones: { projectId: 'p1', version: 0, milestones: [] }, report }));
    const s = store.getState();
    expect(s.phase).toBe('live');
    expect(s.report).toEqual(report);
    expect(s.access?.reportId).toBe('r1');
    expect(s.photos).toEqual({});
    feed(hello());
    expect(store.getState().report).toBeNull();
  });

  it('a report link ends like any link when it is revoked', () => {
    const { store, feed, event } = setup();
    const report = { id: 'r1', pages: 3, byteSize: 4096, createdAt: 1, madeBy: null, content: null, pdfUrl: '/api/reports/r1/pdf' };
    feed(hello({ access: { ...access, reportId: 'r1' }, photos: [], report }));
    event({ type: 'session_ended', reason: 'link_inactive' });
    expect(store.getState().phase).toBe('inactive');
  });

  it('a reconnect replaces what was held with the new hello', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'photo_deleted', id: 'i2', projectId: 'p1' });
    feed(hello({ photos: [photo({ id: 'i1' }), photo({ id: 'i4' })], project: project({ status: 'on-hold', version: 7 }) }));
    const s = store.getState();
    expect(Object.keys(s.photos).sort()).toEqual(['i1', 'i4']);
    expect(s.project?.status).toBe('on-hold');
    expect(s.epoch).toBe(2);
  });
});

describe('the timeline', () => {
  it('pages newest first, following the cursor, and pushes new entries on top', async () => {
    const { store, feed, event, sent, tracker, commands } = setup();
    feed(hello());
    const first = commands.loadTimeline(false);
    expect(store.getState().timeline.loading).toBe(true);
    expect(sent.at(-1)?.request).toEqual({ type: 'list_timeline', projectId: 'p1' });
    tracker.reply(sent.at(-1)!.id, { type: 'timeline', projectId: 'p1', entries: [entry('t3', 30), entry('t2', 20)], next: 'c2' });
    await first;
    expect(store.getState().timeline).toMatchObject({ loaded: true, loading: false, next: 'c2' });

    const older = commands.loadTimeline(true);
    expect(sent.at(-1)?.request).toEqual({ type: 'list_timeline', projectId: 'p1', before: 'c2' });
    tracker.reply(sent.at(-1)!.id, { type: 'timeline', projectId: 'p1', entries: [entry('t2', 20), entry('t1', 10)], next: null });
    await older;
    event({ type: 'timeline_added', entry: entry('t4', 40) });
    expect(store.getState().timeline.entries.map((e) => e.id)).toEqual(['t4', 't3', 't2', 't1']);
    expect(store.getState().timeline.next).toBeNull();

    // No older page to ask for.
    await commands.loadTimeline(true);
    expect(sent).toHaveLength(2);
  });

  it('an entry pushed while the first page is on its way is kept; one removed meanwhile stays out', async () => {
    const { store, feed, event, sent, tracker, commands } = setup();
    feed(hello());
    const loading = commands.loadTimeline(false);
    event({ type: 'timeline_added', entry: entry('t5', 50) });
    event({ type: 'timeline_removed', projectId: 'p1', id: 't2' });
    tracker.reply(sent[0].id, { type: 'timeline', projectId: 'p1', entries: [entry('t3', 30), entry('t2', 20)], next: null });
    await loading;
    expect(store.getState().timeline.entries.map((e) => e.id)).toEqual(['t5', 't3']);
  });

  it('after a reconnect the first page replaces entries the last connection held', async () => {
    const { store, feed, sent, tracker, commands } = setup();
    feed(hello());
    const a = commands.loadTimeline(false);
    tracker.reply(sent[0].id, { type: 'timeline', projectId: 'p1', entries: [entry('t3', 30), entry('gone', 20)], next: null });
    await a;
    feed(hello());
    // Still shown while the new page loads.
    expect(store.getState().timeline.entries).toHaveLength(2);
    const b = commands.loadTimeline(false);
    tracker.reply(sent[1].id, { type: 'timeline', projectId: 'p1', entries: [entry('t6', 60), entry('t3', 30)], next: null });
    await b;
    expect(store.getState().timeline.entries.map((e) => e.id)).toEqual(['t6', 't3']);
  });

  it('keeps a failure for the feed to show, and a reply from an older connection is dropped', async () => {
    const { store, feed, sent, tracker, commands } = setup();
    feed(hello());
    const failing = commands.loadTimeline(false);
    tracker.fail(sent[0].id, { code: 'internal', message: 'Failed to load the timeline' });
    await failing;
    expect(store.getState().timeline).toMatchObject({ loading: false, error: 'Failed to load the timeline' });

    const stale = commands.loadTimeline(false);
    feed(hello());
    tracker.reply(sent[1].id, { type: 'timeline', projectId: 'p1', entries: [entry('old', 1)], next: null });
    await stale;
    expect(store.getState().timeline.entries).toEqual([]);
  });
});

describe('search on the guest socket (issue 29)', () => {
  it('counts photo events, so open results run again, and ignores search_changed', () => {
    const { store, feed, event } = setup();
    feed(hello());
    const before = store.getState().photoChanges;
    event({ type: 'search_changed', projectId: 'p1' });
    expect(store.getState().photoChanges).toBe(before);
    event({ type: 'photo_updated', photo: photo({ id: 'i1', version: 2, tags: ['Kitchen'] }) });
    expect(store.getState().photos.i1.tags).toEqual(['Kitchen']);
    event({ type: 'photo_deleted', id: 'i2', projectId: 'p1' });
    expect(store.getState().photoChanges).toBe(before + 2);
  });

  it('asks for the link’s project, never watched', async () => {
    const { store, feed, sent, tracker, commands } = setup();
    feed(hello());
    const searching = commands.search('kitch');
    const last = sent[sent.length - 1];
    expect(last.request).toEqual({ type: 'search', query: 'kitch', projectId: 'p1', watch: false });
    const results = { query: 'kitch', projectId: 'p1', projects: [], photos: [], comments: [], people: [], morePhotos: false };
    tracker.reply(last.id, { type: 'search_results', results });
    expect(await searching).toEqual(results);
    expect(store.getState().phase).toBe('live');
  });
});
