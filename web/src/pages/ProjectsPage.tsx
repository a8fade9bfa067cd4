import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Plus } from 'lucide-react';
import type { Profile } from '../protocol/types';
import { displayName } from '../lib/names';
import { projectStanding } from '../lib/companyRules';
import { possessive, projectsTitle } from '../lib/people';
import { sortProjects, useAppStore } from '../store';
import { PageHeader } from '../components/PageHeader';
import { ProjectGridSkeleton } from '../components/ProjectGrid';
import { ProjectBrowser } from '../components/projects/ProjectBrowser';
import { LoadFailed, useFirstLoadFailed } from '../components/LoadFailed';
import { ProjectFormDialog } from '../components/dialogs/LazyProjectFormDialog';
import { usePreloadWhenIdle } from '../components/lazyPart';
import { Button } from '../components/ui/Button';

type Scope = { kind: 'all' } | { kind: 'homeowner'; id: string; builderId: string | null } | { kind: 'builder'; id: string };

/**
 * /projects, /homeowner/{id}/projects (optional ?builderId) and /builder/{id}/projects.
 * The mirror holds only what this user may see, so filtering it is the whole access
 * rule here: a builder looking at a homeowner sees only their own projects with them.
 * /builder/{id} names a builder company (the Companies tab's link) or one of
 * its people (the Builders tab's), whose projects are those of the company they work on.
 */
function ProjectsView({ scope }: { scope: Scope }) {
  const me = useAppStore((s) => s.user);
  const users = useAppStore((s) => s.users);
  const company = useAppStore((s) => (scope.kind === 'builder' ? s.companies[scope.id] : undefined));
  const byId = useAppStore((s) => s.projects);
  const loaded = useAppStore((s) => s.projectsLoaded);
  const failed = useFirstLoadFailed();
  const [creating, setCreating] = useState(false);
  const isAdmin = me?.role === 'admin';
  // "New Project" should not wait for the form's code.
  usePreloadWhenIdle([isAdmin && ProjectFormDialog]);

  const projects = useMemo(() => {
    const all = sortProjects(byId);
    if (scope.kind === 'homeowner') {
      return all.filter((p) => p.homeownerId === scope.id && (!scope.builderId || p.builderId === scope.builderId));
    }
    if (scope.kind === 'builder') {
      const builder = me?.id === scope.id ? me : users[scope.id];
      if (builder?.role === 'builder') return all.filter((p) => projectStanding(builder, p) !== 'none');
      return all.filter((p) => p.builderId === scope.id);
    }
    return all;
  }, [byId, scope, me, users]);

  let person: Profile | null = null;
  if (scope.kind !== 'all' && !company) person = (me?.id === scope.id ? me : users[scope.id]) ?? null;
  // A homeowner not in the directory (e.g. a builder's link) is still named by their projects.
  const personName =
    company ? company.name : person ? displayName(person) : scope.kind === 'homeowner' ? (projects[0]?.homeownerName ?? null) : scope.kind === 'builder' ? (projects[0]?.builderName ?? null) : null;

  // A company is named whole: "Summit Homes' Projects".
  const title = scope.kind === 'all' ? 'Projects' : company ? `${possessive(company.name)} Projects` : person ? projectsTitle(person) : personName ? `${possessive(personName.split(' ')[0])} Projects` : 'Projects';
  let subtitle: string;
  if (scope.kind !== 'all' && personName) subtitle = `Viewing projects for ${personName}`;
  else if (projects.length === 0) subtitle = 'No project to show yet';
  else if (isAdmin) subtitle = 'Viewing all projects';
  else subtitle = 'Click on a project to view more details';

  return (
    <div className="space-y-8">
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          isAdmin && (
            <Button variant="secondary" onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" />
              New Project
            </Button>
          )
        }
      />
      {failed ? (
        <LoadFailed message="Failed to load projects" />
      ) : !loaded ? (
        <ProjectGridSkeleton />
      ) : (
        <ProjectBrowser projects={projects} onAdd={isAdmin ? () => setCreating(true) : undefined} />
      )}
      {creating && (
        <ProjectFormDialog
          defaultHomeownerId={scope.kind === 'homeowner' ? scope.id : undefined}
          onClose={() => setCreating(false)}
        />
      )}
    </div>
  );
}

export function ProjectsPage() {
  return <ProjectsView scope={{ kind: 'all' }} />;
}

export function HomeownerProjectsPage() {
  const { homeownerId = '' } = useParams();
  const [params] = useSearchParams();
  const builderId = params.get('builderId');
  const scope = useMemo(() => ({ kind: 'homeowner' as const, id: homeownerId, builderId }), [homeownerId, builderId]);
  return <ProjectsView key={homeownerId} scope={scope} />;
}

export function BuilderProjectsPage() {
  const { builderId = '' } = useParams();
  const scope = useMemo(() => ({ kind: 'builder' as const, id: builderId }), [builderId]);
  return <ProjectsView key={builderId} scope={scope} />;
}
