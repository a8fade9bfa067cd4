import { describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, type ClientMsg, type ServerMsg } from '../protocol/types';
import { createAppStore } from '../store';
import { company, member, photo, profile, project } from '../testing/fixtures';
import { afterPageFailure, createCommands, PHOTO_PAGE_BUSY_MS, PHOTO_PAGE_RETRY_MS, TAG_CHUNK } from './commands';
import { applyServerMsg } from './reducer';
import { RequestError, RequestTracker } from './requests';

const admin = profile({ id: 'a1', role: 'admin', firstName: 'Alex', version: 2 });
const jamie = profile({ id: 'h1', firstName: 'Jamie', version: 4 });


/** A signed-in admin's store, commands bound to it, and the frames they sent. */
function setup() {
  const store = createAppStore();
  const tracker = new RequestTracker();
  const sent: ClientMsg[] = [];
  tracker.attach((msg) => sent.push(msg));
  const feed = (msg: ServerMsg) => applyServerMsg(msg, store.getState(), tracker);
  feed({ type: 'hello', protocolVersion: PROTOCOL_VERSION, serverTime: 0, user: admin, snapshot: { projects: [project({})], projectCount: 1, nextProjects: null, users: [jamie], online: [], companies: [] } });
  const commands = createCommands(tracker, store.getState);
  const last = () => sent[sent.length - 1];
  return { store, tracker, feed, commands, sent, last };
}

