import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type Event, type Hello, type Profile, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { applyEvent, applyProjectEvent, applyServerMsg, isProjectEvent, speaksOurProtocol, unknownEvent, type SyncActions } from './reducer';
import { RequestTracker } from './requests';
import { oneEventOfEach } from '../testing/events';
import { company, profile, project } from '../testing/fixtures';


const admin = profile({ id: 'a1', role: 'admin', firstName: 'Alex', lastName: 'Morgan', version: 2 });
const jamie = profile({ id: 'h1', firstName: 'Jamie', lastName: 'Carter', version: 4 });
const priya = profile({ id: 'h2', firstName: 'Priya', lastName: 'Shah', version: 1 });

function hello(over: Partial<Hello['snapshot']> = {}, user: Profile = admin): ServerMsg {
  return {
    type: 'hello',
    protocolVersion: PROTOCOL_VERSION,
    serverTime: 0,
    user,
    snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [jamie, priya], online: ['h1'], companies: [], ...over },
  };
}

/** A fresh store and a function that feeds it frames the way the socket does. */
function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  const event = (e: Event) => feed({ type: 'event', event: e });
  return { store, feed, event };
}

describe('hello snapshot', () => {
  it('fills session, projects, users and presence', () => {
    const { store, feed } = setup();
    feed(hello());
    const s = store.getState();
    expect(s.user?.id).toBe('a1');
    expect(s.sessionStatus).toBe('authenticated');
    expect(Object.keys(s.projects)).toEqual(['p1']);
    expect(s.projectsLoaded).toBe(true);
    expect(Object.keys(s.users).sort()).toEqual(['h1', 'h2']);
    expect(s.online).toEqual({ h1: true });
    expect(s.liveEpoch).toBe(1);
    expect(s.connection).toBe('open');
  });

  it('replaces everything on reconnect: nothing held from before survives', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'viewers', projectId: 'p1', viewers: [{ id: 'h1', email: 'x', name: null, role: 'homeowner', createdAt: 0, company: null }] });
    event({ type: 'project_deleted', id: 'gone', version: 9 });
    // While offline: p1 changed, p2 appeared, Priya was deleted, Jamie went offline.
    feed(hello({ projects: [project({ status: 'on-hold', version: 4 }), project({ id: 'p2', version: 1 })], users: [jamie], online: [] }));
    const s = store.getState();
    expect(s.projects.p1.status).toBe('on-hold');
    expect(Object.keys(s.projects).sort()).toEqual(['p1', 'p2']);
    expect(Object.keys(s.users)).toEqual(['h1']);
    expect(s.online).toEqual({});
    expect(s.viewers).toEqual({});
    expect(s.projectTombstones).toEqual({});
    expect(s.liveEpoch).toBe(2);
  });

  it('replaces even when the snapshot holds older versions (server restored from backup)', () => {
    const { store, feed } = setup();
    feed(hello({ projects: [project({ version: 9, progress: 90 })] }));
    feed(hello({ projects: [project({ version: 2, progress: 20 })] }));
    expect(store.getState().projects.p1.progress).toBe(20);
  });
});

describe('protocol version', () => {
  it('follows only a server that speaks the version this build was made for', () => {
    expect(speaksOurProtocol({ protocolVersion: PROTOCOL_VERSION })).toBe(true);
    expect(speaksOurProtocol({ protocolVersion: PROTOCOL_VERSION + 1 })).toBe(false);
    expect(speaksOurProtocol({ protocolVersion: 2 }, 2)).toBe(true);
    expect(speaksOurProtocol({ protocolVersion: 1 }, 2)).toBe(false);
  });

  it('a Hello of another version applies nothing and marks the app outdated for good', () => {
    const { store, feed } = setup();
    feed(hello());
    const newer = { ...hello({ projects: [] }), protocolVersion: PROTOCOL_VERSION + 1 } as ServerMsg;
    feed(newer);
    const s = store.getState();
    expect(s.connection).toBe('outdated');
    // What was on screen stays (behind the reload notice); the foreign snapshot is not read.
    expect(Object.keys(s.projects)).toEqual(['p1']);
    expect(s.liveEpoch).toBe(1);
    // The socket closing afterwards does not turn it into "reconnecting".
    s.connectionChanged('reconnecting');
    expect(store.getState().connection).toBe('outdated');
  });

  it('a first Hello of another version signs nothing in', () => {
    const { store, feed } = setup();
    feed({ ...hello(), protocolVersion: PROTOCOL_VERSION - 1 } as ServerMsg);
    expect(store.getState().connection).toBe('outdated');
    expect(store.getState().projectsLoaded).toBe(false);
    expect(store.getState().liveEpoch).toBe(0);
  });
});

