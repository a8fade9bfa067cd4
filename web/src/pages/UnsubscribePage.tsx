import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CheckCircle2, MailX } from 'lucide-react';
import { MAIL_KIND_LABELS, unsubscribe, type MailKind } from '../api/mail';
import { ApiRequestError } from '../api/http';
import { AuthLayout } from '../components/AuthLayout';
import { buttonClasses } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';

type State = { state: 'working' } | { state: 'done'; kind: MailKind } | { state: 'failed'; message: string };

/**
 * Where a mail's "Unsubscribe" link leads
 * (docs/FEATURES.md, "Comments, notifications and mail"): it turns that kind of mail off
 * at once, signed in or not, and says how to change it back.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [result, setResult] = useState<State>({ state: 'working' });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setResult({ state: 'failed', message: 'This unsubscribe link is invalid.' });
      return;
    }
    unsubscribe(token)
      .then((kind) => setResult({ state: 'done', kind }))
      .catch((err: unknown) =>
        setResult({
          state: 'failed',
          message: err instanceof ApiRequestError ? err.message : 'Something went wrong. Please try again later.',
        }),
      );
  }, [token]);

  return (
    <AuthLayout>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900" data-testid="unsubscribe">
        {result.state === 'working' ? (
          <div className="flex flex-col items-center gap-3 py-6 text-slate-600 dark:text-slate-300">
            <Spinner />
            <p>Unsubscribing…</p>
          </div>
        ) : result.state === 'done' ? (
          <>
            <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700 dark:bg-green-400/10 dark:text-green-300">
              <CheckCircle2 className="size-7" aria-hidden="true" />
            </span>
            <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">You're unsubscribed</h1>
            <p className="mt-2 text-slate-600 dark:text-slate-300">
              We won't email you about {MAIL_KIND_LABELS[result.kind]} any more. You still see them in the app.
            </p>
            <Link to="/profile-settings#email" className={buttonClasses('outline', 'md', 'mt-6')}>
              Change email preferences
            </Link>
          </>
        ) : (
          <>
            <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-100 text-red-700 dark:bg-red-400/10 dark:text-red-300">
              <MailX className="size-7" aria-hidden="true" />
            </span>
            <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Could not unsubscribe</h1>
            <p className="mt-2 text-slate-600 dark:text-slate-300">{result.message}</p>
            <Link to="/profile-settings#email" className={buttonClasses('outline', 'md', 'mt-6')}>
              Choose what we email you
            </Link>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
