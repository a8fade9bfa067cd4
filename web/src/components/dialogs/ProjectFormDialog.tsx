import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import type { MilestoneStart, ProgressMode, Project, ProjectStatus, UpdateProject } from '../../protocol/types';
import { displayName } from '../../lib/names';
import { matchesSearch } from '../../lib/people';
import { STATUS_LABELS, STATUS_OPTIONS } from '../../lib/projectStatus';
import { MAX_LENGTH } from '../../lib/limits';
import { sortCompanies, useAppStore } from '../../store';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { ADMIN_ONLY_STATUS_SCREEN } from '../AccessRestricted';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field, TextAreaField } from '../ui/Field';
import { SearchBox } from '../ui/SearchBox';
import { SelectField } from '../ui/Select';
import { ProgressSlider } from '../ui/Slider';
import { ProgressModeSwitch } from '../story/ProgressModeSwitch';

const SELECT_HOMEOWNER = 'Please select a homeowner.';
const HOMEOWNER_NOT_FOUND = 'Selected homeowner not found. Please refresh and try again.';
const TITLE_REQUIRED = 'Title is required';
const ADDRESS_REQUIRED = 'Address is required';

/** A value the dialog shows but does not offer to change. */
function ReadOnlyValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{label}</p>
      <p className="flex h-10 items-center rounded-lg border border-slate-200 bg-slate-50 px-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-200">
        {value}
      </p>
    </div>
  );
}

/**
 * "Create New Project" (SPEC §2, §5), or the edit of an existing project's details
 * (admins, and the project's builder with `detailsOnly`). Mounted while open, so each
 * opening starts from a fresh form.
 */
