import { forwardRef, useId, type ReactNode } from 'react';
import { ChevronDown, LayoutGrid, List, Search } from 'lucide-react';
import { cn } from '../../lib/cn';
import { statusLabel } from '../../lib/projectStatus';
import {
  formatCount,
  PROJECT_SORTS,
  STATUS_FILTERS,
  type ProjectSort,
  type ProjectView,
  type StatusCounts,
  type StatusFilter,
} from '../../lib/projectList';

export interface ProjectToolbarProps {
  q: string;
  onSearch: (q: string) => void;
  status: StatusFilter;
  counts: StatusCounts;
  onStatus: (status: StatusFilter) => void;
  sort: ProjectSort;
  onSort: (sort: ProjectSort) => void;
  view: ProjectView;
  onView: (view: ProjectView) => void;
  /** Read out as the results change, e.g. "12 matches"; empty while nothing narrows the list. */
  matches: string;
}

const FIELD =
  'h-10 rounded-lg border border-slate-300 bg-white text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/**
 * Search, status, sort and view over a long list of projects (docs/FEATURES.md, "Big
 * projects"): finding one of hundreds of projects by scrolling cards is not workable.
 */
export const ProjectToolbar = forwardRef<HTMLInputElement, ProjectToolbarProps>(function ProjectToolbar(
  { q, onSearch, status, counts, onStatus, sort, onSort, view, onView, matches },
  searchRef,
) {
  const id = useId();
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full min-w-0 sm:max-w-sm">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" aria-hidden="true" />
          <input
            ref={searchRef}
            type="search"
            value={q}
            onChange={(e) => onSearch(e.target.value)}
            placeholder="Search by name, address or person..."
            aria-label="Search projects"
            className={cn(FIELD, 'w-full pl-9 placeholder:text-slate-500 dark:placeholder:text-slate-400', matches ? 'pr-24' : 'pr-3')}
          />
          <span aria-live="polite" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-slate-600 dark:text-slate-300">
            {matches}
          </span>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-sort`} className="shrink-0 text-sm text-slate-700 dark:text-slate-200">
            Sort by
          </label>
          <div className="relative min-w-0 flex-1 sm:flex-none">
            <select
              id={`${id}-sort`}
              value={sort}
              onChange={(e) => onSort(e.target.value as ProjectSort)}
              className={cn(FIELD, 'block w-full appearance-none pr-9 pl-3')}
            >
              {PROJECT_SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          </div>
          <div role="group" aria-label="View" className="flex shrink-0 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800/70">
            <ViewButton label="Grid view" pressed={view === 'grid'} onClick={() => onView('grid')}>
              <LayoutGrid className="size-4" aria-hidden="true" />
            </ViewButton>
            <ViewButton label="List view" pressed={view === 'list'} onClick={() => onView('list')}>
              <List className="size-4" aria-hidden="true" />
            </ViewButton>
          </div>
        </div>
      </div>
      <fieldset>
        <legend className="sr-only">Status</legend>
        <div className="flex flex-wrap gap-2">
          {STATUS_FILTERS.map((value) => (
            <label
              key={value}
              className={cn(
                'inline-block h-8 cursor-pointer rounded-full border px-3 text-sm leading-[1.875rem] font-medium whitespace-nowrap transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                status === value
                  ? 'border-brand-500 bg-amber-50 text-slate-900 dark:border-brand-400 dark:bg-amber-400/10 dark:text-white'
                  : 'border-slate-200 bg-white text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:border-slate-600 dark:hover:text-white',
              )}
            >
              <input
                type="radio"
                name={`${id}-status`}
                value={value}
                checked={status === value}
                onChange={() => onStatus(value)}
                className="sr-only"
              />
              {/* Inline text, so the radio's name is "Planning 12" rather than "Planning12". */}
              {value === 'all' ? 'All' : statusLabel(value)}{' '}
              <span className="ml-0.5 text-xs tabular-nums text-slate-600 dark:text-slate-400">{formatCount(counts[value])}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
});

function ViewButton({ label, pressed, onClick, children }: { label: string; pressed: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'flex size-8 items-center justify-center rounded-md transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        pressed
          ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white'
          : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
      )}
    >
      {children}
    </button>
  );
}
