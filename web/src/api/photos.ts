import type { ApiError, UploadResult } from '../protocol/types';
import { ApiRequestError } from './http';

/** Bytes of the request body sent so far (`total` when the browser knows it). */
export interface UploadProgress {
  loaded: number;
  total?: number;
}

/**
 * The server answered with an UploadResult: 201 (some stored), 422 (none: every file
 * refused), 503 (none: storage failed, the files were fine) or 400 (no files).
 */
export interface UploadAnswer {
  status: number;
  result: UploadResult;
}

export const photosUploadPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/photos`;
/** All of a project's photos as one zip; with `favourites`, only this user's favourites. */
export const photosZipPath = (projectId: string, favourites = false) =>
  `/media/projects/${encodeURIComponent(projectId)}/photos.zip${favourites ? '?favourites=true' : ''}`;

function isUploadResult(value: unknown): value is UploadResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as UploadResult).photos) && Array.isArray((value as UploadResult).skipped);
}

function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && typeof (value as ApiError).code === 'string' && typeof (value as ApiError).message === 'string';
}

/**
 * Sends the files as one multipart request (field `photos`, one part per file, in
 * order), so one Publish is one upload and one "new photos" email. XMLHttpRequest
 * rather than fetch: only it reports upload progress. Rejects with ApiRequestError for
 * the server's `{code, message}` errors and a plain Error for anything else.
 */
export function uploadPhotos(
  projectId: string,
  files: readonly File[],
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
  milestoneId?: string,
): Promise<UploadAnswer> {
  const form = new FormData();
  // Issue 18: the batch's milestone, before the files so the server reads it first.
  if (milestoneId) form.append('milestoneId', milestoneId);
  for (const file of files) form.append('photos', file, file.name);
  return new Promise<UploadAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', photosUploadPath(projectId));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });
    xhr.onerror = () => reject(new Error('Network error while uploading'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (isUploadResult(body)) {
        resolve({ status: xhr.status, result: body });
      } else if (isApiError(body)) {
        reject(new ApiRequestError(xhr.status, body));
      } else {
        reject(new Error(`Upload failed with status ${xhr.status}`));
      }
    };
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('Upload cancelled', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
