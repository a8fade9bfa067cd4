import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import type { MilestoneStart, ProgressMode, Project, ProjectStatus, UpdateProject } from '../../protocol/types';
import { displayName } from '../../lib/names';
import { STATUS_LABELS, STATUS_OPTIONS } from '../../lib/projectStatus';
import { MAX_LENGTH } from '../../lib/limits';
import type { Sort } from '../../lib/userTable';
import { sortCompanies, useAppStore } from '../../store';
import { toastRequestError } from '../../sync/errors';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { ADMIN_ONLY_STATUS_SCREEN } from '../AccessRestricted';
import { useUserPage, type UserPageState } from '../useUserPage';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field, TextAreaField } from '../ui/Field';
import { Button } from '../ui/Button';
import { SearchBox } from '../ui/SearchBox';
import { SelectField } from '../ui/Select';
import { ProgressSlider } from '../ui/Slider';
import { ProgressModeSwitch } from '../story/ProgressModeSwitch';

// A homeowner that is gone ("Selected homeowner not found. Please refresh and try
// again.") is the server's to say: the browser no longer holds every homeowner.
const SELECT_HOMEOWNER = 'Please select a homeowner.';
const TITLE_REQUIRED = 'Title is required';
const ADDRESS_REQUIRED = 'Address is required';

const HOMEOWNERS_BY_NAME: Sort = { key: 'name', direction: 'ascending' };

/** What the homeowner search box reads out: how many match the query typed, once the server has answered it. */
function homeownerStatus(query: string, matches: UserPageState): string | undefined {
  if (!query.trim()) return undefined;
  if (matches.error && !matches.loading) return undefined;
  if (matches.loading || matches.answered === null) return 'Searching…';
  return matches.total === 1 ? '1 match' : `${matches.total} matches`;
}

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

  // A project's builder is a company; choosing another one moves the project.
  const companies = useAppStore((s) => s.companies);
  const builders = useMemo(() => {
    const options = sortCompanies(companies).map((c) => ({ value: c.id, label: c.name }));
    // The project's company, even before the companies arrive, so the select shows it.
    if (project?.builderId && !companies[project.builderId]) options.unshift({ value: project.builderId, label: project.builderName ?? 'Current builder' });
    return options;
  }, [companies, project]);
  // Homeowners are too many to hold: the server searches them and the list offers its
  // first page of matches. The chosen one always stays listed, and a single match is
  // chosen for you.
  const [homeownerQuery, setHomeownerQuery] = useState('');
  const matches = useUserPage({ role: 'homeowner', query: homeownerQuery, sort: HOMEOWNERS_BY_NAME, page: 0 }, !detailsOnly);
  // The chosen homeowner's name, for when the matches listed do not hold them: the
  // project's, else the person's as held, else as their projects name them (an admin
  // holds no homeowners). Read once: the dialog is mounted afresh each time it opens.
  const [chosenLabel, setChosenLabel] = useState(() => {
    if (project) return project.homeownerName;
    if (!defaultHomeownerId) return '';
    const { users, projects } = useAppStore.getState();
    const held = users[defaultHomeownerId];
    if (held) return displayName(held);
    return Object.values(projects).find((p) => p.homeownerId === defaultHomeownerId)?.homeownerName ?? '';
  });
  const homeownerOptions = useMemo(() => {
    const found = matches.rows.map((l) => ({ value: l.user.id, label: displayName(l.user) }));
    if (!homeownerId || found.some((o) => o.value === homeownerId)) return found;
    return [{ value: homeownerId, label: chosenLabel || 'Selected homeowner' }, ...found];
  }, [matches.rows, homeownerId, chosenLabel]);
  const chooseHomeowner = edit((id: string) => {
    setHomeownerId(id);
    const listing = matches.rows.find((l) => l.user.id === id);
    if (listing) setChosenLabel(displayName(listing.user));
  }, 'homeownerId');
  // A search's single match is chosen when the answer to a new search comes; the same
  // search read again (someone else changed a homeowner) leaves a choice made by hand.
  const lastAnswered = useRef<string | null>(null);
  useEffect(() => {
    const { answered, total, rows } = matches;
    if (answered === lastAnswered.current) return;
    lastAnswered.current = answered;
    if (answered && total === 1 && rows.length === 1) chooseHomeowner(rows[0].user.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each page that comes, once
  }, [matches.rows]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = TITLE_REQUIRED;
    if (!address.trim()) found.address = ADDRESS_REQUIRED;
    if (!homeownerId) found.homeownerId = SELECT_HOMEOWNER;
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
                onChange={setHomeownerQuery}
                label="Search by name or email"
                className="sm:col-span-2 sm:max-w-none"
                status={homeownerStatus(homeownerQuery, matches)}
              />
              {matches.error && !matches.loading ? (
                <div role="alert" className="flex flex-wrap items-center justify-between gap-3 text-sm text-amber-900 sm:col-span-2 dark:text-amber-100">
                  <span>Homeowners could not be loaded. {matches.error.message}</span>
                  <Button type="button" variant="outline" size="sm" onClick={matches.retry}>
                    Retry
                  </Button>
                </div>
              ) : (
                matches.rows.length < matches.total && (
                  <p className="text-sm text-slate-600 sm:col-span-2 dark:text-slate-300">
                    The list holds the first {matches.rows.length} of {matches.total} homeowners: type more of a name or email to find others.
                  </p>
                )
              )}
              <SelectField
                label="Homeowner"
                value={homeownerId}
                onChange={(e) => chooseHomeowner(e.target.value)}
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
