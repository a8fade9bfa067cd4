import { AlertCircle } from 'lucide-react';
import { useAppStore } from '../store';

/**
 * Whether the first view of the server's data failed to arrive: the socket could not
 * open (or dropped) before the first snapshot. It keeps reconnecting by itself.
 */
export function useFirstLoadFailed(): boolean {
  return useAppStore((s) => !s.projectsLoaded && s.connection === 'reconnecting');
}

/** SPEC §8's failed-load messages, where a page's data could not be loaded. */
export function LoadFailed({ message }: { message: string }) {
  return (
    <div
      role="alert"
      data-testid="load-failed"
      className="flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 px-6 py-10 text-center text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100"
    >
      <AlertCircle className="size-8" aria-hidden="true" />
      <p className="text-base font-semibold">{message}</p>
      <p className="max-w-md text-sm text-red-800/90 dark:text-red-200/80">
        We keep trying to reach the server; this page fills in by itself once it answers.
      </p>
    </div>
  );
}
