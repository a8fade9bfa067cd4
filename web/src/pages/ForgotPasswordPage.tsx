import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from '../lib/toast';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { forgotPassword } from '../api/auth';
import { applyFieldErrors } from '../api/formErrors';
import { ApiRequestError } from '../api/http';
import { forgotSchema, type ForgotValues } from '../lib/validation';
import { MAX_LENGTH } from '../lib/limits';
import { AuthCard, AuthLayout } from '../components/AuthLayout';
import { TextLink } from '../components/TextLink';
import { Button, buttonClasses } from '../components/ui/Button';
import { Field } from '../components/ui/Field';

export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ForgotValues>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await forgotPassword(values.email.trim());
      setSent(true);
    } catch (err) {
      if (err instanceof ApiRequestError) {
        applyFieldErrors(err, setError, ['email']);
        toast.error('Error', { description: err.message });
      } else {
        toast.error('Error', { description: 'An unexpected error occurred. Please try again.' });
      }
    }
  });

  if (sent) {
    return (
      <AuthLayout>
        <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700 dark:bg-green-400/10 dark:text-green-300">
            <MailCheck className="size-7" aria-hidden="true" />
          </span>
          <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Check your email</h1>
          <p role="status" className="mt-3 text-sm text-slate-600 dark:text-slate-300">
            If an account exists for this email, a password reset link has been sent.
          </p>
          <Link to="/login" className={buttonClasses('primary', 'lg', 'mt-8 w-full')}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Login
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <AuthCard
        title="Forgot your password?"
        description="Enter the email you signed up with and we'll send you a link to reset it."
      >
        <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Reset password request">
          <Field
            label="Email"
            maxLength={MAX_LENGTH.email}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            disabled={isSubmitting}
            error={errors.email?.message}
            {...register('email')}
          />
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting} loading={isSubmitting}>
            {isSubmitting ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
          Remember your password? <TextLink to="/login">Login here</TextLink>
        </p>
      </AuthCard>
    </AuthLayout>
  );
}
