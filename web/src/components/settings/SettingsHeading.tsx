import type { ReactNode } from 'react';

/**
 * The title row of a Profile & Settings card: its icon on an amber tile, its title and
 * what it is for. `headingId` names the title for a card labelled by it.
 */
export function SettingsHeading({
  icon,
  title,
  description,
  headingId,
}: {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  headingId?: string;
}) {
  return (
    <div className="flex items-start gap-3 border-b border-slate-100 px-5 py-4 sm:px-6 dark:border-slate-800">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
        {icon}
      </span>
      <div>
        <h2 id={headingId} className="text-base font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
      </div>
    </div>
  );
}
