import { useState } from 'react';
import { RotateCw, Sparkles } from 'lucide-react';
import { applyUpdate, useAppUpdate } from '../offline/serviceWorker';
import { mayReloadNow, RELOAD_AFTER_UPLOADS, UPDATE_READY } from '../offline/updates';
import { useUploads } from '../store/uploads';
import { Button } from './ui/Button';

/**
 * A new version of the app is installed (docs/FEATURES.md, "On the phone"). It takes over
 * only when the person taps Reload, and not while photos are being sent from this page;
 * "Later" hides the prompt until the next visit, which opens the new version anyway.
 */
export function UpdateReadyBanner() {
  const ready = useAppUpdate((s) => s.ready);
  const canReload = useUploads((s) => mayReloadNow(s.uploads));
  const [later, setLater] = useState(false);
  if (!ready || later) return null;
  return (
    <div
      role="status"
      data-testid="update-ready"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:inset-x-auto sm:right-4 sm:bottom-4 sm:p-0"
    >
      <div className="pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-2xl bg-slate-900 p-4 text-white shadow-xl ring-1 ring-slate-800 dark:bg-slate-800 dark:ring-slate-700">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-500 text-slate-950">
          <Sparkles className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold">{UPDATE_READY}</p>
          <p className="mt-0.5 text-sm text-slate-300">{canReload ? 'Reload to start using it.' : `${RELOAD_AFTER_UPLOADS}.`}</p>
          <div className="mt-3 flex gap-2">
            <Button variant="secondary" size="sm" onClick={applyUpdate} disabled={!canReload}>
              <RotateCw className="size-4" aria-hidden="true" />
              Reload
            </Button>
            <button
              type="button"
              onClick={() => setLater(true)}
              className="inline-flex h-8 items-center rounded-lg px-3 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:hover:bg-slate-700"
            >
              Later
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
