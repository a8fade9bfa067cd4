import type { ReactNode } from 'react';
import { Download, ExternalLink, FileText, MapPin } from 'lucide-react';
import type { Comment, Project, ReportContent, ReportMilestone, ReportPairView, ReportPhoto, ReportSection, SharedReport, TimelineEntry } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { inlinePdfUrl, sharedReportFacts, sharedReportHeading, sharedReportPhotos } from '../../lib/reportSharing';
import {
  coverDetails,
  milestoneLate,
  milestonesDone,
  milestoneStateText,
  pairLabel,
  photoDateLine,
  reportChangeText,
  reportDate,
  reportProgress,
  sectionHeading,
} from '../../lib/reports';
import { MarkupShapes } from '../markup/MarkupShapes';
import { SectionCard } from '../SectionCard';
import { buttonClasses } from '../ui/Button';
import { Notice } from '../ui/Notice';

// A report link's page (docs/FEATURES.md, "Progress reports"): the report as a web page,
// with what its PDF shows (the cover's facts, the milestones, each section's photos with
// their dates, captions, markup and comments, the before/after pairs and what changed) in
// the same order and words (lib/reports), laid out to read on a phone rather than drawn
// as letter pages. Its images are the guest-authorised /media URLs the content carries.

/** A photo's two renditions as `srcset` widths: the thumbnail's long edge is 480 px, the display's 1600. */
function photoSrcSet(photo: ReportPhoto['photo']): string {
  const w = Math.max(1, photo.width);
  const long = Math.max(w, photo.height, 1);
  const thumb = Math.round(w * Math.min(1, 480 / long));
  const display = Math.round(w * Math.min(1, 1600 / long));
  return thumb >= display ? `${photo.displayUrl} ${display}w` : `${photo.thumbUrl} ${thumb}w, ${photo.displayUrl} ${display}w`;
}

/**
 * A photo in a 4:3 frame, letterboxed as the PDF places it, with its markup drawn in
 * the photo's own pixel space over the image (the box has the photo's shape, so the
 * drawing stays on it).
 */
function ReportImage({ item, label, sizes, frame = 'aspect-[4/3]' }: { item: ReportPhoto; label: string; sizes: string; frame?: string }) {
  const { photo, shapes } = item;
  const w = Math.max(1, photo.width);
  const h = Math.max(1, photo.height);
  const wide = w / h >= 4 / 3;
  return (
    <div className={cn('flex items-center justify-center overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10', frame)}>
      <div className={cn('relative max-h-full max-w-full', wide ? 'w-full' : 'h-full')} style={{ aspectRatio: `${w} / ${h}` }}>
        <img
          src={photo.displayUrl}
          srcSet={photoSrcSet(photo)}
          sizes={sizes}
          width={w}
          height={h}
          alt={label}
          loading="lazy"
          decoding="async"
          className="absolute inset-0 size-full object-cover"
          data-testid="shared-report-image"
        />
        {shapes.length > 0 && (
          <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" className="pointer-events-none absolute inset-0 size-full" aria-hidden="true">
            <MarkupShapes shapes={shapes} width={w} height={h} />
          </svg>
        )}
      </div>
    </div>
  );
}

function CommentList({ comments }: { comments: readonly Comment[] }) {
  if (comments.length === 0) return null;
  return (
    <ul className="mt-3 space-y-2 border-t border-slate-100 pt-3 dark:border-slate-800" aria-label="Comments">
      {comments.map((c) => (
        <li key={c.id} className="text-sm" data-testid="shared-report-comment">
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <span className="font-semibold text-slate-700 dark:text-slate-200">{c.author.name?.trim() || 'Someone'}</span> · {reportDate(c.createdAt)}
          </p>
          <p className="mt-0.5 whitespace-pre-line text-slate-700 dark:text-slate-300">{c.body.trim()}</p>
        </li>
      ))}
    </ul>
  );
}

/** A photo of a section: the image, then its date (bold), caption and comments, as under the PDF's photo. */
function ReportFigure({ item, sizes }: { item: ReportPhoto; sizes: string }) {
  const caption = item.photo.caption?.trim() ?? '';
  const date = photoDateLine(item);
  return (
    <figure className="min-w-0" data-testid="shared-report-photo" data-photo-id={item.photo.id}>
      <ReportImage item={item} label={caption || date} sizes={sizes} />
      <figcaption className="mt-3">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{date}</p>
        {caption && <p className="mt-1 text-sm text-pretty text-slate-900 dark:text-slate-100">{caption}</p>}
        <CommentList comments={item.comments} />
      </figcaption>
    </figure>
  );
}

