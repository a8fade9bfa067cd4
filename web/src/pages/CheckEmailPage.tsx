import { MailCheck } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { AuthLayout } from '../components/AuthLayout';
import { TextLink } from '../components/TextLink';
import { buttonClasses } from '../components/ui/Button';

export function CheckEmailPage() {
  const location = useLocation();
  const state = location.state as { email?: unknown } | null;
  const email = typeof state?.email === 'string' && state.email ? state.email : null;

  return (
    <AuthLayout>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
          <MailCheck className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Check your email</h1>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          {email ? (
            <>
              We sent a confirmation link to
              <strong className="my-1 block font-semibold break-all text-slate-900 dark:text-white">{email}</strong>
            </>
          ) : (
            'We sent a confirmation link to your email address. '
          )}
          Click the link to activate your account.
        </p>
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">
          Didn&apos;t get it? Check your spam folder, or <TextLink to="/signup">sign up again</TextLink>.
        </p>
        <Link to="/login" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
          Back to Login
        </Link>
      </div>
    </AuthLayout>
  );
}
