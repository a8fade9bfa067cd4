import { describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type Event, type GuestHello, type ServerMsg, type TimelineEntry } from '../protocol/types';
import { createAppStore } from '../store';
import { createGuestStore, type GuestActions } from '../store/guest';
import { markup, oneEventOfEach } from '../testing/events';
import { photo, profile, project } from '../testing/fixtures';
import { createGuestCommands } from './guestCommands';
import { applyGuestEvent, applyGuestServerMsg, guestSees, type GuestEvent } from './guestView';
import { applyServerMsg } from './reducer';
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
    photoCount: 2,
    nextPhotos: null,
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

describe('search on the guest socket', () => {
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

describe('the guest’s view of the one reducer', () => {
  /** The events a guest's page applies: the linked project's record and the link's end. */
  const GUEST_TYPES: readonly Event['type'][] = [
    'session_ended',
    'project_updated',
    'project_deleted',
    'milestones_changed',
    'timeline_added',
    'timeline_removed',
    'photo_added',
    'photo_updated',
    'photo_deleted',
    'markup_changed',
  ];
  const memberOnly = () => Object.values(oneEventOfEach()).filter((e) => !GUEST_TYPES.includes(e.type));

  /** Guest actions that only write down each call, with its arguments. */
  function recorder() {
    const called: unknown[][] = [];
    const actions = new Proxy({} as GuestActions, {
      get:
        (_, name) =>
        (...args: unknown[]) => {
          called.push([String(name), ...args]);
        },
    });
    return { actions, called };
  }

  it('sees the linked project’s record and nothing else, nor a type this build does not know', () => {
    const all = Object.values(oneEventOfEach());
    expect(all).toHaveLength(27);
    for (const e of all) expect(guestSees(e), e.type).toBe(GUEST_TYPES.includes(e.type));
    for (const type of ['brand_new_event', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(guestSees({ type } as unknown as Event), type).toBe(false);
    }
  });

  it('a member’s event is no guest event to the compiler either', () => {
    // @ts-expect-error search_changed is not among the events a guest applies
    const notAGuests: GuestEvent = { type: 'search_changed', projectId: 'p1' };
    expect(guestSees(notAGuests)).toBe(false);
  });

  it('an event a guest must not apply is ignored: no guest action runs and the visit stays as it was', () => {
    const { store, feed, event } = setup();
    feed(hello());
    const before = store.getState();
    const { actions, called } = recorder();
    expect(memberOnly()).toHaveLength(17);
    for (const e of [...memberOnly(), { type: 'brand_new_event' } as unknown as Event]) {
      applyGuestEvent(e, actions);
      event(e);
    }
    expect(called).toEqual([]);
    expect(store.getState()).toBe(before);
  });

  it('the same member-only events do reach a signed-in store', () => {
    const store = createAppStore();
    const tracker = new RequestTracker();
    const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
    feed({ type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'a1', role: 'admin' }), snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] } });
    const e = oneEventOfEach();
    feed({ type: 'event', event: e.project_created });
    feed({ type: 'event', event: e.user_created });
    feed({ type: 'event', event: e.company_changed });
    expect(store.getState().projects.p1?.progress).toBe(99);
    expect(store.getState().users.h3).toBeDefined();
    expect(store.getState().companies.c1).toBeDefined();
  });

  it('each event it applies reaches the guest store’s action, with the arguments the guest reducer gave it', () => {
    const e = oneEventOfEach();
    const cases: [Event, unknown[]][] = [
      [e.session_ended, ['guestEnded']],
      [e.project_updated, ['guestProjectUpdated', e.project_updated.project]],
      [e.project_deleted, ['guestProjectDeleted', 'p1']],
      [e.milestones_changed, ['guestMilestonesChanged', e.milestones_changed.plan]],
      [e.timeline_added, ['guestTimelineAdded', e.timeline_added.entry]],
      [e.timeline_removed, ['guestTimelineRemoved', 'p1', 't9']],
      [e.photo_added, ['guestPhotoUpserted', e.photo_added.photo]],
      [e.photo_updated, ['guestPhotoUpserted', e.photo_updated.photo]],
      [e.photo_deleted, ['guestPhotoRemoved', 'p1', 'i2']],
      [e.markup_changed, ['guestMarkupReceived', e.markup_changed.markup]],
    ];
    expect(cases.map(([event]) => event.type).sort()).toEqual([...GUEST_TYPES].sort());
    for (const [event, call] of cases) {
      const { actions, called } = recorder();
      applyGuestEvent(event, actions);
      expect(called, event.type).toEqual([call]);
    }
  });

  it('an event it applies leaves the guest’s project, plan, photos, markup and timeline as a member’s', () => {
    const member = createAppStore();
    const tracker = new RequestTracker();
    const toMember = (msg: ServerMsg) => applyServerMsg(msg, member.getState(), tracker);
    toMember({ type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: profile({ id: 'h1' }), snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [], online: [], companies: [] } });
    const m = () => member.getState();
    m().photosOpened('p1');
    m().photosListed('p1', [photo({ id: 'i1' }), photo({ id: 'i2' })], []);
    m().milestonesReplaced(plan(3));
    m().markupOpened('i1');
    m().timelinePage('p1', m().timelineLoading('p1'), [], null);

    const guest = setup();
    guest.feed(hello());
    const g = () => guest.store.getState();

    const events: Event[] = [
      { type: 'project_updated', project: project({ progress: 60, version: 5 }), actor: null },
      { type: 'project_updated', project: project({ progress: 50, version: 4 }), actor: null },
      { type: 'milestones_changed', plan: plan(5, ['Foundation', 'Framing']) },
      { type: 'milestones_changed', plan: plan(4, ['stale']) },
      { type: 'photo_added', photo: photo({ id: 'i3', caption: 'Roof on' }) },
      { type: 'photo_updated', photo: photo({ id: 'i3', caption: 'Roof trusses', version: 2 }) },
      { type: 'photo_deleted', id: 'i2', projectId: 'p1' },
      { type: 'photo_updated', photo: photo({ id: 'i2', caption: 'late copy', version: 3 }) },
      { type: 'photo_added', photo: photo({ id: 'x', projectId: 'p2' }) },
      { type: 'markup_changed', markup: markup(2, 2), actor: null },
      { type: 'markup_changed', markup: markup(1, 5), actor: null },
      { type: 'timeline_added', entry: entry('t1', 10) },
      { type: 'timeline_added', entry: entry('t2', 20) },
      { type: 'timeline_removed', projectId: 'p1', id: 't1' },
      { type: 'timeline_added', entry: entry('t1', 10) },
    ];
    for (const e of events) {
      toMember({ type: 'event', event: e });
      guest.event(e);
    }

    expect(g().project).toMatchObject({ progress: 60, version: 5 });
    expect(g().project).toEqual(m().projects.p1);
    expect(g().plan?.version).toBe(5);
    expect(g().plan).toEqual(m().milestones.p1);
    expect(Object.keys(g().photos).sort()).toEqual(['i1', 'i3']);
    expect(g().photos.i1.markupCount).toBe(2);
    expect(g().photos).toEqual(m().photos.p1.byId);
    expect(g().markups.i1.version).toBe(2);
    expect(g().markups.i1).toEqual(m().markups.i1.doc);
    expect(g().timeline.entries.map((t) => t.id)).toEqual(['t2']);
    expect(g().timeline.entries).toEqual(m().timelines.p1.entries);
  });
});