describe('commands', () => {
  it('send the request and apply the reply, typed by the pairing', async () => {
    const { store, tracker, commands, last } = setup();
    const saving = commands.updateProject({ id: 'p1', status: 'on-hold' });
    expect(last().request).toEqual({ type: 'update_project', id: 'p1', status: 'on-hold' });
    tracker.reply(last().id, { type: 'project', project: project({ status: 'on-hold', version: 4 }) });
    expect((await saving).status).toBe('on-hold');
    expect(store.getState().projects.p1).toMatchObject({ status: 'on-hold', version: 4 });
  });

  it('a reply older than the event that overtook it changes nothing', async () => {
    const { store, tracker, feed, commands, last } = setup();
    const saving = commands.updateProject({ id: 'p1', progress: 50 });
    // Another admin's later change reaches this tab before our own reply does.
    feed({ type: 'event', event: { type: 'project_updated', project: project({ progress: 70, version: 5 }), actor: null } });
    tracker.reply(last().id, { type: 'project', project: project({ progress: 50, version: 4 }) });
    await saving;
    expect(store.getState().projects.p1).toMatchObject({ progress: 70, version: 5 });
  });

  it('user replies go to the directory, or to the session for the signed-in user', async () => {
    const { store, tracker, commands, last } = setup();
    const editing = commands.updateUser({ id: 'h1', phone: '555' });
    tracker.reply(last().id, { type: 'user', user: { ...jamie, phone: '555', version: 5 } });
    await editing;
    expect(store.getState().users.h1.phone).toBe('555');

    const profileSaving = commands.updateProfile({ firstName: 'Alexandra', lastName: '', phone: '' });
    tracker.reply(last().id, { type: 'user', user: { ...admin, firstName: 'Alexandra', version: 3 } });
    await profileSaving;
    expect(store.getState().user?.firstName).toBe('Alexandra');
    expect(store.getState().users.a1).toBeUndefined();
  });

  it('company replies go in like company_changed, an invitation with what the dialog asked', async () => {
    const { store, tracker, commands, last } = setup();
    const creating = commands.createCompany('Birch & Co');
    expect(last().request).toEqual({ type: 'create_company', name: 'Birch & Co' });
    tracker.reply(last().id, { type: 'company', company: company({ id: 'c2', name: 'Birch & Co', members: [], projectCount: 0 }) });
    await creating;
    expect(store.getState().companies.c2.name).toBe('Birch & Co');

    const inviting = commands.inviteMember({ companyId: 'c2', email: 'sam@example.com', name: 'Sam Lee', phone: '', companyRole: 'crew', allProjects: true });
    expect(last().request).toEqual({ type: 'invite_member', companyId: 'c2', email: 'sam@example.com', name: 'Sam Lee', phone: '', companyRole: 'crew', allProjects: true });
    const invited = member({ id: 'k9', name: 'Sam Lee', invited: true, allProjects: true });
    tracker.reply(last().id, { type: 'company', company: company({ id: 'c2', name: 'Birch & Co', members: [invited], version: 2 }) });
    await inviting;
    expect(store.getState().companies.c2.members).toEqual([invited]);
  });

  it('creating a builder reads the companies again: their own company is new', async () => {
    const { store, tracker, commands, sent, last } = setup();
    const creating = commands.createUser({ role: 'builder', email: 'oak@example.com', firstName: '', lastName: '', name: 'Oak & Co', phone: '555', builderId: null });
    const builder = profile({ id: 'b9', role: 'builder', name: 'Oak & Co', companyId: 'c9', companyRole: 'owner' });
    tracker.reply(last().id, { type: 'user', user: builder });
    await vi.waitFor(() => expect(last().request).toEqual({ type: 'list_companies' }));
    tracker.reply(last().id, { type: 'companies', companies: [company({ id: 'c9', name: 'Oak & Co', members: [] })] });
    expect((await creating).id).toBe('b9');
    expect(store.getState().companies.c9.name).toBe('Oak & Co');
    // A homeowner asks for nothing more.
    const count = sent.length;
    const homeowner = commands.createUser({ role: 'homeowner', email: 'h@example.com', firstName: 'A', lastName: 'B', name: 'A B', phone: '555', builderId: null });
    tracker.reply(last().id, { type: 'user', user: profile({ id: 'h9' }) });
    await homeowner;
    expect(sent.length).toBe(count + 1);
  });

  it('a crew reply updates the project; impact and deletion answer without touching the store', async () => {
    const { store, tracker, commands, last } = setup();
    const setting = commands.setProjectCrew('p1', ['k1']);
    expect(last().request).toEqual({ type: 'set_project_crew', projectId: 'p1', userIds: ['k1'] });
    tracker.reply(last().id, { type: 'project', project: project({ crew: ['k1'], version: 4 }) });
    await setting;
    expect(store.getState().projects.p1.crew).toEqual(['k1']);

    const counting = commands.companyDeletionImpact('c1');
    tracker.reply(last().id, { type: 'company_deletion_impact', projects: 3, photos: 14, members: 3 });
    expect(await counting).toEqual({ projects: 3, photos: 14, members: 3 });
  });

  it('a reply of the wrong type rejects and applies nothing', async () => {
    const { store, tracker, commands, last } = setup();
    const creating = commands.createProject({ title: 'T', description: '', address: 'A', homeownerId: 'h1', builderId: null, status: 'planning', progress: 0 });
    tracker.reply(last().id, { type: 'done' });
    await expect(creating).rejects.toMatchObject({ code: 'unexpected_reply' });
    expect(Object.keys(store.getState().projects)).toEqual(['p1']);
  });

  it('setFavourite is optimistic and reverts when the server refuses', async () => {
    const { store, tracker, commands, last } = setup();
    store.getState().photosOpened('p1');
    store.getState().photosListed('p1', [photo({ id: 'i1' })], []);
    const refused = commands.setFavourite(photo({ id: 'i1' }), true);
    expect(store.getState().photos.p1.favourites).toEqual({ i1: true });
    tracker.fail(last().id, { code: 'forbidden', message: 'No.' });
    await expect(refused).rejects.toMatchObject({ code: 'forbidden' });
    expect(store.getState().photos.p1.favourites).toEqual({});

    const accepted = commands.setFavourite(photo({ id: 'i1' }), true);
    tracker.reply(last().id, { type: 'done' });
    await accepted;
    expect(store.getState().photos.p1.favourites).toEqual({ i1: true });
  });

  it('photo edits, deletions and refreshes reach the open project', async () => {
    const { store, tracker, commands, last } = setup();
    store.getState().photosOpened('p1');
    store.getState().photosListed('p1', [photo({ id: 'i1' }), photo({ id: 'i2' })], []);

    const editing = commands.updatePhoto({ id: 'i1', caption: 'Framing' });
    tracker.reply(last().id, { type: 'photo', photo: photo({ id: 'i1', caption: 'Framing', version: 2 }) });
    await editing;
    expect(store.getState().photos.p1.byId.i1.caption).toBe('Framing');

    const deleting = commands.deletePhoto(photo({ id: 'i2' }));
    tracker.reply(last().id, { type: 'done' });
    await deleting;
    expect(Object.keys(store.getState().photos.p1.byId)).toEqual(['i1']);

    const refreshing = commands.refreshPhotos('p1');
    expect(last().request).toEqual({ type: 'list_photos', projectId: 'p1' });
    tracker.reply(last().id, { type: 'photos', projectId: 'p1', photos: [photo({ id: 'i1', version: 1 }), photo({ id: 'i2' })], favourites: ['i1'], next: null });
    await refreshing;
    // The older copy and the photo deleted meanwhile do not come back.
    expect(store.getState().photos.p1.byId.i1.caption).toBe('Framing');
    expect(Object.keys(store.getState().photos.p1.byId)).toEqual(['i1']);
    expect(store.getState().photos.p1.favourites).toEqual({ i1: true });
  });
});

