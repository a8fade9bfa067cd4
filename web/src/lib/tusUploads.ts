/**
 * How a queued photo is sent over tus (tus-js-client against `/api/uploads`), shared by
 * the page's upload queue (store/uploads) and the service worker's background sync
 * (sw/backgroundUploads): the metadata the server reads, which answers are final, what
 * an answer says the upload became, and the `publish_uploads` that makes a selection
 * sent ahead (held uploads) into one site visit (docs/FEATURES.md, "Photo upload").
 */
import type * as tus from 'tus-js-client';
import type { ImageCategory, PublishedFile, PublishUploads } from '../protocol/types';
import { tagsMetadata } from './tags';
import { decodeReason } from './uploadQueue';
import type { StoredUpload } from './uploadStorage';

export const UPLOAD_ENDPOINT = '/api/uploads';
export const TUS_VERSION = '1.0.0';
/** One request per file of a phone photo; a larger file goes in several. */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** The server's word for an upload it no longer has (expired 24 h after its last byte, or discarded). */
export const EXPIRED_MESSAGE = 'This upload is unknown or has expired. Start it again.';

/**
 * What the server reads from an upload's Upload-Metadata. A held upload (sent ahead of
 * publishing) names only its project and file: the server refuses one that names a
 * batch, and its visit, caption and tags go with `publish_uploads`. Any other names its
 * batch (site visit) and the photo's own fields, and becomes a photo on its last byte.
 */
export function uploadMetadata(
  u: Pick<StoredUpload, 'projectId' | 'batchId' | 'batchSize' | 'caption' | 'category' | 'note' | 'milestoneId' | 'tags' | 'held'> & { name: string },
): Record<string, string> {
  if (u.held) return { projectId: u.projectId, filename: u.name, held: '1' };
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
 * Where tus-js-client may make a new upload for a file whose own is gone (404 on resume):
 * the endpoint, except for a held upload already published, which must not come back as
 * a new held upload waiting for a Publish that has happened; it ends with the server's
 * answer instead.
 */
export function tusEndpoint(u: Pick<StoredUpload, 'held' | 'published' | 'uploadUrl'>): string | null {
  return u.held && u.published && u.uploadUrl ? null : UPLOAD_ENDPOINT;
}

/** Why a final refusal happened, in the server's words when it gave any. */
export function refusalReason(status: number, message: string | undefined): string {
  if (message) return message;
  return status === 404 ? EXPIRED_MESSAGE : `The server answered ${status}`;
}

/** What an upload's answer (its last PATCH, or a HEAD) says it became. */
export type UploadAnswer =
  | { kind: 'photo'; photoId: string }
  | { kind: 'refused'; reason: string }
  /** Every byte is there and it waits for `publish_uploads`. */
  | { kind: 'held' }
  /** Nothing yet: bytes are missing, or it is still being stored. */
  | { kind: 'open' };

/** Reads `Sitecast-Photo`, `Sitecast-Refused` (percent-encoded) and `Sitecast-Held` off an answer. */
export function answerOf(header: (name: string) => string | null | undefined): UploadAnswer {
  const refused = header('Sitecast-Refused');
  if (refused) return { kind: 'refused', reason: decodeReason(refused) ?? refused };
  const photoId = header('Sitecast-Photo');
  if (photoId) return { kind: 'photo', photoId };
  if (header('Sitecast-Held') === '1') return { kind: 'held' };
  return { kind: 'open' };
}

/** The id `publish_uploads` names an upload by: the last segment of its tus URL. */
export function uploadIdOf(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A selection as it is published: its visit's fields, chosen by the person. */
export interface PublishedSelection {
  projectId: string;
  batchId: string;
  note?: string;
  milestoneId?: string;
  tags?: readonly string[];
}

/** One file of a selection as it is published: its held upload, caption and category. */
export interface PublishedUpload {
  uploadUrl: string;
  caption?: string;
  category?: ImageCategory;
}

/**
 * The `publish_uploads` request for a selection: its note, milestone and tags once, and
 * each file's upload id with its caption and category. Empty fields are left out (an
 * empty caption is the server's default, the file's name).
 */
export function publishRequest(selection: PublishedSelection, files: readonly PublishedUpload[]): PublishUploads {
  const request: PublishUploads = {
    projectId: selection.projectId,
    batchId: selection.batchId,
    tags: [...(selection.tags ?? [])],
    files: files.map((f) => {
      const file: PublishedFile = { uploadId: uploadIdOf(f.uploadUrl) };
      const caption = f.caption?.trim();
      if (caption) file.caption = caption;
      if (f.category) file.category = f.category;
      return file;
    }),
  };
  const note = selection.note?.trim();
  if (note) request.note = note;
  if (selection.milestoneId) request.milestoneId = selection.milestoneId;
  return request;
}

/** tus' Upload-Metadata: each key with its value in base64 of UTF-8, comma-separated. */
export function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => {
      const bytes = new TextEncoder().encode(value);
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      return `${key} ${btoa(binary)}`;
    })
    .join(',');
}