function Section({ section, content }: { section: ReportSection; content: ReportContent }) {
  // One photo to a page, or a section of one photo: the photo takes the card's width.
  const one = content.perPage <= 1 || section.photos.length === 1;
  const note = section.note?.trim();
  const count = section.photos.length === 1 ? '1 photo' : `${section.photos.length} photos`;
  return (
    <SectionCard title={sectionHeading(section, content.sections)} subtitle={note ? <span className="italic">{`“${note}” · ${count}`}</span> : count}>
      <div className={cn('grid gap-x-6 gap-y-8', !one && 'sm:grid-cols-2')}>
        {section.photos.map((item) => (
          <ReportFigure key={item.photo.id} item={item} sizes={one ? '(min-width: 56rem) 52rem, 100vw' : '(min-width: 56rem) 26rem, (min-width: 640px) 50vw, 100vw'} />
        ))}
      </div>
    </SectionCard>
  );
}

/** A milestone's dot: green done, red late, amber current, a grey ring upcoming (as the PDF). */
function MilestoneDot({ milestone }: { milestone: ReportMilestone }) {
  const tone = milestone.state === 'done' ? 'done' : milestoneLate(milestone) ? 'late' : milestone.state === 'current' ? 'current' : 'upcoming';
  return (
    <span
      aria-hidden="true"
      data-tone={tone}
      className={cn(
        'block size-2.5 shrink-0 rounded-full',
        tone === 'done' && 'bg-green-600',
        tone === 'late' && 'bg-red-600',
        tone === 'current' && 'bg-amber-500',
        tone === 'upcoming' && 'border-[1.5px] border-slate-400',
      )}
    />
  );
}

