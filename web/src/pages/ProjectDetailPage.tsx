import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { CalendarDays, ChevronRight, CloudOff, Eye, FileText, Flag, HardHat, History, Images, MapPin, Pencil, Share2, Trash2, UserRound } from 'lucide-react';
import { toast } from '../lib/toast';
import type { ProgressMode, Project, ProjectStatus, ReportPhotos, UpdateProject, UserSummary } from '../protocol/types';
import { cn } from '../lib/cn';
import { formatDate } from '../lib/dates';
import { projectAbilities, projectStanding } from '../lib/companyRules';
import { milestoneSummary } from '../lib/milestones';
import { displayName } from '../lib/names';
import { ROLE_LABELS } from '../lib/people';
import { reportAccess } from '../lib/reportRules';
import { STATUS_OPTIONS } from '../lib/projectStatus';
import { useAppStore } from '../store';
import { toastRequestError } from '../sync/errors';
import { commands } from '../sync/commands';
import { deletingHere, useProjectSubscription } from './useProjectSubscription';
import { AccessRestricted, ADMIN_ONLY_STATUS_SCREEN } from '../components/AccessRestricted';
import { Avatar } from '../components/Avatar';
import { SectionCard } from '../components/SectionCard';
import { ProjectCrewCard } from '../components/companies/ProjectCrewCard';
import { ProjectMediaCard } from '../components/photos/ProjectMediaCard';
import { ProjectPhotosSection } from '../components/photos/ProjectPhotosSection';
import { homeownerLabel } from '../components/ProjectCard';
import { ProgressBar } from '../components/ProgressBar';
import { StatusBadge } from '../components/StatusBadge';
import { ConfirmDialog } from '../components/dialogs/ConfirmDialog';
import { ProjectFormDialog } from '../components/dialogs/LazyProjectFormDialog';
import { lazyPart, usePreloadWhenIdle } from '../components/lazyPart';
import { Button, buttonClasses } from '../components/ui/Button';
import { SelectField } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { ProgressSlider } from '../components/ui/Slider';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/Tabs';
import { ProgressModeSwitch } from '../components/story/ProgressModeSwitch';
import {
  MilestoneSummaryCard,
  parseProjectTab,
  ProjectMilestonesTab,
  ProjectTimelineTab,
  usePreloadStoryTabs,
  type ProjectTab,
} from '../components/story/ProjectStoryTabs';

// What the project's first view does not show comes when first opened, or once the page
// is idle (docs/LIMITS.md, "First paint"): sharing, reports and their dialog.
const ShareDialog = lazyPart(() => import('../components/share/ShareDialog').then((m) => m.ShareDialog), {
  what: 'Sharing',
  overlay: { isOpen: (p) => p.open, close: (p) => p.onOpenChange(false) },
});
const NewReportDialog = lazyPart(() => import('../components/reports/NewReportDialog').then((m) => m.NewReportDialog), {
  what: 'The report form',
  overlay: { isOpen: () => true, close: (p) => p.onClose() },
});
const ProjectReportsTab = lazyPart(() => import('../components/reports/ProjectReportsTab').then((m) => m.ProjectReportsTab), {
  what: 'Reports',
});

function DetailSkeleton() {
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">Loading project…</span>
      <Skeleton className="h-4 w-48" />
      <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
        <Skeleton className="h-5 w-24 rounded-full" />
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-2 w-full" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-40 rounded-2xl lg:col-span-2" />
        <Skeleton className="h-64 rounded-2xl" />
      </div>
    </div>
  );
}

function Viewers({ viewers }: { viewers: UserSummary[] }) {
  if (viewers.length === 0) return null;
  const names = viewers.map((v) => displayName(v));
  return (
    <div className="flex items-center gap-2.5" data-testid="project-viewers">
      <Eye className="size-4 text-slate-400" aria-hidden="true" />
      <span className="text-xs font-medium text-slate-500 dark:text-slate-400">Also viewing</span>
      <ul className="flex -space-x-2" aria-label={`Also viewing: ${names.join(', ')}`}>
        {viewers.slice(0, 5).map((v, i) => (
          <li key={v.id} title={`${names[i]} (${ROLE_LABELS[v.role]})`} className="rounded-full ring-2 ring-white dark:ring-slate-900">
            <Avatar name={names[i]} size="sm" online />
          </li>
        ))}
      </ul>
      {viewers.length > 5 && <span className="text-xs text-slate-500">+{viewers.length - 5}</span>}
    </div>
  );
}

