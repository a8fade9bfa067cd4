import type { CSSProperties, ReactNode } from 'react';
import { FileWarning } from 'lucide-react';
import type { ReportContent, ReportMilestone, ReportPairView, ReportPhoto } from '../../protocol/types';
import { cn } from '../../lib/cn';
import {
  captionMaxLines,
  commentLine,
  coverDetails,
  milestoneLate,
  milestonesDone,
  milestoneStateText,
  pairLabel,
  photoComments,
  photoDateLine,
  photoSlots,
  photoTextHeight,
  previewHeading,
  previewPages,
  reportChangeText,
  reportDate,
  reportFooter,
  reportProgress,
  REPORT_PAGE,
  runningHeader,
  sectionHeading,
  moreComments,
  type ReportPage,
  type ReportPreviewData,
} from '../../lib/reports';
import { MarkupShapes } from '../markup/MarkupShapes';
import { Skeleton } from '../ui/Skeleton';
import { Spinner } from '../ui/Spinner';

// The preview draws the report's first pages as the PDF has them (server/src/media/
// report): US Letter, white in either theme, the same order, words and layout. Sizes
// are the PDF's points turned into `cqw` (hundredths of the page's width), so one
// drawing scales to whatever width the page gets on a phone or a desktop.

/** `n` PDF points as a length on the drawn page. */
const pt = (n: number) => `${((n * 100) / REPORT_PAGE.width).toFixed(3)}cqw`;

/** Text of `size` points on lines `leading` apart. */
const type = (size: number, leading: number, more: CSSProperties = {}): CSSProperties => ({ fontSize: pt(size), lineHeight: pt(leading), ...more });

/** The PDF's hairlines (0.75 pt, slate-200). */
const RULE = `${pt(0.75)} solid var(--color-slate-200, #e2e8f0)`;

const CLAMP = ['', 'line-clamp-1', 'line-clamp-2', 'line-clamp-3'] as const;

function Paper({
  number,
  pages,
  label,
  content,
  children,
}: {
  number: number;
  pages: number;
  label: string;
  content: ReportContent;
  children: ReactNode;
}) {
  const footer = reportFooter(content.generatedAt, number, pages);
  const { margin } = REPORT_PAGE;
  return (
    <li aria-label={`Page ${number}: ${label}`} data-testid="report-page" data-page={number}>
      <div className="@container relative aspect-[612/792] w-full overflow-hidden rounded-[3px] bg-white text-slate-900 shadow-md ring-1 ring-slate-900/10">
        {number > 1 && (
          <div data-testid="report-page-header">
            <div className="absolute flex items-baseline justify-between text-slate-500" style={{ left: pt(margin), right: pt(margin), top: pt(36), ...type(8.5, 10) }}>
              <span className="truncate font-bold" style={{ maxWidth: pt(300) }}>
                {content.project.title}
              </span>
              <span className="shrink-0 whitespace-nowrap">{runningHeader(content)}</span>
            </div>
            <div aria-hidden="true" className="absolute bg-slate-200" style={{ left: pt(margin), right: pt(margin), top: pt(52), height: pt(0.75) }} />
          </div>
        )}
        <div className="absolute flex flex-col" style={{ left: pt(margin), right: pt(margin), top: pt(REPORT_PAGE.contentTop), height: pt(REPORT_PAGE.contentBottom - REPORT_PAGE.contentTop) }}>
          {children}
        </div>
        <div data-testid="report-page-footer">
          <div aria-hidden="true" className="absolute bg-slate-200" style={{ left: pt(margin), right: pt(margin), top: pt(750), height: pt(0.75) }} />
          <div className="absolute flex items-baseline justify-between text-slate-500 tabular-nums" style={{ left: pt(margin), right: pt(margin), top: pt(756.2), ...type(8, 10) }}>
            <span className="truncate">{footer.made}</span>
            <span className="shrink-0 whitespace-nowrap">{footer.page}</span>
          </div>
        </div>
      </div>
    </li>
  );
}

