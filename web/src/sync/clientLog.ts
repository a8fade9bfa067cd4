import type { LogEntry } from '../protocol/types';
import { RequestError, requests } from './requests';

/** SPEC §9: the log buffer in memory holds 100 entries. */
export const LOG_BUFFER_SIZE = 100;
/** The server's limits (docs/LIMITS.md): longer text would be refused, so it is cut. */
const MAX_MESSAGE = 2_000;
const MAX_DATA = 8_000;
/** How long to hold entries after the server says "too many" (its window is a minute). */
const RATE_LIMIT_PAUSE_MS = 60_000;

export type ClientLogLevel = 'warn' | 'error';

export interface ClientLogEntry extends LogEntry {
  at: number;
  /** Stored by the server, or given up on (refused as invalid). */
  sent: boolean;
}

/**
 * The web client's log (SPEC §3 logs, §7): errors and warnings kept in a 100-entry
 * in-memory buffer and sent to the server as `log` requests once a socket is open. The
 * server rate-limits per user; on "too many" the rest waits a minute, and entries that
 * did not fit in the buffer are the oldest ones, dropped.
 */
export class ClientLog {
  private entries: ClientLogEntry[] = [];
  private flushing = false;
  private pausedUntil = 0;

  constructor(
    private readonly send: (entry: LogEntry) => Promise<unknown>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get buffer(): readonly ClientLogEntry[] {
    return this.entries;
  }

  add(level: ClientLogLevel, message: string, data: unknown = null): void {
    const text = message.trim() || '(no message)';
    this.entries.push({
      level,
      message: text.slice(0, MAX_MESSAGE),
      data: data === null || data === undefined ? null : describe(data).slice(0, MAX_DATA),
      at: this.now(),
      sent: false,
    });
    if (this.entries.length > LOG_BUFFER_SIZE) this.entries.splice(0, this.entries.length - LOG_BUFFER_SIZE);
    void this.flush();
  }

  /** Sends what has not been sent, oldest first; stops at the first entry that cannot go now. */
  async flush(): Promise<void> {
    if (this.flushing || this.now() < this.pausedUntil) return;
    this.flushing = true;
    try {
      for (const entry of this.entries) {
        if (entry.sent) continue;
        try {
          await this.send({ level: entry.level, message: entry.message, data: entry.data });
          entry.sent = true;
        } catch (err) {
          if (err instanceof RequestError && err.code === 'rate_limited') {
            this.pausedUntil = this.now() + RATE_LIMIT_PAUSE_MS;
            return;
          }
          // Not connected (yet), dropped or timed out: try again on the next connection.
          if (!(err instanceof RequestError) || !err.fromServer) return;
          // The server refused this entry itself; sending it again would not help.
          entry.sent = true;
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v));
  } catch {
    return String(value);
  }
}

export const clientLog = new ClientLog((entry) => requests.request({ type: 'log', ...entry }));

function messageOf(args: unknown[]): string {
  return args
    .map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : describe(a)))
    .join(' ');
}

let installed = false;

/**
 * Copies the page's errors and warnings into the client log: console.error and
 * console.warn (still printed as before), uncaught errors and unhandled rejections.
 */
export function installClientLog(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  let inside = false;
  const copy = (level: ClientLogLevel, original: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      original(...args);
      // A warning raised while logging must not log itself again.
      if (inside) return;
      inside = true;
      try {
        clientLog.add(level, messageOf(args), { page: window.location.pathname, args: args.map((a) => (a instanceof Error ? a : describe(a))) });
      } finally {
        inside = false;
      }
    };
  console.error = copy('error', console.error.bind(console));
  console.warn = copy('warn', console.warn.bind(console));
  window.addEventListener('error', (event) => {
    clientLog.add('error', event.message || 'Uncaught error', { page: window.location.pathname, source: event.filename, line: event.lineno, error: event.error as unknown });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    clientLog.add('error', reason instanceof Error ? reason.message : `Unhandled rejection: ${describe(reason)}`, { page: window.location.pathname, error: reason });
  });
}
