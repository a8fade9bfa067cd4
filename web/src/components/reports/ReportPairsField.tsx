import { useId, useState } from 'react';
import { ArrowRight, Plus, X } from 'lucide-react';
import type { ProjectImage, ReportPair } from '../../protocol/types';
import { MAX_REPORT_PAIRS } from '../../lib/reports';
import { photoDayLabel } from '../../lib/photoDates';
import { ComparePicker } from '../compare/ComparePicker';
import { PhotoImage } from '../photos/PhotoImage';
import { Button } from '../ui/Button';

function PairPhoto({ photo, side }: { photo: ProjectImage | undefined; side: 'Before' | 'After' }) {
  const name = photo?.caption?.trim() || 'Untitled photo';
  return (
    <span className="flex min-w-0 flex-1 items-center gap-2">
      <span className="relative size-12 shrink-0 overflow-hidden rounded-md bg-slate-100 ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10">
        {photo && <PhotoImage src={photo.thumbUrl} alt="" className="size-full object-cover" />}
      </span>
      <span className="min-w-0 text-xs">
        <span className="block font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{side}</span>
        <span className="block truncate font-medium text-slate-900 dark:text-white">{photo ? name : 'A photo no longer here'}</span>
        {photo && <span className="block truncate text-slate-500 dark:text-slate-400">{photoDayLabel(photo)}</span>}
      </span>
    </span>
  );
}

/**
 * Before/after pairs of a report (optional, up to 20): each picked as two photos of the
 * report's period with the compare picker, the earlier one before; listed to remove.
 */
export function ReportPairsField({
  pairs,
  onChange,
  photos,
  byId,
  error,
  disabled = false,
}: {
  pairs: ReportPair[];
  onChange: (pairs: ReportPair[]) => void;
  /** The photos of the report's period, newest first: what a pair is picked from. */
  photos: ProjectImage[];
  /** Every photo of the project, to show pairs whose photos left the period. */
  byId: Record<string, ProjectImage>;
  error?: string;
  disabled?: boolean;
}) {
  const [picking, setPicking] = useState(false);
  const id = useId();
  const full = pairs.length >= MAX_REPORT_PAIRS;
  return (
    <fieldset disabled={disabled} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}>
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Before and after</legend>
      <p id={`${id}-hint`} className="mt-0.5 mb-2 text-xs text-slate-600 dark:text-slate-400">
        {full
          ? `A report holds at most ${MAX_REPORT_PAIRS} pairs.`
          : 'Optional: two photos of the period shown side by side, the earlier one as before.'}
      </p>
      {pairs.length > 0 && (
        <ul className="mb-3 space-y-2" aria-label="Before and after pairs" data-testid="report-pairs">
          {pairs.map((pair, i) => (
            <li key={`${pair.before}-${pair.after}`} className="flex items-center gap-2 rounded-lg border border-slate-200 p-2 dark:border-slate-700">
              <PairPhoto photo={byId[pair.before]} side="Before" />
              <ArrowRight className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
              <PairPhoto photo={byId[pair.after]} side="After" />
              <Button variant="ghost" size="sm" className="shrink-0 px-2" aria-label={`Remove pair ${i + 1}`} onClick={() => onChange(pairs.filter((_, j) => j !== i))}>
                <X className="size-4" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button variant="outline" size="sm" onClick={() => setPicking(true)} disabled={full || photos.length < 2}>
        <Plus className="size-4" aria-hidden="true" />
        Add a pair
      </Button>
      {photos.length < 2 && !full && <span className="ml-3 text-xs text-slate-500 dark:text-slate-400">The period needs two photos for a pair.</span>}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <ComparePicker
        open={picking}
        onOpenChange={setPicking}
        photos={photos}
        initial={[]}
        title="Add a before/after pair"
        actionLabel="Add pair"
        listLabel="Photos for the pair"
        tooFewText="A pair needs two photos of the report's period."
        onCompare={(before, after) => {
          setPicking(false);
          if (!pairs.some((p) => p.before === before.id && p.after === after.id)) onChange([...pairs, { before: before.id, after: after.id }]);
        }}
      />
    </fieldset>
  );
}
