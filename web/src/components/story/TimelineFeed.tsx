import { useEffect, useRef, type ComponentType } from 'react';
import { Camera, CircleCheck, Flag, FolderPlus, History, MessageSquare, PenLine, RotateCcw, TrendingUp } from 'lucide-react';
import type { TimelineDetail, TimelineEntry, TimelinePhoto } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { relativeTime } from '../../lib/dates';
import { actorLabel, groupByDay, timelineSentence } from '../../lib/timeline';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';
import { PhotoImage } from '../photos/PhotoImage';

export interface TimelineFeedProps {
  /** Newest first. */
  entries: TimelineEntry[];
  /** Older entries remain on the server (the page's cursor is not null). */
  hasMore: boolean;
  /** A page is being read (the first one, or an older one). */
  loading: boolean;
  /** The last read failed; shown with a retry that calls `onLoadMore`. */
  error?: string | null;
  /** Read the next older page (or the first, when nothing is held yet). */
  onLoadMore: () => void;
  /** Open a photo (a thumbnail was chosen); without it thumbnails are not buttons. */
  onOpenPhoto?: (photoId: string) => void;
  /** "now" for relative times and day headings; tests and screenshots pin it. */
  now?: number;
}

type Kind = TimelineDetail['type'];

const ICONS: Record<Kind, ComponentType<{ className?: string }>> = {
  project_created: FolderPlus,
  status_changed: Flag,
  progress_changed: TrendingUp,
  milestone_completed: CircleCheck,
  milestone_reopened: RotateCcw,
  photos_added: Camera,
  comment: MessageSquare,
  marked_up: PenLine,
};

const ICON_TONES: Record<Kind, string> = {
  project_created: 'bg-slate-100 text-slate-600 ring-slate-200 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700',
  status_changed: 'bg-blue-50 text-blue-700 ring-blue-200 dark:bg-blue-500/10 dark:text-blue-300 dark:ring-blue-500/30',
  progress_changed: 'bg-amber-50 text-amber-700 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
  milestone_completed: 'bg-green-50 text-green-700 ring-green-200 dark:bg-green-500/10 dark:text-green-300 dark:ring-green-500/30',
  milestone_reopened: 'bg-orange-50 text-orange-700 ring-orange-200 dark:bg-orange-500/10 dark:text-orange-300 dark:ring-orange-500/30',
  photos_added: 'bg-violet-50 text-violet-700 ring-violet-200 dark:bg-violet-500/10 dark:text-violet-300 dark:ring-violet-500/30',
  comment: 'bg-sky-50 text-sky-700 ring-sky-200 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-500/30',
  marked_up: 'bg-rose-50 text-rose-700 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30',
};

const absolute = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** How many thumbnails a batch shows before "+n": one row on a desktop, and on a phone. */
const STRIP_MAX = 6;
const STRIP_MAX_PHONE = 3;