describe('guest link commands', () => {
  const link = {
    id: 'l1',
    projectId: 'p1',
    photos: 'favourites' as const,
    downloads: false,
    expiresAt: null,
    createdAt: 1,
    createdBy: null,
    revokedAt: null,
    lastOpenedAt: null,
    reportId: null,
  };

  it('create, list and revoke send what the Share dialog chose and hand back the one-time URL', async () => {
    const { tracker, commands, last } = setup();
    const creating = commands.createGuestLink({ projectId: 'p1', photos: 'favourites', downloads: false });
    expect(last().request).toEqual({ type: 'create_guest_link', projectId: 'p1', photos: 'favourites', downloads: false });
    tracker.reply(last().id, { type: 'guest_link_created', link, url: 'http://site/guest/secret' });
    expect(await creating).toEqual({ link, url: 'http://site/guest/secret' });

    const listing = commands.listGuestLinks('p1');
    expect(last().request).toEqual({ type: 'list_guest_links', projectId: 'p1' });
    tracker.reply(last().id, { type: 'guest_links', projectId: 'p1', links: [link] });
    expect(await listing).toEqual([link]);

    const revoking = commands.revokeGuestLink('l1');
    expect(last().request).toEqual({ type: 'revoke_guest_link', id: 'l1' });
    tracker.fail(last().id, { code: 'forbidden', message: 'You can only revoke your own links' });
    await expect(revoking).rejects.toMatchObject({ code: 'forbidden', fromServer: true });
  });
});

describe('tags and search commands', () => {
  it('tag_photos sends one request and applies the tagged photos', async () => {
    const { store, tracker, commands, last } = setup();
    store.getState().photosOpened('p1');
    store.getState().photosListed('p1', [photo({ id: 'a' }), photo({ id: 'b' })], []);
    const tagging = commands.tagPhotos({ projectId: 'p1', imageIds: ['a', 'b'], addTags: ['Kitchen'], removeTags: [] });
    expect(last().request).toEqual({ type: 'tag_photos', projectId: 'p1', imageIds: ['a', 'b'], addTags: ['Kitchen'], removeTags: [] });
    tracker.reply(last().id, { type: 'tagged', photos: [photo({ id: 'a', version: 2, tags: ['Kitchen'] }), photo({ id: 'b', version: 2, tags: ['Kitchen'] })] });
    expect(await tagging).toHaveLength(2);
    expect(store.getState().photos.p1.byId.b.tags).toEqual(['Kitchen']);
  });

  it('a selection of thousands is tagged a chunk at a time, one request after another', async () => {
    const { tracker, commands, sent } = setup();
    const ids = Array.from({ length: TAG_CHUNK * 2 + 5 }, (_, i) => `i${i}`);
    const tagging = commands.tagPhotos({ projectId: 'p1', imageIds: ids, addTags: ['Kitchen'], removeTags: [] });
    for (const size of [TAG_CHUNK, TAG_CHUNK, 5]) {
      const msg = sent[sent.length - 1];
      if (msg.request.type !== 'tag_photos') throw new Error(msg.request.type);
      expect(msg.request.imageIds).toHaveLength(size);
      tracker.reply(msg.id, { type: 'tagged', photos: msg.request.imageIds.map((id) => photo({ id, version: 2, tags: ['Kitchen'] })) });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const tagged = await tagging;
    expect(tagged.map((p) => p.id)).toEqual(ids);
    expect(sent.filter((m) => m.request.type === 'tag_photos')).toHaveLength(3);
  });

  it('a search is watched unless told otherwise, and ends with end_search', async () => {
    const { tracker, commands, last } = setup();
    const searching = commands.search('kitch');
    expect(last().request).toEqual({ type: 'search', query: 'kitch', projectId: null, watch: true });
    const results = { query: 'kitch', projectId: null, projects: [], photos: [], comments: [], people: [], morePhotos: false };
    tracker.reply(last().id, { type: 'search_results', results });
    expect(await searching).toEqual(results);
    const ending = commands.endSearch();
    expect(last().request).toEqual({ type: 'end_search' });
    tracker.reply(last().id, { type: 'done' });
    await ending;
  });

  it('reads and changes the installation settings', async () => {
    const { tracker, commands, last } = setup();
    const settings = { storePhotoLocations: false, requireFactorAdmins: true, requireFactorCompanyLeads: false };
    const saving = commands.updateInstallationSettings(settings);
    expect(last().request).toEqual({ type: 'update_installation_settings', ...settings });
    tracker.reply(last().id, { type: 'installation_settings', settings, photosWithLocation: 0 });
    expect(await saving).toEqual({ ...settings, photosWithLocation: 0 });
  });
});

describe('a photo page that fails', () => {
  it('waits and asks again when the server says to slow down, without counting a try', () => {
    const busy = new RequestError({ code: 'rate_limited', message: 'Too many requests. Please slow down.' });
    expect(afterPageFailure(busy, 5)).toEqual({ wait: PHOTO_PAGE_BUSY_MS, counts: false });
  });

  it('is tried again after a lost answer, then given up; a refusal is final', () => {
    const lost = new RequestError({ code: 'timeout', message: 'timed out' });
    expect(afterPageFailure(lost, 0)).toEqual({ wait: PHOTO_PAGE_RETRY_MS[0], counts: true });
    expect(afterPageFailure(lost, PHOTO_PAGE_RETRY_MS.length)).toBeNull();
    expect(afterPageFailure(new RequestError({ code: 'forbidden', message: 'No access' }), 0)).toBeNull();
  });
});
