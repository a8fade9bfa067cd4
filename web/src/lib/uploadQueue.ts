/**
 * The upload queue's arithmetic, kept free of the browser so it can be tested: what a
 * file's state means, the totals a person reads ("12.4 of 40.0 MB · about 1 min left"),
 * and the speed estimate behind "time left".
 */

export type UploadState =
  /** Waiting for a free slot. */
  | 'queued'
  | 'uploading'
  /** Paused by the person, or found unfinished after the page was reloaded. */
  | 'paused'
  /** The network is away; tus-js-client retries with backoff, then resumes from the server's offset. */
  | 'retrying'
  /**
   * Chosen, or cut off, while the device is offline: kept on the device and
   * sent by itself once it is back online (this page, the service worker's background
   * sync, or the next visit).
   */
  | 'waiting'
  /** Gave up after the retries (or the server failed): the Retry button resumes it. */
  | 'failed'
  /**
   * Sent ahead of publishing (tus metadata `held`): every byte is on the server, and the
   * photo waits for Publish (docs/FEATURES.md, "Photo upload").
   */
  | 'held'
  /** Published with every byte there: the server is making it a photo; a HEAD says how it went. */
  | 'storing'
  | 'done'
  /** The server looked at the file and refused it, with a reason. */
  | 'refused';

export interface QueueFile {
  key: string;
  name: string;
  size: number;
  sent: number;
  state: UploadState;
  /** Why it was refused or failed, in the server's words when it gave any. */
  reason?: string;
}

/** No more bytes will go for it without the person doing something (or ever). */
export const isSettled = (state: UploadState) => state === 'done' || state === 'refused';

/** Bytes are going, or about to: this page is sending it now. */
export const isSending = (state: UploadState) => state === 'uploading' || state === 'queued' || state === 'retrying';

/** Every byte is on the server (held for Publish, or being stored): nothing left to send. */
export const isWhole = (state: UploadState) => state === 'held' || state === 'storing' || state === 'done';

/** Bytes that still have to leave this device. */
export function unsentBytes(files: readonly QueueFile[]): number {
  return files.filter((f) => !isWhole(f.state) && f.state !== 'refused').reduce((sum, f) => sum + Math.max(0, f.size - f.sent), 0);
}

export interface Totals {
  sent: number;
  total: number;
  /** 0 to 100. */
  percent: number;
  done: number;
  refused: number;
  failed: number;
  active: number;
  /** Waiting for the device to be online. */
  waiting: number;
  /** Every byte on the server, waiting for Publish. */
  held: number;
}

export function totals(files: readonly QueueFile[]): Totals {
  const counted = files.filter((f) => f.state !== 'refused');
  const total = counted.reduce((sum, f) => sum + f.size, 0);
  const sent = counted.reduce((sum, f) => sum + (isWhole(f.state) ? f.size : Math.min(f.sent, f.size)), 0);
  return {
    sent,
    total,
    percent: total > 0 ? Math.floor((sent / total) * 100) : files.length > 0 ? 100 : 0,
    done: files.filter((f) => f.state === 'done').length,
    refused: files.filter((f) => f.state === 'refused').length,
    failed: files.filter((f) => f.state === 'failed').length,
    active: files.filter((f) => isSending(f.state)).length,
    waiting: files.filter((f) => f.state === 'waiting').length,
    held: files.filter((f) => f.state === 'held').length,
  };
}

/**
 * Upload speed, bytes per second, smoothed over the last few seconds so one slow chunk
 * does not make "time left" jump about. Samples are (time in ms, bytes sent in all).
 */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 8000) {}

  add(at: number, bytes: number): void {
    const last = this.samples[this.samples.length - 1];
    // Bytes sent can go back (a retried chunk is counted again from the server's offset).
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - (this.samples[0]?.at ?? at) > this.windowMs) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  /** Bytes per second, or null until there is a second's worth of samples. */
  bytesPerSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at - first.at < 1000) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }
}

/** "about 2 min left", "a few seconds left", or null when it cannot be said. */
export function timeLeft(remainingBytes: number, bytesPerSecond: number | null): string | null {
  if (remainingBytes <= 0) return null;
  if (!bytesPerSecond || bytesPerSecond <= 0) return null;
  const seconds = remainingBytes / bytesPerSecond;
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.ceil(seconds / 10) * 10} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  return `about ${hours} h ${Math.round((seconds - hours * 3600) / 60)} min left`;
}

/** What a file's row says about it. */
export function stateLabel(file: QueueFile): string {
  switch (file.state) {
    case 'queued':
      return 'Waiting';
    case 'uploading':
      return file.size > 0 ? `${Math.floor((Math.min(file.sent, file.size) / file.size) * 100)}%` : 'Sending';
    case 'paused':
      return 'Paused';
    case 'retrying':
      return 'Connection lost, retrying…';
    case 'waiting':
      return 'Waiting for connection';
    case 'failed':
      return file.reason ? `Failed: ${file.reason}` : 'Failed';
    case 'held':
      return 'Sent';
    case 'storing':
      return 'Processing…';
    case 'done':
      return 'Uploaded';
    case 'refused':
      return file.reason ? `Skipped: ${file.reason}` : 'Skipped';
  }
}

/** The server's reason header (percent-encoded UTF-8), as text. */
export function decodeReason(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}
