import { useEffect, useRef, useState } from 'react';
import type { SecondFactorMethod } from '../../api/auth';
import { signWithPasskey } from '../../lib/passkeys';
import { commands } from '../../sync/commands';
import { requests } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import { SecondFactorForm } from './SecondFactorForm';

/** Both, when the account's factors could not be read: the server refuses what it lacks. */
const EVERY_METHOD: SecondFactorMethod[] = ['totp', 'recovery', 'passkey'];

/**
 * "Confirm it's you" (docs/SECURITY.md, "Two-factor sign-in"). Registered as the request
 * layer's prompt, so any sensitive action refused with `factor_required` opens it; once a
 * code or a passkey proves a factor, the layer sends the action again. Closing it gives
 * up the action.
 */
export function FactorPromptHost() {
  const [open, setOpen] = useState(false);
  const [methods, setMethods] = useState<SecondFactorMethod[] | null>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<((proved: boolean) => void) | null>(null);

  useEffect(
    () =>
      requests.stepUp.setPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setMethods(null);
            setOpen(true);
            commands
              .security()
              .then((s) => setMethods([...(s.totp ? (['totp', 'recovery'] as const) : []), ...(s.passkeys.length ? (['passkey'] as const) : [])]))
              .catch(() => setMethods(EVERY_METHOD));
          }),
      ),
    [],
  );

  const finish = (proved: boolean) => {
    settle.current?.(proved);
    settle.current = null;
    setOpen(false);
  };

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
          methods={methods.length ? methods : EVERY_METHOD}
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
