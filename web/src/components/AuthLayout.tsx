import type { ReactNode } from 'react';
import { Logo } from './Logo';

/** Centered card layout for sign-up, check-email, forgot and reset password. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-50 via-slate-50 to-amber-50/60 dark:from-slate-950 dark:via-slate-950 dark:to-slate-900">
      <div className="mx-auto flex w-full max-w-7xl items-center px-4 pt-6 sm:px-6 lg:px-8">
        <Logo />
      </div>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
        <div className={wide ? 'w-full max-w-xl' : 'w-full max-w-md'}>{children}</div>
      </main>
    </div>
  );
}

export function AuthCard({ title, description, children }: { title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-6 space-y-1.5">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        {description && <div className="text-sm text-slate-500 dark:text-slate-400">{description}</div>}
      </div>
      {children}
    </div>
  );
}
