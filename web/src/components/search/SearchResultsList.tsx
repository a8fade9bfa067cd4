import type { MouseEvent, ReactNode } from 'react';
import { AlertCircle, FolderKanban, ImageIcon, MessageCircle, SearchX, UserRound } from 'lucide-react';
import type { SearchResults } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { displayName } from '../../lib/names';
import { ROLE_LABELS } from '../../lib/people';
import { highlightParts, snippet } from '../../lib/searchText';
import { isEmptyResult, type SearchItem } from '../../lib/searchLinks';
import { Spinner } from '../ui/Spinner';
import type { SearchStatus } from './useSearch';

/** The text with the word starts the query matched in `<mark>`. */
export function Highlight({ text, words }: { text: string; words: readonly string[] }) {
  return (
    <>
      {highlightParts(text, words).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-[3px] bg-amber-200 px-px text-slate-900 dark:bg-amber-400/30 dark:text-amber-50">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** The option's DOM id: the combobox points at the highlighted one. */
export const optionId = (prefix: string, item: SearchItem) => `${prefix}-${item.key}`;

function Group({ prefix, id, title, icon, children, grid }: { prefix: string; id: string; title: string; icon: ReactNode; children: ReactNode; grid?: boolean }) {
  const headingId = `${prefix}-${id}-heading`;
  return (
    <div role="group" aria-labelledby={headingId} className={cn('px-2 pb-2', grid && 'grid grid-cols-2 gap-2 sm:grid-cols-3')} data-testid={`search-group-${id}`}>
      <div
        role="presentation"
        id={headingId}
        className={cn('flex items-center gap-1.5 px-2 pt-3 pb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400', grid && 'col-span-full')}
      >
        {icon}
        {title}
      </div>
      {children}
    </div>
  );
}

function Thumb({ src, className }: { src: string | null; className?: string }) {
  return (
    <span className={cn('block shrink-0 overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800', className)}>
      {src ? <img src={src} alt="" loading="lazy" className="size-full object-cover" /> : <ImageIcon className="m-auto mt-2.5 size-5 text-slate-400" aria-hidden="true" />}
    </span>
  );
}

/**
 * The grouped results of a search: Projects, Photos (a grid of thumbnails),
 * Comments and, for admins, People; a listbox whose options the search box moves
 * through with the arrow keys (it keeps focus; `active` is the highlighted key).
 * Presentational: the signed-in header and the guest page both show it.
 */
export function SearchResultsList({
  prefix,
  results,
  items,
  words,
  active,
  status,
  error,
  onPick,
  onHover,
  onRetry,
  label = 'Search results',
}: {
  prefix: string;
  results: SearchResults | null;
  items: SearchItem[];
  words: readonly string[];
  active: string | null;
  status: SearchStatus;
  error: string | null;
  onPick: (item: SearchItem) => void;
  onHover: (key: string) => void;
  onRetry: () => void;
  label?: string;
}) {
  if (status === 'error') {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 px-6 py-8 text-center" data-testid="search-error">
        <AlertCircle className="size-6 text-red-500" aria-hidden="true" />
        <p className="text-sm text-slate-700 dark:text-slate-200">{error}</p>
        <button type="button" onClick={onRetry} className="text-sm font-medium text-amber-700 underline-offset-4 hover:underline dark:text-amber-300">
          Try again
        </button>
      </div>
    );
  }
  if (!results) {
    if (status === 'loading') {
      return (
        <div role="status" className="flex items-center justify-center gap-2 px-6 py-8 text-sm text-slate-500 dark:text-slate-400" data-testid="search-loading">
          <Spinner className="size-4" />
          Searching…
        </div>
      );
    }
    return null;
  }
  if (isEmptyResult(results)) {
    return (
      <div role="status" className="flex flex-col items-center gap-2 px-6 py-8 text-center" data-testid="search-empty">
        <SearchX className="size-7 text-slate-300 dark:text-slate-600" aria-hidden="true" />
        <p className="text-sm font-medium text-slate-800 dark:text-slate-100">No results for “{results.query}”</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">Try the start of a word: a room, a trade, a caption or a comment.</p>
      </div>
    );
  }

  const byKind = (kind: SearchItem['kind']) => items.filter((i) => i.kind === kind);
  const optionProps = (item: SearchItem) => ({
    id: optionId(prefix, item),
    role: 'option' as const,
    'aria-selected': active === item.key,
    'data-testid': `search-result-${item.kind}`,
    'data-key': item.key,
    // mousedown: the box keeps focus, and the pick happens before a blur could close the list.
    onMouseDown: (e: MouseEvent) => e.preventDefault(),
    onClick: () => onPick(item),
    onMouseMove: () => active !== item.key && onHover(item.key),
  });
  const row = (item: SearchItem) =>
    cn(
      'flex w-full cursor-pointer items-center gap-3 rounded-lg px-2 py-2 text-left',
      active === item.key ? 'bg-amber-50 ring-1 ring-amber-200 dark:bg-amber-400/10 dark:ring-amber-400/30' : 'hover:bg-slate-50 dark:hover:bg-slate-800/60',
    );

  const projects = byKind('project');
  const photos = byKind('photo');
  const comments = byKind('comment');
  const people = byKind('person');
  return (
    <>
    <div
      role="listbox"
      id={`${prefix}-listbox`}
      aria-label={label}
      aria-busy={status === 'loading' || undefined}
      className={cn('transition-opacity', status === 'loading' && 'opacity-60')}
      data-testid="search-results"
    >
      {projects.length > 0 && (
        <Group prefix={prefix} id="projects" title="Projects" icon={<FolderKanban className="size-3.5" aria-hidden="true" />}>
          {projects.map((item) =>
            item.kind === 'project' ? (
              <div key={item.key} {...optionProps(item)} className={row(item)}>
                <Thumb src={item.hit.thumbUrl} className="h-10 w-14" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">
                    <Highlight text={item.hit.project.title} words={words} />
                  </span>
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    <Highlight text={item.hit.project.address} words={words} />
                    {item.hit.milestone && (
                      <>
                        {' · Milestone: '}
                        <Highlight text={item.hit.milestone} words={words} />
                      </>
                    )}
                  </span>
                </span>
              </div>
            ) : null,
          )}
        </Group>
      )}
      {photos.length > 0 && (
        <Group prefix={prefix} id="photos" title="Photos" icon={<ImageIcon className="size-3.5" aria-hidden="true" />} grid>
          {photos.map((item) =>
            item.kind === 'photo' ? (
              <div
                key={item.key}
                {...optionProps(item)}
                className={cn(
                  'min-w-0 cursor-pointer overflow-hidden rounded-lg border text-left',
                  active === item.key ? 'border-amber-400 ring-2 ring-amber-300 dark:ring-amber-400/40' : 'border-slate-200 hover:border-slate-300 dark:border-slate-700',
                )}
              >
                <Thumb src={item.hit.photo.thumbUrl} className="aspect-[4/3] w-full rounded-none" />
                <span className="block space-y-1 px-2 py-1.5">
                  <span className="block truncate text-xs font-medium text-slate-900 dark:text-white" data-testid="search-photo-caption">
                    {item.hit.photo.caption?.trim() ? <Highlight text={item.hit.photo.caption} words={words} /> : <span className="italic">Untitled photo</span>}
                  </span>
                  <span className="block truncate text-[11px] text-slate-500 dark:text-slate-400">
                    {item.hit.projectTitle}
                    {item.hit.milestone && (
                      <>
                        {' · '}
                        <Highlight text={item.hit.milestone} words={words} />
                      </>
                    )}
                  </span>
                  {item.hit.photo.tags.length > 0 && (
                    <span className="flex flex-wrap gap-1">
                      {item.hit.photo.tags.slice(0, 4).map((tag) => (
                        <span key={tag} data-testid="search-photo-tag" className="max-w-full truncate rounded-full border border-amber-200 bg-amber-50 px-1.5 text-[11px] font-medium text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200">
                          <Highlight text={tag} words={words} />
                        </span>
                      ))}
                      {item.hit.photo.tags.length > 4 && <span className="text-[11px] text-slate-500">+{item.hit.photo.tags.length - 4}</span>}
                    </span>
                  )}
                </span>
              </div>
            ) : null,
          )}
        </Group>
      )}
      {comments.length > 0 && (
        <Group prefix={prefix} id="comments" title="Comments" icon={<MessageCircle className="size-3.5" aria-hidden="true" />}>
          {comments.map((item) =>
            item.kind === 'comment' ? (
              <div key={item.key} {...optionProps(item)} className={row(item)}>
                <Thumb src={item.hit.thumbUrl} className="size-11" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    <span className="font-semibold text-slate-800 dark:text-slate-100">{item.hit.comment.author.name ?? item.hit.comment.author.email}</span>
                    {' · '}
                    {item.hit.projectTitle}
                  </span>
                  <span className="line-clamp-2 text-sm text-slate-700 dark:text-slate-200">
                    <Highlight text={snippet(item.hit.comment.body, words)} words={words} />
                  </span>
                </span>
              </div>
            ) : null,
          )}
        </Group>
      )}
      {people.length > 0 && (
        <Group prefix={prefix} id="people" title="People" icon={<UserRound className="size-3.5" aria-hidden="true" />}>
          {people.map((item) =>
            item.kind === 'person' ? (
              <div key={item.key} {...optionProps(item)} className={row(item)}>
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-300">
                  <UserRound className="size-4" aria-hidden="true" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">
                    <Highlight text={displayName(item.person)} words={words} />
                  </span>
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    <Highlight text={item.person.email} words={words} /> · {ROLE_LABELS[item.person.role]}
                  </span>
                </span>
              </div>
            ) : null,
          )}
        </Group>
      )}
    </div>
    {results.morePhotos && (
      <p className="border-t border-slate-100 px-4 py-2.5 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-300" data-testid="search-more-photos">
        More photos match — add a word to narrow it.
      </p>
    )}
    </>
  );
}
