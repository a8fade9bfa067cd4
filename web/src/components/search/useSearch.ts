import { useCallback, useEffect, useRef, useState } from 'react';
import type { SearchResults } from '../../protocol/types';
import { MAX_LENGTH } from '../../lib/limits';
import { RequestError } from '../../sync/requests';

/** Typing settles for this long before a search goes. */
export const TYPING_DEBOUNCE_MS = 200;
/** Changes come in bursts (a batch tagged, a visit uploaded): one search after them. */
export const CHANGE_DEBOUNCE_MS = 300;

export type SearchStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The search box's state: the query, the results of the latest search sent (a late
 * answer to an older query is dropped), and searching again when `refresh` moves —
 * a `search_changed` for the signed-in app, a photo event on the guest page, a new
 * connection (which forgets the watch). `active` is whether results are open: closing
 * calls `onEnd` once, so the server stops watching this socket's search.
 */
export function useSearch({
  run,
  active,
  refresh,
  onEnd,
}: {
  run: (query: string) => Promise<SearchResults>;
  active: boolean;
  refresh: string | number;
  onEnd?: () => void;
}) {
  const [query, setQueryState] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [status, setStatus] = useState<SearchStatus>('idle');
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);
  const sent = useRef(false);
  const runRef = useRef(run);
  runRef.current = run;
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  const search = useCallback(async (q: string, quiet: boolean) => {
    const mine = ++seq.current;
    if (!q.trim()) {
      setResults(null);
      setStatus('idle');
      setError(null);
      return;
    }
    if (!quiet) setStatus('loading');
    sent.current = true;
    try {
      const found = await runRef.current(q);
      if (mine !== seq.current) return;
      setResults(found);
      setStatus('ready');
      setError(null);
    } catch (err) {
      if (mine !== seq.current) return;
      // A quiet re-run that fails keeps what is on screen.
      if (quiet) return;
      setStatus('error');
      setError(err instanceof RequestError && err.fromServer ? err.message : 'Search is not available right now. Check your connection and try again.');
    }
  }, []);

  // Typing: one search once it settles.
  useEffect(() => {
    if (!active) return;
    if (!query.trim()) {
      void search('', false);
      return;
    }
    setStatus('loading');
    const timer = window.setTimeout(() => void search(query, false), TYPING_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [query, active, search]);

  // Something searchable changed (or the connection is new): the same query again,
  // without a loading flash, so a result that appears simply slides in.
  const lastRefresh = useRef(refresh);
  useEffect(() => {
    if (lastRefresh.current === refresh) return;
    lastRefresh.current = refresh;
    if (!active || !query.trim()) return;
    const timer = window.setTimeout(() => void search(query, true), CHANGE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [refresh, active, query, search]);

  // Closed: stop the watch (once), and forget answers still on their way.
  useEffect(() => {
    if (active) return;
    seq.current += 1;
    if (sent.current) {
      sent.current = false;
      onEndRef.current?.();
    }
  }, [active]);
  useEffect(
    () => () => {
      if (sent.current) onEndRef.current?.();
    },
    [],
  );

  const setQuery = useCallback((value: string) => setQueryState(value.slice(0, MAX_LENGTH.searchQuery)), []);
  const retry = useCallback(() => void search(query, false), [search, query]);
  return { query, setQuery, results, status, error, retry };
}