function StatusCard({ project }: { project: Project }) {
  const [status, setStatus] = useState<ProjectStatus>(project.status);
  const [progress, setProgress] = useState(project.progress);
  const [mode, setMode] = useState<ProgressMode>(project.progressMode);
  const [saving, setSaving] = useState(false);
  const plan = useAppStore((s) => s.milestones[project.id]);
  const following = mode === 'milestones';

  const save = async () => {
    // SPEC §5 Project status update: nothing changed → info "No changes to update".
    if (status === project.status && (following || progress === project.progress) && mode === project.progressMode) {
      toast.info('No changes to update');
      return;
    }
    setSaving(true);
    try {
      // Following milestones, progress is theirs: it is not sent.
      const update: UpdateProject = { id: project.id, status };
      if (!following) update.progress = progress;
      if (mode !== project.progressMode) update.progressMode = mode;
      await commands.updateProject(update);
      toast.success('Project status updated successfully');
    } catch (err) {
      toastRequestError(err, 'Failed to update project status');
    } finally {
      setSaving(false);
    }
  };

  return (
    <SectionCard title="Update Project Status">
      <div className="space-y-5">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as ProjectStatus)}
          options={STATUS_OPTIONS}
          disabled={saving}
        />
        <ProgressModeSwitch value={mode} onChange={setMode} disabled={saving} />
        <div>
          <ProgressSlider label="Progress" value={following ? project.progress : progress} onChange={setProgress} disabled={saving || following} />
          {following && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="progress-follows-milestones">
              {mode === project.progressMode
                ? `Set by the milestones${plan ? ` (${milestoneSummary(plan).done} of ${plan.milestones.length} done)` : ''}: complete one to move it.`
                : 'After you save, the share of completed milestones sets the progress.'}
            </p>
          )}
        </div>
        <Button variant="secondary" className="w-full" onClick={() => void save()} loading={saving} disabled={saving}>
          {saving ? 'Updating...' : 'Update Status'}
        </Button>
      </div>
    </SectionCard>
  );
}

/**
 * The builder's side of the status card: SPEC §6 keeps status and progress for admins,
 * and says so where the admin's controls would be.
 */
function StatusRestrictedCard({ project }: { project: Project }) {
  return (
    <SectionCard title="Update Project Status" subtitle={ADMIN_ONLY_STATUS_SCREEN}>
      <div className="space-y-4">
        <dl className="flex items-center justify-between text-sm">
          <dt className="text-slate-500 dark:text-slate-400">Current progress</dt>
          <dd className="font-semibold tabular-nums text-slate-900 dark:text-white">{project.progress}%</dd>
        </dl>
        <AccessRestricted />
      </div>
    </SectionCard>
  );
}

