import { useState } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from '../ui/Button';

const count = (n: number) => n.toLocaleString('en-US');

/** What a background read is of, in its status line's words. */
export interface ReadWords {
  /** "Loading older photos…" */
  loading: string;
  /** "Older photos could not be loaded" */
  failed: string;
  testId: string;
}

const OLDER_PHOTOS: ReadWords = { loading: 'Loading older photos…', failed: 'Older photos could not be loaded', testId: 'photo-paging' };

/**
 * Where the background read of a big project's older photos stands (docs/FEATURES.md,
 * "Big projects"): "Loading older photos… n of total" while pages arrive, or, once a
 * page could not be read, what is shown and a Retry that goes on from there. The
 * member's gallery and a guest's page each pass their own read; the projects page
 * passes its read of projects with its own `words`.
 */
export function OlderPhotosStatus({
  held,
  total,
  loading,
  failed,
  onRetry,
  className = '',
  words = OLDER_PHOTOS,
}: {
  held: number;
  total: number;
  loading: boolean;
  failed: boolean;
  onRetry: () => Promise<void>;
  className?: string;
  words?: ReadWords;
}) {
  if (!loading && !failed) return null;
  const all = Math.max(total, held);
  if (failed) return <ReadFailedAlert text={`${words.failed} (${count(held)} of ${count(all)} shown).`} onRetry={onRetry} className={className} />;
  return (
    <p role="status" className={`flex items-center justify-center gap-2 text-xs text-slate-500 tabular-nums dark:text-slate-400 ${className}`} data-testid={words.testId}>
      <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
      {words.loading} {count(held)} of {count(all)}
    </p>
  );
}

/** A background read that stopped: what it says, and a Retry that goes on from there. */
export function ReadFailedAlert({ text, onRetry, className = '', testId }: { text: string; onRetry: () => Promise<void>; className?: string; testId?: string }) {
  const [retrying, setRetrying] = useState(false);
  return (
    <div
      role="alert"
      data-testid={testId}
      className={`flex flex-wrap items-center justify-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100 ${className}`}
    >
      <span>{text}</span>
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
