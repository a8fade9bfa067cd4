import { Search } from 'lucide-react';
import { cn } from '../../lib/cn';

/** The "Search by name or email..." box of the user tables and the homeowner picker. */
export function SearchBox({
  value,
  onChange,
  label,
  className,
  status,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  className?: string;
  /** Read out as the results change, e.g. "3 matches". */
  status?: string;
}) {
  return (
    <div className={cn('relative w-full sm:max-w-xs', className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" aria-hidden="true" />
      <input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Search by name or email..."
        aria-label={label}
        className={cn(
          'h-10 w-full rounded-lg border border-slate-300 bg-white pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400',
          status ? 'pr-24' : 'pr-3',
        )}
      />
      <span aria-live="polite" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-slate-600 dark:text-slate-300">
        {status}
      </span>
    </div>
  );
}
