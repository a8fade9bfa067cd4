import { useCallback, useEffect, useState } from 'react';
import { FilePlus2, FileText } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { Project, Report } from '../../protocol/types';
import { mailRecipient, reportSharing } from '../../lib/reportSharing';
import { canDeleteReport, reportAccess, reportTitle } from '../../lib/reports';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { SectionCard } from '../SectionCard';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';
import { MailReportDialog } from './MailReportDialog';
import { ReportRow } from './ReportRow';
import { ShareReportDialog } from './ShareReportDialog';

function ReportsSkeleton() {
  return (
    <div role="status" className="space-y-5">
      <span className="sr-only">Loading reports…</span>
      {[0, 1].map((i) => (
        <div key={i} className="flex gap-4">
          <Skeleton className="hidden size-10 rounded-xl sm:block" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-2 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}

function EmptyReports({ canMake, onNewReport }: { canMake: boolean; onNewReport: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700" data-testid="reports-empty">
      <span className="flex size-12 items-center justify-center rounded-2xl bg-amber-50 text-amber-700 ring-1 ring-amber-600/15 dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20">
        <FileText className="size-6" aria-hidden="true" />
      </span>
      <p className="mt-4 text-sm font-semibold text-slate-900 dark:text-white">No reports yet</p>
      <p className="mt-1 max-w-md text-sm text-pretty text-slate-600 dark:text-slate-400">
        A progress report is a PDF of this project to print or send on: a cover with its status and progress, where the milestones stand,
        and the photos of a period you choose with their dates, captions, comments and markup.
      </p>
      {canMake ? (
        <Button variant="secondary" size="sm" className="mt-5" onClick={onNewReport}>
          <FilePlus2 className="size-4" aria-hidden="true" />
          New report
        </Button>
      ) : (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">Reports made for this project will show up here.</p>
      )}
    </div>
  );
}

/**
 * The Reports tab: the project's reports, newest first, as events move them
 * on — the list is read when the tab first shows and again after a reconnect.
 */
export function ProjectReportsTab({ project, onNewReport }: { project: Project; onNewReport: () => void }) {
  const me = useAppStore((s) => s.user);
  const held = useAppStore((s) => s.reports[project.id]);
  const plan = useAppStore((s) => s.milestones[project.id]);
  const access = reportAccess(me, project);
  const sharing = reportSharing(me, project);
  const now = useNow();
  const [removing, setRemoving] = useState<Report | null>(null);
  const [deleting, setDeleting] = useState(false);
  // The report in each dialog is kept while the dialog closes, so its words stay put.
  const [sharingReport, setSharingReport] = useState<{ report: Report; open: boolean } | null>(null);
  const [mailing, setMailing] = useState<{ report: Report; open: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  const missing = held === undefined;

  useEffect(() => {
    if (missing) void commands.loadReports(project.id);
  }, [missing, project.id]);

  const milestoneName = useCallback((id: string) => plan?.milestones.find((m) => m.id === id)?.name, [plan]);

  const remove = async () => {
    if (!removing) return;
    setDeleting(true);
    try {
      await commands.deleteReport(removing);
      toast.success('Report deleted');
      setRemoving(null);
    } catch (err) {
      toastRequestError(err, 'Failed to delete the report');
    } finally {
      setDeleting(false);
    }
  };

  const mail = async () => {
    if (!mailing) return;
    setSending(true);
    try {
      const mailed = await commands.mailReport(mailing.report);
      toast.success(`Report mailed to ${mailed.mailedTo?.trim() || mailRecipient(project)}`, { description: 'It is on its way, with the PDF.' });
      setMailing({ report: mailed, open: false });
    } catch (err) {
      toastRequestError(err, 'Failed to mail the report');
    } finally {
      setSending(false);
    }
  };

  const list = held?.list ?? [];
  let body;
  if (held?.error && !held.loaded) {
    body = (
      <div className="space-y-3">
        <Notice tone="error">{held.error}</Notice>
        <Button variant="outline" size="sm" onClick={() => void commands.loadReports(project.id)}>
          Try again
        </Button>
      </div>
    );
  } else if (!held?.loaded) {
    body = <ReportsSkeleton />;
  } else if (list.length === 0) {
    body = <EmptyReports canMake={access.canMake} onNewReport={onNewReport} />;
  } else {
    body = (
      <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Reports of this project" data-testid="report-list">
        {list.map((report) => (
          <ReportRow
            key={report.id}
            report={report}
            myId={me?.id}
            now={now}
            milestoneName={milestoneName}
            canDelete={canDeleteReport(me, report)}
            onDelete={setRemoving}
            sharing={sharing}
            onShare={(r) => setSharingReport({ report: r, open: true })}
            onMail={(r) => setMailing({ report: r, open: true })}
          />
        ))}
      </ul>
    );
  }

  return (
    <SectionCard
      title="Reports"
      subtitle="PDF progress reports of this project, to print or send on"
      actions={
        access.canMake && list.length > 0 ? (
          <Button variant="secondary" size="sm" onClick={onNewReport}>
            <FilePlus2 className="size-4" aria-hidden="true" />
            New report
          </Button>
        ) : undefined
      }
    >
      {body}
      {sharing.canShare && (
        <ShareReportDialog
          project={project}
          report={sharingReport?.report ?? null}
          title={sharingReport ? reportTitle(sharingReport.report.options, milestoneName) : ''}
          open={sharingReport?.open ?? false}
          onOpenChange={(open) => setSharingReport((held) => (held ? { ...held, open } : null))}
        />
      )}
      {sharing.canMail && (
        <MailReportDialog
          project={project}
          report={mailing?.report ?? null}
          title={mailing ? reportTitle(mailing.report.options, milestoneName) : ''}
          open={mailing?.open ?? false}
          onOpenChange={(open) => setMailing((held) => (held ? { ...held, open } : null))}
          busy={sending}
          onConfirm={() => void mail()}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        busy={deleting}
        onConfirm={() => void remove()}
        confirmLabel="Delete report"
        description={
          removing ? (
            <>
              This deletes the report{' '}
              <strong className="font-semibold text-slate-700 dark:text-slate-200">{reportTitle(removing.options, milestoneName)}</strong> and its PDF for everyone.
              The photos stay in the project.
            </>
          ) : (
            ''
          )
        }
      />
    </SectionCard>
  );
}
