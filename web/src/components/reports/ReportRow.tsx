import { AlertCircle, CheckCircle2, Download, ExternalLink, FileText, Link2, Mail, MailCheck, Trash2 } from 'lucide-react';
import type { Report } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate, relativeTime } from '../../lib/dates';
import { displayName } from '../../lib/names';
import { mailButtonLabel, mailedLabel, type ReportSharing } from '../../lib/reportSharing';
import { reportPdfUrl, reportPercent, reportStatusText, reportSummary, reportTitle } from '../../lib/reports';
import { Button, buttonClasses } from '../ui/Button';

/** The bar of a report being made: photos placed of the report's total. */
function ReportProgress({ report, title }: { report: Report; title: string }) {
  const percent = reportPercent(report);
  const text = reportStatusText(report);
  return (
    <div className="max-w-md">
      <div className="mb-1.5 flex items-center justify-between gap-3 text-xs">
        <span className="font-medium text-slate-700 dark:text-slate-200" data-testid="report-status">
          {text}
        </span>
        <span className="font-semibold text-slate-900 tabular-nums dark:text-slate-100">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={`Making the report ${title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-amber-500 transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/**
 * One report in the project's list: its period, what it holds, who made it and when,
 * and where it is — a live bar while it is made, the PDF once ready (to share by a
 * link or mail to the homeowner), or why it failed.
 */
export function ReportRow({
  report,
  myId,
  now,
  milestoneName,
  canDelete,
  onDelete,
  sharing,
  onShare,
  onMail,
}: {
  report: Report;
  myId: string | undefined;
  now: number;
  milestoneName: (id: string) => string | undefined;
  canDelete: boolean;
  onDelete: (report: Report) => void;
  /** Who may share and mail this project's reports. */
  sharing: ReportSharing;
  onShare: (report: Report) => void;
  onMail: (report: Report) => void;
}) {
  const title = reportTitle(report.options, milestoneName);
  const maker = report.createdBy ? (report.createdBy.id === myId ? 'you' : displayName(report.createdBy)) : 'a former member';
  const status = reportStatusText(report);
  const mailed = mailedLabel(report, now);
  return (
    <li className="py-4 first:pt-0 last:pb-0" data-testid="report" data-report-id={report.id} data-status={report.status}>
      <article aria-label={`Report ${title}`} className="flex items-start gap-3 sm:gap-4">
        <span
          aria-hidden="true"
          className={cn(
            'hidden size-10 shrink-0 items-center justify-center rounded-xl ring-1 ring-inset sm:flex',
            report.status === 'failed'
              ? 'bg-red-50 text-red-700 ring-red-600/15 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-400/20'
              : 'bg-amber-50 text-amber-700 ring-amber-600/15 dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20',
          )}
        >
          <FileText className="size-5" />
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 space-y-0.5">
              <h3 className="text-sm font-semibold text-slate-900 dark:text-white" data-testid="report-title">
                {title}
              </h3>
              <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="report-summary">
                {reportSummary(report.options, report.createdBy, myId, milestoneName)}
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                Made by {maker} · <time dateTime={new Date(report.createdAt).toISOString()} title={formatDate(report.createdAt)}>{relativeTime(report.createdAt, now)}</time>
              </p>
              {mailed && report.mailedAt !== null && (
                <p className="inline-flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300" data-testid="report-mailed" title={`Mailed ${formatDate(report.mailedAt)}`}>
                  <MailCheck className="size-3.5 shrink-0 text-slate-400" aria-hidden="true" />
                  {mailed}
                </p>
              )}
            </div>
            {canDelete && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onDelete(report)}
                aria-label={`Delete report ${title}`}
                title="Delete report"
                className="-mt-1 -mr-2 shrink-0 text-slate-500 hover:text-red-700 dark:text-slate-400 dark:hover:text-red-400"
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </Button>
            )}
          </div>

          {report.status === 'generating' && <ReportProgress report={report} title={title} />}
          {report.status === 'ready' && (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <p className="inline-flex items-center gap-1.5 text-sm font-medium text-green-800 dark:text-green-300" data-testid="report-status">
                <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
                {status}
              </p>
              <div className="flex flex-wrap gap-2">
                <a href={reportPdfUrl(report.id)} download className={buttonClasses('secondary', 'sm')}>
                  <Download className="size-4" aria-hidden="true" />
                  Download PDF
                </a>
                <a href={reportPdfUrl(report.id, true)} target="_blank" rel="noopener noreferrer" title="Open the PDF in a new tab" className={buttonClasses('outline', 'sm')}>
                  <ExternalLink className="size-4" aria-hidden="true" />
                  Open
                </a>
                {sharing.canShare && (
                  <Button variant="outline" size="sm" onClick={() => onShare(report)} title="A view-only link to this report">
                    <Link2 className="size-4" aria-hidden="true" />
                    Share link
                  </Button>
                )}
                {sharing.canMail && (
                  <Button variant="outline" size="sm" onClick={() => onMail(report)} title="Email this report to the homeowner">
                    <Mail className="size-4" aria-hidden="true" />
                    {mailButtonLabel(report)}
                  </Button>
                )}
              </div>
            </div>
          )}
          {report.status === 'failed' && (
            <p className="flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300" data-testid="report-status">
              <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {status}
            </p>
          )}
          {/* Says "Ready …" or "Failed …" once, when it happens, without reading every step. */}
          <span className="sr-only" aria-live="polite">
            {report.status === 'generating' ? '' : `Report ${title}: ${status}`}
          </span>
        </div>
      </article>
    </li>
  );
}
