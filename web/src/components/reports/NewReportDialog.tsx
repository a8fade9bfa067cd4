import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { Project, Report, ReportGrouping, ReportPhotos } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { localDay, milestoneStates } from '../../lib/milestones';
import {
  DEFAULT_REPORT_FORM,
  matchQuickPeriod,
  PER_PAGE_CHOICES,
  photosInScope,
  QUICK_PERIODS,
  quickPeriod,
  reportAccess,
  reportFormErrors,
  reportOptions,
  type PerPage,
  type ReportForm,
  type ReportScope,
} from '../../lib/reports';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { RequestError } from '../../sync/requests';
import { useProjectPhotos } from '../photos/usePhotos';
import { MilestoneStateBadge } from '../story/MilestoneStateBadge';
import { usePlan } from '../story/ProjectStoryTabs';
import { Button } from '../ui/Button';
import { ChoiceCard, ChoiceLegend, SegmentedControl, SwitchField } from '../ui/Choices';
import { Dialog } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { ReportPairsField } from './ReportPairsField';
import { ReportPreview } from './ReportPreview';
import { useReportPreview } from './useReportPreview';

const SCOPES: { value: ReportScope; label: string }[] = [
  { value: 'period', label: 'A period' },
  { value: 'milestones', label: 'Milestones' },
];
const PER_PAGE_OPTIONS = PER_PAGE_CHOICES.map((n) => ({ value: n as PerPage, label: String(n) }));
const GROUPINGS: { value: ReportGrouping; label: string }[] = [
  { value: 'visit', label: 'Site visit' },
  { value: 'milestone', label: 'Milestone' },
];

/** The fields whose errors show beside them while the form is being filled; the rest after "Make report". */
const LIVE_FIELDS = ['from', 'to'];

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1.5 text-sm font-medium text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}

