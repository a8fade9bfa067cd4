/**
 * How a queued photo is sent over tus (tus-js-client against `/api/uploads`), shared by
 * the page's upload queue (store/uploads) and the service worker's background sync
 * (sw/backgroundUploads): the metadata the server reads, and which answers are final.
 */
import type * as tus from 'tus-js-client';
import { tagsMetadata } from './tags';
import type { StoredUpload } from './uploadStorage';

export const UPLOAD_ENDPOINT = '/api/uploads';
/** One request per file of a phone photo; a larger file goes in several. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** What the server reads from an upload's Upload-Metadata: the batch (site visit) and the photo's own fields. */
export function uploadMetadata(u: Pick<StoredUpload, 'projectId' | 'batchId' | 'batchSize' | 'caption' | 'category' | 'note' | 'milestoneId' | 'tags'> & { name: string }): Record<string, string> {
  const metadata: Record<string, string> = {
    projectId: u.projectId,
    filename: u.name,
    batchId: u.batchId,
    batchSize: String(u.batchSize),
  };
  if (u.caption) metadata.caption = u.caption;
  if (u.category) metadata.category = u.category;
  if (u.note) metadata.note = u.note;
  if (u.milestoneId) metadata.milestoneId = u.milestoneId;
  // The server splits them at commas, which no tag may contain.
  const tags = tagsMetadata(u.tags ?? []);
  if (tags) metadata.tags = tags;
  return metadata;
}

/** The status and the server's `{message}` of an error answer, when there was one. */
export function serverAnswer(err: unknown): { status: number; message?: string } {
  const detailed = err as tus.DetailedError;
  const response = detailed?.originalResponse;
  if (!response) return { status: 0 };
  let message: string | undefined;
  try {
    const body = JSON.parse(response.getBody()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    message = undefined;
  }
  return { status: response.getStatus(), message };
}

/** Network trouble, 5xx, and tus' "try again" answers are retried; a 4xx is final. */
export function retryable(status: number): boolean {
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

/**
 * The session is gone (401): not a verdict on the photo. It stays on the device and
 * goes once its owner signs in again, rather than being refused and lost.
 */
export const needsSignIn = (status: number) => status === 401;

/** An answer that settles the file for good: the server refused it for what it is. */
export function refusedFor(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429 && !needsSignIn(status);
}

/**
 * Whether the service worker sends this kept file in the background: its owner is the
 * one signed in on the device, it waits for the network, and nobody paused it. Files cut
 * off by leaving the page stay for the person to resume (or not).
 */
export function sendsInBackground(file: Pick<StoredUpload, 'userId' | 'sendWhenOnline' | 'paused'>, signedIn: string | null): boolean {
  return signedIn !== null && file.userId === signedIn && file.sendWhenOnline === true && file.paused !== true;
}
