import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SearchX } from 'lucide-react';
import type { Project } from '../../protocol/types';
import {
  formatCount,
  isProjectView,
  listProjects,
  PROJECT_PAGE,
  readProjectQuery,
  showMore,
  shownFor,
  writeProjectQuery,
  type Paging,
  type ProjectListQuery,
  type ProjectView,
} from '../../lib/projectList';
import { ProjectGrid } from '../ProjectGrid';
import { Button } from '../ui/Button';
import { MoreProjectsStatus } from './MoreProjectsStatus';
import { ProjectList } from './ProjectList';
import { ProjectToolbar } from './ProjectToolbar';

// A link without `view` opens in the view this device chose last.
const VIEW_KEY = 'projectsView';

function readStoredView(): ProjectView | null {
  try {
    const stored = globalThis.localStorage?.getItem(VIEW_KEY);
    return isProjectView(stored) ? stored : null;
  } catch {
    return null; // Storage can be blocked (private mode): the URL alone decides.
  }
}

function storeView(view: ProjectView) {
  try {
    globalThis.localStorage?.setItem(VIEW_KEY, view);
  } catch {
    // Not remembered; the URL still holds it.
  }
}

/**
 * The projects page's list, for hundreds of projects as for three (docs/FEATURES.md, "Big
 * projects"): searched, filtered and sorted as the URL says, and drawn a page at a time,
 * since a thousand cards drawn at once stall a phone.
 */
export function ProjectBrowser({ projects, onAdd }: { projects: Project[]; onAdd?: () => void }) {
  const [params, setParams] = useSearchParams();
  const [storedView, setStoredView] = useState(readStoredView);
  const query = readProjectQuery(params, storedView);
  const change = (next: Partial<ProjectListQuery>) => setParams((prev) => writeProjectQuery(prev, next), { replace: true });

  // The box shows what is typed at once; the URL follows. The router updates the URL in a
  // transition, so a box bound to the URL alone would drop or reorder fast keystrokes.
  // A change the box did not write (Back, a link) is taken in.
  const [draft, setDraft] = useState(query.q);
  const written = useRef(query.q);
  useEffect(() => {
    if (query.q === written.current) return;
    written.current = query.q;
    setDraft(query.q);
  }, [query.q]);
  const search = (q: string) => {
    setDraft(q);
    written.current = writeProjectQuery(new URLSearchParams(), { q }).get('q') ?? '';
    change({ q });
  };
  const searchBox = useRef<HTMLInputElement>(null);
  const clearFilters = () => {
    setDraft('');
    written.current = '';
    change({ q: '', status: 'all' });
    searchBox.current?.focus();
  };

  // Typing stays quick with a thousand projects: the list follows when React has time.
  const q = useDeferredValue(draft);
  const { status, sort, view } = query;
  const listed = useMemo(() => listProjects(projects, { q, status, sort }), [projects, q, status, sort]);

  const key = `${q}\n${status}\n${sort}`;
  const [paging, setPaging] = useState<Paging>({ key, shown: PROJECT_PAGE });
  const shown = shownFor(paging, key);
  const hasMore = listed.projects.length > shown;
  const visible = useMemo(() => listed.projects.slice(0, shown), [listed, shown]);

  // "Show more" puts focus on the first project it added, so a keyboard user goes on
  // from there rather than from a button that moved down a page.
  const results = useRef<HTMLDivElement>(null);
  const focusAt = useRef<number | null>(null);
  const more = (fromButton = false) => {
    if (fromButton) focusAt.current = shown;
    setPaging((p) => showMore(p, key));
  };
  useEffect(() => {
    const at = focusAt.current;
    if (at === null) return;
    focusAt.current = null;
    results.current?.querySelectorAll<HTMLAnchorElement>('a[href]')[at]?.focus();
  }, [shown]);

  // Scrolling near the end draws the next page; the button does the same without it.
  const sentinel = useRef<HTMLDivElement>(null);
  const moreRef = useRef(more);
  moreRef.current = more;
  useEffect(() => {
    const node = sentinel.current;
    if (!hasMore || !node || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) moreRef.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, shown, key]);

  if (projects.length === 0) return <ProjectGrid projects={projects} onAdd={onAdd} />;

  const narrowed = draft.trim() !== '' || status !== 'all';
  const found = listed.projects.length;
  return (
    <div className="space-y-5">
      <ProjectToolbar
        ref={searchBox}
        q={draft}
        onSearch={search}
        status={status}
        counts={listed.counts}
        onStatus={(s) => change({ status: s })}
        sort={sort}
        onSort={(s) => change({ sort: s })}
        view={view}
        onView={(v) => {
          setStoredView(v);
          storeView(v);
          change({ view: v });
        }}
        matches={narrowed ? `${formatCount(found)} ${found === 1 ? 'match' : 'matches'}` : ''}
      />
      <MoreProjectsStatus />
      <div ref={results}>
        {found === 0 ? (
          <NoMatches onClear={clearFilters} />
        ) : view === 'list' ? (
          <ProjectList projects={visible} />
        ) : (
          // The "Add New Project" card ends the grid: it shows once the whole list is drawn.
          <ProjectGrid projects={visible} onAdd={hasMore ? undefined : onAdd} />
        )}
      </div>
      {hasMore && (
        <div ref={sentinel} className="flex flex-col items-center gap-3 py-2">
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Showing {formatCount(shown)} of {formatCount(found)}
          </p>
          <Button variant="outline" onClick={() => more(true)}>
            Show more
          </Button>
        </div>
      )}
    </div>
  );
}

function NoMatches({ onClear }: { onClear: () => void }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900/50">
      <SearchX className="size-10 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">No projects match your search.</p>
      <Button variant="outline" size="sm" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}
