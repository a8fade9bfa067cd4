import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** On/Off (or a count) beside a part's title. */
export function StateBadge({ on, children }: { on: boolean; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        on
          ? 'bg-green-50 text-green-800 ring-green-600/20 dark:bg-green-500/10 dark:text-green-300 dark:ring-green-500/30'
          : 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600',
      )}
    >
      {children}
    </span>
  );
}

/**
 * One part of a Profile & Settings card with several (Security, Notifications): its
 * title and state, what it is for, its buttons at the right (under it on a phone),
 * and what it lists.
 */
export function SettingsPart({
  title,
  badge,
  description,
  actions,
  children,
  id,
}: {
  title: string;
  badge?: ReactNode;
  description: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  /** For links to this part (`#email`). */
  id?: string;
}) {
  return (
    <div id={id} className="scroll-mt-24 space-y-4 px-5 py-5 sm:px-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
            {badge}
          </div>
          <div className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</div>
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
      {children}
    </div>
  );
}

/** A small square icon button in a settings list row (rename, remove). */
export const settingsIconButton =
  'inline-flex size-8 items-center justify-center rounded-lg text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
