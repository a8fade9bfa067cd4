import { useEffect, useRef, useState } from 'react';
import type { SecondFactorMethod } from '../../api/auth';
import { commands } from '../../sync/commands';
import { requests } from '../../sync/requests';
import { lazyPart } from '../lazyPart';

/** Both, when the account's factors could not be read: the server refuses what it lacks. */
const EVERY_METHOD: SecondFactorMethod[] = ['totp', 'recovery', 'passkey'];

// The dialog, its code form and the passkey library come when first asked for: most
// sessions never are (docs/LIMITS.md, "First paint").
const ConfirmItsYouDialog = lazyPart(() => import('./ConfirmItsYouDialog').then((m) => m.ConfirmItsYouDialog), {
  what: "Confirm it's you",
  overlay: { isOpen: (p) => p.open, close: (p) => p.onFinish(false) },
});

/**
 * "Confirm it's you" (docs/SECURITY.md, "Two-factor sign-in"). Registered as the request
 * layer's prompt, so any sensitive action refused with `factor_required` opens it; once a
 * code or a passkey proves a factor, the layer sends the action again. Closing it gives
 * up the action.
 */
export function FactorPromptHost() {
  const [open, setOpen] = useState(false);
  const [methods, setMethods] = useState<SecondFactorMethod[] | null>(null);
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

  return <ConfirmItsYouDialog open={open} methods={methods && (methods.length ? methods : EVERY_METHOD)} onFinish={finish} />;
}
