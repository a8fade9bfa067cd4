import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredSelection } from '../lib/uploadDrafts';
import type { StoredUpload } from '../lib/uploadStorage';
import { profile } from '../testing/fixtures';

// The queue over fakes of what it talks to: the device's storage (two maps), tus-js-client
// (uploads the test answers for the server), fetch (the queue's own creation and HEAD
// requests), the socket's request and the toasts.
const disk = vi.hoisted(() => ({ files: new Map<string, StoredUpload>(), selections: new Map<string, StoredSelection>() }));
const tusFake = vi.hoisted(() => {
  interface Options {
    endpoint?: string | null;
    uploadUrl?: string | null;
    metadata: Record<string, string>;
    onUploadUrlAvailable?: () => void;
    onProgress?: (sent: number, total: number) => void;
    onSuccess?: (payload: { lastResponse: { getHeader: (name: string) => string | undefined } }) => void;
    onError?: (error: Error) => void;
  }
  const started: FakeUpload[] = [];
  const terminated: string[] = [];
  class FakeUpload {
    url: string | null;
    aborted: boolean | 'terminated' = false;
    constructor(
      readonly file: File,
      readonly options: Options,
    ) {
      this.url = options.uploadUrl ?? null;
    }
    start() {
      started.push(this);
    }
    abort(terminate?: boolean) {
      this.aborted = terminate ? 'terminated' : true;
      if (terminate && this.url) terminated.push(this.url);
      return Promise.resolve();
    }
    static terminate(url: string) {
      terminated.push(url);
      return Promise.resolve();
    }
  }
  return { FakeUpload, started, terminated };
});
const requestFake = vi.hoisted(() => ({ request: vi.fn() }));
const toastFake = vi.hoisted(() => ({ success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn() }));

vi.mock('tus-js-client', () => ({ Upload: tusFake.FakeUpload }));
vi.mock('../lib/toast', () => ({ toast: toastFake }));
vi.mock('../offline/serviceWorker', () => ({ onWorkerMessage: () => () => undefined, requestUploadSync: vi.fn() }));
vi.mock('../sync/requests', async (original) => ({ ...(await original<typeof import('../sync/requests')>()), request: requestFake.request }));
vi.mock('../lib/uploadStorage', () => ({
  uploadStorage: {
    all: async () => [...disk.files.values()],
    kept: async (key: string) => disk.files.get(key) ?? null,
    put: async (upload: StoredUpload) => void disk.files.set(upload.key, upload),
    change: async (key: string, patch: Partial<StoredUpload>) => {
      const upload = disk.files.get(key);
      if (upload) disk.files.set(key, { ...upload, ...patch });
    },
    remove: async (key: string) => void disk.files.delete(key),
  },
}));
vi.mock('../lib/uploadDrafts', async (original) => ({
  ...(await original<typeof import('../lib/uploadDrafts')>()),
  selectionStorage: {
    all: async () => [...disk.selections.values()],
    put: async (selection: StoredSelection) => void disk.selections.set(selection.batchId, structuredClone(selection)),
    remove: async (batchId: string) => void disk.selections.delete(batchId),
  },
}));

type Fake = InstanceType<typeof tusFake.FakeUpload>;

const photo = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
const answer = (headers: Record<string, string>) => ({ lastResponse: { getHeader: (name: string) => headers[name] } });

/** The server's side of a tus upload: made (when new), every byte in, and its last answer. */
function finish(upload: Fake, url: string, headers: Record<string, string>) {
  if (!upload.url) {
    upload.url = url;
    upload.options.onUploadUrlAvailable?.();
  }
  upload.options.onProgress?.(upload.file.size, upload.file.size);
  upload.options.onSuccess?.(answer(headers));
}

let made = 0;
let heads: Record<string, Record<string, string>> = {};
const fetchFake = vi.fn(async (url: string, init?: RequestInit) => {
  if (init?.method === 'POST') return new Response(null, { status: 201, headers: { Location: `/api/uploads/ahead${++made}` } });
  if (init?.method === 'HEAD') return new Response(null, { status: 200, headers: heads[url] ?? {} });
  return new Response(null, { status: 405 });
});

async function load() {
  vi.resetModules();
  const { useAppStore } = await import('./index');
  useAppStore.setState({ user: profile({ id: 'u1', role: 'builder' }) });
  return (await import('./uploads')).useUploads;
}