export function ProjectFormDialog({
  project,
  defaultHomeownerId,
  detailsOnly = false,
  onClose,
}: {
  /** Editing this project; creating when absent. */
  project?: Project;
  defaultHomeownerId?: string;
  /**
   * A builder's edit (SPEC §6): title, address and description; the people are shown
   * but not offered, and status and progress are an administrator's (SPEC §6 wording).
   */
  detailsOnly?: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const users = useAppStore((s) => s.users);
  const [title, setTitle] = useState(project?.title ?? '');
  const [address, setAddress] = useState(project?.address ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [homeownerId, setHomeownerId] = useState(project?.homeownerId ?? defaultHomeownerId ?? '');
  const [builderId, setBuilderId] = useState(project?.builderId ?? '');
  // SPEC §9: a new project defaults to in-progress with progress 0.
  const [status, setStatus] = useState<ProjectStatus>(project?.status ?? 'in-progress');
  const [progress, setProgress] = useState(project?.progress ?? 0);
  // A new project starts from the standard residential plan unless asked not to.
  const [milestoneStart, setMilestoneStart] = useState<MilestoneStart>('residential');
  const [progressMode, setProgressMode] = useState<ProgressMode>('manual');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  // A field's message goes once the user changes that field.
  const edit =
    <T,>(setter: (value: T) => void, field: string) =>
    (value: T) => {
      setter(value);
      setErrors((e) => (field in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e));
    };

  const people = useMemo(() => {
    const option = (role: string) =>
      Object.values(users)
        .filter((u) => u.role === role)
        .map((u) => ({ value: u.id, label: displayName(u) }))
        .sort((a, b) => a.label.localeCompare(b.label));
    return { homeowners: option('homeowner') };
  }, [users]);
  // A project's builder is a company; choosing another one moves the project.
  const companies = useAppStore((s) => s.companies);
  const builders = useMemo(() => {
    const options = sortCompanies(companies).map((c) => ({ value: c.id, label: c.name }));
    // The project's company, even before the companies arrive, so the select shows it.
    if (project?.builderId && !companies[project.builderId]) options.unshift({ value: project.builderId, label: project.builderName ?? 'Current builder' });
    return options;
  }, [companies, project]);
  // With many homeowners a bare list is a long scroll: a search narrows it (the chosen
  // one always stays listed), and a single match is chosen for you.
  const [homeownerQuery, setHomeownerQuery] = useState('');
  const homeownerOptions = useMemo(
    () => people.homeowners.filter((o) => o.value === homeownerId || (users[o.value] && matchesSearch(users[o.value], homeownerQuery))),
    [people.homeowners, homeownerId, homeownerQuery, users],
  );
  const searchHomeowners = (query: string) => {
    setHomeownerQuery(query);
    const hits = people.homeowners.filter((o) => users[o.value] && matchesSearch(users[o.value], query));
    if (query.trim() && hits.length === 1) edit(setHomeownerId, 'homeownerId')(hits[0].value);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = TITLE_REQUIRED;
    if (!address.trim()) found.address = ADDRESS_REQUIRED;
    if (!homeownerId) found.homeownerId = SELECT_HOMEOWNER;
    else if (!detailsOnly && !users[homeownerId] && homeownerId !== project?.homeownerId) found.homeownerId = HOMEOWNER_NOT_FOUND;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.homeownerId) toast.error(found.homeownerId);
      return;
    }
    setSaving(true);
    try {
      if (project) {
        const update: UpdateProject = { id: project.id };
        if (title.trim() !== project.title) update.title = title.trim();
        if (address.trim() !== project.address) update.address = address.trim();
        if (description.trim() !== project.description) update.description = description.trim();
        if (homeownerId !== project.homeownerId) update.homeownerId = homeownerId;
        // An empty builderId removes the builder.
        if (builderId !== (project.builderId ?? '')) update.builderId = builderId;
        await commands.updateProject(update);
        toast.success('Project updated successfully');
        setSaving(false);
        onClose();
      } else {
        const created = await commands.createProject({
          title: title.trim(),
          address: address.trim(),
          description: description.trim(),
          homeownerId,
          builderId: builderId || null,
          status,
          // Following milestones, progress is theirs to set.
          progress: progressMode === 'milestones' ? 0 : progress,
          progressMode,
          milestones: milestoneStart,
        });
        toast.success('Project created successfully');
        setSaving(false);
        onClose();
        navigate(`/projects/${created.id}`);
      }
    } catch (err) {
      setSaving(false);
      if (err instanceof RequestError && err.fields.length > 0) {
        setErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
      }
      toastRequestError(err, project ? 'Failed to update project' : 'Failed to create project');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={project ? 'Edit Project' : 'Create New Project'}
      description={project ? 'Update the project details.' : 'The homeowner sees it on their dashboard right away.'}
      busy={saving}
      widthClass="max-w-[600px]"
    >
      <form onSubmit={submit} noValidate>
        <fieldset disabled={saving} className="space-y-4">
          <Field label="Title" maxLength={MAX_LENGTH.projectTitle} value={title} onChange={(e) => edit(setTitle, 'title')(e.target.value)} error={errors.title} placeholder="e.g. Maple Street Residence" />
          <Field label="Address" maxLength={MAX_LENGTH.projectAddress} value={address} onChange={(e) => edit(setAddress, 'address')(e.target.value)} error={errors.address} placeholder="Street, city" />
          <TextAreaField
            label="Description"
            maxLength={MAX_LENGTH.projectDescription}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            rows={3}
            placeholder="What is being built"
          />
          {detailsOnly && project ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <ReadOnlyValue label="Homeowner" value={project.homeownerName} />
              <ReadOnlyValue label="Builder" value={project.builderName ?? 'None'} />
              <ReadOnlyValue label="Status" value={STATUS_LABELS[project.status]} />
              <ReadOnlyValue label="Progress" value={`${project.progress}%`} />
              <p className="text-sm text-slate-600 sm:col-span-2 dark:text-slate-300" data-testid="status-admin-only">
                {ADMIN_ONLY_STATUS_SCREEN}
              </p>
            </div>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <SearchBox
                value={homeownerQuery}
                onChange={searchHomeowners}
                label="Search by name or email"
                className="sm:col-span-2 sm:max-w-none"
                status={homeownerQuery.trim() ? `${homeownerOptions.length === 1 ? '1 match' : `${homeownerOptions.length} matches`}` : undefined}
              />
              <SelectField
                label="Homeowner"
                value={homeownerId}
                onChange={(e) => edit(setHomeownerId, 'homeownerId')(e.target.value)}
                error={errors.homeownerId}
                placeholder="Select a homeowner"
                options={homeownerOptions}
              />
              <SelectField
                label="Builder"
                value={builderId}
                onChange={(e) => edit(setBuilderId, 'builderId')(e.target.value)}
                error={errors.builderId}
                options={[{ value: '', label: 'None' }, ...builders]}
              />
            </div>
          )}
          {!project && (
            <div className="grid items-end gap-4 sm:grid-cols-2">
              <SelectField
                label="Status"
                value={status}
                onChange={(e) => setStatus(e.target.value as ProjectStatus)}
                options={STATUS_OPTIONS}
              />
              <SelectField
                label="Milestones"
                value={milestoneStart}
                onChange={(e) => setMilestoneStart(e.target.value as MilestoneStart)}
                options={[
                  { value: 'residential', label: 'Standard residential plan' },
                  { value: 'empty', label: 'Start empty' },
                ]}
              />
              <div className="sm:col-span-2">
                <ProgressModeSwitch
                  value={progressMode}
                  onChange={setProgressMode}
                  hint={
                    progressMode === 'milestones'
                      ? milestoneStart === 'empty'
                        ? 'Progress stays at 0% until milestones are added and completed.'
                        : 'Progress moves as the nine milestones are completed.'
                      : 'Set the progress by hand below.'
                  }
                />
              </div>
              {progressMode === 'manual' && <ProgressSlider label="Progress" value={progress} onChange={setProgress} className="pb-1 sm:col-span-2" />}
            </div>
          )}
        </fieldset>
        <FormDialogActions
          saving={saving}
          onCancel={onClose}
          label={project ? 'Save Changes' : 'Create Project'}
          busyLabel={project ? 'Saving...' : 'Creating...'}
        />
      </form>
    </Dialog>
  );
}
