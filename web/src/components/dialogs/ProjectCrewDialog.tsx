import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast';
import type { Company, Project } from '../../protocol/types';
import { crewAfter, crewChoices } from '../../lib/companyRules';
import { possessive } from '../../lib/people';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { Avatar } from '../Avatar';
import { Dialog, FormDialogActions } from '../ui/Dialog';

/**
 * Who of the company's crew is on a project (admins, its owners and managers):
 * a checkbox per crew member. Crew who see every project are shown, ticked and fixed:
 * there is nothing to put them on.
 */
export function ProjectCrewDialog({ project, company, onClose }: { project: Project; company: Company; onClose: () => void }) {
  const choices = crewChoices(company, project);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(choices.filter((c) => c.state === 'on').map((c) => c.member.id)));
  const [saving, setSaving] = useState(false);

  const toggle = (id: string, on: boolean) =>
    setChosen((held) => {
      const next = new Set(held);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const crew = crewAfter(company, project, chosen);
    if (crew.join() === [...project.crew].sort().join()) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await commands.setProjectCrew(project.id, crew);
      toast.success('Crew updated');
      setSaving(false);
      onClose();
    } catch (err) {
      setSaving(false);
      toastRequestError(err, 'Failed to update the crew');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Crew"
      description={`Who of ${possessive(company.name)} crew works on ${project.title}. Crew see only the projects they are on.`}
      busy={saving}
      widthClass="max-w-[480px]"
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving}>
          <legend className="sr-only">Crew on {project.title}</legend>
          <ul className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
            {choices.map(({ member, state }) => (
              <li key={member.id}>
                <label
                  className={
                    state === 'all'
                      ? 'flex items-center gap-3 px-3 py-2.5'
                      : 'flex cursor-pointer items-center gap-3 px-3 py-2.5 hover:bg-slate-50 has-[:focus-visible]:bg-slate-50 dark:hover:bg-slate-800/60 dark:has-[:focus-visible]:bg-slate-800/60'
                  }
                >
                  <input
                    type="checkbox"
                    checked={state === 'all' || chosen.has(member.id)}
                    disabled={state === 'all'}
                    onChange={(e) => toggle(member.id, e.target.checked)}
                    className="size-4 shrink-0 rounded accent-amber-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:opacity-60"
                  />
                  <Avatar name={member.name} size="sm" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">{member.name}</span>
                    <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                      {state === 'all' ? 'Sees all projects' : member.invited ? `${member.email} · invited` : member.email}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <FormDialogActions saving={saving} onCancel={onClose} label="Save crew" />
      </form>
    </Dialog>
  );
}