beforeEach(() => {
  disk.files.clear();
  disk.selections.clear();
  tusFake.started.length = 0;
  tusFake.terminated.length = 0;
  requestFake.request.mockReset();
  for (const f of Object.values(toastFake)) f.mockReset();
  made = 0;
  heads = {};
  fetchFake.mockClear();
  vi.stubGlobal('fetch', fetchFake);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('photos sent while the selection is written', () => {
  it('starts held uploads when photos are chosen, makes the rest ahead of their turn, and shows a whole one as sent', async () => {
    const useUploads = await load();
    useUploads.getState().choose('p1', ['a', 'b', 'c', 'd', 'e'].map((n) => ({ file: photo(`${n}.jpg`) })));
    const selection = useUploads.getState().selections.p1!;
    expect(selection).toMatchObject({ phase: 'editing', note: '', tags: [] });

    // Three send at once (tus makes their uploads); the other two are made ahead, held.
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(3));
    await vi.waitFor(() => expect(useUploads.getState().uploads.filter((u) => u.uploadUrl)).toHaveLength(2));
    expect(tusFake.started[0]!.options.metadata).toEqual({ projectId: 'p1', filename: 'a.jpg', held: '1' });
    const posts = fetchFake.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts).toHaveLength(2);
    expect((posts[0]![1]!.headers as Record<string, string>)['Upload-Metadata']).toContain('held MQ==');

    finish(tusFake.started[0]!, '/api/uploads/a', { 'Sitecast-Held': '1' });
    const a = () => useUploads.getState().uploads.find((u) => u.name === 'a.jpg')!;
    expect(a()).toMatchObject({ state: 'held', sent: 100, whole: true, uploadUrl: '/api/uploads/a' });
    await vi.waitFor(() => expect(disk.files.get(a().key)).toMatchObject({ held: true, whole: true, uploadUrl: '/api/uploads/a' }));
    // Its slot goes to the next, which resumes the upload made for it.
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(4));
    expect(tusFake.started[3]!.options.uploadUrl).toBe('/api/uploads/ahead1');
    // The selection is kept on the device, its photos in order.
    expect(disk.selections.get(selection.batchId)?.order).toEqual(useUploads.getState().uploads.map((u) => u.key));
  });

  it('keeps captions, the note, milestone and tags on the device as they are typed', async () => {
    const useUploads = await load();
    useUploads.getState().choose('p1', [{ file: photo('IMG_1.jpg') }]);
    const key = useUploads.getState().uploads[0]!.key;
    expect(useUploads.getState().uploads[0]!.caption).toBe('IMG_1');
    useUploads.getState().editPhoto(key, { caption: 'North wall', category: 'structural' });
    useUploads.getState().editSelection('p1', { note: 'Deck framed', milestoneId: 'm1', tags: ['Kitchen'] });
    const { batchId } = useUploads.getState().selections.p1!;
    await vi.waitFor(() =>
      expect(disk.selections.get(batchId)).toMatchObject({
        note: 'Deck framed',
        milestoneId: 'm1',
        tags: ['Kitchen'],
        phase: 'editing',
        captions: { [key]: { caption: 'North wall', category: 'structural' } },
      }),
    );
  });
});

