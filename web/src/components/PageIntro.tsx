import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** The band at the top of a public page: eyebrow, heading, lead paragraph. */
export function PageIntro({
  eyebrow,
  title,
  children,
  align = 'center',
  className,
}: {
  eyebrow: string;
  title: ReactNode;
  children?: ReactNode;
  align?: 'center' | 'left';
  className?: string;
}) {
  return (
    <section
      className={cn(
        'relative overflow-hidden border-b border-slate-200 bg-gradient-to-b from-amber-50/70 via-white to-white dark:border-slate-800 dark:from-slate-900 dark:via-slate-950 dark:to-slate-950',
        className,
      )}
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 size-[32rem] -translate-x-1/2 rounded-full bg-amber-300/20 blur-3xl dark:bg-amber-500/10"
      />
      <div
        className={cn(
          'relative mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8',
          align === 'center' && 'text-center',
        )}
      >
        <p className="text-sm font-semibold tracking-wider text-amber-700 uppercase dark:text-amber-400">{eyebrow}</p>
        <h1
          className={cn(
            'mt-3 text-3xl font-semibold tracking-tight text-balance text-slate-900 sm:text-5xl dark:text-white',
            align === 'center' && 'mx-auto max-w-3xl',
          )}
        >
          {title}
        </h1>
        {children && (
          <div
            className={cn(
              'mt-5 text-base leading-7 text-pretty text-slate-600 sm:text-lg dark:text-slate-300',
              align === 'center' ? 'mx-auto max-w-2xl' : 'max-w-2xl',
            )}
          >
            {children}
          </div>
        )}
      </div>
    </section>
  );
}

/** A section heading used inside public pages. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  align = 'center',
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  children?: ReactNode;
  align?: 'center' | 'left';
}) {
  return (
    <div className={cn(align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl')}>
      {eyebrow && (
        <p className="text-sm font-semibold tracking-wider text-amber-700 uppercase dark:text-amber-400">{eyebrow}</p>
      )}
      <h2
        id={id}
        className="mt-2 text-2xl font-semibold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h2>
      {children && <p className="mt-4 text-base leading-7 text-slate-600 dark:text-slate-400">{children}</p>}
    </div>
  );
}