function Milestones({ milestones }: { milestones: readonly ReportMilestone[] }) {
  return (
    <SectionCard title="Milestones" subtitle={milestonesDone(milestones)}>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {milestones.map((m, i) => (
          <li key={`${i}-${m.name}`} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-2.5 first:pt-0 last:pb-0" data-testid="shared-report-milestone">
            <MilestoneDot milestone={m} />
            <span className={cn('min-w-0 flex-1 text-sm text-slate-900 dark:text-slate-100', m.state === 'current' && 'font-semibold')}>{m.name}</span>
            <span className={cn('w-full pl-5.5 text-xs sm:w-auto sm:pl-0 sm:text-sm', milestoneLate(m) ? 'font-medium text-red-700 dark:text-red-400' : 'text-slate-500 dark:text-slate-400')}>
              {milestoneStateText(m)}
            </span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

function Pairs({ pairs }: { pairs: readonly ReportPairView[] }) {
  return (
    <SectionCard title="Before and after">
      <div className="space-y-8">
        {pairs.map((pair, i) => (
          <div key={`${i}-${pair.before.photo.id}-${pair.after.photo.id}`} className="grid grid-cols-2 gap-3 sm:gap-6" data-testid="shared-report-pair">
            {(['before', 'after'] as const).map((side) => {
              const item = pair[side];
              const caption = item.photo.caption?.trim();
              return (
                <figure key={side} className="min-w-0" data-testid="shared-report-photo" data-photo-id={item.photo.id}>
                  <ReportImage item={item} label={caption || pairLabel(side, item)} sizes="(min-width: 56rem) 26rem, 50vw" />
                  <figcaption className="mt-2">
                    <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{pairLabel(side, item)}</p>
                    {caption && <p className="mt-0.5 text-sm text-slate-900 dark:text-slate-100">{caption}</p>}
                  </figcaption>
                </figure>
              );
            })}
          </div>
        ))}
      </div>
    </SectionCard>
  );
}

function Changes({ changes }: { changes: readonly TimelineEntry[] }) {
  return (
    <SectionCard title="What changed" subtitle="In this period, oldest first">
      {changes.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">Nothing was recorded in this period.</p>
      ) : (
        <ul className="space-y-3">
          {changes.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 sm:flex-row sm:gap-4" data-testid="shared-report-change">
              <span className="shrink-0 text-xs text-slate-500 tabular-nums sm:w-28 sm:pt-0.5 dark:text-slate-400">{reportDate(entry.createdAt)}</span>
              <span className="min-w-0 text-sm text-slate-800 dark:text-slate-200">{reportChangeText(entry)}</span>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

/** The cover's facts (Homeowner, Builder, Period, Status, Complete, Photos, Milestones), as the PDF's first page lists them. */
function AtAGlance({ report, content }: { report: SharedReport; content: ReportContent }) {
  const details = coverDetails({ content, photos: sharedReportPhotos(content), pages: report.pages, pairs: content.pairs.length });
  const progress = reportProgress(content.project.progress);
  return (
    <SectionCard title="At a glance">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-5 sm:grid-cols-3 lg:grid-cols-4">
        {details.map(({ label, value }) => (
          <div key={label} className="min-w-0" data-testid="shared-report-fact">
            <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
            <dd className="mt-1 text-sm font-semibold break-words text-slate-900 dark:text-white">
              {value}
              {label === 'Complete' && (
                <span aria-hidden="true" className="mt-1.5 block h-1.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
                  <span className="block h-full rounded-full bg-amber-500" style={{ width: `${progress}%` }} />
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}

function PdfButtons({ report }: { report: SharedReport }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <a href={report.pdfUrl} download className={buttonClasses('secondary', 'lg', 'w-full sm:w-auto')} data-testid="shared-report-download">
        <Download className="size-5" aria-hidden="true" />
        Download PDF
      </a>
      <a href={inlinePdfUrl(report.pdfUrl)} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline', 'lg', 'w-full sm:w-auto')}>
        <ExternalLink className="size-4" aria-hidden="true" />
        Open PDF in a new tab
      </a>
    </div>
  );
}

function ReportHero({ report, project, content }: { report: SharedReport; project: Project; content: ReportContent | null }) {
  // The report's own copy of the project (as it was made); the live one for an old report.
  const shown = content?.project ?? project;
  const address = shown.address.trim();
  const cover = content?.project.thumbnailUrl ?? null;
  return (
    <section aria-labelledby="shared-report-title" data-testid="shared-report-header" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="h-1.5 bg-gradient-to-r from-amber-400 via-amber-500 to-orange-500" aria-hidden="true" />
      <div className={cn('grid gap-6 p-5 sm:p-6 lg:p-8', cover && 'md:grid-cols-[minmax(0,1fr)_16rem] md:items-center')}>
        {cover && (
          <img
            src={cover}
            alt=""
            className="aspect-[16/9] w-full rounded-xl bg-slate-100 object-cover ring-1 ring-slate-900/5 md:order-last md:aspect-[4/3] dark:bg-slate-800"
            data-testid="shared-report-cover"
          />
        )}
        <div className="min-w-0 space-y-4">
          <p className="inline-flex items-center gap-2 text-sm font-semibold text-amber-800 dark:text-amber-300" data-testid="shared-report-period">
            <FileText className="size-4 shrink-0" aria-hidden="true" />
            {sharedReportHeading(content)}
          </p>
          <div className="space-y-2">
            <h1 id="shared-report-title" className="text-2xl font-semibold tracking-tight text-balance text-slate-900 sm:text-3xl dark:text-white">
              {shown.title}
            </h1>
            {address && (
              <p className="flex items-start gap-1.5 text-sm text-slate-600 dark:text-slate-300">
                <MapPin className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                {address}
              </p>
            )}
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="shared-report-facts">
            {sharedReportFacts(report)}
          </p>
          <PdfButtons report={report} />
        </div>
      </div>
    </section>
  );
}

/**
 * What a guest of a report link sees: the report's header with its PDF to download,
 * then its pages as sections of a web page. A report made before its content was kept
 * (`content` null) is read in its PDF.
 */
export function SharedReportView({ report, project }: { report: SharedReport; project: Project }): ReactNode {
  const { content } = report;
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6" data-testid="shared-report" data-report-id={report.id}>
      <ReportHero report={report} project={project} content={content} />
      {content ? (
        <>
          <AtAGlance report={report} content={content} />
          {content.milestones.length > 0 && <Milestones milestones={content.milestones} />}
          {content.sections.map((section, i) => (
            <Section key={`${i}-${section.milestone ?? ''}-${section.date ?? ''}`} section={section} content={content} />
          ))}
          {content.pairs.length > 0 && <Pairs pairs={content.pairs} />}
          <Changes changes={content.changes} />
          <p className="text-center text-xs text-slate-500 dark:text-slate-400">
            Generated {reportDate(content.generatedAt)} · The PDF holds the same report, page by page.
          </p>
        </>
      ) : (
        <Notice>
          <span data-testid="shared-report-pdf-only">This report's pages are in its PDF: download it above to read them.</span>
        </Notice>
      )}
    </div>
  );
}
