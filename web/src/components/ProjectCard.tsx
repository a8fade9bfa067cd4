import { Building2, CalendarDays, MapPin, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import type { Project } from '../protocol/types';
import { formatDate } from '../lib/dates';
import { displayName } from '../lib/names';
import { ProgressBar } from './ProgressBar';
import { StatusBadge } from './StatusBadge';

export function homeownerLabel(project: Project): string {
  const fromParts = displayName({ firstName: project.homeownerFirstName, lastName: project.homeownerLastName });
  return fromParts || project.homeownerName;
}

export function ProjectCard({ project, headingLevel = 2 }: { project: Project; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Link
      to={`/projects/${project.id}`}
      data-testid="project-card"
      className="group flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 dark:border-slate-800 dark:bg-slate-900 dark:focus-visible:ring-offset-slate-950"
    >
      <div
        className={
          project.thumbnailUrl
            ? 'relative aspect-[16/9] overflow-hidden bg-slate-100 dark:bg-slate-800'
            : 'relative aspect-[16/9] overflow-hidden bg-gradient-to-br from-amber-50 via-slate-50 to-slate-100 dark:from-slate-800 dark:via-slate-900 dark:to-slate-900'
        }
      >
        {project.thumbnailUrl ? (
          <img
            src={project.thumbnailUrl}
            alt=""
            loading="lazy"
            className="size-full object-cover transition duration-300 group-hover:scale-[1.02]"
            onError={(e) => {
              e.currentTarget.style.display = 'none';
            }}
          />
        ) : (
          <div className="flex size-full items-end justify-end p-4">
            <Building2 className="size-12 text-amber-200/80 dark:text-slate-700" strokeWidth={1.25} aria-hidden="true" />
          </div>
        )}
        <StatusBadge status={project.status} className="absolute top-3 left-3 shadow-sm" />
      </div>
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="min-w-0">
          <Heading className="truncate text-base font-semibold text-slate-900 group-hover:text-amber-700 dark:text-white dark:group-hover:text-amber-300">{project.title}</Heading>
          <p className="mt-1 flex items-start gap-1.5 text-sm text-slate-500 dark:text-slate-400">
            <MapPin className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span className="line-clamp-2">{project.address}</span>
          </p>
        </div>
        <ProgressBar value={project.progress} status={project.status} label="Progress" />
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-t border-slate-100 pt-3 text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
          <span className="inline-flex items-center gap-1.5">
            <UserRound className="size-3.5" aria-hidden="true" />
            {homeownerLabel(project)}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="size-3.5" aria-hidden="true" />
            Updated {formatDate(project.updatedAt)}
          </span>
        </div>
      </div>
    </Link>
  );
}