function Thumb({ photo, onOpenPhoto, label }: { photo: TimelinePhoto; onOpenPhoto?: (id: string) => void; label: string }) {
  const image = <PhotoImage src={photo.thumbUrl} alt="" className="size-full object-cover" />;
  const box = 'relative block size-16 shrink-0 overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 sm:size-20 dark:bg-slate-800 dark:ring-slate-700';
  if (!onOpenPhoto) {
    return (
      <span className={box} role="img" aria-label={label}>
        {image}
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={() => onOpenPhoto(photo.id)}
      aria-label={label}
      className={cn(box, 'transition hover:opacity-90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-900')}
    >
      {image}
    </button>
  );
}

function PhotoStrip({ photos, total, onOpenPhoto }: { photos: TimelinePhoto[]; total: number; onOpenPhoto?: (id: string) => void }) {
  if (photos.length === 0) return null;
  const shown = photos.slice(0, STRIP_MAX);
  const more = Math.max(0, total - shown.length);
  const morePhone = Math.max(0, total - Math.min(shown.length, STRIP_MAX_PHONE));
  const moreTile =
    'size-16 items-center justify-center rounded-lg bg-slate-100 text-sm font-semibold text-slate-600 ring-1 ring-slate-200 sm:size-20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700';
  return (
    <ul className="mt-3 flex flex-wrap gap-2" aria-label="Photos">
      {shown.map((p, i) => (
        <li key={p.id} className={i >= STRIP_MAX_PHONE ? 'hidden sm:block' : undefined}>
          <Thumb photo={p} onOpenPhoto={onOpenPhoto} label={`Open photo ${i + 1} of ${total}`} />
        </li>
      ))}
      {/* One row on a phone too: fewer thumbnails there, and the rest counted. */}
      {morePhone > 0 && (
        <li className={cn('flex sm:hidden', moreTile)}>
          +{morePhone}
          <span className="sr-only"> more photos</span>
        </li>
      )}
      {more > 0 && (
        <li className={cn('hidden sm:flex', moreTile)}>
          +{more}
          <span className="sr-only"> more photos</span>
        </li>
      )}
    </ul>
  );
}

function EntryItem({ entry, now, onOpenPhoto }: { entry: TimelineEntry; now?: number; onOpenPhoto?: (id: string) => void }) {
  const { actor, text } = timelineSentence(entry);
  const d = entry.detail;
  const kind = d.type in ICONS ? d.type : 'project_created';
  const Icon = ICONS[kind];
  const by = d.type === 'photos_added' ? actorLabel(entry) : null;
  return (
    <li className="group/entry relative flex gap-3 pb-6 last:pb-0 sm:gap-4" data-testid="timeline-entry" data-kind={d.type} data-entry-id={entry.id}>
      {/* The rail that joins the entries of a day. */}
      <span aria-hidden="true" className="absolute top-10 bottom-1 left-[1.1875rem] w-px bg-slate-200 group-last/entry:hidden dark:bg-slate-800" />
      <span className={cn('relative z-10 flex size-10 shrink-0 items-center justify-center rounded-full ring-1', ICON_TONES[kind])}>
        <Icon className="size-[1.125rem]" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1 pt-2">
        <p className="text-sm leading-6 text-slate-700 dark:text-slate-200">
          {actor && <span className="font-semibold text-slate-900 dark:text-white">{actor} </span>}
          {text}
          {d.type === 'comment' && d.excerpt && (
            <>
              {': '}
              <span className="text-slate-600 italic dark:text-slate-300">“{d.excerpt}”</span>
            </>
          )}
        </p>
        {d.type === 'photos_added' && d.note && (
          <blockquote className="mt-2 border-l-2 border-brand-400 pl-3 text-sm text-slate-600 italic dark:text-slate-300">
            “{d.note}”
          </blockquote>
        )}
        {d.type === 'photos_added' && <PhotoStrip photos={d.photos} total={d.count} onOpenPhoto={onOpenPhoto} />}
        {(d.type === 'comment' || d.type === 'marked_up') && d.photo && (
          <div className="mt-2">
            <Thumb photo={d.photo} onOpenPhoto={onOpenPhoto} label="Open the photo" />
          </div>
        )}
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {by && <span>By {by} · </span>}
          <time dateTime={new Date(entry.createdAt).toISOString()} title={absolute.format(entry.createdAt)}>
            {relativeTime(entry.createdAt, now)}
          </time>
        </p>
      </div>
    </li>
  );
}

function FeedSkeleton() {
  return (
    <div role="status" className="space-y-6" data-testid="timeline-loading">
      <span className="sr-only">Loading the timeline…</span>
      <Skeleton className="h-4 w-24" />
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex gap-4">
          <Skeleton className="size-10 shrink-0 rounded-full" />
          <div className="flex-1 space-y-2 pt-1.5">
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-3 w-24" />
            {i === 1 && (
              <div className="flex gap-2 pt-1">
                <Skeleton className="size-16 rounded-lg" />
                <Skeleton className="size-16 rounded-lg" />
                <Skeleton className="size-16 rounded-lg" />
              </div>
            )}
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * A project's story, newest first under day headings, for the signed-in Timeline tab
 * and the guest page alike: it only shows what it is given and asks for older pages
 * with `onLoadMore` (a "Load older" button, and by itself when the end scrolls into view).
 */
export function TimelineFeed({ entries, hasMore, loading, error = null, onLoadMore, onOpenPhoto, now }: TimelineFeedProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(onLoadMore);
  loadMore.current = onLoadMore;
  const canAutoLoad = hasMore && !loading && !error && entries.length > 0;

  // Infinite scroll: reaching the end asks for the next page. Only while a page can be
  // asked for, so a failed read does not retry in a loop (the retry button does).
  useEffect(() => {
    const node = sentinel.current;
    if (!canAutoLoad || !node || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) loadMore.current();
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [canAutoLoad, entries.length]);

  if (entries.length === 0) {
    if (error) {
      return (
        <div className="space-y-3" data-testid="timeline-error">
          <Notice tone="error">{error}</Notice>
          <Button variant="outline" size="sm" onClick={onLoadMore}>
            Try again
          </Button>
        </div>
      );
    }
    if (loading || hasMore) return <FeedSkeleton />;
    return (
      <div className="flex flex-col items-center gap-3 px-4 py-12 text-center" data-testid="timeline-empty">
        <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
          <History className="size-6" aria-hidden="true" />
        </span>
        <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Nothing has happened yet.</p>
      </div>
    );
  }

  const days = groupByDay(entries, now);
  return (
    <div data-testid="timeline-feed">
      <ol className="space-y-8" aria-label="Timeline">
        {days.map((day) => (
          <li key={day.day}>
            <h3 className="mb-4 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{day.label}</h3>
            <ol className="space-y-0">
              {day.entries.map((entry) => (
                <EntryItem key={entry.id} entry={entry} now={now} onOpenPhoto={onOpenPhoto} />
              ))}
            </ol>
          </li>
        ))}
      </ol>
      <div ref={sentinel} className="mt-6 flex flex-col items-center gap-3" aria-live="polite">
        {error ? (
          <>
            <Notice tone="error" className="w-full">
              {error}
            </Notice>
            <Button variant="outline" size="sm" onClick={onLoadMore}>
              Try again
            </Button>
          </>
        ) : hasMore ? (
          <Button variant="outline" size="sm" onClick={onLoadMore} loading={loading} disabled={loading}>
            {loading ? 'Loading…' : 'Load older'}
          </Button>
        ) : (
          <p className="text-xs text-slate-500 dark:text-slate-400">That’s the beginning of this project’s story.</p>
        )}
      </div>
    </div>
  );
}
