import { useId } from 'react';
import type { ProgressMode } from '../../protocol/types';
import { cn } from '../../lib/cn';

/**
 * "Progress follows milestones" on or off (manual). A native checkbox with the switch
 * role, so Space toggles it and screen readers say "switch, on".
 */
export function ProgressModeSwitch({
  value,
  onChange,
  disabled,
  hint,
}: {
  value: ProgressMode;
  onChange: (mode: ProgressMode) => void;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  const on = value === 'milestones';
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Progress follows milestones
        </label>
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
          {hint ?? (on ? 'The share of completed milestones sets the progress.' : 'Progress is set by hand.')}
        </p>
      </div>
      <span className="relative inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={on}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onChange(e.target.checked ? 'milestones' : 'manual')}
          className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
        />
        <span
          aria-hidden="true"
          className={cn(
            'flex h-6 w-11 items-center rounded-full p-0.5 transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60',
            on ? 'bg-green-600' : 'bg-slate-300 dark:bg-slate-700',
          )}
        >
          <span className={cn('size-5 rounded-full bg-white shadow transition-transform', on ? 'translate-x-5' : 'translate-x-0')} />
        </span>
      </span>
    </div>
  );
}
