import type { Milestone, MilestonePlan } from '../protocol/types';

/**
 * A homeowner sees each milestone (docs/FEATURES.md, "The project's story") as done,
 * current (the first not done), upcoming, or late (not done and its target day already
 * past).
 */
export type MilestoneState = 'done' | 'current' | 'upcoming' | 'late';

export interface MilestoneView {
  milestone: Milestone;
  state: MilestoneState;
  /**
   * The first milestone not done: the one being worked on. True for a late one too,
   * which shows as late (the more urgent fact) but is still where the work is.
   */
  isCurrent: boolean;
}

/** Milestones in the plan's order (`position`), whatever order the wire list had. */
export function orderedMilestones(plan: MilestonePlan): Milestone[] {
  return [...plan.milestones].sort((a, b) => a.position - b.position);
}

/**
 * Today as a `YYYY-MM-DD` calendar day in the viewer's own time zone: milestone dates
 * are calendar days, and "late" means late where the person looking at it lives.
 */
export function localDay(date: Date = new Date()): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Each milestone with its state on `today` (`YYYY-MM-DD`). */
export function milestoneStates(plan: MilestonePlan, today: string = localDay()): MilestoneView[] {
  let currentSeen = false;
  return orderedMilestones(plan).map((milestone) => {
    if (milestone.doneDate) return { milestone, state: 'done', isCurrent: false };
    const isCurrent = !currentSeen;
    currentSeen = true;
    // `YYYY-MM-DD` strings compare as the days they name.
    const late = milestone.targetDate !== null && milestone.targetDate < today;
    return { milestone, state: late ? 'late' : isCurrent ? 'current' : 'upcoming', isCurrent };
  });
}

/** The `Date` at local midnight of a `YYYY-MM-DD` day, or null when it is not one. */
export function parseDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const monthDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * A milestone day for display (SPEC §9: en-US): "Dec 3" in `today`'s year,
 * "Dec 3, 2027" otherwise. Never shifted by the time zone: it is a calendar day.
 */
export function formatDay(day: string, today: string = localDay()): string {
  const date = parseDay(day);
  if (!date) return day;
  return day.slice(0, 4) === today.slice(0, 4) ? monthDay.format(date) : monthDayYear.format(date);
}

export interface MilestoneSummary {
  done: number;
  total: number;
  /** The current milestone (first not done), if any remain. */
  next: Milestone | null;
  /** "4 of 9 done · next: Roofing, target Dec 3"; "All 9 milestones done"; "No milestones yet". */
  text: string;
}

export function milestoneSummary(plan: MilestonePlan, today: string = localDay()): MilestoneSummary {
  const views = milestoneStates(plan, today);
  const total = views.length;
  const done = views.filter((v) => v.state === 'done').length;
  const current = views.find((v) => v.isCurrent);
  const next = current?.milestone ?? null;
  let text: string;
  if (total === 0) text = 'No milestones yet';
  else if (!next) text = total === 1 ? 'The milestone is done' : `All ${total} milestones done`;
  else {
    text = `${done} of ${total} done · next: ${next.name}`;
    if (next.targetDate) {
      const target = formatDay(next.targetDate, today);
      text += current?.state === 'late' ? `, late (target ${target})` : `, target ${target}`;
    }
  }
  return { done, total, next, text };
}

/** Share of done milestones, 0-100, as the server computes progress in milestones mode. */
export function milestoneProgress(plan: MilestonePlan): number {
  const total = plan.milestones.length;
  if (total === 0) return 0;
  const done = plan.milestones.filter((m) => m.doneDate).length;
  return Math.round((done * 100) / total);
}
