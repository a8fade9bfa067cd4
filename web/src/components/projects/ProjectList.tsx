import { Building2 } from 'lucide-react';
import { Link } from 'react-router';
import type { Project } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/dates';
import { clampProgress, STATUS_BAR_CLASSES } from '../../lib/projectStatus';
import { homeownerLabel } from '../ProjectCard';
import { StatusBadge } from '../StatusBadge';

// One row per project, a phone's screen holding about ten of them where it holds one
// card (docs/FEATURES.md, "Big projects"). On a phone the row is three short lines
// beside the thumbnail (title and status; address and homeowner; progress and date);
// from md up, status, progress and date are columns that line up down the list.
const ROW = cn(
  'relative grid items-center gap-x-3 gap-y-0.5 px-3 py-1.5 transition-colors hover:bg-slate-50 sm:px-4 md:gap-x-4 md:py-2.5 dark:hover:bg-slate-800/50',
  "grid-cols-[3rem_minmax(0,1fr)_auto] [grid-template-areas:'thumb_title_status'_'thumb_place_place'_'thumb_progress_updated']",
  "md:grid-cols-[3rem_minmax(0,1fr)_7rem_8rem_8.5rem] md:[grid-template-areas:'thumb_title_status_progress_updated'_'thumb_place_status_progress_updated']",
);

export function ProjectList({ projects }: { projects: Project[] }) {
  return (
    <ul
      aria-label="Projects"
      className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
    >
      {projects.map((project) => (
        <ProjectRow key={project.id} project={project} />
      ))}
    </ul>
  );
}

function ProjectRow({ project }: { project: Project }) {
  const percent = clampProgress(project.progress);
  const homeowner = homeownerLabel(project);
  return (
    <li data-testid="project-row" className={ROW}>
      <div className="relative size-12 self-center overflow-hidden rounded-lg bg-gradient-to-br from-amber-50 via-slate-50 to-slate-100 [grid-area:thumb] dark:from-slate-800 dark:via-slate-900 dark:to-slate-900">
        <Building2 className="absolute inset-0 m-auto size-6 text-amber-300 dark:text-slate-600" strokeWidth={1.5} aria-hidden="true" />
        {project.thumbnailUrl && (
          <img
            src={project.thumbnailUrl}
            alt=""
            loading="lazy"
            decoding="async"
            className="relative size-full object-cover"
            onError={(e) => {
              e.currentTarget.style.display = 'none';
            }}
          />
        )}
      </div>
      {/* The title is the row's link; its ::after covers the row, so the whole row opens it
          while the link's name stays the title alone. */}
      <Link
        to={`/projects/${project.id}`}
        className="min-w-0 truncate text-sm leading-5 font-semibold text-slate-900 [grid-area:title] after:absolute after:inset-0 hover:text-amber-700 focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-brand-500 focus-visible:after:ring-inset dark:text-white dark:hover:text-amber-300"
      >
        {project.title}
      </Link>
      <p className="min-w-0 truncate text-xs leading-4 text-slate-500 [grid-area:place] dark:text-slate-400">
        {project.address}
        {project.address && homeowner && <span aria-hidden="true"> · </span>}
        {homeowner && <span className="sr-only">{project.address ? ', ' : ''}homeowner </span>}
        {homeowner}
      </p>
      <StatusBadge status={project.status} className="justify-self-end [grid-area:status] md:justify-self-start" />
      <div className="flex min-w-0 items-center gap-2 [grid-area:progress]">
        <div
          role="progressbar"
          aria-label="Progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 min-w-0 flex-1 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
        >
          <div className={cn('h-full rounded-full', STATUS_BAR_CLASSES[project.status] ?? 'bg-brand-500')} style={{ width: `${percent}%` }} />
        </div>
        <span className="w-9 shrink-0 text-right text-xs leading-4 font-semibold tabular-nums text-slate-900 dark:text-slate-100" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <p className="justify-self-end text-xs leading-4 whitespace-nowrap text-slate-500 [grid-area:updated] dark:text-slate-400">
        <span className="sr-only md:not-sr-only">Updated </span>
        <time dateTime={new Date(project.updatedAt).toISOString()}>{formatDate(project.updatedAt)}</time>
      </p>
    </li>
  );
}
