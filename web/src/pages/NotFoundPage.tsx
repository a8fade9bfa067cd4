import { Link } from 'react-router';
import { Construction } from 'lucide-react';
import { Logo } from '../components/Logo';
import { buttonClasses } from '../components/ui/Button';

export function NotFoundPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <div className="mx-auto flex w-full max-w-7xl px-4 pt-6 sm:px-6 lg:px-8">
        <Logo />
      </div>
      <main className="flex flex-1 flex-col items-center justify-center px-6 py-16 text-center">
        <span className="flex size-16 items-center justify-center rounded-2xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
          <Construction className="size-8" aria-hidden="true" />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-widest text-amber-700 uppercase dark:text-amber-400">404</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Oops! Page not found
        </h1>
        <p className="mt-3 max-w-sm text-sm text-slate-500 dark:text-slate-400">
          Nothing is being built at this address. Check the link, or head back to the start.
        </p>
        <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
          Return to Home
        </Link>
      </main>
    </div>
  );
}
