/**
 * Selections not yet published, kept on the device (IndexedDB) beside their files
 * (lib/uploadStorage): the visit's note, milestone and tags, each photo's caption and
 * category, and the order they were chosen in. A reload or a closed tab brings a
 * project's selection back on its uploader as it was left (docs/FEATURES.md, "Photo
 * upload"); their held uploads resume from the server's offset. A sibling database of
 * the files' own, so typing a caption writes a few bytes, never a photo again.
 */
import type { ImageCategory } from '../protocol/types';
import { database, request } from './indexedDb';
import type { UploadState } from './uploadQueue';
import type { StoredUpload } from './uploadStorage';

/** Still being written (`editing`), or Publish was pressed and the server has not answered yet. */
export type SelectionPhase = 'editing' | 'publishing';

export interface StoredSelection {
  /** The id the selection is published under (a site visit's), chosen with its first photo. */
  batchId: string;
  projectId: string;
  /** Whose it is: only they see it again (missing: nobody was signed in). */
  userId?: string;
  note: string;
  /** '' for none. */
  milestoneId: string;
  tags: string[];
  /** Each file's caption and category, by its key in the upload queue. */
  captions: Record<string, { caption: string; category?: ImageCategory }>;
  /** The files' keys, in the order they were chosen. */
  order: string[];
  phase: SelectionPhase;
  createdAt: number;
}

const STORE = 'selections';
const open = database('sitecast-upload-selections', 1, (db) => db.createObjectStore(STORE, { keyPath: 'batchId' }));

export const selectionStorage = {
  async all(): Promise<StoredSelection[]> {
    return ((await request(open, STORE, 'readonly', (s) => s.getAll())) as StoredSelection[] | undefined) ?? [];
  },
  async put(selection: StoredSelection): Promise<void> {
    await request(open, STORE, 'readwrite', (s) => s.put(selection));
  },
  async remove(batchId: string): Promise<void> {
    await request(open, STORE, 'readwrite', (s) => s.delete(batchId));
  },
};

/** SPEC §3: the caption a photo gets unless one is typed: its name without the extension. */
export const defaultCaption = (name: string) => name.replace(/\.[^.]+$/, '');

/** Where a file kept on the device stands when a page finds it again. */
export function restoredState(kept: Pick<StoredUpload, 'held' | 'whole' | 'published' | 'sendWhenOnline' | 'paused'>): UploadState {
  if (kept.held && !kept.published) {
    // A selection's bytes go on by themselves, unless the person paused them.
    if (kept.whole) return 'held';
    return kept.paused ? 'paused' : 'queued';
  }
  // Published whole: the server stores it by itself; a HEAD asks how that went.
  if (kept.held && kept.whole) return 'storing';
  // Waiting for the network: they go by themselves. Cut off by leaving the page:
  // paused, until the person says Resume.
  return kept.sendWhenOnline && !kept.paused ? 'queued' : 'paused';
}

/** A kept file as the queue takes it back. */
export interface RestoredFile extends StoredUpload {
  state: UploadState;
  sent: number;
}

export interface Restored {
  /** The project's selections first (each in its order), then every other unfinished file, oldest first. */
  files: RestoredFile[];
  /** One selection per project, for projects that have none on this page yet. */
  selections: StoredSelection[];
  /** Selections to delete from the device: without files, or merged into another. */
  forget: string[];
}

const byAge = (a: Pick<StoredUpload, 'createdAt' | 'key'>, b: Pick<StoredUpload, 'createdAt' | 'key'>) =>
  a.createdAt - b.createdAt || a.key.localeCompare(b.key, undefined, { numeric: true });

/**
 * Puts back together what a reload left on the device, for the signed-in person `me`:
 * the files (their state, and for a selection's files their caption and category), and
 * each project's selection. A project has one selection: a file whose own was lost (a
 * write that never landed) joins the project's, and two found for one project become
 * the newer one. `active` names the selections this page already has (project → batch
 * id): found files of those projects join them. Files in `known` are on the page already.
 */
export function restoreKept(
  files: readonly StoredUpload[],
  selections: readonly StoredSelection[],
  me: string | undefined,
  known: ReadonlySet<string> = new Set(),
  active: ReadonlyMap<string, string> = new Map(),
): Restored {
  // Someone else's photos wait on the device for them (files kept by older versions name no one).
  const mine = files.filter((f) => !known.has(f.key) && (f.userId === undefined || f.userId === me));
  const mySelections = selections.filter((s) => s.userId === undefined || s.userId === me);
  const forget = new Set<string>();
  const captionOf = (key: string) => mySelections.find((s) => s.captions[key])?.captions[key];

  const drafted = mine.filter((f) => f.held && !f.published);
  const projects = [...new Set(drafted.map((f) => f.projectId))];
  const restored: RestoredFile[] = [];
  const kept: StoredSelection[] = [];
  for (const projectId of projects) {
    const own = drafted.filter((f) => f.projectId === projectId);
    const candidates = mySelections.filter((s) => s.projectId === projectId).sort((a, b) => b.createdAt - a.createdAt);
    const current = active.get(projectId);
    const chosen: StoredSelection =
      current !== undefined
        ? { ...(candidates[0] ?? blank(projectId, own, me)), batchId: current }
        : (candidates.find((s) => own.some((f) => f.batchId === s.batchId)) ?? candidates[0] ?? blank(projectId, own, me));
    for (const s of candidates) if (s.batchId !== chosen.batchId || current !== undefined) forget.add(s.batchId);
    const rank = new Map(chosen.order.map((key, n) => [key, n]));
    own.sort((a, b) => (rank.get(a.key) ?? Infinity) - (rank.get(b.key) ?? Infinity) || byAge(a, b));
    for (const f of own) {
      const fields = captionOf(f.key);
      restored.push({
        ...f,
        batchId: chosen.batchId,
        caption: fields?.caption ?? f.caption ?? defaultCaption(f.file.name),
        category: fields?.category ?? f.category,
        state: restoredState(f),
        sent: f.whole ? f.file.size : 0,
      });
    }
    if (current === undefined) kept.push({ ...chosen, order: own.map((f) => f.key) });
  }
  // Selections whose files are all gone (sent, discarded, lost) are done with.
  for (const s of mySelections) if (!projects.includes(s.projectId)) forget.add(s.batchId);

  const others = mine
    .filter((f) => !drafted.includes(f))
    .sort(byAge)
    .map((f) => ({ ...f, state: restoredState(f), sent: f.whole ? f.file.size : 0 }));
  return { files: [...restored, ...others], selections: kept, forget: [...forget].filter((id) => !kept.some((s) => s.batchId === id)) };
}

function blank(projectId: string, files: readonly StoredUpload[], me: string | undefined): StoredSelection {
  const first = [...files].sort(byAge)[0];
  return {
    batchId: first?.batchId ?? '',
    projectId,
    userId: me,
    note: '',
    milestoneId: '',
    tags: [],
    captions: {},
    order: [],
    phase: 'editing',
    createdAt: first?.createdAt ?? 0,
  };
}
