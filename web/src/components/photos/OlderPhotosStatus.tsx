import { useState } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from '../ui/Button';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Where the background read of a big project's older photos stands (docs/FEATURES.md,
 * "Big projects"): "Loading older photos… n of total" while pages arrive, or, once a
 * page could not be read, what is shown and a Retry that goes on from there. The
 * member's gallery and a guest's page each pass their own read.
 */
export function OlderPhotosStatus({
  held,
  total,
  loading,
  failed,
  onRetry,
  className = '',
}: {
  held: number;
  total: number;
  loading: boolean;
  failed: boolean;
  onRetry: () => Promise<void>;
  className?: string;
}) {
  const [retrying, setRetrying] = useState(false);
  if (!loading && !failed) return null;
  const all = Math.max(total, held);
  if (failed) {
    return (
      <div
        role="alert"
        className={`flex flex-wrap items-center justify-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100 ${className}`}
      >
        <span>
          Older photos could not be loaded ({count(held)} of {count(all)} shown).
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={retrying}
          onClick={() => {
            setRetrying(true);
            void onRetry().finally(() => setRetrying(false));
          }}
        >
          Retry
        </Button>
      </div>
    );
  }
  return (
    <p role="status" className={`flex items-center justify-center gap-2 text-xs text-slate-500 tabular-nums dark:text-slate-400 ${className}`} data-testid="photo-paging">
      <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
      Loading older photos… {count(held)} of {count(all)}
    </p>
  );
}
