import { useState } from 'react';
import { KeyRound, LogOut, ShieldCheck, Smartphone } from 'lucide-react';
import { toast } from '../lib/toast';
import { getMe } from '../api/auth';
import { passkeysSupported } from '../lib/passkeys';
import { useAppStore } from '../store';
import { useLogout } from '../session/useLogout';
import { AuthLayout } from '../components/AuthLayout';
import { AddPasskeyDialog } from '../components/security/PasskeyDialogs';
import { TotpSetupDialog } from '../components/security/TotpSetupDialog';
import { Button } from '../components/ui/Button';
import { Notice } from '../components/ui/Notice';

/**
 * The installation requires a second factor of this user and they have none
 * (docs/SECURITY.md, "Two-factor sign-in").
 * Until they set one up the server answers nothing else, so this is all the app shows,
 * at whatever address was asked for; that page opens once the server says the session
 * is no longer waiting for an enrolment.
 */
export function EnrolPage() {
  const [choice, setChoice] = useState<null | 'app' | 'passkey'>(null);
  const [checking, setChecking] = useState(false);
  const logout = useLogout();
  const canUsePasskeys = passkeysSupported();

  const enrolled = async () => {
    setChecking(true);
    try {
      const { user, enrolRequired } = await getMe();
      useAppStore.getState().userUpdated(user);
      useAppStore.getState().enrolmentRequired(enrolRequired);
      if (!enrolRequired) toast.success('Two-factor sign-in is on');
    } catch {
      toast.error('Could not continue', { description: 'Please reload the page.' });
    } finally {
      setChecking(false);
    }
  };

  return (
    <AuthLayout wide>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <span className="flex size-11 items-center justify-center rounded-xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
          <ShieldCheck className="size-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Set up two-factor sign-in</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Your administrator requires a second step when you sign in to Sitecast, as well as your password. Choose one to continue; you can add the
          other later in Profile &amp; Settings.
        </p>

        <ul className="mt-6 grid gap-3 sm:grid-cols-2">
          <li className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            <Smartphone className="size-5 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <h2 className="mt-2 text-sm font-semibold text-slate-900 dark:text-white">Authenticator app</h2>
            <p className="mt-1 flex-1 text-sm text-slate-600 dark:text-slate-400">A 6-digit code from an app on your phone, with recovery codes in case you lose it.</p>
            <Button variant="secondary" className="mt-4" onClick={() => setChoice('app')} disabled={checking}>
              Set up an app
            </Button>
          </li>
          <li className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            <KeyRound className="size-5 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <h2 className="mt-2 text-sm font-semibold text-slate-900 dark:text-white">Passkey</h2>
            <p className="mt-1 flex-1 text-sm text-slate-600 dark:text-slate-400">Your fingerprint, face or screen lock on this device.</p>
            <Button variant="outline" className="mt-4" onClick={() => setChoice('passkey')} disabled={checking || !canUsePasskeys}>
              Add a passkey
            </Button>
          </li>
        </ul>
        {!canUsePasskeys && (
          <Notice className="mt-4">This browser cannot make passkeys: use an authenticator app, or sign in from another browser.</Notice>
        )}

        <div className="mt-6 flex justify-center border-t border-slate-100 pt-4 dark:border-slate-800">
          <Button variant="ghost" size="sm" onClick={() => void logout()}>
            <LogOut className="size-4" aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>
      {choice === 'app' && <TotpSetupDialog onClose={() => setChoice(null)} onEnabled={() => void enrolled()} />}
      {choice === 'passkey' && <AddPasskeyDialog onClose={() => setChoice(null)} onAdded={() => void enrolled()} />}
    </AuthLayout>
  );
}
