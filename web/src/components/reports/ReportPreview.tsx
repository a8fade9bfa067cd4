import type { ReactNode } from 'react';
import { Check, Circle, CircleDot, FileWarning, ImageIcon, TriangleAlert } from 'lucide-react';
import type { ProjectStatus, ReportContent, ReportMilestone, ReportPairView, ReportPhoto, ReportSection } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/dates';
import { formatDay } from '../../lib/milestones';
import { displayName } from '../../lib/names';
import { photoDayLabel } from '../../lib/photoDates';
import { STATUS_LABELS, clampProgress } from '../../lib/projectStatus';
import { periodLabel, previewHeading, previewPages, reportPages, type ReportPage } from '../../lib/reports';
import { timelineText } from '../../lib/timeline';
import { homeownerLabel } from '../ProjectCard';
import { MarkupShapes } from '../markup/MarkupShapes';
import { Skeleton } from '../ui/Skeleton';
import { Spinner } from '../ui/Spinner';

// The preview draws pages as paper: white, US Letter's shape (8.5 × 11), the same in
// dark mode. Sizes inside a page are in `cqw` (hundredths of the page's width), so one
// drawing scales to whatever width the page gets on a phone or a desktop.

/** Light-only status colours: the paper is white in either theme. */
const PAPER_STATUS: Record<ProjectStatus, string> = {
  'in-progress': 'bg-yellow-100 text-yellow-800',
  completed: 'bg-green-100 text-green-800',
  'on-hold': 'bg-slate-100 text-slate-700',
  planning: 'bg-blue-100 text-blue-800',
};

const PAPER_BAR: Record<ProjectStatus, string> = {
  'in-progress': 'bg-amber-500',
  completed: 'bg-green-500',
  'on-hold': 'bg-slate-400',
  planning: 'bg-blue-500',
};

function Paper({ number, label, children }: { number: number; label: string; children: ReactNode }) {
  return (
    <li aria-label={`Page ${number}: ${label}`} data-testid="report-page" data-page={number}>
      <div className="@container relative aspect-[8.5/11] w-full overflow-hidden rounded-[3px] bg-white text-slate-900 shadow-md ring-1 ring-slate-900/10">
        <div className="absolute inset-0 flex flex-col px-[7cqw] pt-[7cqw] pb-[9cqw] text-[length:2.9cqw] leading-snug">{children}</div>
        <span aria-hidden="true" className="absolute right-[7cqw] bottom-[3.5cqw] text-[length:2.3cqw] text-slate-400 tabular-nums">
          {number}
        </span>
      </div>
    </li>
  );
}

function PageHeading({ children }: { children: ReactNode }) {
  return <p className="mb-[3cqw] border-b border-slate-200 pb-[1.5cqw] text-[length:4cqw] font-semibold text-slate-900">{children}</p>;
}