function MilestoneChecklist({
  projectId,
  chosen,
  onChange,
  error,
  photoCounts,
}: {
  projectId: string;
  chosen: string[];
  onChange: (ids: string[]) => void;
  error?: string;
  photoCounts: Record<string, number>;
}) {
  const plan = usePlan(projectId);
  const id = useId();
  const [today] = useState(() => localDay());
  if (!plan) return <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">Loading milestones…</p>;
  const views = milestoneStates(plan, today);
  if (views.length === 0) return <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">This project has no milestones yet: choose a period instead.</p>;
  const toggle = (milestoneId: string, on: boolean) =>
    onChange(on ? views.map((v) => v.milestone.id).filter((m) => m === milestoneId || chosen.includes(m)) : chosen.filter((m) => m !== milestoneId));
  return (
    <div className="mt-3">
      <ul
        className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-700"
        aria-label="Milestones to report on"
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {views.map(({ milestone, state }) => {
          const n = photoCounts[milestone.id] ?? 0;
          return (
            <li key={milestone.id}>
              <label className="flex cursor-pointer items-center gap-3 px-3 py-2.5 hover:bg-slate-50 has-[:focus-visible]:bg-slate-50 dark:hover:bg-slate-800/60 dark:has-[:focus-visible]:bg-slate-800/60">
                <input
                  type="checkbox"
                  checked={chosen.includes(milestone.id)}
                  onChange={(e) => toggle(milestone.id, e.target.checked)}
                  className="size-4 shrink-0 rounded accent-amber-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
                />
                <span className="min-w-0 flex-1 truncate text-sm text-slate-900 dark:text-white">{milestone.name}</span>
                <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">{n === 1 ? '1 photo' : `${n} photos`}</span>
                <MilestoneStateBadge state={state} className="hidden shrink-0 sm:inline-flex" />
              </label>
            </li>
          );
        })}
      </ul>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * "New report" (docs/FEATURES.md, "Progress reports"): what a progress report covers and
 * how it looks, beside a live preview of its first pages. A full-screen sheet on phones.
 * Mounted while open, so each opening starts afresh; `initialPhotos: 'picked'` starts
 * from the gallery's selection.
 */
export function NewReportDialog({
  project,
  initialPhotos,
  onClose,
  onMade,
}: {
  project: Project;
  initialPhotos?: ReportPhotos;
  onClose: () => void;
  onMade: (report: Report) => void;
}) {
  const me = useAppStore((s) => s.user);
  const access = reportAccess(me, project);
  const selection = useAppStore((s) => s.gallerySelections[project.id]);
  const { photos, favourites } = useProjectPhotos(project.id);
  const byId = useMemo(() => Object.fromEntries(photos.map((p) => [p.id, p])), [photos]);
  // The selection's photos still in the project (one may have been deleted meanwhile).
  const picked = useMemo(() => (selection ?? []).filter((id) => byId[id] !== undefined), [selection, byId]);
  const favouriteCount = useMemo(() => photos.filter((p) => favourites[p.id]).length, [photos, favourites]);
  const photoCounts = useMemo(() => {
    const counts: Record<string, number> = {};
    for (const p of photos) if (p.milestoneId) counts[p.milestoneId] = (counts[p.milestoneId] ?? 0) + 1;
    return counts;
  }, [photos]);

  const [form, setForm] = useState<ReportForm>(() => ({
    ...DEFAULT_REPORT_FORM,
    // A homeowner's report is of their favourites (docs/FEATURES.md, "Progress reports").
    photos: access.favouritesOnly ? 'favourites' : initialPhotos === 'picked' && picked.length > 0 ? 'picked' : 'all',
  }));
  const [today] = useState(() => localDay());
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [madeErrors, setMadeErrors] = useState<Record<string, string>>({});
  const ids = useId();
  const formId = `${ids}-form`;

  const options = useMemo(() => reportOptions(form, picked), [form, picked]);
  const optionsKey = JSON.stringify(options);
  const formErrors = useMemo(() => reportFormErrors(form, picked), [form, picked]);
  const formProblem = Object.values(formErrors)[0] ?? null;
  const preview = useReportPreview(project.id, options, formProblem !== null);
  // A refusal of "Make report" is about the options it was given: it goes when they change.
  useEffect(() => setMadeErrors({}), [optionsKey]);

  const shownFormErrors = attempted ? formErrors : Object.fromEntries(Object.entries(formErrors).filter(([k]) => LIVE_FIELDS.includes(k)));
  const errors: Record<string, string> = { ...shownFormErrors, ...preview.fieldErrors, ...madeErrors };
  const photosError = errors.photos ?? errors.picked;

  const edit = (change: Partial<ReportForm>) => setForm((f) => ({ ...f, ...change }));
  const quick = form.scope === 'period' ? matchQuickPeriod(form.from, form.to, today) : null;
  const pairPhotos = useMemo(() => photosInScope(photos, form), [photos, form]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    if (formProblem !== null) return;
    setSaving(true);
    try {
      const report = await commands.makeReport(project.id, options);
      onMade(report);
    } catch (err) {
      setSaving(false);
      if (err instanceof RequestError && err.fields.length > 0) setMadeErrors(Object.fromEntries(err.fields.map((f) => [f.field, f.message])));
      toastRequestError(err, 'Failed to make the report');
    }
  };

  const photosHintId = `${ids}-photos-hint`;

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="New report"
      description={`A PDF of ${project.title}: a cover with its progress, the milestones, and the photos you choose.`}
      busy={saving}
      sheet
      widthClass="sm:max-w-[1120px] lg:h-[calc(100dvh-4rem)]"
      footer={
        <div className="flex items-center gap-2">
          <p className="hidden text-xs text-slate-500 sm:mr-auto sm:block dark:text-slate-400">It is made in the background: the Reports tab shows it as it goes.</p>
          <Button variant="outline" className="flex-1 sm:flex-none" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="secondary" className="flex-1 sm:flex-none" loading={saving} disabled={saving}>
            {saving ? 'Starting…' : 'Make report'}
          </Button>
        </div>
      }
    >
      <div className="grid gap-6 lg:h-full lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:grid-rows-[minmax(0,1fr)]">
        <form id={formId} onSubmit={submit} noValidate aria-label="Report choices" className="space-y-6 lg:-mr-2 lg:overflow-y-auto lg:pr-2">
          <fieldset disabled={saving}>
            <ChoiceLegend>What it covers</ChoiceLegend>
            <SegmentedControl name={`${ids}-scope`} value={form.scope} options={SCOPES} onChange={(scope) => edit({ scope })} />
            {form.scope === 'period' ? (
              <div className="mt-3 space-y-3">
                <div role="group" aria-label="Quick periods" className="flex flex-wrap gap-2">
                  {QUICK_PERIODS.map((q) => (
                    <button
                      key={q.value}
                      type="button"
                      aria-pressed={quick === q.value}
                      onClick={() => edit(quickPeriod(q.value, today))}
                      className={cn(
                        'h-8 rounded-full border px-3 text-sm font-medium transition focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
                        quick === q.value
                          ? 'border-brand-500 bg-amber-50 text-amber-900 dark:border-brand-400 dark:bg-amber-400/10 dark:text-amber-200'
                          : 'border-slate-300 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800',
                      )}
                    >
                      {q.label}
                    </button>
                  ))}
                </div>
                <div className="grid grid-cols-2 gap-3">
                  <Field
                    type="date"
                    label="From"
                    value={form.from}
                    max={form.to || today}
                    onChange={(e) => edit({ from: e.target.value })}
                    error={errors.from}
                    hint="Empty: from the first photo"
                  />
                  <Field
                    type="date"
                    label="To"
                    value={form.to}
                    min={form.from || undefined}
                    max={today}
                    onChange={(e) => edit({ to: e.target.value })}
                    error={errors.to}
                    hint="Empty: up to today"
                  />
                </div>
              </div>
            ) : (
              <MilestoneChecklist projectId={project.id} chosen={form.milestoneIds} onChange={(milestoneIds) => edit({ milestoneIds })} error={errors.milestoneIds} photoCounts={photoCounts} />
            )}
          </fieldset>

          <fieldset disabled={saving} aria-describedby={photosError ? `${photosHintId} ${ids}-photos-error` : photosHintId}>
            <ChoiceLegend>Photos</ChoiceLegend>
            <div className="grid gap-2 sm:grid-cols-3 lg:grid-cols-1 xl:grid-cols-3">
              <ChoiceCard
                name={`${ids}-photos`}
                value="all"
                checked={form.photos === 'all'}
                onChange={() => edit({ photos: 'all' })}
                title="All photos"
                hint="Every photo of the period."
                disabled={access.favouritesOnly}
                describedBy={access.favouritesOnly ? photosHintId : undefined}
              />
              <ChoiceCard
                name={`${ids}-photos`}
                value="favourites"
                checked={form.photos === 'favourites'}
                onChange={() => edit({ photos: 'favourites' })}
                title="Favorites"
                hint={favouriteCount === 1 ? 'The 1 photo you marked as a favorite.' : `The ${favouriteCount} photos you marked as favorites.`}
              />
              <ChoiceCard
                name={`${ids}-photos`}
                value="picked"
                checked={form.photos === 'picked'}
                onChange={() => edit({ photos: 'picked' })}
                title="Selected photos"
                hint={
                  access.favouritesOnly
                    ? 'Not for homeowners.'
                    : picked.length === 0
                      ? 'Select photos in the gallery first.'
                      : picked.length === 1
                        ? 'The photo selected in the gallery.'
                        : `The ${picked.length} photos selected in the gallery.`
                }
                disabled={access.favouritesOnly || picked.length === 0}
                describedBy={access.favouritesOnly ? photosHintId : undefined}
              />
            </div>
            <p id={photosHintId} className={cn('mt-1.5 text-xs text-slate-600 dark:text-slate-400', !access.favouritesOnly && 'sr-only')}>
              {access.favouritesOnly ? 'As the homeowner, your reports show your favorites.' : 'Only the photos of the period or milestones chosen above.'}
            </p>
            <FieldError id={`${ids}-photos-error`} message={photosError} />
          </fieldset>

          <div className="grid gap-6 sm:grid-cols-2">
            <fieldset disabled={saving} aria-describedby={errors.perPage ? `${ids}-per-page-error` : undefined}>
              <ChoiceLegend>Photos per page</ChoiceLegend>
              <SegmentedControl name={`${ids}-per-page`} value={form.perPage} options={PER_PAGE_OPTIONS} onChange={(perPage) => edit({ perPage })} />
              <FieldError id={`${ids}-per-page-error`} message={errors.perPage} />
            </fieldset>
            <fieldset disabled={saving}>
              <ChoiceLegend>Group by</ChoiceLegend>
              <SegmentedControl name={`${ids}-group`} value={form.groupBy} options={GROUPINGS} onChange={(groupBy) => edit({ groupBy })} />
            </fieldset>
          </div>

          <div className="space-y-4">
            <SwitchField label="Include comments" hint="Each photo's comments under it." checked={form.comments} onChange={(comments) => edit({ comments })} disabled={saving} />
            <SwitchField
              label="Draw markup on photos"
              hint="Arrows, shapes, labels and pins as drawn on each photo."
              checked={form.markup}
              onChange={(markup) => edit({ markup })}
              disabled={saving}
            />
          </div>

          <ReportPairsField pairs={form.pairs} onChange={(pairs) => edit({ pairs })} photos={pairPhotos} byId={byId} error={errors.pairs} disabled={saving} />
        </form>

        <ReportPreview
          preview={preview.preview}
          loading={preview.loading}
          problem={formProblem ?? preview.problem}
          className="self-start lg:max-h-full lg:overflow-y-auto"
        />
      </div>
    </Dialog>
  );
}
