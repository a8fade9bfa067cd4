import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from '../lib/toast';
import { ArrowLeft, ArrowRight, Bell, Camera, CheckCircle2, HardHat, Home, KeyRound, ShieldCheck, TrendingUp } from 'lucide-react';
import {
  getConfig,
  login,
  loginWithCode,
  loginWithPasskey,
  needsSecondFactor,
  passkeyOptions,
  type DemoConfig,
  type SecondFactorNeeded,
  type SignedIn,
} from '../api/auth';
import { applyFieldErrors } from '../api/formErrors';
import { ApiRequestError } from '../api/http';
import type { Role } from '../protocol/types';
import { loginSchema, type LoginValues } from '../lib/validation';
import { MAX_LENGTH } from '../lib/limits';
import { useAppStore } from '../store';
import { pathAfterLogin, REMOVED_FROM_COMPANY, SESSION_EXPIRED, SIGNED_OUT_ELSEWHERE } from '../session/returnTo';
import { passkeyCancelled, passkeyFailure, passkeysSupported } from '../lib/passkeySupport';
import { lazyPart, usePreloadWhenIdle } from '../components/lazyPart';
import { lazyModule } from '../lib/lazyModule';
import { Logo, LogoMark } from '../components/Logo';
import { TextLink } from '../components/TextLink';
import { Button } from '../components/ui/Button';
import { Field } from '../components/ui/Field';
import { Notice } from '../components/ui/Notice';
import { Spinner } from '../components/ui/Spinner';

// The second step and the WebAuthn library come when the page is idle, or when first
// needed: the form asks for email and password first (docs/LIMITS.md, "First paint").
const SecondFactorForm = lazyPart(() => import('../components/security/SecondFactorForm').then((m) => m.SecondFactorForm), {
  what: 'Two-factor sign-in',
});
const passkeyLibrary = lazyModule(() => import('../lib/passkeys'));
const signWithPasskey: (typeof import('../lib/passkeys'))['signWithPasskey'] = async (options) => (await passkeyLibrary.load()).signWithPasskey(options);

// SPEC §9: redirect to the dashboard 500 ms after a successful login.
const REDIRECT_AFTER_LOGIN_MS = 500;

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', homeowner: 'Homeowner' };
const ROLE_ICONS: Record<Role, typeof Home> = { admin: ShieldCheck, builder: HardHat, homeowner: Home };
const DEMO_ORDER: Role[] = ['admin', 'builder', 'homeowner'];

type Pending = null | 'form' | 'passkey' | Role;

