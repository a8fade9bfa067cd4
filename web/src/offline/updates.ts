/**
 * When the app may reload into a new version (docs/FEATURES.md, "On the phone"): only
 * when the person asks, and never while this page is sending photos. Files waiting for
 * the network, paused or failed are kept on the device and come back after the reload;
 * bytes in flight would be cut off and sent again.
 */
import { isSending, type QueueFile } from '../lib/uploadQueue';

export const UPDATE_READY = 'A new version of Sitecast is ready.';
export const RELOAD_AFTER_UPLOADS = 'Reload after your uploads finish';

export function mayReloadNow(files: readonly Pick<QueueFile, 'state'>[]): boolean {
  return !files.some((f) => isSending(f.state));
}
