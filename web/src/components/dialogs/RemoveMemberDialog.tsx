import { useState } from 'react';
import { toast } from '../../lib/toast';
import { UserMinus } from 'lucide-react';
import type { Company, Member } from '../../protocol/types';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * Takes a member out of their company (docs/FEATURES.md, "Builder companies"): their
 * sessions end everywhere at once and its projects leave their view; what they uploaded
 * keeps their name.
 */
export function RemoveMemberDialog({ company, member, onClose }: { company: Company; member: Member; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await commands.removeMember(member.id);
      toast.success(`${member.name} was removed from ${company.name}`);
      onClose();
    } catch (err) {
      setBusy(false);
      toastRequestError(err, `Failed to remove ${member.name}`);
    }
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      busy={busy}
      onConfirm={() => void remove()}
      confirmLabel="Remove member"
      confirmIcon={<UserMinus className="size-4" aria-hidden="true" />}
      description={
        <>
          <strong className="font-semibold text-slate-800 dark:text-slate-100">{member.name}</strong> leaves {company.name} and is signed out
          everywhere at once. The photos, comments and markup they added stay, with their name.
        </>
      }
    />
  );
}
