import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '../lib/toast';
import { CheckCircle2, LinkIcon } from 'lucide-react';
import { checkResetToken, resetPassword, type ResetTokenInfo } from '../api/auth';
import { applyFieldErrors } from '../api/formErrors';
import { ApiRequestError } from '../api/http';
import { resetSchema, type ResetValues } from '../lib/validation';
import { MAX_LENGTH } from '../lib/limits';
import { AuthCard, AuthLayout } from '../components/AuthLayout';
import { Button, buttonClasses } from '../components/ui/Button';
import { Field } from '../components/ui/Field';
import { PasswordChecklist } from '../components/PasswordChecklist';
import { Notice } from '../components/ui/Notice';
import { Skeleton } from '../components/ui/Skeleton';

// SPEC §9: after a password reset, go to /login after 3000 ms.
const REDIRECT_AFTER_RESET_MS = 3000;
const INVALID_LINK = 'This link is invalid or has expired. Please request a new one.';

type TokenState =
  | { state: 'checking' }
  | { state: 'invalid'; message: string }
  | { state: 'ready'; info: ResetTokenInfo }
  | { state: 'done' };

function ResultCard({ icon, tone, title, children }: { icon: React.ReactNode; tone: 'ok' | 'bad'; title: string; children: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
      <span
        className={
          tone === 'ok'
            ? 'mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700 dark:bg-green-400/10 dark:text-green-300'
            : 'mx-auto flex size-14 items-center justify-center rounded-full bg-red-100 text-red-700 dark:bg-red-400/10 dark:text-red-300'
        }
      >
        {icon}
      </span>
      <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      {children}
    </div>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [status, setStatus] = useState<TokenState>(token ? { state: 'checking' } : { state: 'invalid', message: INVALID_LINK });
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { password: '', confirmPassword: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  useEffect(() => {
    if (!token) return undefined;
    let cancelled = false;
    checkResetToken(token)
      .then((info) => !cancelled && setStatus({ state: 'ready', info }))
      .catch((err: unknown) => {
        if (cancelled) return;
        setStatus({ state: 'invalid', message: err instanceof ApiRequestError ? err.message : INVALID_LINK });
      });
    return () => {
      cancelled = true;
    };
  }, [token]);

  useEffect(() => {
    if (status.state !== 'done') return undefined;
    const timer = window.setTimeout(() => navigate('/login', { replace: true }), REDIRECT_AFTER_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [status.state, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      await resetPassword(token, values.password, values.confirmPassword);
      setStatus({ state: 'done' });
    } catch (err) {
      if (err instanceof ApiRequestError) {
        applyFieldErrors(err, setError, ['password', 'confirmPassword']);
        setServerError(err.message);
        toast.error('Error Updating Password', { description: err.message });
      } else {
        toast.error('Error', { description: 'An unexpected error occurred.' });
      }
    }
  });

  if (status.state === 'checking') {
    return (
      <AuthLayout>
        <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900" role="status">
          <span className="sr-only">Checking your link…</span>
          <Skeleton className="h-7 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-11 w-full" />
        </div>
      </AuthLayout>
    );
  }

  if (status.state === 'invalid') {
    return (
      <AuthLayout>
        <ResultCard tone="bad" title="Link not valid" icon={<LinkIcon className="size-7" aria-hidden="true" />}>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{status.message}</p>
          <Link to="/forgot-password" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
            Request a new link
          </Link>
          <Link to="/login" className={buttonClasses('ghost', 'md', 'mt-2 w-full')}>
            Back to Login
          </Link>
        </ResultCard>
      </AuthLayout>
    );
  }

  if (status.state === 'done') {
    return (
      <AuthLayout>
        <ResultCard tone="ok" title="Password Updated Successfully" icon={<CheckCircle2 className="size-7" aria-hidden="true" />}>
          <p role="status" className="mt-3 text-sm text-slate-600 dark:text-slate-300">
            You can now log in with your new password.
          </p>
          <Link to="/login" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
            Proceed to Login
          </Link>
        </ResultCard>
      </AuthLayout>
    );
  }

  const invite = status.info.kind === 'invite';
  return (
    <AuthLayout>
      <AuthCard
        title={invite ? 'Welcome to Sitecast — set your password' : 'Reset your password'}
        description={
          <>
            {invite ? 'Choose a password for ' : 'Choose a new password for '}
            <strong className="font-semibold break-all text-slate-900 dark:text-white">{status.info.email}</strong>.
          </>
        }
      >
        {serverError && (
          <Notice tone="error" className="mb-5">
            {serverError}
          </Notice>
        )}
        <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Set password">
          <Field
            label="New password"
            maxLength={MAX_LENGTH.password}
            type="password"
            autoComplete="new-password"
            disabled={isSubmitting}
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordChecklist password={watch('password')} min={6} className="-mt-3" />
          <Field
            label="Confirm new password"
            maxLength={MAX_LENGTH.password}
            type="password"
            autoComplete="new-password"
            disabled={isSubmitting}
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting} loading={isSubmitting}>
            {isSubmitting ? 'Updating...' : invite ? 'Set Password' : 'Update Password'}
          </Button>
        </form>
      </AuthCard>
    </AuthLayout>
  );
}
