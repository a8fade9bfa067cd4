import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowRight, Building2, CheckCircle2, Clock3, FolderKanban, PauseCircle, Plus, UserPlus } from 'lucide-react';
import type { Profile, Project, Role, UserCounts } from '../protocol/types';
import { welcomeHeading } from '../lib/names';
import { sortProjects, useAppStore } from '../store';
import { PageHeader } from '../components/PageHeader';
import { ProjectGrid, ProjectGridSkeleton } from '../components/ProjectGrid';
import { UserTable } from '../components/UserTables';
import { CompaniesTab } from '../components/companies/CompaniesTab';
import { CreateUserDialog } from '../components/dialogs/CreateUserDialog';
import { ProjectFormDialog } from '../components/dialogs/LazyProjectFormDialog';
import { usePreloadWhenIdle } from '../components/lazyPart';
import { Button, buttonClasses } from '../components/ui/Button';
import { Notice } from '../components/ui/Notice';
import { Skeleton } from '../components/ui/Skeleton';
import { LoadFailed, useFirstLoadFailed } from '../components/LoadFailed';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';

// SPEC §2/§9: a role-specific skeleton shows for about 1000 ms before the dashboard.
const DASHBOARD_SKELETON_MS = 1000;
/** How many of the latest projects the admin and builder dashboards show. */
const RECENT_PROJECTS = 3;

export function homeownerSubtitle(count: number): string {
  if (count === 0) return 'You have no active projects.';
  if (count === 1) return 'You have 1 active project. Click on it to see details.';
  return `You have ${count} active projects. Click on any to see details.`;
}

function DashboardSkeleton({ role }: { role: Role }) {
  return (
    <div role="status" aria-live="polite" className="space-y-8">
      <span className="sr-only">Loading your dashboard…</span>
      <div className="flex items-end justify-between gap-4">
        <div className="space-y-3">
          <Skeleton className="h-8 w-64 max-w-full" />
          <Skeleton className="h-4 w-80 max-w-full" />
        </div>
        {role === 'admin' && <Skeleton className="hidden h-10 w-64 sm:block" />}
      </div>
      {role !== 'homeowner' && (
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24 rounded-2xl" />
          ))}
        </div>
      )}
      {role === 'homeowner' ? (
        <ProjectGridSkeleton />
      ) : (
        <div className="space-y-3" aria-hidden="true">
          {role === 'admin' && <Skeleton className="h-10 w-80 max-w-full rounded-xl" />}
          <Skeleton className="h-10 w-72 max-w-full" />
          <Skeleton className="h-64 w-full rounded-2xl" />
        </div>
      )}
    </div>
  );
}

export function SummaryCards({ projects }: { projects: Project[] }) {
  // While the projects the hello did not carry are read, only the total is known.
  const counting = useAppStore((s) => s.projectPaging.next !== null);
  const total = useAppStore((s) => s.projectPaging.total);
  // SPEC §3: the dashboard counts only in-progress, completed and on-hold.
  const count = (status: Project['status']) => (counting ? null : projects.filter((p) => p.status === status).length);
  const cards = [
    { label: 'Total Projects', value: counting ? Math.max(total, projects.length) : projects.length, icon: FolderKanban, tint: 'text-slate-700 bg-slate-100 dark:bg-slate-800 dark:text-slate-300' },
    { label: 'In Progress', value: count('in-progress'), icon: Clock3, tint: 'text-amber-700 bg-amber-100 dark:bg-amber-400/10 dark:text-amber-300' },
    { label: 'Completed', value: count('completed'), icon: CheckCircle2, tint: 'text-green-700 bg-green-100 dark:bg-green-400/10 dark:text-green-300' },
    { label: 'On Hold', value: count('on-hold'), icon: PauseCircle, tint: 'text-slate-600 bg-slate-100 dark:bg-slate-800 dark:text-slate-300' },
  ];
  return (
    <section aria-label="Project summary" aria-busy={counting} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {cards.map(({ label, value, icon: Icon, tint }) => (
        <div
          key={label}
          data-testid="summary-card"
          className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:gap-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <span className={`hidden size-11 shrink-0 items-center justify-center rounded-xl sm:flex ${tint}`}>
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <p className="truncate text-xs font-medium text-slate-500 sm:text-sm dark:text-slate-400">{label}</p>
            {value === null ? (
              <p className="py-1">
                <span className="block h-6 w-10 animate-pulse rounded-md bg-slate-200 dark:bg-slate-700" aria-hidden="true" />
                <span className="sr-only">Counting…</span>
              </p>
            ) : (
              <p className="text-2xl font-semibold tabular-nums text-slate-900 dark:text-white">{value}</p>
            )}
          </div>
        </div>
      ))}
    </section>
  );
}

function RecentProjects({ projects }: { projects: Project[] }) {
  return (
    <section aria-labelledby="recent-heading" className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="recent-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          Recently updated
        </h2>
        <Link
          to="/projects"
          className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-amber-700 hover:text-amber-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-400 dark:hover:text-amber-300"
        >
          All projects
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
      <ProjectGrid projects={projects.slice(0, RECENT_PROJECTS)} headingLevel={3} />
    </section>
  );
}

function useProjects() {
  const byId = useAppStore((s) => s.projects);
  return useMemo(() => sortProjects(byId), [byId]);
}

/** A tab of the admin's People: one per role, and the builder companies. */
type PeopleTab = Role | 'company';

/**
 * `?role=` of a person link: the People tab to open (Homeowners unless it names another;
 * `company` opens the Companies tab).
 */
