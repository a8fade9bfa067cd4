import type { ClientMsg, Request, Response } from '../protocol/types';

/**
 * Why a request failed: a server ApiError, or one of the client's own codes
 * (not_connected, timeout, disconnected), which the wire ErrorCode does not list.
 */
export interface RequestFailure {
  code: string;
  message: string;
}

/** A request failed: the server answered with an error, it timed out, or the socket dropped. */
export class RequestError extends Error {
  readonly code: string;
  constructor(error: RequestFailure) {
    super(error.message);
    this.name = 'RequestError';
    this.code = error.code;
  }
}

interface Pending {
  resolve: (response: Response) => void;
  reject: (error: RequestError) => void;
  timer: ReturnType<typeof setTimeout>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/**
 * Pairs each request with its reply by correlation id. The transport is injected, so
 * this is testable without sockets and survives reconnects (the sender is swapped).
 */
export class RequestTracker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private sender: ((msg: ClientMsg) => void) | null = null;

  attach(sender: ((msg: ClientMsg) => void) | null): void {
    this.sender = sender;
  }

  request(request: Request, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<Response> {
    const sender = this.sender;
    if (!sender) {
      return Promise.reject(new RequestError({ code: 'not_connected', message: 'Not connected to the server.' }));
    }
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError({ code: 'timeout', message: 'The server did not answer in time.' }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        sender({ id, request });
      } catch {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new RequestError({ code: 'not_connected', message: 'Not connected to the server.' }));
      }
    });
  }

  /** Settles the request with this id; returns false when nothing was waiting for it. */
  reply(id: number, response: Response): boolean {
    const waiting = this.take(id);
    waiting?.resolve(response);
    return waiting !== undefined;
  }

  fail(id: number, error: RequestFailure): boolean {
    const waiting = this.take(id);
    waiting?.reject(new RequestError(error));
    return waiting !== undefined;
  }

  /** The connection dropped: nothing in flight will be answered on the new one. */
  failAll(error: RequestFailure): void {
    for (const id of [...this.pending.keys()]) this.fail(id, error);
  }

  get inFlight(): number {
    return this.pending.size;
  }

  private take(id: number): Pending | undefined {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    clearTimeout(waiting.timer);
    this.pending.delete(id);
    return waiting;
  }
}

export const requests = new RequestTracker();

/** Sends a request over the live socket and resolves with its typed reply. */
export function request(req: Request, timeoutMs?: number): Promise<Response> {
  return requests.request(req, timeoutMs);
}
