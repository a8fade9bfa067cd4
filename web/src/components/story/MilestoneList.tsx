import { Flag } from 'lucide-react';
import type { MilestonePlan } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDay, localDay, milestoneStates, milestoneSummary, type MilestoneView } from '../../lib/milestones';
import { MilestoneMarker, MilestoneStateBadge } from './MilestoneStateBadge';

export interface MilestoneListProps {
  plan: MilestonePlan;
  /** `YYYY-MM-DD`; the viewer's local today when absent (tests and screenshots pin it). */
  today?: string;
  /** Hide the "4 of 9 done · next: …" line (when the page shows it elsewhere). */
  hideSummary?: boolean;
}

/** The dates line under a milestone's name, in words. */
export function milestoneDateText(view: MilestoneView, today: string): string | null {
  const { milestone, state } = view;
  if (state === 'done') return milestone.doneDate ? `Done ${formatDay(milestone.doneDate, today)}` : 'Done';
  if (!milestone.targetDate) return null;
  const target = formatDay(milestone.targetDate, today);
  return state === 'late' ? `Target was ${target}` : `Target ${target}`;
}

/** "4 of 9 done · next: Roofing, target Dec 3", with a bar of the done share. */
export function MilestoneSummaryLine({ plan, today = localDay() }: { plan: MilestonePlan; today?: string }) {
  const summary = milestoneSummary(plan, today);
  const percent = summary.total === 0 ? 0 : Math.round((summary.done * 100) / summary.total);
  return (
    <div className="space-y-2" data-testid="milestone-summary">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{summary.text}</p>
      {summary.total > 0 && (
        <div
          className="h-1.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
          role="progressbar"
          aria-label="Milestones done"
          aria-valuemin={0}
          aria-valuemax={summary.total}
          aria-valuenow={summary.done}
          aria-valuetext={`${summary.done} of ${summary.total} milestones done`}
        >
          <div className="h-full rounded-full bg-green-600 transition-[width] duration-500 dark:bg-green-500" style={{ width: `${percent}%` }} />
        </div>
      )}
    </div>
  );
}

/**
 * A project's milestones, read-only: each with its state (done with its date, current,
 * upcoming, late) as icon, colour and word. The homeowner's Milestones tab and the
 * guest page both show it.
 */
export function MilestoneList({ plan, today = localDay(), hideSummary = false }: MilestoneListProps) {
  const views = milestoneStates(plan, today);
  if (views.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 px-4 py-10 text-center" data-testid="milestones-empty">
        <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
          <Flag className="size-6" aria-hidden="true" />
        </span>
        <p className="text-sm font-medium text-slate-700 dark:text-slate-200">No milestones yet.</p>
      </div>
    );
  }
  return (
    <div className="space-y-5">
      {!hideSummary && <MilestoneSummaryLine plan={plan} today={today} />}
      <ol className="relative" aria-label="Milestones" data-testid="milestone-list">
        {views.map((view, i) => {
          const dates = milestoneDateText(view, today);
          const last = i === views.length - 1;
          return (
            <li
              key={view.milestone.id}
              className="relative flex gap-3 pb-5 last:pb-0 sm:gap-4"
              data-testid="milestone"
              data-state={view.state}
              aria-current={view.isCurrent ? 'step' : undefined}
            >
              {!last && (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-8 bottom-0 left-[0.9375rem] w-0.5',
                    view.state === 'done' ? 'bg-green-600/60 dark:bg-green-500/60' : 'bg-slate-200 dark:bg-slate-800',
                  )}
                />
              )}
              <MilestoneMarker state={view.state} />
              <div className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3 gap-y-1 pt-1">
                <div className="min-w-0">
                  <p
                    className={cn(
                      'text-sm font-medium break-words',
                      view.state === 'upcoming' ? 'text-slate-600 dark:text-slate-300' : 'text-slate-900 dark:text-white',
                      view.isCurrent && 'font-semibold',
                    )}
                  >
                    {view.milestone.name}
                  </p>
                  {dates && (
                    <p className={cn('mt-0.5 text-xs', view.state === 'late' ? 'font-medium text-red-700 dark:text-red-300' : 'text-slate-500 dark:text-slate-400')}>
                      {dates}
                    </p>
                  )}
                </div>
                <MilestoneStateBadge state={view.state} />
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
