import { useId, useState } from 'react';
import { Link2, ShieldCheck } from 'lucide-react';
import type { GuestLink, Project, Report } from '../../protocol/types';
import { EXPIRY_OPTIONS, guestLinkStatusLabel, type GuestLinkExpiry } from '../../lib/guestLinks';
import { DEFAULT_REPORT_LINK_EXPIRY, linksOfReport, shareReportRequest } from '../../lib/reportSharing';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { ChoiceLegend, SegmentedControl } from '../ui/Choices';
import { Dialog } from '../ui/Dialog';
import { CreatedLink, LinkList } from '../share/GuestLinks';
import { useCreateLink, useGuestLinks } from '../share/useGuestLinks';

function ShareReportForm({ report, onCreated }: { report: Report; onCreated: (link: GuestLink, url: string) => void }) {
  const [expiry, setExpiry] = useState<GuestLinkExpiry>(DEFAULT_REPORT_LINK_EXPIRY);
  const { saving, create } = useCreateLink(() => commands.shareReport(shareReportRequest(report.id, expiry)), onCreated);
  const ids = useId();

  return (
    <form
      className="space-y-5"
      aria-label="New link"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <fieldset disabled={saving}>
        <ChoiceLegend>Expires</ChoiceLegend>
        <SegmentedControl name={`${ids}-expiry`} value={expiry} options={EXPIRY_OPTIONS} onChange={setExpiry} />
      </fieldset>
      <Button type="submit" variant="secondary" className="w-full" loading={saving} disabled={saving}>
        {!saving && <Link2 className="size-4" aria-hidden="true" />}
        {saving ? 'Creating link…' : 'Create link'}
      </Button>
    </form>
  );
}

/**
 * Share on a ready report (whoever may share the project): a view-only link
 * to this one report — its pages and its PDF, nothing else of the project — its URL
 * shown once, and this report's links with Revoke. They are guest links: the project's
 * list holds them too, but its Share dialog leaves them to their reports.
 */
export function ShareReportDialog({
  project,
  report,
  title,
  open,
  onOpenChange,
}: {
  project: Project;
  /** The report shared; kept while the dialog closes. */
  report: Report | null;
  /** The report's name in the list ("Mar 1 – Nov 24, 2026"). */
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const isAdmin = useAppStore((s) => s.user?.role === 'admin');
  const now = useNow();
  const { created, clearCreated, links, failed, reload, onCreated } = useGuestLinks(project.id, open);
  const shown = links && report ? linksOfReport(links, report.id) : null;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Share this report"
      description={
        <>
          <ShieldCheck className="mr-1 inline size-4 align-[-3px] text-slate-400" aria-hidden="true" />
          A view-only link to this report of {project.title} (<span className="font-medium text-slate-700 dark:text-slate-200">{title}</span>): its pages
          and PDF, nothing else of the project. No account needed, and you can turn it off at any time.
        </>
      }
      widthClass="max-w-[560px]"
    >
      {report && (
        <div className="space-y-6">
          {created ? (
            <CreatedLink
              link={created.link}
              url={created.url}
              onAnother={clearCreated}
              share={{ title: `Progress report: ${project.title}`, text: `A progress report of ${project.title} on Sitecast` }}
              summary={`This report and its PDF · ${guestLinkStatusLabel(created.link, now).replace(/^Active · /, '')}`}
            />
          ) : (
            <ShareReportForm report={report} onCreated={onCreated} />
          )}
          <LinkList
            links={shown}
            error={failed}
            onRetry={reload}
            onChanged={reload}
            heading={isAdmin ? 'Links to this report' : 'Your links to this report'}
          />
        </div>
      )}
    </Dialog>
  );
}