describe('Publish', () => {
  it('sends one publish_uploads with the selection’s fields; the whole files are stored by themselves and the batch finishes', async () => {
    const useUploads = await load();
    requestFake.request.mockResolvedValue({ type: 'done' });
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }, { file: photo('b.jpg') }]);
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(2));
    const [ua, ub] = useUploads.getState().uploads;
    useUploads.getState().editPhoto(ua!.key, { caption: 'North wall', category: 'structural' });
    useUploads.getState().editSelection('p1', { note: 'Deck framed', tags: ['Kitchen'] });
    finish(tusFake.started[0]!, 'http://x/api/uploads/ta', { 'Sitecast-Held': '1' });
    finish(tusFake.started[1]!, 'http://x/api/uploads/tb', { 'Sitecast-Held': '1' });
    const { batchId } = useUploads.getState().selections.p1!;
    heads = { 'http://x/api/uploads/ta': { 'Sitecast-Photo': 'ph1' }, 'http://x/api/uploads/tb': { 'Sitecast-Photo': 'ph2' } };

    useUploads.getState().publishSelection('p1', 'm1');
    expect(requestFake.request).toHaveBeenCalledTimes(1);
    expect(requestFake.request).toHaveBeenCalledWith({
      type: 'publish_uploads',
      projectId: 'p1',
      batchId,
      note: 'Deck framed',
      milestoneId: 'm1',
      tags: ['Kitchen'],
      files: [{ uploadId: 'ta', caption: 'North wall', category: 'structural' }, { uploadId: 'tb', caption: 'b' }],
    });
    await vi.waitFor(() => expect(useUploads.getState().finished[batchId]).toEqual({ stored: 2, skipped: 0 }));
    expect(toastFake.success).toHaveBeenCalledWith('2 photos uploaded successfully');
    expect(useUploads.getState().selections.p1).toBeUndefined();
    expect(useUploads.getState().uploads).toEqual([]);
    expect(disk.files.size).toBe(0);
    expect(disk.selections.size).toBe(0);
    expect(ub).toBeDefined();
  });

  it('publishes files still sending too: they become photos on their last byte', async () => {
    const useUploads = await load();
    requestFake.request.mockResolvedValue({ type: 'done' });
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }, { file: photo('b.jpg') }]);
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(2));
    const [whole, going] = tusFake.started as [Fake, Fake];
    finish(whole, '/api/uploads/ta', { 'Sitecast-Held': '1' });
    going.url = '/api/uploads/tb';
    going.options.onUploadUrlAvailable?.();
    heads = { '/api/uploads/ta': { 'Sitecast-Refused': 'Damaged%3A%20not%20a%20valid%20JPEG' } };
    const { batchId } = useUploads.getState().selections.p1!;

    useUploads.getState().publishSelection('p1');
    expect(requestFake.request.mock.calls[0]![0].files.map((f: { uploadId: string }) => f.uploadId)).toEqual(['ta', 'tb']);
    await vi.waitFor(() => expect(useUploads.getState().selections.p1?.phase).toBe('published'));
    await vi.waitFor(() => expect(useUploads.getState().uploads.find((u) => u.name === 'a.jpg')?.state).toBe('refused'));
    const b = useUploads.getState().uploads.find((u) => u.name === 'b.jpg')!;
    expect(b).toMatchObject({ published: true, state: 'uploading' });
    expect(useUploads.getState().finished[batchId]).toBeUndefined();

    going.options.onProgress?.(100, 100);
    going.options.onSuccess?.(answer({ 'Sitecast-Photo': 'ph2' }));
    expect(useUploads.getState().finished[batchId]).toEqual({ stored: 1, skipped: 1 });
    expect(toastFake.warning).toHaveBeenCalledWith('Some files were skipped', { description: 'a.jpg: Damaged: not a valid JPEG' });
  });

  it('waits for its uploads to be made, and for the connection, then goes', async () => {
    const useUploads = await load();
    const { RequestError } = await import('../sync/requests');
    requestFake.request.mockRejectedValueOnce(new RequestError({ code: 'not_connected', message: 'Not connected to the server.' }));
    requestFake.request.mockResolvedValue({ type: 'done' });
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }]);
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(1));

    useUploads.getState().publishSelection('p1');
    // No upload yet: nothing to name.
    expect(requestFake.request).not.toHaveBeenCalled();
    expect(useUploads.getState().selections.p1?.phase).toBe('publishing');
    tusFake.started[0]!.url = '/api/uploads/ta';
    tusFake.started[0]!.options.onUploadUrlAvailable?.();
    expect(requestFake.request).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(disk.selections.get(useUploads.getState().selections.p1!.batchId)?.phase).toBe('publishing'));

    // The connection is back (a new Hello): it goes again, the same request.
    await Promise.resolve();
    useUploads.getState().publishWaiting();
    expect(requestFake.request).toHaveBeenCalledTimes(2);
    expect(requestFake.request.mock.calls[1]![0]).toEqual(requestFake.request.mock.calls[0]![0]);
    await vi.waitFor(() => expect(useUploads.getState().selections.p1?.phase).toBe('published'));
  });

  it('goes back to editing when the server refuses, and looks at its sent files again when one expired', async () => {
    const useUploads = await load();
    const { RequestError } = await import('../sync/requests');
    requestFake.request.mockRejectedValue(new RequestError({ code: 'not_found', message: 'This upload is unknown or has expired. Start it again.' }));
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }]);
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(1));
    finish(tusFake.started[0]!, '/api/uploads/ta', { 'Sitecast-Held': '1' });

    useUploads.getState().publishSelection('p1');
    await vi.waitFor(() => expect(useUploads.getState().selections.p1?.phase).toBe('editing'));
    expect(toastFake.error).toHaveBeenCalledWith('This upload is unknown or has expired. Start it again.');
    // Sent again over tus: its HEAD finds it, or tus makes it anew.
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(2));
    expect(tusFake.started[1]!.options).toMatchObject({ uploadUrl: '/api/uploads/ta', endpoint: '/api/uploads' });
  });

  it('sends a selection chosen offline as one batch when it is published before any of it began', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const useUploads = await load();
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }, { file: photo('b.jpg') }]);
    await vi.waitFor(() => expect(useUploads.getState().uploads.every((u) => u.state === 'waiting')).toBe(true));
    useUploads.getState().editSelection('p1', { note: 'Poured', tags: ['Slab'] });
    const { batchId } = useUploads.getState().selections.p1!;

    useUploads.getState().publishSelection('p1');
    expect(requestFake.request).not.toHaveBeenCalled();
    expect(useUploads.getState().selections.p1?.phase).toBe('published');
    await vi.waitFor(() =>
      expect([...disk.files.values()].map((f) => [f.held, f.batchId, f.batchSize, f.caption, f.note, f.tags, f.sendWhenOnline])).toEqual([
        [false, batchId, 2, 'a', 'Poured', ['Slab'], true],
        [false, batchId, 2, 'b', 'Poured', ['Slab'], true],
      ]),
    );
    expect(disk.selections.size).toBe(0);
  });
});

