import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type Event, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { plan, profile, project, timelineEntry } from '../testing/fixtures';
import { createCommands } from './commands';
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
  const ids = () => (store.getState().timelines.p1?.entries ?? []).map((e) => e.id);
  return { store, tracker, sent, feed, event, hello, commands, last, ids };
}

const entry = (id: string, createdAt: number) => timelineEntry({ id, createdAt });

describe('milestones: the plan with the highest version wins', () => {
  it('the subscribe reply fills the plan', async () => {
    const { store, tracker, last } = setup();
    const { openProject } = createSubscriptions(tracker, store.getState);
    const sub = openProject('p1');
    tracker.reply(last().id, {
      type: 'subscribed',
      project: project({ version: 4 }),
      viewers: [],
      photos: [],
      favourites: [],
      milestones: plan(['Foundation', 'Framing'], {}, 4),
      nextPhotos: null,
      photoCount: 0,
    });
    await sub.ready;
    expect(store.getState().milestones.p1.milestones.map((m) => m.name)).toEqual(['Foundation', 'Framing']);
  });

  it('milestones_changed replaces an older plan and is ignored when older', () => {
    const { store, event } = setup();
    event({ type: 'milestones_changed', plan: plan(['A'], {}, 5) });
    event({ type: 'milestones_changed', plan: plan(['A', 'B'], {}, 7) });
    expect(store.getState().milestones.p1.version).toBe(7);
    event({ type: 'milestones_changed', plan: plan(['stale'], {}, 6) });
    expect(store.getState().milestones.p1.milestones.map((m) => m.name)).toEqual(['A', 'B']);
  });

  it('a command sends its request and applies the reply; an event that overtook it stays', async () => {
    const { store, tracker, event, commands, last } = setup();
    const completing = commands.setMilestoneDone({ id: 'm1', done: true, doneDate: '2026-11-20' });
    expect(last().request).toEqual({ type: 'set_milestone_done', id: 'm1', done: true, doneDate: '2026-11-20' });
    event({ type: 'milestones_changed', plan: plan(['A', 'B'], { 0: { doneDate: '2026-11-20' }, 1: { doneDate: '2026-11-21' } }, 9) });
    tracker.reply(last().id, { type: 'milestones', plan: plan(['A', 'B'], { 0: { doneDate: '2026-11-20' } }, 8) });
    const result = await completing;
    expect(result.version).toBe(9);
    expect(store.getState().milestones.p1.milestones[1].doneDate).toBe('2026-11-21');
  });

  it('requests omit optional fields instead of sending undefined', () => {
    const { commands, last } = setup();
    void commands.addMilestone({ projectId: 'p1', name: 'Roofing' });
    expect(last().request).toEqual({ type: 'add_milestone', projectId: 'p1', name: 'Roofing' });
    expect('targetDate' in last().request).toBe(false);
  });
});

describe('timeline: pages and live entries', () => {
  it('pages older entries by the cursor, without gaps or repeats', async () => {
    const { tracker, commands, last, ids, store } = setup();
    const first = commands.loadTimeline('p1');
    expect(last().request).toEqual({ type: 'list_timeline', projectId: 'p1' });
    expect(store.getState().timelines.p1.loading).toBe(true);
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e5', 50), entry('e4', 40)], next: 'c4' });
    await first;
    expect(ids()).toEqual(['e5', 'e4']);
    expect(store.getState().timelines.p1).toMatchObject({ hasMore: true, loading: false, loaded: true });

    const second = commands.loadTimeline('p1');
    expect(last().request).toEqual({ type: 'list_timeline', projectId: 'p1', before: 'c4' });
    // A page that repeats an entry (an overlap) shows it once.
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e4', 40), entry('e3', 30), entry('e2', 20)], next: null });
    await second;
    expect(ids()).toEqual(['e5', 'e4', 'e3', 'e2']);
    expect(store.getState().timelines.p1.hasMore).toBe(false);

    // At the first entry nothing more is asked for.
    const count = tracker.inFlight;
    await commands.loadTimeline('p1');
    expect(tracker.inFlight).toBe(count);
  });

  it('a live entry goes on top once, even when the page brings it again', async () => {
    const { tracker, commands, event, last, ids } = setup();
    const first = commands.loadTimeline('p1');
    // Added while the first page was on its way, and read into that page too.
    event({ type: 'timeline_added', entry: entry('e6', 60) });
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e6', 60), entry('e5', 50)], next: 'c5' });
    await first;
    expect(ids()).toEqual(['e6', 'e5']);
    event({ type: 'timeline_added', entry: entry('e7', 70) });
    event({ type: 'timeline_added', entry: entry('e7', 70) });
    expect(ids()).toEqual(['e7', 'e6', 'e5']);
  });

  it('timeline_removed takes an entry out, and a later page cannot bring it back', async () => {
    const { tracker, commands, event, last, ids } = setup();
    const first = commands.loadTimeline('p1');
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e5', 50), entry('e4', 40)], next: 'c4' });
    await first;
    event({ type: 'timeline_removed', projectId: 'p1', id: 'e4' });
    expect(ids()).toEqual(['e5']);
    const older = commands.loadTimeline('p1');
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e4', 40), entry('e3', 30)], next: null });
    await older;
    expect(ids()).toEqual(['e5', 'e3']);
  });

  it('entries of a project whose timeline is not open are not kept', () => {
    const { event, store } = setup();
    event({ type: 'timeline_added', entry: entry('e1', 10) });
    expect(store.getState().timelines.p1).toBeUndefined();
  });

  it('a failed page keeps what is held and says why; the retry asks for the same page', async () => {
    const { tracker, commands, last, store } = setup();
    const first = commands.loadTimeline('p1');
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e5', 50)], next: 'c5' });
    await first;
    const older = commands.loadTimeline('p1');
    tracker.fail(last().id, { code: 'internal', message: 'Something went wrong', fields: [] });
    await older;
    expect(store.getState().timelines.p1).toMatchObject({ error: 'Something went wrong', loading: false, hasMore: true });
    void commands.loadTimeline('p1');
    expect(last().request).toEqual({ type: 'list_timeline', projectId: 'p1', before: 'c5' });
    expect(store.getState().timelines.p1.error).toBeNull();
  });

  it('a new Hello starts the timeline over; a reply from before it is dropped', async () => {
    const { tracker, commands, hello, last, store } = setup();
    const first = commands.loadTimeline('p1');
    const staleId = last().id;
    hello();
    expect(store.getState().timelines.p1).toBeUndefined();
    const again = commands.loadTimeline('p1');
    tracker.reply(staleId, { type: 'timeline', projectId: 'p1', entries: [entry('old', 1)], next: null });
    await first;
    expect(store.getState().timelines.p1.entries).toEqual([]);
    tracker.reply(last().id, { type: 'timeline', projectId: 'p1', entries: [entry('e9', 90)], next: null });
    await again;
    expect(store.getState().timelines.p1.entries.map((e) => e.id)).toEqual(['e9']);
  });
});