function parseRole(value: string | null): PeopleTab {
  return value === 'builder' || value === 'admin' || value === 'company' ? value : 'homeowner';
}

function TabCount({ count }: { count: number }) {
  return <span className="rounded-full bg-slate-200/80 px-1.5 text-xs tabular-nums text-slate-600 dark:bg-slate-700 dark:text-slate-300">{count}</span>;
}

function AdminDashboard({ user }: { user: Profile }) {
  const projects = useProjects();
  // People per role, from the open table's latest page (the server counts them).
  const [counts, setCounts] = useState<UserCounts | null>(null);
  const [creatingUser, setCreatingUser] = useState(false);
  const [creatingProject, setCreatingProject] = useState(false);
  // "New Project" should not wait for the form's code.
  usePreloadWhenIdle([ProjectFormDialog]);
  // A person picked in the header search: their tab, their row found.
  const [params] = useSearchParams();
  const person = params.get('people') ?? '';
  const personRole = parseRole(params.get('role'));
  const tabs = [
    { value: 'homeowner' as const, label: 'Homeowners', count: counts?.homeowners },
    { value: 'builder' as const, label: 'Builders', count: counts?.builders },
    { value: 'admin' as const, label: 'Admins', count: counts?.admins },
  ];
  const companyCount = useAppStore((s) => Object.keys(s.companies).length);
  return (
    <div className="space-y-8">
      <PageHeader
        title={welcomeHeading('admin', user)}
        subtitle="Here's what's happening across all projects."
        actions={
          <>
            <Button variant="outline" onClick={() => setCreatingUser(true)}>
              <UserPlus className="size-4" aria-hidden="true" />
              New User
            </Button>
            <Button variant="secondary" onClick={() => setCreatingProject(true)}>
              <Plus className="size-4" aria-hidden="true" />
              New Project
            </Button>
          </>
        }
      />
      <SummaryCards projects={projects} />
      <section aria-labelledby="people-heading" className="space-y-4">
        <h2 id="people-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          People
        </h2>
        <Tabs key={`${personRole}:${person}`} defaultValue={personRole} className="space-y-4">
          {/* Four tabs: two rows of two on a phone, so none hides off the edge. */}
          <TabsList label="User type" className="max-sm:grid max-sm:w-full max-sm:grid-cols-2">
            {tabs.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
                {t.count !== undefined && <TabCount count={t.count} />}
              </TabsTrigger>
            ))}
            <TabsTrigger value="company">
              Companies
              <TabCount count={companyCount} />
            </TabsTrigger>
          </TabsList>
          {tabs.map((t) => (
            <TabsContent key={t.value} value={t.value} className="focus-visible:outline-none">
              <UserTable role={t.value} viewer={user} initialQuery={t.value === personRole ? person : ''} onCounts={setCounts} />
            </TabsContent>
          ))}
          <TabsContent value="company" className="focus-visible:outline-none">
            <CompaniesTab viewer={user} />
          </TabsContent>
        </Tabs>
      </section>
      <RecentProjects projects={projects} />
      <CreateUserDialog open={creatingUser} onOpenChange={setCreatingUser} />
      {creatingProject && <ProjectFormDialog onClose={() => setCreatingProject(false)} />}
    </div>
  );
}

function BuilderDashboard({ user }: { user: Profile }) {
  const projects = useProjects();
  return (
    <div className="space-y-8">
      <PageHeader
        title={welcomeHeading('builder', user)}
        subtitle="Here's your project overview"
        actions={
          <>
            {/* Their company and its people. */}
            {user.companyId && (
              <Link to="/company" className={buttonClasses('outline')}>
                <Building2 className="size-4" aria-hidden="true" />
                Your company
              </Link>
            )}
            <Link to="/projects" className={buttonClasses('secondary')}>
              View All Projects
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          </>
        }
      />
      {!user.companyId && (
        // A builder's projects are their company's; out of one, there are none.
        <Notice>
          You're not part of a company, so there are no projects to show. A company's owner or an administrator can invite you into one.
        </Notice>
      )}
      <SummaryCards projects={projects} />
      <section aria-labelledby="homeowners-heading" className="space-y-4">
        <h2 id="homeowners-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your homeowners
        </h2>
        {/* SPEC §2: only homeowners with at least one of this builder's projects (the server's rule). */}
        <UserTable role="homeowner" viewer={user} />
      </section>
      <RecentProjects projects={projects} />
    </div>
  );
}

function HomeownerDashboard({ user }: { user: Profile }) {
  const projects = useProjects();
  return (
    <div className="space-y-8">
      <PageHeader title={welcomeHeading('homeowner', user)} subtitle={homeownerSubtitle(projects.length)} />
      <ProjectGrid projects={projects} />
    </div>
  );
}

export function DashboardPage() {
  const user = useAppStore((s) => s.user);
  const loaded = useAppStore((s) => s.projectsLoaded);
  const failed = useFirstLoadFailed();
  const [skeleton, setSkeleton] = useState(true);

  useEffect(() => {
    const timer = window.setTimeout(() => setSkeleton(false), DASHBOARD_SKELETON_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!user) return null;
  // SPEC §8: "Failed to load data. Please try again later." (the homeowner's: projects).
  if (failed && !skeleton) {
    return <LoadFailed message={user.role === 'homeowner' ? 'Failed to load projects. Please try again later.' : 'Failed to load data. Please try again later.'} />;
  }
  if (skeleton || !loaded) return <DashboardSkeleton role={user.role} />;
  if (user.role === 'admin') return <AdminDashboard user={user} />;
  if (user.role === 'builder') return <BuilderDashboard user={user} />;
  return <HomeownerDashboard user={user} />;
}
