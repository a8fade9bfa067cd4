/**
 * Unfinished uploads kept on the device (IndexedDB), with their files: after the tab is
 * closed and opened again the uploader finds them and offers to resume or discard,
 * without the person choosing the photos again. The tus upload URL is kept with each,
 * so a resumed file continues from the server's offset. Where IndexedDB is missing
 * (private modes of some browsers, tests) nothing is kept and uploads still work.
 */
import type { ImageCategory } from '../protocol/types';

export interface StoredUpload {
  key: string;
  projectId: string;
  batchId: string;
  batchSize: number;
  note?: string;
  /** The milestone the whole batch is tagged with (issue 18), if one was chosen. */
  milestoneId?: string;
  /** The tags every photo of the batch gets (issue 29), if any were chosen. */
  tags?: string[];
  caption?: string;
  category?: ImageCategory;
  file: File;
  /** The server's URL for this upload, once created. */
  uploadUrl?: string;
  createdAt: number;
}

const DB = 'sitecast-uploads';
const STORE = 'files';

let opening: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  opening ??= new Promise((resolve) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opening;
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
  const db = await open();
  if (!db) return undefined;
  return new Promise((resolve) => {
    try {
      const req = work(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
}

export const uploadStorage = {
  async all(): Promise<StoredUpload[]> {
    return ((await run('readonly', (s) => s.getAll())) as StoredUpload[] | undefined) ?? [];
  },
  async put(upload: StoredUpload): Promise<void> {
    await run('readwrite', (s) => s.put(upload));
  },
  async remove(key: string): Promise<void> {
    await run('readwrite', (s) => s.delete(key));
  },
};
