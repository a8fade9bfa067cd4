import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Profile } from '../../protocol/types';
import { displayName } from '../../lib/names';
import { deletionSummary, ROLE_LABELS } from '../../lib/people';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { useDeletionImpact } from './useDeletionImpact';

/**
 * SPEC §2 "Are you absolutely sure?" for a user, made as careful as what it removes:
 * it says how many projects and photos go with the person and, when there are any
 * (or the count could not be had), asks for their name to be typed before Delete works.
 */
export function DeleteUserDialog({ user, onClose }: { user: Profile; onClose: () => void }) {
  const name = displayName(user);
  const { impact, typed, setTyped, mustType, ready } = useDeletionImpact(user.id, name, commands.userDeletionImpact, (c) => c.projects > 0);
  const [busy, setBusy] = useState(false);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await commands.deleteUser(user.id);
      toast.success(`${ROLE_LABELS[user.role]} ${name} deleted successfully.`);
      onClose();
    } catch (err) {
      toastRequestError(err, `Failed to delete ${name}.`);
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
          This action cannot be undone. This will permanently delete{' '}
          <strong className="font-semibold text-slate-800 dark:text-slate-100">{name}</strong> and all associated projects.
        </>
      }
      busy={busy}
      widthClass="max-w-[440px]"
      alert
    >
      <form onSubmit={confirm} noValidate className="space-y-4">
        <p data-testid="deletion-impact" role="status" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-200">
          {impact.state === 'counting'
            ? 'Counting their projects and photos…'
            : impact.state === 'counted'
              ? deletionSummary(impact.projects, impact.photos)
              : 'Their projects and photos could not be counted; everything they own is deleted with them.'}
        </p>
        {mustType && (
          <Field
            label={`Type “${name}” to confirm`}
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
            Delete
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
