import { useState } from 'react';
import type { SecondFactorMethod } from '../../api/auth';
import { signWithPasskey } from '../../lib/passkeys';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import { SecondFactorForm } from './SecondFactorForm';

/**
 * "Confirm it's you" (docs/SECURITY.md, "Two-factor sign-in"), as FactorPromptHost opens
 * it: a code or a passkey of `methods` (null while they are read), then `onFinish(true)`;
 * closing or Cancel is `onFinish(false)`.
 */
export function ConfirmItsYouDialog({ open, methods, onFinish: finish }: { open: boolean; methods: SecondFactorMethod[] | null; onFinish: (proved: boolean) => void }) {
  const [busy, setBusy] = useState(false);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && finish(false)}
      title="Confirm it's you"
      description="This needs a second check of your sign-in. What you asked for carries on after it."
      busy={busy}
      widthClass="max-w-[420px]"
    >
      {methods === null ? (
        <div className="flex justify-center py-8">
          <Spinner className="size-6" />
        </div>
      ) : (
        <SecondFactorForm
          methods={methods}
          submitCode={async (code) => {
            await commands.verifyFactor(code);
            finish(true);
          }}
          signWithPasskey={async () => {
            const { challengeId, options } = await commands.startFactorPasskey();
            const answer = await signWithPasskey(options);
            await commands.verifyFactorPasskey(challengeId, JSON.stringify(answer));
            finish(true);
          }}
          submitLabel="Confirm"
          busyLabel="Checking..."
          onBusyChange={setBusy}
          secondaryAction={
            <Button variant="ghost" size="sm" onClick={() => finish(false)} disabled={busy}>
              Cancel
            </Button>
          }
        />
      )}
    </Dialog>
  );
}