function CoverPage({ content }: { content: ReportContent }) {
  const { project } = content;
  const progress = clampProgress(project.progress);
  const rows: [string, ReactNode][] = [
    ['Homeowner', homeownerLabel(project)],
    ['Builder', project.builderName ?? '—'],
    ['Period', periodLabel(content.from, content.to)],
    [
      'Status',
      <span key="status" className={cn('rounded-full px-[1.6cqw] py-[0.3cqw] text-[length:2.4cqw] font-medium', PAPER_STATUS[project.status])}>
        {STATUS_LABELS[project.status]}
      </span>,
    ],
  ];
  return (
    <>
      <div aria-hidden="true" className="absolute inset-x-0 top-0 h-[1.4cqw] bg-gradient-to-r from-amber-400 via-amber-500 to-orange-500" />
      <p className="text-[length:2.4cqw] font-semibold tracking-[0.12em] text-amber-700 uppercase">Progress report</p>
      <p className="mt-[1cqw] text-[length:6.4cqw] leading-tight font-semibold text-balance" data-testid="report-preview-title">
        {project.title}
      </p>
      <p className="mt-[1cqw] text-[length:3cqw] text-slate-600">{project.address}</p>
      <div className="relative mt-[4cqw] aspect-[4/3] w-full overflow-hidden rounded-[1.5cqw] bg-slate-100">
        {project.thumbnailUrl ? (
          <img src={project.thumbnailUrl} alt="" className="absolute inset-0 size-full object-cover" />
        ) : (
          <ImageIcon className="absolute top-1/2 left-1/2 size-[10cqw] -translate-x-1/2 -translate-y-1/2 text-slate-300" aria-hidden="true" />
        )}
      </div>
      <dl className="mt-[4cqw] grid grid-cols-2 gap-x-[4cqw] gap-y-[2.2cqw]">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-[length:2.3cqw] tracking-wide text-slate-500 uppercase">{label}</dt>
            <dd className="truncate font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-[3cqw]">
        <div className="mb-[1cqw] flex justify-between text-[length:2.3cqw] text-slate-500 uppercase">
          <span className="tracking-wide">Progress</span>
          <span className="font-semibold text-slate-900 tabular-nums">{progress}%</span>
        </div>
        <div className="h-[1.4cqw] overflow-hidden rounded-full bg-slate-100">
          <div className={cn('h-full rounded-full', PAPER_BAR[project.status])} style={{ width: `${progress}%` }} />
        </div>
      </div>
      <p className="mt-auto text-[length:2.3cqw] text-slate-500">Prepared {formatDate(content.generatedAt)}</p>
    </>
  );
}

const MILESTONE_MARKS: Record<ReportMilestone['state'], { icon: typeof Check; tone: string; word: string }> = {
  done: { icon: Check, tone: 'bg-green-600 text-white', word: 'Done' },
  current: { icon: CircleDot, tone: 'bg-amber-100 text-amber-700', word: 'Current' },
  late: { icon: TriangleAlert, tone: 'bg-red-100 text-red-700', word: 'Late' },
  upcoming: { icon: Circle, tone: 'bg-slate-100 text-slate-400', word: 'Upcoming' },
};

function milestoneWhen(m: ReportMilestone): string {
  if (m.state === 'done') return m.doneDate ? `Done ${formatDay(m.doneDate)}` : 'Done';
  const target = m.targetDate ? `Target ${formatDay(m.targetDate)}` : 'No target date';
  return m.late || m.state === 'late' ? `${target} · late` : target;
}

/** How many of the period's changes page 2 lists before "and N more". */
const CHANGES_SHOWN = 6;

