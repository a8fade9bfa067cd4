/**
 * The little of IndexedDB this app uses, for what it keeps on the device (unfinished
 * uploads, the offline copy of what the user saw). Every call settles: where IndexedDB
 * is missing or refuses (private modes of some browsers, tests, a full disk) the answer
 * is `undefined` and the app goes on without what it would have kept.
 */

export type Upgrade = (db: IDBDatabase) => void;

/** Opens the database once, on first use; later calls share the same connection. */
export function database(name: string, version: number, upgrade: Upgrade): () => Promise<IDBDatabase | null> {
  let opening: Promise<IDBDatabase | null> | null = null;
  return () => {
    if (typeof indexedDB === 'undefined') return Promise.resolve(null);
    opening ??= new Promise((resolve) => {
      const req = indexedDB.open(name, version);
      req.onupgradeneeded = () => upgrade(req.result);
      req.onsuccess = () => {
        const db = req.result;
        // Another tab (or the service worker) upgrading: step aside, reopen on next use.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        resolve(db);
      };
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    });
    return opening;
  };
}

/** One request in its own transaction on `store`; resolves with its result, or undefined. */
export async function request<T>(
  open: () => Promise<IDBDatabase | null>,
  store: string,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  const db = await open();
  if (!db) return undefined;
  return new Promise((resolve) => {
    try {
      const req = work(db.transaction(store, mode).objectStore(store));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
}
