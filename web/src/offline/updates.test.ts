import { describe, expect, it } from 'vitest';
import type { UploadState } from '../lib/uploadQueue';
import { mayReloadNow } from './updates';

const files = (...states: UploadState[]) => states.map((state) => ({ state }));

describe('reloading into a new version', () => {
  it('may reload with nothing in the upload queue', () => {
    expect(mayReloadNow([])).toBe(true);
  });

  it('waits while photos are being sent, or are about to be', () => {
    expect(mayReloadNow(files('uploading'))).toBe(false);
    expect(mayReloadNow(files('done', 'queued'))).toBe(false);
    expect(mayReloadNow(files('paused', 'retrying'))).toBe(false);
  });

  it('may reload over files kept on the device for later', () => {
    expect(mayReloadNow(files('waiting', 'paused', 'failed', 'done', 'refused'))).toBe(true);
  });
});