/** A page's heading (and a note in quotes under it), then `gap` points to what follows. */
function Heading({ title, note, gap }: { title: string; note?: string | null; gap?: number }) {
  const shownNote = note?.trim();
  return (
    <div className="shrink-0" style={{ marginBottom: pt(gap ?? (shownNote ? 17.6 : 22)) }}>
      <p className="line-clamp-2 font-bold" style={type(15, 19)}>
        {title}
      </p>
      {shownNote && (
        <p className="line-clamp-3 text-slate-500" style={type(9.5, 12.5, { marginTop: pt(6.4) })} data-testid="report-section-note">
          {`“${shownNote}”`}
        </p>
      )}
    </div>
  );
}

function CoverPage({ preview }: { preview: ReportPreviewData }) {
  const { project } = preview.content;
  const address = project.address.trim();
  const progress = reportProgress(project.progress);
  const details = coverDetails(preview);
  const detailsGap = project.thumbnailUrl ? 18.2 : address ? 18.4 : 30.8;
  return (
    <>
      {/* The cover draws from the page's top margin: undo the content area's offset. */}
      <div className="absolute inset-x-0 flex flex-col" style={{ top: pt(54 - REPORT_PAGE.contentTop) }}>
        <div aria-hidden="true" className="bg-amber-600" style={{ width: pt(36), height: pt(3) }} />
        <p className="font-bold text-amber-600" style={type(10, 12, { marginTop: pt(13.5) })}>
          PROGRESS REPORT
        </p>
        <p className="line-clamp-2 font-bold" style={type(26, 31, { marginTop: pt(6.9) })} data-testid="report-preview-title">
          {project.title}
        </p>
        {address && (
          <p className="line-clamp-2 text-slate-500" style={type(12, 16, { marginTop: pt(14.4) })}>
            {address}
          </p>
        )}
        {project.thumbnailUrl && (
          <div className="relative w-full" style={{ height: pt(270), marginTop: pt(address ? 26.2 : 38.6) }}>
            <img src={project.thumbnailUrl} alt="" className="absolute inset-0 size-full object-contain" data-testid="report-cover-photo" />
          </div>
        )}
        <dl className="grid grid-cols-2" style={{ columnGap: pt(24), rowGap: pt(18.4), marginTop: pt(detailsGap) }}>
          {details.map(({ label, value }) => (
            <div key={label} className="min-w-0">
              <dt className="font-bold text-slate-500 uppercase" style={type(8, 10)}>
                {label}
              </dt>
              <dd className="flex items-center font-bold" style={type(12, 14, { marginTop: pt(3.6) })}>
                <span className="truncate">{value}</span>
                {label === 'Complete' && (
                  <span aria-hidden="true" className="relative block flex-1 bg-slate-200" style={{ marginLeft: pt(10), height: pt(6) }} data-testid="report-cover-bar">
                    <span className="absolute inset-y-0 left-0 bg-amber-600" style={{ width: `${progress}%` }} />
                  </span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </>
  );
}

/** A row's dot: green done, red late, amber current, a grey ring upcoming. */
const DOTS = {
  done: 'bg-green-600',
  late: 'bg-red-600',
  current: 'bg-amber-500',
  upcoming: 'border-slate-500',
} as const;

function MilestoneDot({ milestone }: { milestone: ReportMilestone }) {
  const tone: keyof typeof DOTS = milestone.state === 'done' ? 'done' : milestoneLate(milestone) ? 'late' : milestone.state === 'current' ? 'current' : 'upcoming';
  return (
    <span
      aria-hidden="true"
      data-testid="report-milestone-dot"
      data-tone={tone}
      className={cn('block shrink-0 rounded-full', DOTS[tone])}
      style={{ width: pt(9), height: pt(9), marginLeft: pt(1.5), ...(tone === 'upcoming' ? { borderWidth: pt(1.2), borderStyle: 'solid' } : {}) }}
    />
  );
}

function MilestonesPage({ page, content }: { page: Extract<ReportPage, { kind: 'milestones' }>; content: ReportContent }) {
  return (
    <>
      <Heading title={page.first ? 'Milestones' : 'Milestones (continued)'} gap={10.7} />
      <p className="shrink-0 text-slate-500" style={type(9.5, 16, { marginBottom: pt(11.3) })}>
        {milestonesDone(content.milestones)}
      </p>
      <ul className="shrink-0" style={{ borderBottom: RULE }}>
        {page.milestones.map((m, i) => (
          <li key={`${i}-${m.name}`} className="flex items-center" style={{ height: pt(28), borderTop: RULE }} data-testid="report-milestone">
            <MilestoneDot milestone={m} />
            <span className={cn('min-w-0 flex-1 truncate', m.state === 'current' && 'font-bold')} style={type(10.5, 14, { marginLeft: pt(9.5) })}>
              {m.name}
            </span>
            <span className={cn('shrink-0 whitespace-nowrap', milestoneLate(m) ? 'text-red-600' : 'text-slate-500')} style={type(9.5, 14, { marginLeft: pt(16) })}>
              {milestoneStateText(m)}
            </span>
          </li>
        ))}
      </ul>
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

/** A photo and, under it, its date (bold), caption and the comments that fit. */
function PhotoFigure({ item, perPage }: { item: ReportPhoto; perPage: number }) {
  const caption = item.photo.caption?.trim() ?? '';
  const comments = photoComments(item, perPage);
  return (
    <figure className="flex min-h-0 min-w-0 flex-col" data-testid="report-preview-photo">
      <div className="relative min-h-0 flex-1">
        <PaperPhoto item={item} label={caption || photoDateLine(item)} />
      </div>
      <figcaption className="shrink-0 overflow-hidden" style={{ height: pt(photoTextHeight(perPage)), paddingTop: pt(4.4) }}>
        <span className="block truncate font-bold" style={type(9, 13)}>
          {photoDateLine(item)}
        </span>
        {caption && (
          <span className={cn('block', CLAMP[captionMaxLines(perPage)])} style={type(9.5, 12)}>
            {caption}
          </span>
        )}
        {comments.shown.length > 0 && (
          <span className="block text-slate-500" style={type(8.5, 11, { marginTop: pt(3) })}>
            {comments.shown.map(({ comment, lines }) => (
              <span key={comment.id} className={cn('block', CLAMP[lines])} data-testid="report-photo-comment">
                {commentLine(comment)}
              </span>
            ))}
            {comments.moreFits && <span className="block">{moreComments(comments.more)}</span>}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

function PhotosPage({ page, content }: { page: Extract<ReportPage, { kind: 'photos' }>; content: ReportContent }) {
  const heading = sectionHeading(page.section, content.sections);
  const slots = photoSlots(content.perPage);
  return (
    <>
      <Heading title={page.first ? heading : `${heading} (continued)`} note={page.first ? page.section.note : null} />
      <div
        className={cn('grid min-h-0 flex-1', slots === 4 ? 'grid-cols-2 grid-rows-2' : slots === 2 ? 'grid-rows-2' : 'grid-rows-1')}
        style={{ columnGap: pt(18), rowGap: pt(slots === 4 ? 14 : 18) }}
      >
        {page.photos.map((item) => (
          <PhotoFigure key={item.photo.id} item={item} perPage={content.perPage} />
        ))}
      </div>
    </>
  );
}

function PairsPage({ page }: { page: Extract<ReportPage, { kind: 'pairs' }> }) {
  return (
    <>
      <Heading title="Before and after" />
      <div className="grid min-h-0 flex-1 grid-rows-2" style={{ rowGap: pt(18) }}>
        {page.pairs.map((pair: ReportPairView, i) => (
          <div key={`${i}-${pair.before.photo.id}-${pair.after.photo.id}`} className="grid min-h-0 grid-cols-2" style={{ columnGap: pt(18) }} data-testid="report-pair">
            {(['before', 'after'] as const).map((side) => {
              const item = pair[side];
              const caption = item.photo.caption?.trim();
              return (
                <figure key={side} className="flex min-h-0 min-w-0 flex-col">
                  <div className="relative min-h-0 flex-1">
                    <PaperPhoto item={item} label={caption || pairLabel(side, item)} />
                  </div>
                  <figcaption className="shrink-0 overflow-hidden" style={{ height: pt(40), paddingTop: pt(4.4) }}>
                    <span className="block truncate font-bold" style={type(9, 13)}>
                      {pairLabel(side, item)}
                    </span>
                    {caption && (
                      <span className="block truncate" style={type(9, 12)}>
                        {caption}
                      </span>
                    )}
                  </figcaption>
                </figure>
              );
            })}
          </div>
        ))}
      </div>
    </>
  );
}

function ChangesPage({ page }: { page: Extract<ReportPage, { kind: 'changes' }> }) {
  return (
    <>
      <Heading title={page.first ? 'What changed' : 'What changed (continued)'} gap={16.2} />
      {page.changes.length === 0 ? (
        <p className="text-slate-500" style={type(10, 13)}>
          Nothing was recorded in this period.
        </p>
      ) : (
        <ul className="min-h-0">
          {page.changes.map((entry) => (
            <li key={entry.id} className="flex items-baseline" style={{ marginBottom: pt(6) }} data-testid="report-change">
              <span className="shrink-0 text-slate-500 tabular-nums" style={type(8.5, 13, { width: pt(92) })}>
                {reportDate(entry.createdAt)}
              </span>
              <span className="min-w-0 flex-1" style={type(9.5, 13)}>
                {reportChangeText(entry)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function pageLabel(page: ReportPage, content: ReportContent): string {
  switch (page.kind) {
    case 'cover':
      return 'cover';
    case 'milestones':
      return 'milestones';
    case 'photos':
      return sectionHeading(page.section, content.sections);
    case 'pairs':
      return 'before and after';
    case 'changes':
      return 'what changed';
  }
}

function PreviewSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-4" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className="aspect-[612/792] w-full rounded-[3px]" />
      ))}
    </div>
  );
}

/**
 * The New report dialog's preview: the first pages of the report the choices would make
 * (the cover, the milestones when the project has some, up to three photo pages), as
 * the PDF lays them out, and how many more pages the PDF has.
 */
export function ReportPreview({
  preview,
  loading,
  problem,
  className,
}: {
  /** The latest preview, or null before the first arrives. */
  preview: ReportPreviewData | null;
  loading: boolean;
  /** Why there is no preview for the current choices (the server's words or the form's). */
  problem: string | null;
  className?: string;
}) {
  const { shown, more } = preview ? previewPages(preview) : { shown: [], more: 0 };
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
          {problem ? '' : preview ? previewHeading(preview) : 'Loading…'}
        </p>
      </div>
      {problem ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 bg-white/60 px-4 py-10 text-center dark:border-slate-600 dark:bg-slate-900/40" role="status">
          <FileWarning className="size-6 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="report-preview-problem">
            {problem}
          </p>
        </div>
      ) : !preview ? (
        <PreviewSkeleton />
      ) : (
        <>
          <ol className={cn('grid grid-cols-2 gap-4 transition-opacity', loading && 'opacity-60')} aria-label="First pages">
            {shown.map((page, i) => (
              <Paper key={i} number={i + 1} pages={preview.pages} label={pageLabel(page, preview.content)} content={preview.content}>
                {page.kind === 'cover' && <CoverPage preview={preview} />}
                {page.kind === 'milestones' && <MilestonesPage page={page} content={preview.content} />}
                {page.kind === 'photos' && <PhotosPage page={page} content={preview.content} />}
                {page.kind === 'pairs' && <PairsPage page={page} />}
                {page.kind === 'changes' && <ChangesPage page={page} />}
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
