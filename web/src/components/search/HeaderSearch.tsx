import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Search } from 'lucide-react';
import type { SearchResults } from '../../protocol/types';
import { searchItemHref, type SearchItem } from '../../lib/searchLinks';
import { useMediaQuery } from '../../lib/useMediaQuery';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { PendingTrigger, useTriggerSwap } from '../lazyPart';
import { useLazyModule } from '../../lib/lazyModule';
import { dialogLibrary } from '../ui/radixLibraries';
import { SearchCombobox } from './SearchCombobox';

/** Whether a key press belongs to something being typed into (then shortcuts stay out of it). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/** A modal is open (the lightbox, a dialog): the header behind it is not reachable. */
function modalOpen(): boolean {
  return document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]') !== null;
}

/** `/` or Ctrl-K (Cmd-K on a Mac) opens the search, unless typing elsewhere. */
function useSearchShortcut(onOpen: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey;
      const k = e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      if ((!slash && !k) || e.defaultPrevented || typingIn(e.target) || modalOpen()) return;
      e.preventDefault();
      onOpen();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onOpen]);
}

/** What both forms of the header search share: the watched search, and where a pick goes. */
function useHeaderSearch(afterPick: () => void) {
  const navigate = useNavigate();
  const changes = useAppStore((s) => s.searchChanges);
  const epoch = useAppStore((s) => s.liveEpoch);
  const run = useCallback((query: string): Promise<SearchResults> => commands.search(query, null, true), []);
  const end = useCallback(() => void commands.endSearch().catch(() => undefined), []);
  const pick = useCallback(
    (item: SearchItem) => {
      afterPick();
      navigate(searchItemHref(item));
    },
    [navigate, afterPick],
  );
  return { run, end, pick, refresh: `${epoch}:${changes}` };
}

const LABEL = 'Search photos, projects and comments';

function DesktopSearch() {
  const input = useRef<HTMLInputElement>(null);
  const blur = useCallback(() => input.current?.blur(), []);
  const { run, end, pick, refresh } = useHeaderSearch(blur);
  useSearchShortcut(useCallback(() => input.current?.focus(), []));
  return (
    <SearchCombobox
      ref={input}
      variant="popover"
      label={LABEL}
      hint="/"
      run={run}
      refresh={refresh}
      onEnd={end}
      onPick={pick}
      className="w-full max-w-md flex-1"
    />
  );
}

function PhoneSearch() {
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const { run, end, pick, refresh } = useHeaderSearch(close);
  useSearchShortcut(useCallback(() => setOpen(true), []));
  const RadixDialog = useLazyModule(dialogLibrary, { what: 'Search', wanted: open, onFailed: close });
  const { pendingRef, ref } = useTriggerSwap(RadixDialog !== null);
  const triggerClass =
    'inline-flex size-10 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
  const icon = <Search className="size-5" aria-hidden="true" />;
  if (!RadixDialog) {
    // The same button as the dialog's trigger below, until Radix has arrived.
    return (
      <PendingTrigger popup="dialog" pendingRef={pendingRef} aria-label="Search" data-testid="search-open" className={triggerClass} onPress={() => setOpen(true)}>
        {icon}
      </PendingTrigger>
    );
  }
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger ref={ref} aria-label="Search" data-testid="search-open" className={triggerClass}>
        {icon}
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
        <RadixDialog.Content
          data-testid="search-sheet"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            input.current?.focus();
          }}
          className="fixed inset-0 z-50 flex flex-col bg-white focus:outline-none data-[state=open]:animate-[fade-in_120ms_ease-out] dark:bg-slate-950"
        >
          <RadixDialog.Title className="sr-only">Search</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">Find photos, projects and comments. Use the arrow keys to move through the results.</RadixDialog.Description>
          <SearchCombobox
            ref={input}
            variant="sheet"
            label={LABEL}
            run={run}
            refresh={refresh}
            onEnd={end}
            onPick={pick}
            className="min-h-0 flex-1"
            rowClassName="border-b border-slate-200 px-3 pt-[max(0.75rem,env(safe-area-inset-top))] pb-3 dark:border-slate-800"
            trailing={
              <RadixDialog.Close className="h-10 shrink-0 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-200 dark:hover:bg-slate-800">
                Cancel
              </RadixDialog.Close>
            }
          />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * The signed-in header's search (docs/FEATURES.md, "Tags and search"): a field in the
 * middle of the header on wider screens (`slot="center"`), a button among the header's
 * actions that opens a full-screen sheet on phones (`slot="actions"`); each slot renders
 * only at its width. Searches are watched while results are open: a `search_changed` (or
 * a new connection) runs the query again, and closing sends `end_search`.
 */
export function HeaderSearch({ slot }: { slot: 'center' | 'actions' }) {
  const wide = useMediaQuery('(min-width: 768px)');
  if (wide !== (slot === 'center')) return null;
  return wide ? <DesktopSearch /> : <PhoneSearch />;
}
