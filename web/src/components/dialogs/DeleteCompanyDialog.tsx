import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Company } from '../../protocol/types';
import { companyDeletionSummary } from '../../lib/companyRules';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { useDeletionImpact } from './useDeletionImpact';

/**
 * Deleting a builder company (admins): it takes its projects with their
 * photos, and its members' logins. The dialog says how much from the server's count and,
 * when anything goes with it (or the count failed), asks for its name to be typed.
 */
export function DeleteCompanyDialog({ company, onClose }: { company: Company; onClose: () => void }) {
  const { impact, typed, setTyped, mustType, ready } = useDeletionImpact(company.id, company.name, commands.companyDeletionImpact, (c) => c.projects + c.members > 0);
  const [busy, setBusy] = useState(false);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await commands.deleteCompany(company.id);
      toast.success(`${company.name} deleted successfully.`);
      onClose();
    } catch (err) {
      toastRequestError(err, `Failed to delete ${company.name}.`);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Are you absolutely sure?"
      description={
        <>
          This permanently deletes the company <strong className="font-semibold text-slate-800 dark:text-slate-100">{company.name}</strong>.
        </>
      }
      busy={busy}
      widthClass="max-w-[440px]"
      alert
    >
      <form onSubmit={confirm} noValidate className="space-y-4">
        <p data-testid="deletion-impact" role="status" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200">
          {impact.state === 'counting'
            ? 'Counting its projects, photos and members…'
            : impact.state === 'counted'
              ? companyDeletionSummary(company.name, impact)
              : 'Its projects, photos and members could not be counted; everything it has is deleted with it. This cannot be undone.'}
        </p>
        {mustType && (
          <Field
            label={`Type “${company.name}” to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            autoFocus
          />
        )}
        <DialogActions className="mt-2">
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" loading={busy} disabled={!ready || busy}>
            Delete company
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
