import { RotateCw } from 'lucide-react';
import { useAppStore } from '../store';
import { Button } from './ui/Button';

/**
 * Shown once the server speaks another protocol version (a deploy while this tab was
 * open). The socket stays closed, so nothing on the page is live any more; only a
 * reload, which fetches the matching web app, helps.
 */
export function UpdateRequiredBanner() {
  const outdated = useAppStore((s) => s.connection === 'outdated');
  if (!outdated) return null;
  return (
    <div
      role="alert"
      data-testid="update-required"
      className="border-t border-slate-800 bg-slate-900 text-white dark:border-slate-700 dark:bg-slate-800"
    >
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
        <p className="flex items-start gap-2.5 text-sm font-medium sm:items-center">
          <span className="mt-1.5 size-2 shrink-0 rounded-full bg-brand-400 sm:mt-0" aria-hidden="true" />
          Sitecast has been updated. Please reload the page to continue.
        </p>
        <Button variant="secondary" size="sm" className="w-full shrink-0 sm:w-auto" onClick={() => window.location.reload()}>
          <RotateCw className="size-4" aria-hidden="true" />
          Reload
        </Button>
      </div>
    </div>
  );
}
