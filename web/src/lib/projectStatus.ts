import type { ProjectStatus } from '../protocol/types';

// SPEC.md §9: In Progress yellow, Completed green, On Hold grey; Planning blue (ours).
export const STATUS_LABELS: Record<ProjectStatus, string> = {
  'in-progress': 'In Progress',
  completed: 'Completed',
  'on-hold': 'On Hold',
  planning: 'Planning',
};

/** The statuses as a select's options, in the order above. */
export const STATUS_OPTIONS = (Object.keys(STATUS_LABELS) as ProjectStatus[]).map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));

export const STATUS_BADGE_CLASSES: Record<ProjectStatus, string> = {
  'in-progress':
    'bg-yellow-100 text-yellow-800 ring-yellow-600/20 dark:bg-yellow-400/10 dark:text-yellow-300 dark:ring-yellow-400/20',
  completed:
    'bg-green-100 text-green-800 ring-green-600/20 dark:bg-green-400/10 dark:text-green-300 dark:ring-green-400/20',
  'on-hold':
    'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-400/10 dark:text-slate-300 dark:ring-slate-400/20',
  planning:
    'bg-blue-100 text-blue-800 ring-blue-600/20 dark:bg-blue-400/10 dark:text-blue-300 dark:ring-blue-400/20',
};

export const STATUS_BAR_CLASSES: Record<ProjectStatus, string> = {
  'in-progress': 'bg-amber-500',
  completed: 'bg-green-500',
  'on-hold': 'bg-slate-400',
  planning: 'bg-blue-500',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as ProjectStatus] ?? status;
}

/** Progress is 0-100 (SPEC §3); anything else from the wire is clamped for display. */
export function clampProgress(progress: number): number {
  if (!Number.isFinite(progress)) return 0;
  return Math.min(100, Math.max(0, Math.round(progress)));
}
