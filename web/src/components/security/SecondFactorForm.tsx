import { useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { KeyRound } from 'lucide-react';
import type { SecondFactorMethod } from '../../api/auth';
import { ApiRequestError } from '../../api/http';
import { appCodeOf } from '../../lib/recoveryCodes';
import { passkeyCancelled, passkeyFailure } from '../../lib/passkeySupport';
import { RequestError } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';

type Mode = 'app' | 'recovery';

const ENTER_APP_CODE = 'Enter the 6-digit code from your authenticator app.';
const ENTER_RECOVERY_CODE = 'Enter one of your recovery codes.';
const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again.';

/** A failure the server explained: its words are shown as they are. */
function serverFailure(error: unknown): { code: string; message: string; fields: { field: string; message: string }[] } | null {
  if (error instanceof ApiRequestError) return error;
  if (error instanceof RequestError && error.fromServer) return error;
  return null;
}

export interface SecondFactorFormProps {
  /** What the account has: the app (and its recovery codes) and/or passkeys. */
  methods: readonly SecondFactorMethod[];
  /** Sends an app or recovery code; rejects with the server's error when it is refused. */
  submitCode: (code: string) => Promise<void>;
  /** Runs a whole passkey ceremony (options, the browser, the answer); rejects when it fails. */
  signWithPasskey: () => Promise<void>;
  submitLabel: string;
  busyLabel: string;
  /** Under the form: "Start over" on the login page, "Cancel" in a dialog. */
  secondaryAction?: ReactNode;
  /** Reports whether a code or passkey is being checked (a dialog stays open meanwhile). */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * The second step, wherever it is asked (sign-in, "Confirm it's you"): the
 * app's 6-digit code, a recovery code instead, or a passkey. Refusals are shown in the
 * server's words; closing the browser's passkey prompt is said calmly, as no failure.
 */
export function SecondFactorForm({ methods, submitCode, signWithPasskey, submitLabel, busyLabel, secondaryAction, onBusyChange }: SecondFactorFormProps) {
  const hasApp = methods.includes('totp');
  const hasRecovery = methods.includes('recovery') || hasApp;
  const hasPasskey = methods.includes('passkey');
  const [mode, setMode] = useState<Mode>(hasApp ? 'app' : 'recovery');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [busy, setBusyState] = useState<null | 'code' | 'passkey'>(null);
  const hintId = useId();
  const codeOnly = hasApp || hasRecovery;

  const setBusy = (next: null | 'code' | 'passkey') => {
    setBusyState(next);
    onBusyChange?.(next !== null);
  };

  const switchMode = (next: Mode) => {
    setMode(next);
    setCode('');
    setFieldError(undefined);
    setNotice(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = mode === 'app' ? appCodeOf(code) : code.trim();
    setNotice(null);
    if (mode === 'app' && !/^\d{6}$/.test(typed)) {
      setFieldError(ENTER_APP_CODE);
      return;
    }
    if (mode === 'recovery' && !typed) {
      setFieldError(ENTER_RECOVERY_CODE);
      return;
    }
    setFieldError(undefined);
    setBusy('code');
    try {
      await submitCode(typed);
    } catch (error) {
      const failure = serverFailure(error);
      const onField = failure?.fields.find((f) => f.field === 'code')?.message ?? (failure?.code === 'invalid_credentials' ? failure.message : undefined);
      if (onField) setFieldError(onField);
      else setNotice({ tone: 'error', text: failure?.message ?? SOMETHING_WENT_WRONG });
    } finally {
      setBusy(null);
    }
  };

  const passkey = async () => {
    setNotice(null);
    setFieldError(undefined);
    setBusy('passkey');
    try {
      await signWithPasskey();
    } catch (error) {
      const failure = serverFailure(error);
      if (failure) setNotice({ tone: 'error', text: failure.message });
      else setNotice({ tone: passkeyCancelled(error) ? 'info' : 'error', text: passkeyFailure(error) });
    } finally {
      setBusy(null);
    }
  };

  // What the app-code and recovery-code fields share: one value, its error, the busy state.
  const codeInput = {
    autoFocus: true,
    value: code,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setCode(e.target.value);
      setFieldError(undefined);
    },
    error: fieldError,
    disabled: busy !== null,
  };

  return (
    <div className="space-y-5">
      {codeOnly && (
        <form onSubmit={submit} noValidate className="space-y-4">
          {mode === 'app' ? (
            <Field
              key="app"
              label="Authentication code"
              hint={ENTER_APP_CODE}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={7}
              placeholder="123456"
              {...codeInput}
              className="[&_input]:text-center [&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.4em]"
            />
          ) : (
            <Field
              key="recovery"
              label="Recovery code"
              hint="Each of the codes you saved works once, like abcde-fghij."
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={20}
              placeholder="abcde-fghij"
              {...codeInput}
              className="[&_input]:font-mono"
            />
          )}
          <Button type="submit" size="lg" className="w-full" loading={busy === 'code'} disabled={busy !== null}>
            {busy === 'code' ? busyLabel : submitLabel}
          </Button>
          {hasApp && (
            <p className="text-center text-sm">
              <button
                type="button"
                onClick={() => switchMode(mode === 'app' ? 'recovery' : 'app')}
                disabled={busy !== null}
                className="rounded font-medium text-amber-700 underline-offset-4 hover:text-amber-800 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:opacity-60 dark:text-amber-400 dark:hover:text-amber-300"
              >
                {mode === 'app' ? 'Use a recovery code instead' : 'Use your authenticator app instead'}
              </button>
            </p>
          )}
        </form>
      )}

      {hasPasskey && (
        <div className="space-y-4">
          {codeOnly && (
            <div className="flex items-center gap-3" aria-hidden="true">
              <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
              <span className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">or</span>
              <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
            </div>
          )}
          <Button
            variant={codeOnly ? 'outline' : 'primary'}
            size="lg"
            className="w-full"
            onClick={() => void passkey()}
            loading={busy === 'passkey'}
            disabled={busy !== null}
            aria-describedby={codeOnly ? undefined : hintId}
          >
            {busy !== 'passkey' && <KeyRound className="size-4" aria-hidden="true" />}
            Use a passkey
          </Button>
          {!codeOnly && (
            <p id={hintId} className="text-center text-sm text-slate-500 dark:text-slate-400">
              Your browser asks for the passkey on this device or a phone nearby.
            </p>
          )}
        </div>
      )}

      <div aria-live="polite" className="empty:hidden">
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      </div>

      {secondaryAction && <div className="flex justify-center">{secondaryAction}</div>}
    </div>
  );
}