describe('a big project’s older photos', () => {
  it('are read page by page after the hello, keeping what live events did meanwhile', async () => {
    const { store, feed, event, sent, commands } = setup();
    feed(hello({ photos: [photo({ id: 'i1' })], photoCount: 4, nextPhotos: 'c1' }));
    expect(store.getState().photoPaging).toMatchObject({ next: 'c1', total: 4, loading: true });
    const loading = commands.loadPhotos();
    await Promise.resolve();
    const first = sent.at(-1)!;
    expect(first.request).toEqual({ type: 'list_photos', projectId: project({}).id, after: 'c1' });
    // Deleted while its page was on the way: it stays gone.
    event({ type: 'photo_deleted', id: 'i3', projectId: project({}).id });
    feed({ type: 'reply', id: first.id, response: { type: 'photos', projectId: project({}).id, photos: [photo({ id: 'i2' }), photo({ id: 'i3' })], favourites: [], next: 'c2' } });
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    const second = sent.at(-1)!;
    expect(second.request).toMatchObject({ type: 'list_photos', after: 'c2' });
    feed({ type: 'reply', id: second.id, response: { type: 'photos', projectId: project({}).id, photos: [photo({ id: 'i4' })], favourites: [], next: null } });
    await loading;
    expect(Object.keys(store.getState().photos).sort()).toEqual(['i1', 'i2', 'i4']);
    expect(store.getState().photoPaging).toMatchObject({ next: null, loading: false, failed: false });
  });

  it('a new connection’s hello ends the last one’s reading', async () => {
    const { store, feed, sent, commands } = setup();
    feed(hello({ photos: [photo({ id: 'i1' })], photoCount: 3, nextPhotos: 'c1' }));
    const loading = commands.loadPhotos();
    await Promise.resolve();
    const asked = sent.at(-1)!;
    feed(hello({ photos: [photo({ id: 'i1' })], photoCount: 1, nextPhotos: null }));
    feed({ type: 'reply', id: asked.id, response: { type: 'photos', projectId: project({}).id, photos: [photo({ id: 'old' })], favourites: [], next: 'c2' } });
    await loading;
    expect(Object.keys(store.getState().photos)).toEqual(['i1']);
    expect(sent).toHaveLength(1);
  });
});
