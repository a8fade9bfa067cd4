import { CheckCircle2, X } from 'lucide-react';
import { cn } from '../../lib/cn';
import { formatBytes } from '../../lib/photoUpload';
import { Button } from '../ui/Button';

export interface SelectedPhoto {
  key: string;
  file: File;
  /** An object URL for the preview; revoked when the photo leaves the selection. */
  previewUrl: string;
}

/**
 * SPEC §2 Photo upload: "Selected Photos (n)" with a preview per file, per-file remove,
 * Discard and Publish ("Publishing..." while busy); each file's progress while it goes.
 */
export function SelectedPhotosPanel({
  items,
  progress,
  publishing,
  percent,
  onRemove,
  onDiscard,
  onPublish,
}: {
  items: SelectedPhoto[];
  /** Per item, 0 to 1, while publishing. */
  progress: number[] | null;
  publishing: boolean;
  percent: number;
  onRemove: (key: string) => void;
  onDiscard: () => void;
  onPublish: () => void;
}) {
  return (
    <section aria-label="Selected Photos" className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 dark:border-slate-800">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Selected Photos ({items.length})</h3>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onDiscard} disabled={publishing}>
            Discard
          </Button>
          <Button variant="secondary" size="sm" onClick={onPublish} loading={publishing} disabled={publishing || items.length === 0}>
            {publishing ? 'Publishing...' : 'Publish'}
          </Button>
        </div>
      </div>
      {publishing && (
        <div className="px-4 pt-3">
          <div className="flex items-center justify-between text-xs text-slate-500 dark:text-slate-400">
            <span>Uploading {items.length === 1 ? '1 photo' : `${items.length} photos`}…</span>
            <span className="font-semibold tabular-nums text-slate-700 dark:text-slate-200">{percent}%</span>
          </div>
          <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
            <div className="h-full rounded-full bg-brand-500 transition-[width] duration-200" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
      <ul className="grid grid-cols-2 gap-3 p-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5">
        {items.map((item, i) => {
          const done = progress ? progress[i] ?? 0 : 0;
          const pct = Math.round(done * 100);
          return (
            <li key={item.key} data-testid="selected-photo" className="group relative overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
              <div className="relative aspect-square bg-slate-100 dark:bg-slate-800">
                <img src={item.previewUrl} alt="" className={cn('size-full object-cover transition-opacity', publishing && done < 1 && 'opacity-70')} />
                {!publishing && (
                  <button
                    type="button"
                    onClick={() => onRemove(item.key)}
                    aria-label={`Remove ${item.file.name}`}
                    className="absolute top-1.5 right-1.5 inline-flex size-7 items-center justify-center rounded-full bg-slate-950/60 text-white shadow-sm backdrop-blur-sm transition hover:bg-red-600 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
                  >
                    <X className="size-4" aria-hidden="true" />
                  </button>
                )}
                {publishing && done >= 1 && (
                  <CheckCircle2 className="absolute top-1.5 right-1.5 size-6 rounded-full bg-white text-green-600 shadow-sm" aria-hidden="true" />
                )}
              </div>
              <div className="px-2 py-1.5">
                <p className="truncate text-xs font-medium text-slate-700 dark:text-slate-200" title={item.file.name}>
                  {item.file.name}
                </p>
                <p className="text-[11px] text-slate-500 tabular-nums dark:text-slate-400">{formatBytes(item.file.size)}</p>
              </div>
              {publishing && (
                <div
                  role="progressbar"
                  aria-label={`Uploading ${item.file.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={pct}
                  className="h-1 bg-slate-200 dark:bg-slate-700"
                >
                  <div className="h-full bg-brand-500 transition-[width] duration-150" style={{ width: `${pct}%` }} />
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
