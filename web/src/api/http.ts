import type { ApiError, FieldError } from '../protocol/types';

/** A response from our server that carried a `{code, message, fields}` body. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldError[];

  constructor(status: number, body: ApiError) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = body.code;
    this.fields = body.fields ?? [];
  }
}

function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).code === 'string' &&
    typeof (value as ApiError).message === 'string'
  );
}

/**
 * JSON over same-origin fetch with the session cookie. Resolves with the parsed body
 * (undefined for 204); rejects with ApiRequestError for a well-formed error body and
 * with a plain Error for anything unexpected (network down, proxy HTML, bad JSON).
 */
export async function apiFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    credentials: 'same-origin',
    headers: init.body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return apiResponse<T>(path, response);
}

/** `response` to a request for `path` read as apiFetch reads it. */
export async function apiResponse<T>(path: string, response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`Unexpected response (${response.status}) from ${path}`);
    }
  }
  if (!response.ok) {
    if (isApiError(body)) throw new ApiRequestError(response.status, body);
    throw new Error(`Request to ${path} failed with status ${response.status}`);
  }
  return body as T;
}
