import { useEffect, useMemo, useState } from 'react';
import { CheckCircle2, Clock3, FolderKanban, FolderOpen, PauseCircle } from 'lucide-react';
import type { Profile, Project, Role } from '../protocol/types';
import { welcomeHeading } from '../lib/names';
import { sortProjects, useAppStore } from '../store';
import { ProjectCard } from '../components/ProjectCard';
import { Skeleton } from '../components/ui/Skeleton';

// SPEC §2/§9: a role-specific skeleton shows for about 1000 ms before the dashboard.
const DASHBOARD_SKELETON_MS = 1000;

function subtitle(role: Role, projects: Project[]): string {
  if (role === 'builder') return "Here's your project overview";
  if (role === 'admin') return "Here's what's happening across all projects.";
  const n = projects.length;
  if (n === 0) return 'You have no active projects.';
  if (n === 1) return 'You have 1 active project. Click on it to see details.';
  return `You have ${n} active projects. Click on any to see details.`;
}

function ProjectGridSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="overflow-hidden rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <Skeleton className="h-28 rounded-none" />
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

function DashboardSkeleton({ role }: { role: Role }) {
  return (
    <div role="status" aria-live="polite" className="space-y-8">
      <span className="sr-only">Loading your dashboard…</span>
      <div className="space-y-3">
        <Skeleton className="h-8 w-64 max-w-full" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      {role !== 'homeowner' && (
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24 rounded-2xl" />
          ))}
        </div>
      )}
      <ProjectGridSkeleton />
    </div>
  );
}

function SummaryCards({ projects }: { projects: Project[] }) {
  // SPEC §3: the dashboard counts only in-progress, completed and on-hold.
  const count = (status: Project['status']) => projects.filter((p) => p.status === status).length;
  const cards = [
    { label: 'Total Projects', value: projects.length, icon: FolderKanban, tint: 'text-slate-600 bg-slate-100 dark:bg-slate-800 dark:text-slate-300' },
    { label: 'In Progress', value: count('in-progress'), icon: Clock3, tint: 'text-amber-700 bg-amber-100 dark:bg-amber-400/10 dark:text-amber-300' },
    { label: 'Completed', value: count('completed'), icon: CheckCircle2, tint: 'text-green-700 bg-green-100 dark:bg-green-400/10 dark:text-green-300' },
    { label: 'On Hold', value: count('on-hold'), icon: PauseCircle, tint: 'text-slate-600 bg-slate-100 dark:bg-slate-800 dark:text-slate-300' },
  ];
  return (
    <section aria-label="Project summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {cards.map(({ label, value, icon: Icon, tint }) => (
        <div
          key={label}
          className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:gap-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <span className={`hidden size-10 shrink-0 items-center justify-center rounded-xl sm:flex ${tint}`}>
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <p className="truncate text-xs font-medium text-slate-500 sm:text-sm dark:text-slate-400">{label}</p>
            <p className="text-2xl font-semibold tabular-nums text-slate-900 dark:text-white">{value}</p>
          </div>
        </div>
      ))}
    </section>
  );
}

function EmptyProjects() {
  return (
    <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center dark:border-slate-700 dark:bg-slate-900/50">
      <FolderOpen className="size-10 text-slate-300 dark:text-slate-600" aria-hidden="true" />
      <h3 className="mt-4 text-base font-semibold text-slate-900 dark:text-white">No projects found</h3>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">No projects have been created yet.</p>
    </div>
  );
}

function Dashboard({ user }: { user: Profile }) {
  const projectsById = useAppStore((s) => s.projects);
  const loaded = useAppStore((s) => s.projectsLoaded);
  const projects = useMemo(() => sortProjects(projectsById), [projectsById]);

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
          {welcomeHeading(user.role, user)}
        </h1>
        <p className="mt-1.5 text-sm text-slate-500 sm:text-base dark:text-slate-400">
          {loaded ? subtitle(user.role, projects) : 'Loading your projects…'}
        </p>
      </div>
      {user.role !== 'homeowner' && loaded && <SummaryCards projects={projects} />}
      <section aria-labelledby="projects-heading" className="space-y-4">
        <h2 id="projects-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          {user.role === 'homeowner' ? 'Your projects' : 'Projects'}
        </h2>
        {!loaded ? (
          <ProjectGridSkeleton />
        ) : projects.length === 0 ? (
          <EmptyProjects />
        ) : (
          <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {projects.map((project) => (
              <ProjectCard key={project.id} project={project} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}

export function DashboardPage() {
  const user = useAppStore((s) => s.user);
  const [skeleton, setSkeleton] = useState(true);

  useEffect(() => {
    const timer = window.setTimeout(() => setSkeleton(false), DASHBOARD_SKELETON_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!user) return null;
  if (skeleton) return <DashboardSkeleton role={user.role} />;
  return <Dashboard user={user} />;
}
