import { toast } from '../lib/toast';
import { clientLog } from './clientLog';
import { RequestError } from './requests';

/**
 * Shows a failed request as a toast. The server's messages are SPEC.md's own strings
 * ("Project not found", "You cannot delete your own account.", …), so they are shown
 * as they are; when the server never answered, the screen's fallback says what failed.
 */
export function toastRequestError(error: unknown, fallback: string): void {
  // The user's own mistakes (validation, no changes, not allowed) are not worth a log
  // line; failures of ours or of the connection are.
  if (!(error instanceof RequestError) || !error.fromServer || error.code === 'internal') {
    clientLog.add('error', fallback, { page: window.location.pathname, error });
  }
  if (error instanceof RequestError && error.fromServer) {
    if (error.code === 'no_changes') toast.info(error.message);
    else toast.error(error.message);
    return;
  }
  const detail = error instanceof Error ? error.message : undefined;
  toast.error(fallback, detail ? { description: detail } : undefined);
}
