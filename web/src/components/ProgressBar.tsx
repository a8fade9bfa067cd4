import type { ProjectStatus } from '../protocol/types';
import { cn } from '../lib/cn';
import { clampProgress, STATUS_BAR_CLASSES } from '../lib/projectStatus';

export function ProgressBar({ value, status, label }: { value: number; status: ProjectStatus; label: string }) {
  const percent = clampProgress(value);
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between text-xs">
        <span className="font-medium text-slate-600 dark:text-slate-400">{label}</span>
        <span className="font-semibold tabular-nums text-slate-900 dark:text-slate-100">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-500', STATUS_BAR_CLASSES[status] ?? 'bg-brand-500')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