describe('a selection kept on the device', () => {
  it('comes back after a reload as it was left, its unfinished uploads resuming from the server', async () => {
    const file = (key: string, over: Partial<StoredUpload>): StoredUpload => ({
      key,
      projectId: 'p1',
      batchId: 'b1',
      batchSize: 0,
      file: photo(`${key}.jpg`),
      createdAt: 1,
      userId: 'u1',
      held: true,
      ...over,
    });
    disk.files.set('k1', file('k1', { uploadUrl: '/api/uploads/t1', whole: true }));
    disk.files.set('k2', file('k2', { uploadUrl: '/api/uploads/t2' }));
    disk.selections.set('b1', {
      batchId: 'b1',
      projectId: 'p1',
      userId: 'u1',
      note: 'Deck framed',
      milestoneId: '',
      tags: ['Kitchen'],
      captions: { k1: { caption: 'North wall', category: 'structural' }, k2: { caption: 'Joists' } },
      order: ['k2', 'k1'],
      phase: 'editing',
      createdAt: 1,
    });
    const useUploads = await load();
    await useUploads.getState().restore();

    expect(useUploads.getState().selections.p1).toMatchObject({ batchId: 'b1', note: 'Deck framed', tags: ['Kitchen'], phase: 'editing' });
    const [first, second] = useUploads.getState().uploads;
    expect(first).toMatchObject({ key: 'k2', caption: 'Joists', restored: true });
    expect(second).toMatchObject({ key: 'k1', caption: 'North wall', category: 'structural', state: 'held', sent: 100 });
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(1));
    expect(tusFake.started[0]!.options.uploadUrl).toBe('/api/uploads/t2');
  });

  it('is terminated on the server when a photo is removed or the selection discarded, and forgotten', async () => {
    const useUploads = await load();
    useUploads.getState().choose('p1', [{ file: photo('a.jpg') }, { file: photo('b.jpg') }]);
    await vi.waitFor(() => expect(tusFake.started).toHaveLength(2));
    finish(tusFake.started[0]!, '/api/uploads/ta', { 'Sitecast-Held': '1' });
    const [a] = useUploads.getState().uploads;
    const { batchId } = useUploads.getState().selections.p1!;

    useUploads.getState().cancel(a!.key);
    expect(tusFake.terminated).toEqual(['/api/uploads/ta']);
    await vi.waitFor(() => expect(disk.selections.get(batchId)?.order).toHaveLength(1));

    tusFake.started[1]!.url = '/api/uploads/tb';
    useUploads.getState().discardSelection('p1');
    expect(tusFake.started[1]!.aborted).toBe('terminated');
    expect(tusFake.terminated).toEqual(['/api/uploads/ta', '/api/uploads/tb']);
    expect(useUploads.getState().selections.p1).toBeUndefined();
    await vi.waitFor(() => expect(disk.selections.size + disk.files.size).toBe(0));
  });
});
