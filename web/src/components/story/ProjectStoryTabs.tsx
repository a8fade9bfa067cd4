import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { Project } from '../../protocol/types';
import { projectAbilities, projectStanding } from '../../lib/companyRules';
import { localDay } from '../../lib/milestones';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { lazyPart, usePreloadWhenIdle } from '../lazyPart';
import { SectionCard } from '../SectionCard';
import { Skeleton } from '../ui/Skeleton';
import { MilestoneList, MilestoneSummaryLine } from './MilestoneList';

/** The project page's sections, deep-linked with `?tab=`. */
export type ProjectTab = 'photos' | 'timeline' | 'milestones' | 'reports';

export function parseProjectTab(value: string | null): ProjectTab {
  return value === 'timeline' || value === 'milestones' || value === 'reports' ? value : 'photos';
}

/**
 * Who may edit a project's milestones: admins and the project's builder, that
 * is its company's owners and managers, not its crew.
 */
export function useCanEditMilestones(project: Project): boolean {
  const me = useAppStore((s) => s.user);
  return projectAbilities(projectStanding(me, project)).editMilestones;
}

/**
 * The Timeline tab: the store's pages of the project's timeline in the shared feed.
 * The first page is read when the tab first shows (and again after a reconnect, which
 * starts the timeline over); thumbnails open the page's lightbox through `?photo=`.
 */
export function ProjectTimelineTab({ projectId }: { projectId: string }) {
  const timeline = useAppStore((s) => s.timelines[projectId]);
  const [, setParams] = useSearchParams();
  const missing = timeline === undefined;

  useEffect(() => {
    if (missing) void commands.loadTimeline(projectId);
  }, [missing, projectId]);

  const loadMore = useCallback(() => void commands.loadTimeline(projectId), [projectId]);
  const openPhoto = useCallback(
    (photoId: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('photo', photoId);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return (
    <SectionCard title="Timeline" subtitle="Everything that happened on this project, newest first">
      <TimelineFeed
        entries={timeline?.entries ?? []}
        hasMore={timeline?.hasMore ?? true}
        loading={timeline?.loading ?? true}
        error={timeline?.error ?? null}
        onLoadMore={loadMore}
        onOpenPhoto={openPhoto}
      />
    </SectionCard>
  );
}

// The timeline's feed and the milestone editor come with their tabs (or once the page is
// idle): the project page opens on its photos (docs/LIMITS.md, "First paint").
const TimelineFeed = lazyPart(() => import('./TimelineFeed').then((m) => m.TimelineFeed), { what: 'The timeline' });
const MilestoneEditor = lazyPart(() => import('./MilestoneEditor').then((m) => m.MilestoneEditor), {
  what: 'The milestone editor',
  fallback: <MilestonesSkeleton />,
});

/** The project page's timeline, and its milestone editor for those who may edit the plan, fetched when idle. */
export function usePreloadStoryTabs(project: Project): void {
  usePreloadWhenIdle([TimelineFeed, useCanEditMilestones(project) && MilestoneEditor]);
}

function MilestonesSkeleton() {
  return (
    <div role="status" className="space-y-4">
      <span className="sr-only">Loading milestones…</span>
      <Skeleton className="h-4 w-1/2" />
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="flex items-center gap-3">
          <Skeleton className="size-8 rounded-full" />
          <Skeleton className="h-4 flex-1" />
        </div>
      ))}
    </div>
  );
}

/** The plan held for the project, read once if the subscription did not bring it. */
export function usePlan(projectId: string) {
  const plan = useAppStore((s) => s.milestones[projectId]);
  const missing = plan === undefined;
  useEffect(() => {
    if (missing) void commands.listMilestones(projectId).catch(() => undefined);
  }, [missing, projectId]);
  return plan;
}

/** The Milestones tab: the editor for admins and the project's builder, the read-only list for the homeowner. */
export function ProjectMilestonesTab({ project }: { project: Project }) {
  const plan = usePlan(project.id);
  const canEdit = useCanEditMilestones(project);
  const today = localDay();
  return (
    <SectionCard
      title="Milestones"
      subtitle={canEdit ? 'Plan the build, date each step and mark it done as it happens' : 'The steps of the build, and where it stands'}
    >
      {!plan ? <MilestonesSkeleton /> : canEdit ? <MilestoneEditor plan={plan} today={today} /> : <MilestoneList plan={plan} today={today} />}
    </SectionCard>
  );
}

/** A compact "4 of 9 done · next: Roofing" card beside the timeline. */
export function MilestoneSummaryCard({ projectId, onShowAll }: { projectId: string; onShowAll: () => void }) {
  const plan = usePlan(projectId);
  return (
    <SectionCard
      title="Milestones"
      actions={
        <button
          type="button"
          onClick={onShowAll}
          className="rounded text-sm font-medium text-amber-800 hover:text-amber-900 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-amber-300"
        >
          View all
        </button>
      }
    >
      {plan ? <MilestoneSummaryLine plan={plan} /> : <Skeleton className="h-4 w-2/3" />}
    </SectionCard>
  );
}
