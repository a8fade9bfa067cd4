import { useState } from 'react';
import { toast } from '../../lib/toast';
import type { Profile } from '../../protocol/types';
import { displayName } from '../../lib/names';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * An admin takes away another user's second factors, for someone who lost
 * their phone and their recovery codes. They sign in with the password alone after it.
 */
export function ResetFactorsDialog({ user, onClose }: { user: Profile; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const name = displayName(user);

  const reset = async () => {
    setBusy(true);
    try {
      await commands.resetFactors(user.id);
      toast.success(`${name}'s sign-in factors were reset`);
      onClose();
    } catch (err) {
      toastRequestError(err, `Failed to reset ${name}'s sign-in factors.`);
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Reset ${name}'s sign-in factors?`}
      description={
        <>
          This removes their authenticator app, recovery codes and passkeys, so they sign in with their password alone. They are emailed that
          you did it{user.email ? <> ({user.email})</> : null}. If two-factor sign-in is required of them, they set it up again at their next
          sign-in.
        </>
      }
      confirmLabel="Reset sign-in factors"
      busy={busy}
      onConfirm={() => void reset()}
    />
  );
}
