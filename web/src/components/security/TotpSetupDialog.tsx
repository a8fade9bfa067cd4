import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Check, Copy } from 'lucide-react';
import type { TotpEnrolment } from '../../protocol/types';
import { appCodeOf, groupSecret } from '../../lib/recoveryCodes';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { Spinner } from '../ui/Spinner';
import { RecoveryCodes } from './RecoveryCodes';

const ENTER_CODE = 'Enter the 6-digit code the app shows.';

type Step = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'scan'; enrolment: TotpEnrolment } | { kind: 'codes'; codes: string[] };

/**
 * Turning the authenticator app on. The server makes a secret, shown as a QR
 * code and as text; the app's first code turns it on and brings the ten recovery codes,
 * which are shown once before the dialog closes.
 */
export function TotpSetupDialog({ onClose, onEnabled }: { onClose: () => void; onEnabled: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [copied, setCopied] = useState(false);
  const close = useRef(onClose);
  close.current = onClose;

  // Once per opening: each start makes a new secret (and replaces a pending one).
  useEffect(() => {
    let current = true;
    commands
      .startTotp()
      .then((enrolment) => current && setStep({ kind: 'scan', enrolment }))
      .catch((err: unknown) => {
        if (!current) return;
        // Someone who gave up "Confirm it's you" needs no second message: the dialog closes.
        if (err instanceof RequestError && err.code === 'factor_required') close.current();
        else setStep({ kind: 'failed', message: err instanceof RequestError && err.fromServer ? err.message : 'The setup could not start. Please try again.' });
      });
    return () => {
      current = false;
    };
  }, []);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const typed = appCodeOf(code);
    if (!/^\d{6}$/.test(typed)) {
      setError(ENTER_CODE);
      return;
    }
    setSaving(true);
    try {
      const codes = await commands.confirmTotp(typed);
      setStep({ kind: 'codes', codes });
    } catch (err) {
      if (err instanceof RequestError && err.fromServer) setError(err.fieldMessage('code') ?? err.message);
      else setError('The code could not be checked. Please try again.');
    } finally {
      setSaving(false);
    }
  };

  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure page, a refused permission): the key is on screen to type.
    }
  };

  const done = () => {
    onEnabled();
    onClose();
  };

  const codes = step.kind === 'codes';
  return (
    <Dialog
      open
      // The codes are shown once: closing them counts as "saved", like the button.
      onOpenChange={(open) => !open && (codes ? done() : onClose())}
      title={codes ? 'Save your recovery codes' : 'Set up an authenticator app'}
      description={
        codes
          ? 'Your authenticator app is on. If you ever lose it, a recovery code signs you in instead.'
          : 'Scan the QR code with an app such as Google Authenticator, Microsoft Authenticator or 1Password, then enter the code it shows.'
      }
      busy={saving}
      widthClass="max-w-[480px]"
      sheet
    >
      {step.kind === 'loading' && (
        <div className="flex justify-center py-12">
          <Spinner className="size-6" />
        </div>
      )}
      {step.kind === 'failed' && (
        <div className="space-y-4">
          <Notice tone="error">{step.message}</Notice>
          <DialogActions>
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </div>
      )}
      {step.kind === 'scan' && (
        <form onSubmit={confirm} noValidate className="space-y-5">
          <div className="flex justify-center">
            <img
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.enrolment.qrSvg)}`}
              alt="QR code for your authenticator app"
              className="size-48 rounded-xl border border-slate-200 bg-white p-2 dark:border-slate-700"
            />
          </div>
          <div className="space-y-1.5">
            <p id="totp-secret-label" className="text-sm font-medium text-slate-700 dark:text-slate-200">
              Can&apos;t scan it? Enter this key in the app instead
            </p>
            <div className="flex items-center gap-2">
              <code
                data-testid="totp-secret"
                className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm tracking-wide break-words text-slate-900 select-all dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100"
              >
                {groupSecret(step.enrolment.secret)}
              </code>
              <Button variant="outline" size="sm" onClick={() => void copy(step.enrolment.secret)} aria-label={copied ? 'Key copied' : 'Copy key'}>
                {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
          </div>
          <Field
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={7}
            placeholder="123456"
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(undefined);
            }}
            error={error}
            disabled={saving}
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
          <DialogActions className="mt-2">
            <Button variant="outline" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" variant="secondary" loading={saving} disabled={saving}>
              {saving ? 'Checking...' : 'Turn on'}
            </Button>
          </DialogActions>
        </form>
      )}
      {step.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={done} />}
    </Dialog>
  );
}
