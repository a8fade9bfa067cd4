import { useState } from 'react';
import { Link } from 'react-router';
import { UsersRound } from 'lucide-react';
import type { Project } from '../../protocol/types';
import { crewChoices, crewSummary, projectCrew } from '../../lib/companyRules';
import { useAppStore } from '../../store';
import { Avatar } from '../Avatar';
import { SectionCard } from '../SectionCard';
import { lazyPart } from '../lazyPart';
import { Button } from '../ui/Button';

// Mounted while open, and loaded then.
const ProjectCrewDialog = lazyPart(() => import('../dialogs/ProjectCrewDialog').then((m) => m.ProjectCrewDialog), {
  what: 'The crew',
  overlay: { isOpen: () => true, close: (p) => p.onClose() },
});

/**
 * "Crew" on the project page, for those who pick it (admins, the company's
 * owners and managers): who of the company's crew works on this project, and the dialog
 * that changes it. Nothing when the project has no builder company.
 */
export function ProjectCrewCard({ project }: { project: Project }) {
  const company = useAppStore((s) => (project.builderId ? s.companies[project.builderId] : undefined));
  const isAdmin = useAppStore((s) => s.user?.role === 'admin');
  const [editing, setEditing] = useState(false);
  if (!company) return null;
  const crew = projectCrew(company, project);
  const hasCrew = crewChoices(company, project).length > 0;
  return (
    <SectionCard
      title="Crew"
      subtitle={crewSummary(company, project)}
      actions={
        hasCrew && (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <UsersRound className="size-4" aria-hidden="true" />
            Manage crew
          </Button>
        )
      }
    >
      {crew.length > 0 ? (
        <ul className="space-y-2.5" aria-label="On the crew" data-testid="project-crew">
          {crew.map((member) => (
            <li key={member.id} className="flex items-center gap-3">
              <Avatar name={member.name} size="sm" />
              <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900 dark:text-white">{member.name}</span>
              {member.companyRole === 'crew' && member.allProjects && (
                <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">Sees all projects</span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {hasCrew ? (
            `Crew of ${company.name} see this project once they are on its crew.`
          ) : (
            <>
              {company.name} has no crew members yet.{' '}
              <Link
                to={isAdmin ? '/dashboard?role=company' : '/company'}
                className="font-medium text-amber-700 underline-offset-2 hover:underline dark:text-amber-400"
              >
                Invite crew
              </Link>
            </>
          )}
        </p>
      )}
      {editing && <ProjectCrewDialog project={project} company={company} onClose={() => setEditing(false)} />}
    </SectionCard>
  );
}