describe('project events', () => {
  it('project_created adds, project_updated replaces a newer version', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_created', project: project({ id: 'p2', title: 'Lakeview Cottage', version: 1 }) });
    expect(store.getState().projects.p2.title).toBe('Lakeview Cottage');
    event({ type: 'project_updated', project: project({ status: 'completed', progress: 100, version: 4 }), actor: null });
    expect(store.getState().projects.p1).toMatchObject({ status: 'completed', progress: 100, version: 4 });
  });

  it('ignores an update older than what is held, and accepts the same version', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_updated', project: project({ status: 'planning', version: 2 }), actor: null });
    expect(store.getState().projects.p1.status).toBe('in-progress');
    event({ type: 'project_updated', project: project({ status: 'on-hold', version: 3 }), actor: null });
    expect(store.getState().projects.p1.status).toBe('on-hold');
  });

  it('project_deleted removes it; an older update cannot bring it back, a newer one can', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_deleted', id: 'p1', version: 5 });
    expect(store.getState().projects.p1).toBeUndefined();
    event({ type: 'project_updated', project: project({ version: 4 }), actor: null });
    expect(store.getState().projects.p1).toBeUndefined();
    // Back in view later (e.g. reassigned to this builder again) with a newer version.
    event({ type: 'project_created', project: project({ version: 6 }) });
    expect(store.getState().projects.p1.version).toBe(6);
  });

  it('project_updated adds a project not held: crew just put on it', () => {
    const { store, feed, event } = setup();
    feed(hello({ projects: [] }));
    event({ type: 'project_updated', project: project({ id: 'p2', crew: ['k1'], version: 7 }), actor: null });
    expect(store.getState().projects.p2).toMatchObject({ crew: ['k1'], version: 7 });
    // Taken off the crew again: it leaves their view; put back on later, it returns.
    event({ type: 'project_deleted', id: 'p2', version: 8 });
    expect(store.getState().projects.p2).toBeUndefined();
    event({ type: 'project_updated', project: project({ id: 'p2', crew: ['k1'], version: 9 }), actor: null });
    expect(store.getState().projects.p2?.version).toBe(9);
  });

  it('ignores a deletion older than the copy held', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'project_deleted', id: 'p1', version: 2 });
    expect(store.getState().projects.p1).toBeDefined();
  });

  it('viewers events set who is looking at a project; deletion clears them', () => {
    const { store, feed, event } = setup();
    feed(hello());
    const viewer = { id: 'h1', email: 'homeowner@sitecast.demo', name: 'Jamie Carter', role: 'homeowner' as const, createdAt: 0, company: null };
    event({ type: 'viewers', projectId: 'p1', viewers: [viewer] });
    expect(store.getState().viewers.p1).toEqual([viewer]);
    event({ type: 'project_deleted', id: 'p1', version: 10 });
    expect(store.getState().viewers.p1).toBeUndefined();
  });
});

describe('user events', () => {
  it('user_created and user_updated upsert with version checks', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'user_created', user: profile({ id: 'h3', firstName: 'Sam', version: 1 }) });
    expect(store.getState().users.h3.firstName).toBe('Sam');
    event({ type: 'user_updated', user: { ...jamie, phone: '555', version: 5 } });
    expect(store.getState().users.h1.phone).toBe('555');
    event({ type: 'user_updated', user: { ...jamie, phone: 'stale', version: 3 } });
    expect(store.getState().users.h1.phone).toBe('555');
  });

  it('user_updated for the signed-in user updates the session, not the directory', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'user_updated', user: { ...admin, firstName: 'Alexandra', version: 3 } });
    expect(store.getState().user?.firstName).toBe('Alexandra');
    expect(store.getState().users.a1).toBeUndefined();
    event({ type: 'user_updated', user: { ...admin, firstName: 'Old', version: 1 } });
    expect(store.getState().user?.firstName).toBe('Alexandra');
  });

  it('user_deleted removes the user and their presence; stale deletions are ignored', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'user_deleted', id: 'h1', version: 1 });
    expect(store.getState().users.h1).toBeDefined();
    event({ type: 'user_deleted', id: 'h1', version: 5 });
    expect(store.getState().users.h1).toBeUndefined();
    expect(store.getState().online.h1).toBeUndefined();
    event({ type: 'user_updated', user: { ...jamie, version: 5 } });
    expect(store.getState().users.h1).toBeUndefined();
  });

  it('presence toggles the online set', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'presence', userId: 'h2', online: true });
    expect(store.getState().online).toEqual({ h1: true, h2: true });
    event({ type: 'presence', userId: 'h1', online: false });
    expect(store.getState().online).toEqual({ h2: true });
  });
});