/** An answer other than the one hoped for, with the server's `{message}` if it gave one; status 0: no answer. */
export class UploadAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage?: string,
  ) {
    super(serverMessage ?? (status === 0 ? 'No answer from the server' : `The server answered ${status}`));
    this.name = 'UploadAnswerError';
  }
}

async function messageOf(response: Response): Promise<string | undefined> {
  try {
    const body = JSON.parse(await response.text()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

function absolute(url: string): string {
  const base = typeof location === 'undefined' ? undefined : location.href;
  try {
    return base ? new URL(url, base).toString() : url;
  } catch {
    return url;
  }
}

/**
 * Creates a tus upload (creation: a POST with no bytes) and answers its URL. The page
 * makes every chosen file's upload at once, ahead of its turn to send: Publish needs
 * each file's upload id, not its bytes. Rejects with an `UploadAnswerError`.
 */
export async function createUpload(size: number, metadata: Record<string, string>, send: typeof fetch = fetch): Promise<string> {
  let response: Response;
  try {
    response = await send(UPLOAD_ENDPOINT, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Tus-Resumable': TUS_VERSION, 'Upload-Length': String(size), 'Upload-Metadata': encodeMetadata(metadata) },
    });
  } catch {
    throw new UploadAnswerError(0);
  }
  const location = response.headers.get('Location');
  if (response.status !== 201 || !location) throw new UploadAnswerError(response.status, await messageOf(response));
  return absolute(location);
}

/** What a HEAD on an upload answered. */
export interface UploadHead {
  /** 0: no answer (the network). */
  status: number;
  answer: UploadAnswer;
  offset?: number;
  length?: number;
}

/**
 * Asks the server where an upload stands (a tus HEAD). Once its selection is published
 * a whole upload answers what it became; the server holds the answer while it stores it.
 */
export async function headUpload(url: string, send: typeof fetch = fetch): Promise<UploadHead> {
  let response: Response;
  try {
    response = await send(url, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store', headers: { 'Tus-Resumable': TUS_VERSION } });
  } catch {
    return { status: 0, answer: { kind: 'open' } };
  }
  const number = (name: string) => {
    const value = Number.parseInt(response.headers.get(name) ?? '', 10);
    return Number.isNaN(value) ? undefined : value;
  };
  return { status: response.status, answer: answerOf((name) => response.headers.get(name)), offset: number('Upload-Offset'), length: number('Upload-Length') };
}

/**
 * Whether the service worker sends this kept file in the background: its owner is the
 * one signed in on the device, it waits for the network, and nobody paused it. Files cut
 * off by leaving the page stay for the person to resume (or not).
 */
export function sendsInBackground(file: Pick<StoredUpload, 'userId' | 'sendWhenOnline' | 'paused'>, signedIn: string | null): boolean {
  return signedIn !== null && file.userId === signedIn && file.sendWhenOnline === true && file.paused !== true;
}