function MilestonesPage({ content }: { content: ReportContent }) {
  const done = content.milestones.filter((m) => m.state === 'done').length;
  const changes = content.changes.slice(-CHANGES_SHOWN);
  return (
    <>
      <PageHeading>Milestones</PageHeading>
      {content.milestones.length === 0 ? (
        <p className="text-slate-500">No milestones planned.</p>
      ) : (
        <>
          <p className="mb-[2cqw] text-slate-600">
            {done} of {content.milestones.length} done
          </p>
          <ul className="space-y-[1.6cqw]">
            {content.milestones.map((m, i) => {
              const mark = MILESTONE_MARKS[m.state];
              const Icon = mark.icon;
              return (
                <li key={`${i}-${m.name}`} className="flex items-center gap-[2cqw]">
                  <span className={cn('flex size-[4cqw] shrink-0 items-center justify-center rounded-full', mark.tone)}>
                    <Icon className="size-[2.6cqw]" aria-hidden="true" />
                    <span className="sr-only">{mark.word}</span>
                  </span>
                  <span className={cn('min-w-0 flex-1 truncate', m.state === 'done' ? 'text-slate-600' : 'font-medium')}>{m.name}</span>
                  <span className={cn('shrink-0 text-[length:2.4cqw]', m.state === 'late' || m.late ? 'text-red-700' : 'text-slate-500')}>{milestoneWhen(m)}</span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {content.changes.length > 0 && (
        <>
          <p className="mt-[5cqw] mb-[1.5cqw] text-[length:3.2cqw] font-semibold">What changed</p>
          <ul className="space-y-[1cqw] text-[length:2.5cqw] text-slate-600">
            {changes.map((entry) => (
              <li key={entry.id} className="flex gap-[2cqw]">
                <span className="w-[14cqw] shrink-0 text-slate-500 tabular-nums">{formatDate(entry.createdAt).replace(/, \d{4}$/, '')}</span>
                <span className="min-w-0 truncate">{timelineText(entry)}</span>
              </li>
            ))}
          </ul>
          {content.changes.length > CHANGES_SHOWN && <p className="mt-[1cqw] text-[length:2.4cqw] text-slate-500">and {content.changes.length - CHANGES_SHOWN} more</p>}
        </>
      )}
    </>
  );
}

/**
 * A photo with its markup, in the photo's own pixel space: the image and the shapes
 * share one SVG, so the drawing stays on the photo however the frame letterboxes it.
 */
function PaperPhoto({ item, label }: { item: ReportPhoto; label: string }) {
  const { photo, shapes } = item;
  const w = Math.max(1, photo.width);
  const h = Math.max(1, photo.height);
  return (
    <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="xMidYMid meet" className="absolute inset-0 size-full" role="img" aria-label={label}>
      <image href={photo.thumbUrl} width={w} height={h} preserveAspectRatio="none" />
      {shapes.length > 0 && <MarkupShapes shapes={shapes} width={w} height={h} />}
    </svg>
  );
}

function PhotoFigure({ item, comments }: { item: ReportPhoto; comments: 'some' | 'count' }) {
  const caption = item.photo.caption?.trim() || 'Untitled photo';
  const shown = comments === 'some' ? item.comments.slice(0, 2) : [];
  return (
    <figure className="flex min-h-0 flex-1 flex-col" data-testid="report-preview-photo">
      <div className="relative min-h-0 flex-1 bg-slate-50">
        <PaperPhoto item={item} label={caption} />
      </div>
      <figcaption className="mt-[1.2cqw] shrink-0">
        <span className="block truncate font-medium">{caption}</span>
        <span className="block text-[length:2.3cqw] text-slate-500">{photoDayLabel(item.photo)}</span>
        {shown.map((c) => (
          <span key={c.id} className="mt-[0.6cqw] block truncate text-[length:2.3cqw] text-slate-600">
            <span className="font-medium">{displayName(c.author)}:</span> {c.body}
          </span>
        ))}
        {item.comments.length > shown.length && (
          <span className="mt-[0.6cqw] block text-[length:2.3cqw] text-slate-500">
            {shown.length > 0 ? `+${item.comments.length - shown.length} more` : `${item.comments.length} ${item.comments.length === 1 ? 'comment' : 'comments'}`}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

function sectionHeading(section: ReportSection): string {
  if (section.date !== null) return `Site visit · ${formatDate(section.date)}`;
  return section.milestone ?? 'Other photos';
}

function PhotosPage({ page, perPage }: { page: Extract<ReportPage, { kind: 'photos' }>; perPage: number }) {
  const { section } = page;
  return (
    <>
      {page.first ? (
        <div className="mb-[2.5cqw] shrink-0">
          <p className="text-[length:3.6cqw] font-semibold">{sectionHeading(section)}</p>
          {section.note && <p className="mt-[0.5cqw] truncate text-slate-600 italic">“{section.note}”</p>}
        </div>
      ) : (
        <p className="mb-[2.5cqw] shrink-0 text-[length:2.4cqw] text-slate-500">{sectionHeading(section)} (continued)</p>
      )}
      <div className={cn('grid min-h-0 flex-1 gap-[3cqw]', perPage === 4 ? 'grid-cols-2 grid-rows-2' : perPage === 2 ? 'grid-rows-2' : 'grid-rows-1')}>
        {page.photos.map((item) => (
          <PhotoFigure key={item.photo.id} item={item} comments={perPage === 4 ? 'count' : 'some'} />
        ))}
      </div>
    </>
  );
}

function PairsPage({ page }: { page: Extract<ReportPage, { kind: 'pairs' }> }) {
  return (
    <>
      <PageHeading>{page.first ? 'Before and after' : 'Before and after (continued)'}</PageHeading>
      <div className="grid min-h-0 flex-1 grid-rows-2 gap-[4cqw]">
        {page.pairs.map((pair: ReportPairView) => (
          <div key={`${pair.before.photo.id}-${pair.after.photo.id}`} className="grid min-h-0 grid-cols-2 gap-[2cqw]">
            {(['before', 'after'] as const).map((side) => (
              <div key={side} className="flex min-h-0 flex-col">
                <p className="mb-[0.8cqw] text-[length:2.3cqw] font-semibold tracking-wide text-slate-500 uppercase">{side === 'before' ? 'Before' : 'After'}</p>
                <PhotoFigure item={pair[side]} comments="count" />
              </div>
            ))}
          </div>
        ))}
      </div>
    </>
  );
}

function pageLabel(page: ReportPage): string {
  switch (page.kind) {
    case 'cover':
      return 'cover';
    case 'milestones':
      return 'milestones';
    case 'photos':
      return sectionHeading(page.section);
    case 'pairs':
      return 'before and after';
  }
}

function PreviewSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-4" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className="aspect-[8.5/11] w-full rounded-[3px]" />
      ))}
    </div>
  );
}

/**
 * The New report dialog's preview: the first pages of the report the choices would make
 * (cover, milestones, up to three photo pages), and how many more there would be.
 */
export function ReportPreview({
  content,
  loading,
  problem,
  className,
}: {
  /** The latest preview, or null before the first arrives. */
  content: ReportContent | null;
  loading: boolean;
  /** Why there is no preview for the current choices (the server's words or the form's). */
  problem: string | null;
  className?: string;
}) {
  const pages = content ? reportPages(content) : [];
  const { shown, more } = previewPages(pages);
  return (
    // Focusable: beside the form on a desktop it scrolls on its own, and keys must reach it.
    <section
      aria-label="Preview"
      tabIndex={0}
      className={cn('rounded-xl bg-slate-100 p-4 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:bg-slate-800/60', className)}
      data-testid="report-preview"
      aria-busy={loading}
    >
      <div className="mb-3 flex items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Preview</h3>
        <p className="flex items-center gap-2 text-xs text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite" data-testid="report-preview-heading">
          {loading && <Spinner className="size-3.5" />}
          {problem ? '' : content ? previewHeading(content) : 'Loading…'}
        </p>
      </div>
      {problem ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 bg-white/60 px-4 py-10 text-center dark:border-slate-600 dark:bg-slate-900/40" role="status">
          <FileWarning className="size-6 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="report-preview-problem">
            {problem}
          </p>
        </div>
      ) : !content ? (
        <PreviewSkeleton />
      ) : (
        <>
          <ol className={cn('grid grid-cols-2 gap-4 transition-opacity', loading && 'opacity-60')} aria-label="First pages">
            {shown.map((page, i) => (
              <Paper key={i} number={i + 1} label={pageLabel(page)}>
                {page.kind === 'cover' && <CoverPage content={content} />}
                {page.kind === 'milestones' && <MilestonesPage content={content} />}
                {page.kind === 'photos' && <PhotosPage page={page} perPage={content.perPage} />}
                {page.kind === 'pairs' && <PairsPage page={page} />}
              </Paper>
            ))}
          </ol>
          {more > 0 && (
            <p className="mt-3 text-center text-sm text-slate-600 dark:text-slate-300" data-testid="report-preview-more">
              and {more} more {more === 1 ? 'page' : 'pages'}
            </p>
          )}
        </>
      )}
    </section>
  );
}
