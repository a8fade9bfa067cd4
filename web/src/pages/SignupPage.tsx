import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { toast } from '../lib/toast';
import { Check, HardHat, Home } from 'lucide-react';
import { signup } from '../api/auth';
import { applyFieldErrors } from '../api/formErrors';
import { ApiRequestError } from '../api/http';
import { signupPayload, signupSchema, type SignupRole, type SignupValues } from '../lib/validation';
import { cn } from '../lib/cn';
import { MAX_LENGTH } from '../lib/limits';
import { AuthCard, AuthLayout } from '../components/AuthLayout';
import { TextLink } from '../components/TextLink';
import { Button } from '../components/ui/Button';
import { Field } from '../components/ui/Field';
import { PasswordChecklist } from '../components/PasswordChecklist';

const ROLE_CARDS: { value: SignupRole; title: string; text: string; icon: typeof Home }[] = [
  { value: 'homeowner', title: 'Homeowner', text: 'Follow your home being built.', icon: Home },
  { value: 'builder', title: 'Builder', text: 'Document progress for your clients.', icon: HardHat },
];

const FIELDS = ['role', 'firstName', 'lastName', 'name', 'email', 'phone', 'password', 'confirmPassword'] as const;

export function SignupPage() {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: {
      role: '',
      firstName: '',
      lastName: '',
      name: '',
      email: '',
      phone: '',
      password: '',
      confirmPassword: '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const role = watch('role');
  const password = watch('password');

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { email } = await signup(signupPayload(values));
      navigate('/check-email', { state: { email: email || values.email.trim() } });
    } catch (err) {
      if (err instanceof ApiRequestError) {
        applyFieldErrors(err, setError, FIELDS);
        if (err.code === 'user_exists') toast.error('User Exists', { description: err.message });
        else toast.error('Sign Up Error', { description: err.message });
      } else {
        toast.error('Error', { description: 'An unexpected error occurred during sign up.' });
      }
    }
  });

  return (
    <AuthLayout wide>
      <AuthCard
        title="Create your account"
        description="Join Sitecast to share and follow construction progress."
      >
        <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Sign up">
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">I am a…</legend>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {ROLE_CARDS.map(({ value, title, text, icon: Icon }) => {
                const selected = role === value;
                return (
                  <label
                    key={value}
                    className={cn(
                      'relative flex cursor-pointer items-start gap-3 rounded-xl border p-4 transition-colors',
                      'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 has-[:focus-visible]:ring-offset-2 dark:has-[:focus-visible]:ring-offset-slate-900',
                      selected
                        ? 'border-brand-500 bg-amber-50/70 dark:bg-amber-400/10'
                        : errors.role
                          ? 'border-red-400 hover:border-red-500 dark:border-red-500/70'
                          : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600',
                    )}
                  >
                    <input
                      type="radio"
                      value={value}
                      className="sr-only"
                      aria-describedby={errors.role ? 'role-error' : undefined}
                      {...register('role')}
                    />
                    <span
                      className={cn(
                        'flex size-10 shrink-0 items-center justify-center rounded-lg',
                        selected ? 'bg-brand-500 text-slate-950' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
                      )}
                    >
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block text-sm font-semibold text-slate-900 dark:text-white">{title}</span>
                      <span className="block text-xs text-slate-500 dark:text-slate-400">{text}</span>
                    </span>
                    {selected && <Check className="size-4 text-amber-600 dark:text-amber-400" aria-hidden="true" />}
                  </label>
                );
              })}
            </div>
            {errors.role && (
              <p id="role-error" role="alert" className="mt-2 text-sm font-medium text-red-600 dark:text-red-400">
                {errors.role.message}
              </p>
            )}
          </fieldset>

          {role === 'homeowner' && (
            <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
              <Field label="First name" maxLength={MAX_LENGTH.firstName} autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
              <Field label="Last name" maxLength={MAX_LENGTH.lastName} autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
            </div>
          )}
          {role === 'builder' && (
            <Field label="Company/Builder Name" maxLength={MAX_LENGTH.name} autoComplete="organization" error={errors.name?.message} {...register('name')} />
          )}

          <Field label="Email" maxLength={MAX_LENGTH.email} type="email" autoComplete="email" placeholder="you@example.com" error={errors.email?.message} {...register('email')} />
          <Field
            label="Phone (optional)"
            maxLength={MAX_LENGTH.phone}
            type="tel"
            autoComplete="tel"
            placeholder="(555) 123-4567"
            error={errors.phone?.message}
            {...register('phone')}
          />
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <Field
              label="Password"
              maxLength={MAX_LENGTH.password}
              type="password"
              autoComplete="new-password"
              hint={password ? undefined : 'At least 8 characters.'}
              error={errors.password?.message}
              {...register('password')}
            />
            <Field
              label="Confirm password"
              maxLength={MAX_LENGTH.password}
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <PasswordChecklist password={password} min={8} className="sm:col-span-2 -mt-2" />
          </div>
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting} loading={isSubmitting}>
            {isSubmitting ? 'Creating account...' : 'Create Account'}
          </Button>
        </form>
        <p className="mt-4 text-center text-xs leading-relaxed text-slate-600 dark:text-slate-400">
          By creating an account you agree to our <TextLink to="/terms-of-service" className="underline">Terms of Service</TextLink> and{' '}
          <TextLink to="/privacy-policy" className="underline">Privacy Policy</TextLink>.
        </p>
        <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
          Already have an account? <TextLink to="/login">Log In</TextLink>
        </p>
      </AuthCard>
    </AuthLayout>
  );
}
