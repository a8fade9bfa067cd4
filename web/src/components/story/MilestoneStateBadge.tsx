import type { ComponentType } from 'react';
import { Circle, CircleCheck, CircleDot, TriangleAlert } from 'lucide-react';
import type { MilestoneState } from '../../lib/milestones';
import { cn } from '../../lib/cn';

/** Each state has an icon, a colour AND a word: colour is never the only signal. */
export const MILESTONE_STATE_LABELS: Record<MilestoneState, string> = {
  done: 'Done',
  current: 'Current',
  upcoming: 'Upcoming',
  late: 'Late',
};

export const MILESTONE_STATE_ICONS: Record<MilestoneState, ComponentType<{ className?: string }>> = {
  done: CircleCheck,
  current: CircleDot,
  upcoming: Circle,
  late: TriangleAlert,
};

/** The round marker on the list's rail. */
export const MILESTONE_MARKER_CLASSES: Record<MilestoneState, string> = {
  done: 'bg-green-600 text-white ring-green-600 dark:bg-green-500 dark:ring-green-500',
  current: 'bg-amber-50 text-amber-700 ring-amber-400 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-400',
  upcoming: 'bg-white text-slate-400 ring-slate-300 dark:bg-slate-900 dark:text-slate-500 dark:ring-slate-700',
  late: 'bg-red-50 text-red-700 ring-red-400 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500',
};

const BADGE_CLASSES: Record<MilestoneState, string> = {
  done: 'bg-green-50 text-green-800 ring-green-600/20 dark:bg-green-400/10 dark:text-green-300 dark:ring-green-400/20',
  current: 'bg-amber-50 text-amber-800 ring-amber-600/25 dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/25',
  upcoming: 'bg-slate-50 text-slate-600 ring-slate-500/20 dark:bg-slate-400/10 dark:text-slate-300 dark:ring-slate-400/20',
  late: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-400/10 dark:text-red-300 dark:ring-red-400/20',
};

export function MilestoneStateBadge({ state, className }: { state: MilestoneState; className?: string }) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', BADGE_CLASSES[state], className)}
      data-state={state}
    >
      {MILESTONE_STATE_LABELS[state]}
    </span>
  );
}

export function MilestoneMarker({ state, className }: { state: MilestoneState; className?: string }) {
  const Icon = MILESTONE_STATE_ICONS[state];
  return (
    <span
      aria-hidden="true"
      className={cn('relative z-10 flex size-8 shrink-0 items-center justify-center rounded-full ring-2', MILESTONE_MARKER_CLASSES[state], className)}
    >
      <Icon className="size-4" />
    </span>
  );
}
