import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ListUsers, Role, UserCounts, UserListing } from '../protocol/types';
import { MAX_LENGTH } from '../lib/limits';
import type { Sort } from '../lib/userTable';
import { useAppStore } from '../store';
import { commands, type UserPage } from '../sync/commands';

/** Typing waits this long for the next key before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 250;
/**
 * Changes come in bursts (a deletion takes its projects with it, a hello replaces
 * everything): a table reads its page once they settle.
 */
export const REFRESH_DEBOUNCE_MS = 300;
/** The server's page of a user table; a reply says its own. */
const PAGE_SIZE = 50;
const NO_ROWS: UserListing[] = [];

export interface UserPageRequest {
  role: Role;
  query: string;
  sort: Sort;
  /** 0-based; the server answers its last page for one past it. */
  page: number;
}

export interface UserPageState {
  /** The rows of the latest page answered: the previous page's while the next loads. */
  rows: UserListing[];
  /** Rows matching the query answered. */
  total: number;
  /** The page answered (which may be the last when more was asked). */
  page: number;
  pageSize: number;
  /** People per role before any search; null until the first reply. */
  counts: UserCounts | null;
  /** The query (trimmed) that `rows` answer; null until the first reply. */
  answered: string | null;
  /** A page was asked for and has not come, or typing has not settled yet. */
  loading: boolean;
  /** The latest read failed (rows are the last that came, if any). */
  error: Error | null;
  /** Asks for the page again, at once. */
  retry: () => void;
}

const sameRequest = (a: ListUsers, b: ListUsers) =>
  a.role === b.role && a.query === b.query && a.sort === b.sort && a.descending === b.descending && a.page === b.page;

/** A value that follows `value` once it has stood still for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * One page of a user table, searched, sorted and paged by the server (SPEC §2 Tables):
 * typing is debounced, a change of sort or page asks at once, and the page is read
 * again when a change may have moved its rows (`directoryVersion`). Only the latest
 * request's reply is shown; an earlier one arriving late is dropped.
 */
export function useUserPage({ role, query, sort, page }: UserPageRequest, enabled = true): UserPageState {
  // The server refuses a longer query; no name or email holds one that long.
  const wanted = query.trim().slice(0, MAX_LENGTH.searchQuery);
  const request = useMemo<ListUsers>(
    () => ({ role, query: wanted, sort: sort.key, descending: sort.direction === 'descending', page }),
    [role, wanted, sort.key, sort.direction, page],
  );
  const [settled, setSettled] = useState(request);
  useEffect(() => {
    if (sameRequest(settled, request)) return;
    // Only typing waits; a click (sort, page, tab) is answered at once, with the query typed so far.
    const typing = sameRequest({ ...settled, query: request.query }, request);
    if (!typing) {
      setSettled(request);
      return;
    }
    const timer = setTimeout(() => setSettled(request), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [request, settled]);

  const version = useSettled(
    useAppStore((s) => s.directoryVersion),
    REFRESH_DEBOUNCE_MS,
  );
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ reply: UserPage; query: string } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (!enabled) return;
    // Set by the next request (or unmounting): this one's reply is then out of date.
    let superseded = false;
    setPending(true);
    commands.listUsers(settled).then(
      (reply) => {
        if (superseded) return;
        setResult({ reply, query: settled.query });
        setError(null);
        setPending(false);
      },
      (err: unknown) => {
        if (superseded) return;
        setError(err instanceof Error ? err : new Error(String(err)));
        setPending(false);
      },
    );
    return () => {
      superseded = true;
    };
  }, [enabled, settled, version, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const reply = result?.reply;
  return {
    rows: reply?.listings ?? NO_ROWS,
    total: reply?.total ?? 0,
    page: reply?.page ?? 0,
    pageSize: reply?.pageSize ?? PAGE_SIZE,
    counts: reply?.counts ?? null,
    answered: result?.query ?? null,
    loading: enabled && (pending || !sameRequest(settled, request)),
    error,
    retry,
  };
}
