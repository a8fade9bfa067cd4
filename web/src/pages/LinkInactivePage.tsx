import { useEffect } from 'react';
import { Link } from 'react-router';
import { Link2Off } from 'lucide-react';
import { Logo } from '../components/Logo';
import { buttonClasses } from '../components/ui/Button';

/**
 * What a guest sees when the link is unknown, revoked or expired (or its project was
 * deleted): never a blank page or a raw error, and a way on.
 */
export function LinkInactivePage() {
  useEffect(() => {
    document.title = 'Link no longer active · Sitecast';
    return () => {
      document.title = 'Sitecast';
    };
  }, []);
  return (
    <div className="flex min-h-dvh flex-col" data-testid="link-inactive">
      <div className="mx-auto flex w-full max-w-7xl px-4 pt-6 sm:px-6 lg:px-8">
        <Logo to="/home" />
      </div>
      <main className="flex flex-1 flex-col items-center justify-center px-6 py-16 text-center">
        <span className="flex size-16 items-center justify-center rounded-2xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
          <Link2Off className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-semibold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white">
          This link is no longer active
        </h1>
        <p className="mt-3 max-w-md text-base text-slate-600 dark:text-slate-300">
          It may have expired, or the person who shared it may have turned it off. Ask them to send you a new link.
        </p>
        <Link to="/home" className={buttonClasses('primary', 'lg', 'mt-8')}>
          Go to Sitecast home
        </Link>
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          Have a Sitecast account?{' '}
          <Link to="/login" className="rounded font-medium text-amber-800 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-300">
            Sign in
          </Link>
        </p>
      </main>
    </div>
  );
}