/** Under the header's bar, when it follows the milestones: "4 of 9 milestones done · next: Roofing". */
function MilestoneProgressNote({ projectId }: { projectId: string }) {
  const plan = useAppStore((s) => s.milestones[projectId]);
  if (!plan) return null;
  const summary = milestoneSummary(plan);
  return (
    <p className="mt-1.5 flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400" data-testid="progress-from-milestones">
      <Flag className="size-3.5 text-slate-500" aria-hidden="true" />
      Follows milestones: {summary.text}
    </p>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-4 py-2.5 text-sm first:pt-0 last:pb-0">
      <dt className="shrink-0 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-right font-medium break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

export function ProjectView({ project }: { project: Project }) {
  const navigate = useNavigate();
  const me = useAppStore((s) => s.user);
  const allViewers = useAppStore((s) => s.viewers[project.id]);
  const isAdmin = me?.role === 'admin';
  // SPEC §6: admins and the project's builder update its details; status and progress
  // stay with admins (the dialog and the status card say so to the builder). The
  // builder is a company, whose owners and managers keep all of it; its crew
  // document the build but leave the details, the plan and sharing to them.
  const standing = projectStanding(me, project);
  const abilities = projectAbilities(standing);
  const isProjectBuilder = standing === 'lead' || standing === 'crew';
  const canEditDetails = abilities.editDetails;
  // The project's homeowner, its builder and admins share it with guests.
  const canShare = abilities.share;
  const [sharing, setSharing] = useState(false);
  // Admins and the project's builder make any report, its homeowner one of their favourites.
  const reports = reportAccess(me, project);
  const [reporting, setReporting] = useState<{ photos?: ReportPhotos } | null>(null);
  const reportSelected = reports.canMake && !reports.favouritesOnly ? () => setReporting({ photos: 'picked' }) : undefined;
  const [editing, setEditing] = useState(false);
  // A first click on any of them should not wait for its code.
  usePreloadWhenIdle([ProjectReportsTab, canShare && ShareDialog, reports.canMake && NewReportDialog, canEditDetails && ProjectFormDialog]);
  usePreloadStoryTabs(project);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const viewers = (allViewers ?? []).filter((v) => v.id !== me?.id);
  const homeowner = homeownerLabel(project);
  // Photos | Timeline | Milestones (| Reports), deep-linked with ?tab=.
  const [params, setParams] = useSearchParams();
  const tab = parseProjectTab(params.get('tab'));
  const setTab = (next: ProjectTab) =>
    setParams(
      (prev) => {
        const url = new URLSearchParams(prev);
        if (next === 'photos') url.delete('tab');
        else url.set('tab', next);
        return url;
      },
      { replace: true },
    );

  const remove = async () => {
    setDeleting(true);
    deletingHere.add(project.id);
    try {
      await commands.deleteProject(project.id);
      toast.success('Project deleted successfully');
      navigate('/projects', { replace: true });
    } catch (err) {
      deletingHere.delete(project.id);
      setDeleting(false);
      toastRequestError(err, 'Failed to delete project');
    }
  };

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb">
        <ol className="flex min-w-0 items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
          <li className="shrink-0">
            <Link to="/dashboard" className="rounded hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:hover:text-white">
              {isAdmin ? 'Admin Dashboard' : 'Dashboard'}
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li aria-current="page" className="truncate font-medium text-slate-900 dark:text-white">
            {project.title}
          </li>
        </ol>
      </nav>

      <header data-testid="project-header" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="h-1.5 bg-gradient-to-r from-amber-400 via-amber-500 to-orange-500" aria-hidden="true" />
        <div className="space-y-5 p-5 sm:p-6 lg:p-8">
          <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
            <div className="min-w-0 space-y-3">
              <StatusBadge status={project.status} />
              <h1 className="text-2xl font-semibold tracking-tight text-balance text-slate-900 sm:text-3xl dark:text-white">
                {project.title}
              </h1>
              <div className="flex flex-col gap-2 text-sm text-slate-600 sm:flex-row sm:flex-wrap sm:gap-x-5 dark:text-slate-300">
                <span className="inline-flex items-start gap-1.5">
                  <MapPin className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
                  {project.address}
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <UserRound className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                  {homeowner}
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <CalendarDays className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                  Last updated {formatDate(project.updatedAt)}
                </span>
              </div>
            </div>
            {(canEditDetails || canShare) && (
              <div className="flex shrink-0 flex-wrap gap-2">
                {canShare && (
                  <Button variant="secondary" onClick={() => setSharing(true)}>
                    <Share2 className="size-4" aria-hidden="true" />
                    Share
                  </Button>
                )}
                {canEditDetails && (
                  <Button variant="outline" onClick={() => setEditing(true)}>
                    <Pencil className="size-4" aria-hidden="true" />
                    Edit
                  </Button>
                )}
                {isAdmin && (
                  <Button
                    variant="outline"
                    className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
                    onClick={() => setConfirming(true)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                    Delete
                  </Button>
                )}
              </div>
            )}
          </div>
          <div className="max-w-3xl">
            <ProgressBar value={project.progress} status={project.status} label="Project Progress" />
            {project.progressMode === 'milestones' && <MilestoneProgressNote projectId={project.id} />}
          </div>
          <Viewers viewers={viewers} />
        </div>
      </header>

      <Tabs value={tab} onValueChange={(v) => setTab(parseProjectTab(v))} className="space-y-6">
        <TabsList label="Project sections" className="w-full sm:w-auto">
          {/* Four tabs fit a phone's width without their icons. */}
          <TabsTrigger value="photos">
            <Images className="hidden size-4 sm:block" aria-hidden="true" />
            Photos
          </TabsTrigger>
          <TabsTrigger value="timeline">
            <History className="hidden size-4 sm:block" aria-hidden="true" />
            Timeline
          </TabsTrigger>
          <TabsTrigger value="milestones">
            <Flag className="hidden size-4 sm:block" aria-hidden="true" />
            Milestones
          </TabsTrigger>
          <TabsTrigger value="reports">
            <FileText className="hidden size-4 sm:block" aria-hidden="true" />
            Reports
          </TabsTrigger>
        </TabsList>
        {/* Photos stays mounted while hidden: a selection or an upload in progress survives
            a look at the other tabs, and a timeline thumbnail opens its lightbox. */}
        <TabsContent value="photos" forceMount className="space-y-6 focus-visible:outline-none data-[state=inactive]:hidden">
          {/* Builders and homeowners come for the photos: they lead, full width (SPEC §2). */}
          {!isAdmin && <ProjectPhotosSection projectId={project.id} canUpload={abilities.documentPhotos} onReport={reportSelected} />}

          <div className="grid gap-6 lg:grid-cols-3">
            <div className="space-y-6 lg:col-span-2">
              <SectionCard title="About this project">
                {project.description ? (
                  <p className="text-sm leading-7 whitespace-pre-line text-slate-600 dark:text-slate-300">{project.description}</p>
                ) : (
                  <p className="text-sm text-slate-500 italic dark:text-slate-400">No description yet.</p>
                )}
              </SectionCard>
              {isAdmin && <ProjectMediaCard projectId={project.id} onReport={reportSelected} />}
            </div>
            <div className="space-y-6">
              <SectionCard title="Project Details">
                <dl className="divide-y divide-slate-100 dark:divide-slate-800">
                  <Detail label="Status">
                    <StatusBadge status={project.status} />
                  </Detail>
                  <Detail label="Homeowner">{homeowner}</Detail>
                  <Detail label="Builder">
                    {project.builderName ? (
                      <span className="inline-flex items-center gap-1.5">
                        <HardHat className="size-4 text-slate-400" aria-hidden="true" />
                        {project.builderName}
                      </span>
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">—</span>
                    )}
                  </Detail>
                  <Detail label="Address">{project.address}</Detail>
                  <Detail label="Created">{formatDate(project.createdAt)}</Detail>
                  <Detail label="Last updated">{formatDate(project.updatedAt)}</Detail>
                </dl>
              </SectionCard>
              {abilities.assignCrew && <ProjectCrewCard project={project} />}
              {isAdmin && <StatusCard key={project.version} project={project} />}
              {isProjectBuilder && <StatusRestrictedCard project={project} />}
            </div>
          </div>
        </TabsContent>
        <TabsContent value="timeline" className="focus-visible:outline-none">
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="lg:col-span-2">
              <ProjectTimelineTab projectId={project.id} />
            </div>
            <div className="space-y-6">
              <MilestoneSummaryCard projectId={project.id} onShowAll={() => setTab('milestones')} />
            </div>
          </div>
        </TabsContent>
        <TabsContent value="milestones" className="focus-visible:outline-none">
          <div className="mx-auto max-w-4xl">
            <ProjectMilestonesTab project={project} />
          </div>
        </TabsContent>
        <TabsContent value="reports" className="focus-visible:outline-none">
          <div className="mx-auto max-w-4xl">
            <ProjectReportsTab project={project} onNewReport={() => setReporting({})} />
          </div>
        </TabsContent>
      </Tabs>

      {canShare && <ShareDialog project={project} open={sharing} onOpenChange={setSharing} />}
      {reporting && reports.canMake && (
        <NewReportDialog
          project={project}
          initialPhotos={reporting.photos}
          onClose={() => setReporting(null)}
          onMade={() => {
            setReporting(null);
            setTab('reports');
            toast.success('Report is being made — it will appear here when ready');
          }}
        />
      )}
      {editing && <ProjectFormDialog project={project} detailsOnly={!isAdmin} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        busy={deleting}
        onConfirm={() => void remove()}
        confirmLabel="Delete Project"
        description={
          <>
            This action cannot be undone. This will permanently delete{' '}
            <strong className="font-semibold text-slate-700 dark:text-slate-200">{project.title}</strong> and all of its photos.
          </>
        }
      />
    </div>
  );
}

/** Offline, a project this device did not keep (the last ten opened are kept). */
function NotSavedOffline() {
  return (
    <div className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid="project-not-saved">
      <CloudOff className="mx-auto size-8 text-slate-500 dark:text-slate-400" aria-hidden="true" />
      <h1 className="mt-3 text-lg font-semibold text-slate-900 dark:text-white">Not saved on this device</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">This project was not opened here lately, so it opens once you're back online.</p>
      <Link to="/dashboard" className={cn(buttonClasses('outline', 'sm'), 'mt-5')}>
        Back to the dashboard
      </Link>
    </div>
  );
}

export function ProjectDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const load = useProjectSubscription(id);
  const project = useAppStore((s) => s.projects[id]);
  const seen = useRef(false);

  // Deleted (or moved out of this user's view) while open: say so and leave.
  useEffect(() => {
    if (project) seen.current = true;
    else if (seen.current && load === 'ready') {
      seen.current = false;
      if (deletingHere.delete(id)) return;
      toast.error('Project not found');
      navigate('/projects', { replace: true });
    }
  }, [project, load, id, navigate]);

  if (!id) return <Navigate to="/projects" replace />;
  if (load === 'unsaved') return <NotSavedOffline />;
  if (load === 'loading' || !project) return <DetailSkeleton />;
  return <ProjectView project={project} />;
}
