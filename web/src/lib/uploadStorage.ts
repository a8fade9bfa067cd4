/**
 * Unfinished uploads kept on the device (IndexedDB), with their files: after the tab is
 * closed and opened again the uploader finds them and offers to resume or discard (or,
 * for files waiting for the network, sends them), without the person choosing the
 * photos again; a selection not yet published comes back whole, its captions and note
 * kept beside it (lib/uploadDrafts). The service worker reads them too, to send them in
 * the background. The tus upload URL is kept with each,
 * so a resumed file continues from the server's offset. Where IndexedDB is missing
 * (private modes of some browsers, tests) nothing is kept and uploads still work.
 */
import type { ImageCategory } from '../protocol/types';
import { database, request } from './indexedDb';

export interface StoredUpload {
  key: string;
  projectId: string;
  /**
   * Its site visit: for a held upload, the id its selection will be published under
   * (lib/uploadDrafts), which the server learns only then.
   */
  batchId: string;
  /** The visit's file count, sent at creation; 0 for a held upload (publishing counts them). */
  batchSize: number;
  note?: string;
  /** The milestone the whole batch is tagged with, if one was chosen. */
  milestoneId?: string;
  /** The tags every photo of the batch gets, if any were chosen. */
  tags?: string[];
  caption?: string;
  category?: ImageCategory;
  file: File;
  /** The server's URL for this upload, once created. */
  uploadUrl?: string;
  createdAt: number;
  /**
   * Who queued it: only their session sends it, from the page or from the
   * service worker, so a photo never goes up under whoever signs in next on the device.
   * Missing on files kept by older versions, which did not record it.
   */
  userId?: string;
  /**
   * Queued while offline, or cut off by the network: it goes by itself once the device
   * is back online, from the service worker's background sync or the next visit, rather
   * than waiting for the person to say Resume.
   */
  sendWhenOnline?: boolean;
  /** Paused by the person: nothing sends it until they resume it. */
  paused?: boolean;
  /**
   * Sent ahead of publishing (tus metadata `held`): its bytes go while the person
   * writes captions and the note, and it becomes a photo only once its selection is
   * published (`publish_uploads`; docs/FEATURES.md, "Photo upload"). Missing on files
   * kept by older versions, which carried their whole batch in their metadata.
   */
  held?: boolean;
  /** A held upload's bytes are all on the server (it answered `Sitecast-Held`). */
  whole?: boolean;
  /** A held upload's selection was published: it becomes a photo on its last byte. */
  published?: boolean;
}

/** What may change on a kept file without writing its bytes again. */
export type UploadChange = Partial<Pick<StoredUpload, 'uploadUrl' | 'sendWhenOnline' | 'paused' | 'whole' | 'published' | 'batchId'>>;

const STORE = 'files';
const open = database('sitecast-uploads', 1, (db) => db.createObjectStore(STORE, { keyPath: 'key' }));

export const uploadStorage = {
  async all(): Promise<StoredUpload[]> {
    return ((await request(open, STORE, 'readonly', (s) => s.getAll())) as StoredUpload[] | undefined) ?? [];
  },
  /**
   * The copy kept of one file: null once it is gone (sent or discarded from elsewhere),
   * undefined where nothing can be kept or read, which says nothing about the file.
   */
  async kept(key: string): Promise<StoredUpload | null | undefined> {
    const count = await request(open, STORE, 'readonly', (s) => s.count(key));
    if (count === undefined) return undefined;
    if (count === 0) return null;
    return (await request(open, STORE, 'readonly', (s) => s.get(key))) as StoredUpload | undefined;
  },
  async put(upload: StoredUpload): Promise<void> {
    await request(open, STORE, 'readwrite', (s) => s.put(upload));
  },
  /**
   * Changes a kept file's own facts, in one transaction, only while it is still kept:
   * a file sent meanwhile (by the service worker) is never brought back.
   */
  async change(key: string, patch: UploadChange): Promise<void> {
    const db = await open();
    if (!db) return;
    await new Promise<void>((resolve) => {
      try {
        const tx = db.transaction(STORE, 'readwrite');
        const files = tx.objectStore(STORE);
        const req = files.get(key);
        req.onsuccess = () => {
          if (req.result) files.put({ ...(req.result as StoredUpload), ...patch });
        };
        tx.oncomplete = () => resolve();
        tx.onerror = () => resolve();
        tx.onabort = () => resolve();
      } catch {
        resolve();
      }
    });
  },
  async remove(key: string): Promise<void> {
    await request(open, STORE, 'readwrite', (s) => s.delete(key));
  },
};
