import { useId, type ReactNode } from 'react';
import { ChevronDown, Heart, RotateCcw } from 'lucide-react';
import { cn } from '../../lib/cn';
import { defaultDateFilter, differsFromDefault, monthChoices, parseChoice, withMonth, withYear, yearChoices } from '../../lib/photoFilters';
import type { PhotoFilters } from './usePhotos';
import { ChosenTags, TagFilterMenu, type TagFilterProps } from './TagFilter';

function FilterSelect({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className="block h-9 w-full appearance-none rounded-lg border border-slate-300 bg-white pr-8 pl-3 text-sm text-slate-900 shadow-sm transition-colors focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:cursor-not-allowed disabled:opacity-50 sm:w-36 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
    </div>
  );
}

/**
 * SPEC §2 Media filters: a Favorites toggle with its count, year and month (ignored
 * while Favorites is on), and a reset when they differ from the defaults.
 */
export function PhotoFilterBar({
  filters,
  favouriteCount,
  favouritesComplete = true,
  shown,
  total,
  extra,
  tagFilter,
}: {
  filters: PhotoFilters;
  favouriteCount: number;
  /**
   * False while some of a big project's pages are still on their way: favourites come
   * with their page, so the count is "at least" (docs/FEATURES.md, "Big projects").
   */
  favouritesComplete?: boolean;
  /** Photos the filters let through, of all the project's photos (null while loading). */
  shown: number | null;
  total: number;
  /** More controls at the end of the row (the gallery's "Group by"). */
  extra?: ReactNode;
  /** The project's tags to filter by (no menu while no photo has one). */
  tagFilter?: TagFilterProps;
}) {
  const { now, date, setDate, favouritesOnly, setFavouritesOnly } = filters;
  const years = yearChoices(now).map((c) => ({ value: String(c.value), label: c.label }));
  const months = monthChoices().map((c) => ({ value: String(c.value), label: c.label }));
  const canReset = differsFromDefault(date, now);

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Photo filters">
      <button
        type="button"
        onClick={() => setFavouritesOnly(!favouritesOnly)}
        aria-pressed={favouritesOnly}
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-lg border px-3 text-sm font-medium shadow-sm transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
          favouritesOnly
            ? 'border-rose-200 bg-rose-50 text-rose-700 hover:bg-rose-100 dark:border-rose-500/40 dark:bg-rose-500/10 dark:text-rose-300'
            : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
        )}
      >
        <Heart className={cn('size-4', favouritesOnly ? 'fill-rose-500 text-rose-500' : 'text-slate-400')} aria-hidden="true" />
        Favorites
        <span
          data-testid="favourite-count"
          title={favouritesComplete ? undefined : 'Some photos are still loading'}
          className={cn(
            'min-w-5 rounded-full px-1.5 text-center text-xs font-semibold tabular-nums',
            favouritesOnly ? 'bg-rose-500 text-white' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
          )}
        >
          {favouriteCount}
          {!favouritesComplete && '+'}
        </span>
      </button>
      {tagFilter && (tagFilter.options.length > 0 || tagFilter.chosen.length > 0) && <TagFilterMenu {...tagFilter} />}
      {/* Phones: the two selects share their own row; wider: one row with the toggle. */}
      <div className="order-last flex w-full min-w-0 items-center gap-2 sm:order-none sm:w-auto">
        <FilterSelect
          label="Year"
          value={String(date.year)}
          options={years}
          disabled={favouritesOnly}
          onChange={(v) => setDate(withYear(date, parseChoice(v), now))}
        />
        <FilterSelect
          label="Month"
          value={String(date.month)}
          options={months}
          disabled={favouritesOnly}
          onChange={(v) => setDate(withMonth(date, parseChoice(v)))}
        />
      </div>
      {canReset && !favouritesOnly && (
        <button
          type="button"
          onClick={() => setDate(defaultDateFilter(now))}
          className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <RotateCcw className="size-3.5" aria-hidden="true" />
          Reset filters
        </button>
      )}
      {extra}
      {shown !== null && (
        <p className="ml-auto hidden text-xs text-slate-500 tabular-nums sm:block dark:text-slate-400" data-testid="photo-summary">
          Showing {shown} of {total}
        </p>
      )}
      {tagFilter && <ChosenTags chosen={tagFilter.chosen} onChange={tagFilter.onChange} />}
    </div>
  );
}
