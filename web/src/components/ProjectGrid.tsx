import { FolderOpen, Plus } from 'lucide-react';
import type { Project } from '../protocol/types';
import { ProjectCard } from './ProjectCard';
import { Skeleton } from './ui/Skeleton';

/** SPEC §2 Projects page: 1, 2 or 3 columns by width. */
export const PROJECT_GRID = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 lg:gap-6';

/** A card title's level: under the page's h1 (2), or under a section's h2 (3). */
export type CardHeadingLevel = 2 | 3;

export function EmptyProjects({ headingLevel = 2 }: { headingLevel?: CardHeadingLevel }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900/50">
      <FolderOpen className="size-10 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      <Heading className="mt-4 text-base font-semibold text-slate-900 dark:text-white">No projects found</Heading>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">No projects have been created yet.</p>
    </div>
  );
}

/** The admin's dashed "Add New Project" card at the end of a grid. */
export function AddProjectCard({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="group flex min-h-64 flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed border-slate-300 bg-white/50 p-6 text-slate-500 transition hover:border-amber-400 hover:bg-amber-50/50 hover:text-amber-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 dark:border-slate-700 dark:bg-slate-900/30 dark:text-slate-400 dark:hover:border-amber-400/60 dark:hover:bg-amber-400/5 dark:hover:text-amber-300 dark:focus-visible:ring-offset-slate-950"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 transition group-hover:bg-amber-100 dark:bg-slate-800 dark:group-hover:bg-amber-400/10">
        <Plus className="size-6" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">Add New Project</span>
    </button>
  );
}

export function ProjectGrid({ projects, onAdd, headingLevel = 2 }: { projects: Project[]; onAdd?: () => void; headingLevel?: CardHeadingLevel }) {
  if (projects.length === 0 && !onAdd) return <EmptyProjects headingLevel={headingLevel} />;
  return (
    <div className="space-y-6">
      {projects.length === 0 && <EmptyProjects headingLevel={headingLevel} />}
      <div className={PROJECT_GRID}>
        {projects.map((project) => (
          <ProjectCard key={project.id} project={project} headingLevel={headingLevel} />
        ))}
        {onAdd && <AddProjectCard onClick={onAdd} />}
      </div>
    </div>
  );
}

export function ProjectGridSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div className={PROJECT_GRID} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="overflow-hidden rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <Skeleton className="aspect-[16/9] rounded-none" />
          <div className="space-y-3 p-5">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-2 w-full" />
            <Skeleton className="h-3 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}