describe('company events', () => {
  it('the snapshot replaces the companies held, on every hello', () => {
    const { store, feed, event } = setup();
    feed(hello({ companies: [company({})] }));
    expect(Object.keys(store.getState().companies)).toEqual(['c1']);
    expect(store.getState().companiesLoaded).toBe(true);
    event({ type: 'company_deleted', id: 'c1', version: 5 });
    feed(hello({ companies: [company({ id: 'c2', name: 'Birch & Co' })] }));
    expect(Object.keys(store.getState().companies)).toEqual(['c2']);
    expect(store.getState().companyTombstones).toEqual({});
  });

  it('company_changed adds or replaces by version; an older copy is ignored', () => {
    const { store, feed, event } = setup();
    feed(hello({ companies: [company({ version: 3 })] }));
    event({ type: 'company_changed', company: company({ name: 'Summit Homes Ltd', version: 4 }) });
    expect(store.getState().companies.c1.name).toBe('Summit Homes Ltd');
    event({ type: 'company_changed', company: company({ name: 'Stale', version: 2 }) });
    expect(store.getState().companies.c1.name).toBe('Summit Homes Ltd');
    event({ type: 'company_changed', company: company({ id: 'c2', name: 'Birch & Co', version: 1 }) });
    expect(store.getState().companies.c2.name).toBe('Birch & Co');
  });

  it('company_deleted removes it; an update it overtook cannot bring it back', () => {
    const { store, feed, event } = setup();
    feed(hello({ companies: [company({ version: 3 })] }));
    event({ type: 'company_deleted', id: 'c1', version: 2 });
    expect(store.getState().companies.c1).toBeDefined();
    event({ type: 'company_deleted', id: 'c1', version: 4 });
    expect(store.getState().companies.c1).toBeUndefined();
    event({ type: 'company_changed', company: company({ version: 4 }) });
    expect(store.getState().companies.c1).toBeUndefined();
  });
});

describe('session', () => {
  it('session_ended signs out and clears the mirror', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'session_ended', reason: 'password_changed' });
    const s = store.getState();
    expect(s.sessionStatus).toBe('anonymous');
    expect(s.signOutReason).toBe('revoked');
    expect(s.projects).toEqual({});
    expect(s.users).toEqual({});
    expect(s.online).toEqual({});
  });

  it('session_ended for a removal from the company says so', () => {
    const { store, feed, event } = setup();
    feed(hello({ companies: [company({})] }));
    event({ type: 'session_ended', reason: 'removed_from_company' });
    expect(store.getState()).toMatchObject({ sessionStatus: 'anonymous', signOutReason: 'removed', companies: {} });
  });

  it('session_ended from another device says so, and the close that follows does not overwrite it', () => {
    const { store, feed, event } = setup();
    feed(hello());
    event({ type: 'session_ended', reason: 'signed_out_elsewhere' });
    expect(store.getState()).toMatchObject({ sessionStatus: 'anonymous', signOutReason: 'elsewhere', projects: {} });
    // The socket then closes with 4401, which reads as a plain revocation.
    store.getState().signedOut('revoked');
    expect(store.getState().signOutReason).toBe('elsewhere');
  });

  it('a homeowner sees nobody else', () => {
    const { store, feed } = setup();
    feed(hello({ users: [], online: [] }, jamie));
    expect(store.getState().user?.role).toBe('homeowner');
    expect(store.getState().users).toEqual({});
  });
});

describe('every event type has its case', () => {
  it('a switch over events ends in unknownEvent, which compiles only once every type is handled', () => {
    const event: Event = { type: 'session_ended', reason: 'x' };
    // @ts-expect-error an Event is not `never`: a switch that misses an event type does not compile
    unknownEvent(event);
  });

  it('a newer server’s event is ignored at run time', () => {
    const { store } = setup();
    const before = store.getState();
    applyEvent({ type: 'brand_new_event' } as unknown as Event, store.getState());
    expect(store.getState()).toBe(before);
  });

  it('a project’s record goes through the handling a guest’s page shares; every event reaches an action', () => {
    /** Store actions that only write down each call; no signed-in user, so every profile is someone else's. */
    const recorder = () => {
      const called: unknown[][] = [];
      const actions = new Proxy({} as SyncActions, {
        get: (_, name) =>
          name === 'user'
            ? null
            : (...args: unknown[]) => {
                called.push([String(name), ...args]);
              },
      });
      return { actions, called };
    };
    const all = Object.values(oneEventOfEach());
    expect(all.filter(isProjectEvent).map((e) => e.type).sort()).toEqual(
      ['markup_changed', 'milestones_changed', 'photo_added', 'photo_deleted', 'photo_updated', 'project_created', 'project_deleted', 'project_updated', 'session_ended', 'timeline_added', 'timeline_removed'],
    );
    for (const e of all) {
      const member = recorder();
      applyEvent(e, member.actions);
      expect(member.called.length, e.type).toBeGreaterThan(0);
      if (!isProjectEvent(e)) continue;
      const shared = recorder();
      applyProjectEvent(e, shared.actions);
      expect(member.called, e.type).toEqual(shared.called);
    }
  });
});