function PromoPanel() {
  const benefits = [
    { icon: Camera, text: 'Dated photos from every site visit, organised by project.' },
    { icon: TrendingUp, text: 'Status and percent complete, updated as work happens.' },
    { icon: Bell, text: 'New photos appear live — and land in your inbox.' },
    { icon: ShieldCheck, text: 'Private by default: you only see your own home.' },
  ];
  return (
    <aside className="relative hidden overflow-hidden bg-slate-900 lg:flex lg:flex-col lg:justify-between lg:p-12 xl:p-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 opacity-[0.07]"
        style={{
          backgroundImage:
            'linear-gradient(to right, #fff 1px, transparent 1px), linear-gradient(to bottom, #fff 1px, transparent 1px)',
          backgroundSize: '40px 40px',
        }}
      />
      <div aria-hidden="true" className="pointer-events-none absolute -top-32 -right-32 size-96 rounded-full bg-amber-500/20 blur-3xl" />
      <Logo inverted className="relative" />
      <div className="relative max-w-lg">
        <p className="mb-4 inline-flex items-center gap-2 rounded-full bg-amber-500/10 px-3 py-1 text-xs font-semibold tracking-wide text-amber-300 uppercase ring-1 ring-amber-500/30 ring-inset">
          Construction progress, live
        </p>
        <h2 className="text-4xl leading-tight font-semibold tracking-tight text-white xl:text-5xl">
          Watch your home take shape, one photo at a time.
        </h2>
        <p className="mt-4 text-lg text-slate-300">
          Sitecast keeps builders and homeowners on the same page — from the first footing to the final walkthrough.
        </p>
        <ul className="mt-10 space-y-4">
          {benefits.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 text-slate-200">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-white/5 ring-1 ring-white/10">
                <Icon className="size-4 text-amber-400" aria-hidden="true" />
              </span>
              <span className="pt-1 text-sm">{text}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="relative flex items-center justify-between gap-4">
        <p className="text-xs text-slate-500">© {new Date().getFullYear()} Sitecast</p>
        <Link
          to="/home"
          className="group inline-flex items-center gap-1.5 rounded text-sm font-medium text-amber-300 hover:text-amber-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900"
        >
          Learn more about Sitecast
          <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
        </Link>
      </div>
    </aside>
  );
}

function QueryNotice() {
  const [params] = useSearchParams();
  if (params.get('confirm') === 'invalid') {
    return <Notice tone="error">This confirmation link is invalid or has expired.</Notice>;
  }
  if (params.get('confirmed') === '1') {
    return <Notice tone="success">Your email is confirmed. You can now log in.</Notice>;
  }
  if (params.get('removed') === 'true') {
    return <Notice tone="info">{REMOVED_FROM_COMPANY}</Notice>;
  }
  if (params.get('elsewhere') === 'true') {
    return <Notice tone="info">{SIGNED_OUT_ELSEWHERE}</Notice>;
  }
  if (params.get('expired') === 'true') {
    return <Notice tone="info">{SESSION_EXPIRED}</Notice>;
  }
  if (params.get('logout') === 'true') {
    return <Notice tone="info">You have been logged out.</Notice>;
  }
  return null;
}

export function LoginPage() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const [pending, setPending] = useState<Pending>(null);
  const [demo, setDemo] = useState<DemoConfig | null>(null);
  // The password was right and the account has a second factor.
  const [secondStep, setSecondStep] = useState<(SecondFactorNeeded['secondFactor'] & { email: string }) | null>(null);
  const [passkeyNotice, setPasskeyNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [canUsePasskeys] = useState(passkeysSupported);
  usePreloadWhenIdle([SecondFactorForm, canUsePasskeys && passkeyLibrary]);
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    getValues,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  useEffect(() => {
    let cancelled = false;
    getConfig()
      .then((config) => {
        if (cancelled || !config.demo) return;
        setDemo(config.demo);
        const admin = config.demo.accounts.find((a) => a.role === 'admin');
        // Pre-fill with the admin demo account (SPEC §2), unless the user already typed
        // or is typing: read when the config arrives, not when the page first rendered.
        const typed = getValues();
        const typing = document.activeElement instanceof HTMLInputElement;
        if (admin && !typed.email && !typed.password && !typing) reset({ email: admin.email, password: config.demo.password });
      })
      .catch(() => {
        // No config: no demo buttons, nothing pre-filled.
      });
    return () => {
      cancelled = true;
    };
    // Run once on mount; the form is read when the config arrives, on purpose.
  }, []);

  /** A session came back: say so, and go on after SPEC §9's half second. */
  function signedIn({ user, enrolRequired }: SignedIn, demoRole: Role | null) {
    toast.success('Login Successful', {
      description: enrolRequired
        ? 'Next, set up two-factor sign-in...'
        : demoRole
          ? `Logged in as ${ROLE_LABELS[demoRole]}. Redirecting to dashboard...`
          : 'Redirecting to dashboard...',
      // It says what happens in the next half second: gone soon after arrival, and
      // at the bottom, where it does not cover the dashboard's header on a phone.
      duration: REDIRECT_AFTER_LOGIN_MS + 1000,
      position: 'bottom-center',
    });
    window.setTimeout(() => {
      const store = useAppStore.getState();
      store.signedIn(user);
      // The page asked for shows the enrolment screen until a factor is set up.
      store.enrolmentRequired(enrolRequired);
      navigate(pathAfterLogin(search), { replace: true });
    }, REDIRECT_AFTER_LOGIN_MS);
  }

  async function attempt(email: string, password: string, demoRole: Role | null) {
    setPending(demoRole ?? 'form');
    setPasskeyNotice(null);
    try {
      const answer = await login(email, password);
      if (needsSecondFactor(answer)) {
        // The password was right; the account's second factor comes next.
        setPending(null);
        setSecondStep({ ...answer.secondFactor, email });
        return;
      }
      signedIn(answer, demoRole);
    } catch (err) {
      setPending(null);
      if (err instanceof ApiRequestError) {
        applyFieldErrors(err, setError, ['email', 'password']);
        toast.error('Login Failed', { description: err.message });
      } else {
        toast.error('Login Failed', { description: 'An unexpected error occurred. Please try again.' });
      }
    }
  }

  /** Signing in with a passkey alone (a discoverable credential; no email typed). */
  async function passkeySignIn() {
    setPending('passkey');
    setPasskeyNotice(null);
    try {
      const { challengeId, options } = await passkeyOptions();
      const answer = await signWithPasskey(options);
      signedIn(await loginWithPasskey(challengeId, answer), null);
    } catch (err) {
      setPending(null);
      if (err instanceof ApiRequestError) setPasskeyNotice({ tone: 'error', text: err.message });
      else setPasskeyNotice({ tone: passkeyCancelled(err) ? 'info' : 'error', text: passkeyFailure(err) });
    }
  }

  const onSubmit = handleSubmit((values) => attempt(values.email.trim(), values.password, null));

  function loginAsDemo(role: Role) {
    const account = demo?.accounts.find((a) => a.role === role);
    if (!demo || !account) return;
    setValue('email', account.email);
    setValue('password', demo.password);
    void attempt(account.email, demo.password, role);
  }

  const busy = pending !== null;
  const demoAccounts = demo ? DEMO_ORDER.filter((role) => demo.accounts.some((a) => a.role === role)) : [];

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <PromoPanel />
      <main className="flex flex-col bg-white dark:bg-slate-950">
        <div className="flex items-center px-6 pt-6 lg:hidden">
          <Logo />
        </div>
        <div className="flex flex-1 items-center justify-center px-6 py-10 sm:px-10">
          <div className="w-full max-w-sm">
{secondStep ? (
              <>
            <LogoMark className="mb-6 hidden size-10 lg:block" />
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">Two-factor sign-in</h1>
            <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
              Your password was right. Confirm it&apos;s you to finish signing in as{' '}
              <span className="font-medium break-all text-slate-700 dark:text-slate-200">{secondStep.email}</span>.
            </p>
            <div className="mt-6">
              <SecondFactorForm
                methods={secondStep.methods}
                submitCode={async (code) => signedIn(await loginWithCode(secondStep.ticket, code), null)}
                signWithPasskey={async () => {
                  const { challengeId, options } = await passkeyOptions(secondStep.ticket);
                  signedIn(await loginWithPasskey(challengeId, await signWithPasskey(options)), null);
                }}
                submitLabel="Verify"
                busyLabel="Verifying..."
                secondaryAction={
                  <Button variant="ghost" size="sm" onClick={() => setSecondStep(null)}>
                    <ArrowLeft className="size-4" aria-hidden="true" />
                    Start over
                  </Button>
                }
              />
            </div>
              </>
            ) : (
              <>
            <LogoMark className="mb-6 hidden size-10 lg:block" />
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">Welcome back</h1>
            <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
              Sign in to follow your projects and see the latest photos.
            </p>

            <div className="mt-6 empty:hidden" data-testid="login-notice">
              <QueryNotice />
            </div>

            <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5" aria-label="Sign in">
              <Field
                label="Email"
                maxLength={MAX_LENGTH.email}
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                disabled={busy}
                error={errors.email?.message}
                {...register('email')}
              />
              <Field
                label="Password"
                maxLength={MAX_LENGTH.password}
                type="password"
                autoComplete="current-password"
                placeholder="••••••••"
                disabled={busy}
                error={errors.password?.message}
                labelAside={
                  <TextLink to="/forgot-password" className="text-sm">
                    Forgot Password?
                  </TextLink>
                }
                {...register('password')}
              />
              <Button type="submit" size="lg" className="w-full" disabled={busy} loading={pending === 'form'}>
                {pending === 'form' ? 'Signing in...' : 'Sign In'}
              </Button>
            </form>

            {canUsePasskeys && (
              <div className="mt-3 space-y-3">
                <Button variant="outline" size="lg" className="w-full" disabled={busy} loading={pending === 'passkey'} onClick={() => void passkeySignIn()}>
                  {pending !== 'passkey' && <KeyRound className="size-4" aria-hidden="true" />}
                  Sign in with a passkey
                </Button>
                <div aria-live="polite" className="empty:hidden">
                  {passkeyNotice && <Notice tone={passkeyNotice.tone}>{passkeyNotice.text}</Notice>}
                </div>
              </div>
            )}

            {demoAccounts.length > 0 && (
              <section aria-labelledby="demo-heading" className="mt-8">
                <div className="flex items-center gap-3">
                  <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
                  <h2 id="demo-heading" className="text-xs font-medium tracking-wide text-slate-500 uppercase">
                    Try a demo account
                  </h2>
                  <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
                </div>
                <div className="mt-4 grid grid-cols-3 gap-2">
                  {demoAccounts.map((role) => {
                    const Icon = ROLE_ICONS[role];
                    return (
                      <Button
                        key={role}
                        variant="outline"
                        className="h-auto flex-col gap-1 px-2 py-3"
                        disabled={busy}
                        onClick={() => loginAsDemo(role)}
                      >
                        {pending === role ? (
                          <Spinner className="size-4" />
                        ) : (
                          <Icon className="size-4 text-amber-600 dark:text-amber-400" aria-hidden="true" />
                        )}
                        <span className="text-xs">{ROLE_LABELS[role]}</span>
                      </Button>
                    );
                  })}
                </div>
              </section>
            )}

            <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
              Don&apos;t have an account? <TextLink to="/signup">Sign Up</TextLink>
            </p>
            <p className="mt-6 flex items-center justify-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
              <CheckCircle2 className="size-3.5" aria-hidden="true" />
              Secure sign-in · your photos stay private
            </p>
              </>
            )}
          </div>
        </div>
      </main>
    </div>
  );
}
