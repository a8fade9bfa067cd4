import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { photo, profile, project } from '../testing/fixtures';
import { applyServerMsg } from './reducer';
import { RequestTracker } from './requests';
import { createSubscriptions } from './subscriptions';


function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  const me = profile({ id: 'h1' });
  applyServerMsg(
    { type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: me, snapshot: { projects: [project({})], users: [], online: [], companies: [] } },
    store.getState(),
    tracker,
  );
  const { openProject } = createSubscriptions(tracker, store.getState);
  const types = () => sent.map((m) => m.request.type);
  const answerSubscribe = (msg: ClientMsg) =>
    tracker.reply(msg.id, {
      type: 'subscribed',
      project: project({ progress: 60, version: 4 }),
      viewers: [{ id: 'a1', email: 'a@x', name: 'Alex', role: 'admin', createdAt: 0, company: null }],
      photos: [photo({ id: 'i1' })],
      favourites: ['i1'],
      milestones: { projectId: 'p1', milestones: [], version: 4 },
    });
  return { store, tracker, sent, types, openProject, answerSubscribe };
}

describe('project subscriptions', () => {
  it('the subscribe reply fills the project, its viewers, photos and favourites', async () => {
    const { store, sent, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    expect(sent[0].request).toEqual({ type: 'subscribe', id: 'p1' });
    answerSubscribe(sent[0]);
    await sub.ready;
    const s = store.getState();
    expect(s.projects.p1.progress).toBe(60);
    expect(s.viewers.p1.map((v) => v.id)).toEqual(['a1']);
    expect(Object.keys(s.photos.p1.byId)).toEqual(['i1']);
    expect(s.photos.p1.favourites).toEqual({ i1: true });
  });

  it('closing unsubscribes and drops the photos', async () => {
    const { store, sent, types, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    answerSubscribe(sent[0]);
    await sub.ready;
    sub.close();
    sub.close();
    expect(types()).toEqual(['subscribe', 'unsubscribe']);
    expect(store.getState().photos.p1).toBeUndefined();
  });

  it('a page closed before its reply unsubscribes once the reply comes', async () => {
    const { sent, types, openProject, answerSubscribe } = setup();
    const sub = openProject('p1');
    sub.close();
    expect(types()).toEqual(['subscribe']);
    answerSubscribe(sent[0]);
    await sub.ready;
    expect(types()).toEqual(['subscribe', 'unsubscribe']);
  });

  it('a second page on the same project keeps the subscription when the first goes (StrictMode)', async () => {
    const { store, sent, types, openProject, answerSubscribe } = setup();
    const first = openProject('p1');
    first.close();
    const second = openProject('p1');
    answerSubscribe(sent[0]);
    answerSubscribe(sent[1]);
    await Promise.all([first.ready, second.ready]);
    expect(types()).toEqual(['subscribe', 'subscribe']);
    expect(store.getState().photos.p1.loaded).toBe(true);
    second.close();
    expect(types()).toEqual(['subscribe', 'subscribe', 'unsubscribe']);
  });

  it("rejects with the server's error", async () => {
    const { tracker, sent, openProject } = setup();
    const sub = openProject('nope');
    tracker.fail(sent[0].id, { code: 'not_found', message: 'Project not found' });
    await expect(sub.ready).rejects.toMatchObject({ code: 'not_found', fromServer: true });
  });
});
