import { Mail } from 'lucide-react';
import type { Project, Report } from '../../protocol/types';
import { mailRecipient } from '../../lib/reportSharing';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';

/**
 * The step before `mail_report`: it sends an email, so the builder says yes
 * to whom it goes first. Not a destructive confirmation: the button is the primary one.
 */
export function MailReportDialog({
  project,
  report,
  title,
  open,
  onOpenChange,
  busy,
  onConfirm,
}: {
  project: Project;
  report: Report | null;
  /** The report's name in the list. */
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  onConfirm: () => void;
}) {
  const who = mailRecipient(project);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Mail this report to ${who}?`}
      description={
        <>
          Sitecast emails {who} this report of {project.title} (<span className="font-medium text-slate-700 dark:text-slate-200">{title}</span>), with its
          PDF attached (or a link to it, when it is too large to attach).
          {report?.mailedAt != null && ' It was mailed before: this sends it again.'}
        </>
      }
      confirmLabel="Mail report"
      confirmVariant="primary"
      confirmIcon={<Mail className="size-4" aria-hidden="true" />}
      busy={busy}
      onConfirm={onConfirm}
    />
  );
}
