import { REPLY_TYPES, type ClientMsg, type FieldError, type ReplyTo, type Request, type Response } from '../protocol/types';
import { PROVING_REQUESTS, StepUp } from './stepUp';

/**
 * Why a request failed: a server ApiError, or one of the client's own codes
 * (not_connected, timeout, disconnected), which the wire ErrorCode does not list.
 */
export interface RequestFailure {
  code: string;
  message: string;
  fields?: FieldError[];
}

/** Codes the client makes up itself: the server never saw (or never answered) the request. */
export const CLIENT_FAILURE_CODES = ['not_connected', 'timeout', 'disconnected', 'unexpected_reply'] as const;

/** A request failed: the server answered with an error, it timed out, or the socket dropped. */
export class RequestError extends Error {
  readonly code: string;
  readonly fields: FieldError[];
  constructor(error: RequestFailure) {
    super(error.message);
    this.name = 'RequestError';
    this.code = error.code;
    this.fields = error.fields ?? [];
  }

  /** True when the server answered with its own `{code, message}` (SPEC's messages). */
  get fromServer(): boolean {
    return !(CLIENT_FAILURE_CODES as readonly string[]).includes(this.code);
  }

  /**
   * The server asked this socket to slow down (its requests per 10 s, or at once):
   * not a verdict on the request, which is worth sending again after a pause.
   */
  get busy(): boolean {
    return this.code === 'rate_limited';
  }

  /** The server's message for one request field, if it sent one. */
  fieldMessage(field: string): string | undefined {
    return this.fields.find((f) => f.field === field)?.message;
  }
}

interface Pending {
  resolve: (response: Response) => void;
  reject: (error: RequestError) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Starts (or starts again) the wait for the reply. */
  wait: () => ReturnType<typeof setTimeout>;
  /** After this (epoch ms) arriving frames no longer start the wait again. */
  lastRestart: number;
}

/** The request of one `type`. */
export type RequestOf<K extends Request['type']> = Extract<Request, { type: K }>;

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
/** However busy the socket, a request is given up this long after it was sent (plus its own timeout). */
export const LONGEST_WAIT_MS = 120_000;

/**
 * Pairs each request with its reply by correlation id. The transport is injected, so
 * this is testable without sockets and survives reconnects (the sender is swapped).
 */
export class RequestTracker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private sender: ((msg: ClientMsg) => void) | null = null;
  /** "Confirm it's you" and the retry after it, for every request at once. */
  readonly stepUp = new StepUp();
  /**
   * Called when the server refuses a request until this session enrols a second factor
   * (the app then shows only the enrolment screen; docs/SECURITY.md, "Two-factor sign-in").
   */
  onEnrolRequired: (() => void) | null = null;

  attach(sender: ((msg: ClientMsg) => void) | null): void {
    this.sender = sender;
  }

  /**
   * Sends a request and resolves with the reply the protocol pairs with its type
   * (`ReplyTo`, generated from the Rust crate's list). Any other reply is a protocol
   * mismatch and rejects like an error would. A sensitive action the server wants a
   * fresh second factor for is sent again once the user has confirmed it's them.
   */
  request<K extends Request['type']>(request: RequestOf<K> & { type: K }, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<ReplyTo[K]> {
    const send = () => this.send<K>(request, timeoutMs);
    return PROVING_REQUESTS.includes(request.type) ? send() : this.stepUp.run(send);
  }

  private send<K extends Request['type']>(request: RequestOf<K> & { type: K }, timeoutMs: number): Promise<ReplyTo[K]> {
    const sender = this.sender;
    if (!sender) {
      return Promise.reject(new RequestError({ code: 'not_connected', message: 'Not connected to the server.' }));
    }
    const id = this.nextId++;
    const expected: Response['type'] = REPLY_TYPES[request.type];
    return new Promise<ReplyTo[K]>((resolve, reject) => {
      const wait = () =>
        setTimeout(() => {
          this.pending.delete(id);
          reject(new RequestError({ code: 'timeout', message: 'The server did not answer in time.' }));
        }, timeoutMs);
      const timer = wait();
      const settle = (response: Response) => {
        if (response.type === expected) resolve(response as ReplyTo[K]);
        else reject(new RequestError({ code: 'unexpected_reply', message: `Expected ${expected}, got ${response.type}.` }));
      };
      this.pending.set(id, { resolve: settle, reject, timer, wait, lastRestart: Date.now() + LONGEST_WAIT_MS });
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
    if (error.code === 'enrol_required') this.onEnrolRequired?.();
    const waiting = this.take(id);
    waiting?.reject(new RequestError(error));
    return waiting !== undefined;
  }

  /**
   * A frame arrived. Replies come in order with everything else the socket carries, so
   * on a slow link a reply may wait behind other frames: while frames keep arriving the
   * connection is working, and each wait starts again (docs/FEATURES.md, "Big
   * projects": a reply that is arriving is not a timeout). Only silence times out.
   */
  heard(): void {
    const now = Date.now();
    for (const waiting of this.pending.values()) {
      if (now > waiting.lastRestart) continue;
      clearTimeout(waiting.timer);
      waiting.timer = waiting.wait();
    }
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

/** Sends a request over the live socket and resolves with its reply (see `RequestTracker.request`). */
export function request<K extends Request['type']>(req: RequestOf<K> & { type: K }, timeoutMs?: number): Promise<ReplyTo[K]> {
  return requests.request<K>(req, timeoutMs);
}
