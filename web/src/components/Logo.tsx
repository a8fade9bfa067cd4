import { Link } from 'react-router';
import { cn } from '../lib/cn';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" className="fill-brand-500" />
      <path d="M7 23V14l9-6 9 6v9h-6v-6h-6v6z" className="fill-slate-900" />
    </svg>
  );
}

export function Logo({ to = '/', className, inverted = false }: { to?: string; className?: string; inverted?: boolean }) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-2 rounded-lg text-lg font-semibold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        inverted ? 'text-white' : 'text-slate-900 dark:text-white',
        className,
      )}
    >
      <LogoMark />
      <span>Sitecast</span>
    </Link>
  );
}
