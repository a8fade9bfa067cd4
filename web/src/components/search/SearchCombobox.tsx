import { forwardRef, useEffect, useId, useMemo, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import type { SearchResults } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { MAX_LENGTH } from '../../lib/limits';
import { searchItems, type SearchItem } from '../../lib/searchLinks';
import { queryWords } from '../../lib/searchText';
import { Spinner } from '../ui/Spinner';
import { optionId, SearchResultsList } from './SearchResultsList';
import { useSearch } from './useSearch';

export const SEARCH_PLACEHOLDER = 'Search photos, projects, comments…';

/**
 * A search box with its results: the WAI-ARIA combobox pattern — focus stays
 * in the box, the arrow keys move the highlighted result (`aria-activedescendant`),
 * Enter opens it (the first when none is highlighted), Escape closes. `popover` shows
 * the results under the box while it has focus (the desktop header); `sheet` shows
 * them below it, always (the phone's full-screen search, the guest page).
 */
export const SearchCombobox = forwardRef<
  HTMLInputElement,
  {
    run: (query: string) => Promise<SearchResults>;
    refresh: string | number;
    onEnd?: () => void;
    onPick: (item: SearchItem) => void;
    variant: 'popover' | 'sheet';
    label: string;
    placeholder?: string;
    /** Shown in the empty box while it does not have focus (the keyboard shortcut). */
    hint?: string;
    /** Escape with the results closed (the sheet closes itself). */
    onEscape?: () => void;
    className?: string;
    /** The row around the box (the sheet's padding and border). */
    rowClassName?: string;
    /** Where the popover sits and how wide it is (default: centred under the box, up to 40rem). */
    popoverClassName?: string;
    /** Beside the box (the sheet's Cancel). */
    trailing?: ReactNode;
    autoFocus?: boolean;
  }
>(function SearchCombobox(
  { run, refresh, onEnd, onPick, variant, label, placeholder = SEARCH_PLACEHOLDER, hint, onEscape, className, rowClassName, popoverClassName, trailing, autoFocus },
  ref,
) {
  const prefix = useId().replace(/:/g, '');
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const active = variant === 'sheet' || focused;
  const { query, setQuery, results, status, error, retry } = useSearch({ run, active, refresh, onEnd });
  const items = useMemo(() => searchItems(results), [results]);
  const words = useMemo(() => queryWords(results?.query ?? ''), [results?.query]);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const open = active && !dismissed && query.trim() !== '' && (results !== null || status !== 'idle');

  // New results: nothing highlighted until the arrows move.
  useEffect(() => setHighlighted(null), [results]);
  useEffect(() => {
    if (!highlighted) return;
    document.getElementById(`${prefix}-${highlighted}`)?.scrollIntoView({ block: 'nearest' });
  }, [highlighted, prefix]);

  const pick = (item: SearchItem) => {
    setDismissed(true);
    onPick(item);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setDismissed(false);
      if (items.length === 0) return;
      const at = items.findIndex((i) => i.key === highlighted);
      const next = e.key === 'ArrowDown' ? (at + 1) % items.length : at <= 0 ? items.length - 1 : at - 1;
      setHighlighted(items[next].key);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const item = items.find((i) => i.key === highlighted) ?? items[0];
      if (item && open) pick(item);
    } else if (e.key === 'Escape') {
      if (variant === 'popover' && open) {
        e.preventDefault();
        setDismissed(true);
        setHighlighted(null);
      } else if (variant === 'popover') {
        (e.target as HTMLInputElement).blur();
        onEscape?.();
      }
    }
  };

  const activeItem = items.find((i) => i.key === highlighted);
  // The listbox exists only while there are results to choose from.
  const listed = open && items.length > 0 && status !== 'error';
  const list = (
    <SearchResultsList
      prefix={prefix}
      results={results}
      items={items}
      words={words}
      active={highlighted}
      status={status}
      error={error}
      onPick={pick}
      onHover={setHighlighted}
      onRetry={retry}
    />
  );

  // Focus may move from the box into the results (they scroll, so a keyboard can reach
  // them: axe's scrollable-region-focusable); the results stay open while it is within.
  const leaves = (e: FocusEvent<HTMLDivElement>) => {
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setFocused(false);
  };

  return (
    <div className={cn(variant === 'sheet' ? 'flex min-h-0 flex-col' : 'relative', className)} onBlur={leaves}>
      <div className={cn('flex items-center gap-2', rowClassName)}>
      <div className="relative min-w-0 flex-1">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" aria-hidden="true" />
        <input
          ref={ref}
          type="search"
          role="combobox"
          aria-label={label}
          aria-expanded={listed}
          aria-controls={listed ? `${prefix}-listbox` : undefined}
          aria-autocomplete="list"
          aria-activedescendant={listed && activeItem ? optionId(prefix, activeItem) : undefined}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={MAX_LENGTH.searchQuery}
          autoFocus={autoFocus}
          value={query}
          placeholder={placeholder}
          data-testid="search-input"
          onChange={(e) => {
            setQuery(e.target.value);
            setDismissed(false);
          }}
          onFocus={() => {
            setFocused(true);
            setDismissed(false);
          }}
          onKeyDown={onKeyDown}
          className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-10 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 [&::-webkit-search-cancel-button]:hidden"
        />
        <span className="absolute top-1/2 right-2 flex -translate-y-1/2 items-center">
          {status === 'loading' && query.trim() ? (
            <Spinner className="size-4 text-slate-400" />
          ) : query ? (
            <button
              type="button"
              aria-label="Clear search"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => setQuery('')}
              className="inline-flex size-6 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:hover:bg-slate-800 dark:hover:text-slate-100"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          ) : hint && !focused ? (
            <kbd aria-hidden="true" className="rounded border border-slate-300 bg-slate-50 px-1.5 font-sans text-xs text-slate-500 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-400">
              {hint}
            </kbd>
          ) : null}
        </span>
      </div>
      {trailing}
      </div>
      {variant === 'popover' ? (
        open && (
          <div
            // Clicks inside (a scrollbar, "Try again") leave focus in the box, so the results stay.
            onMouseDown={(e) => e.preventDefault()}
            className={cn(
              'absolute top-full z-50 mt-2 max-h-[min(70vh,36rem)] overflow-y-auto overscroll-contain rounded-xl border border-slate-200 bg-white pb-1 shadow-xl dark:border-slate-800 dark:bg-slate-900',
              popoverClassName ?? 'left-1/2 w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2',
            )}
            data-testid="search-popover"
            tabIndex={0}
          >
            {list}
          </div>
        )
      ) : (
        <div
          className="min-h-0 flex-1 overflow-y-auto overscroll-contain pb-[env(safe-area-inset-bottom)] focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/40"
          data-testid="search-sheet-results"
          tabIndex={0}
        >
          {open && list}
        </div>
      )}
    </div>
  );
});
