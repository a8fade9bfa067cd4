import { useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { ArrowDown, ArrowUp, CalendarClock, Check, GripVertical, ListChecks, Pencil, Plus, RotateCcw, Trash2, X } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { MilestonePlan } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDay, localDay, milestoneStates, type MilestoneView } from '../../lib/milestones';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { MAX_LENGTH } from '../../lib/limits';
import { Button } from '../ui/Button';
import { inputClasses } from '../ui/Field';
import { MilestoneSummaryLine } from './MilestoneList';
import { MilestoneMarker, MilestoneStateBadge } from './MilestoneStateBadge';

const NAME_MAX = MAX_LENGTH.milestoneName;

const iconButton =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-slate-500 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-40 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

const dateInput = cn(inputClasses(false), 'h-8 w-[9.5rem] px-2 text-sm');

/**
 * Runs one milestone request. No optimism: the reply, or the
 * `milestones_changed` event of the same change, updates the list; a refusal shows the
 * server's message.
 */
async function run(action: () => Promise<unknown>, fallback: string): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (err) {
    toastRequestError(err, fallback);
    return false;
  }
}

function NameEditor({ name, onSave, onCancel }: { name: string; onSave: (name: string) => Promise<void>; onCancel: () => void }) {
  const [value, setValue] = useState(name);
  const [saving, setSaving] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = value.trim();
    if (!trimmed || trimmed === name) {
      onCancel();
      return;
    }
    setSaving(true);
    await onSave(trimmed);
    setSaving(false);
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex min-w-0 flex-1 items-center gap-1.5">
      <label className="sr-only" htmlFor="milestone-rename">
        Milestone name
      </label>
      <input
        id="milestone-rename"
        className={cn(inputClasses(false), 'h-8 min-w-0 flex-1 text-sm')}
        value={value}
        maxLength={NAME_MAX}
        autoFocus
        disabled={saving}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e: KeyboardEvent) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      <button type="submit" className={iconButton} aria-label="Save name" disabled={saving}>
        <Check className="size-4" aria-hidden="true" />
      </button>
      <button type="button" className={iconButton} aria-label="Cancel renaming" onClick={onCancel} disabled={saving}>
        <X className="size-4" aria-hidden="true" />
      </button>
    </form>
  );
}

/** "Done on [date] [Complete]": completing asks for the day, today unless changed. */
function CompleteForm({ view, today, onDone, onCancel }: { view: MilestoneView; today: string; onDone: (day: string) => Promise<void>; onCancel: () => void }) {
  const [day, setDay] = useState(view.milestone.doneDate ?? today);
  const [saving, setSaving] = useState(false);
  const id = `done-${view.milestone.id}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!day) return;
    setSaving(true);
    await onDone(day);
    setSaving(false);
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-center gap-2 rounded-lg bg-green-50 px-2.5 py-2 dark:bg-green-500/10">
      <label htmlFor={id} className="text-sm font-medium text-green-900 dark:text-green-200">
        Done on
      </label>
      <input id={id} type="date" className={dateInput} value={day} max={today} required disabled={saving} onChange={(e) => setDay(e.target.value)} />
      {/* The name is said, not shown: a long one would not fit a phone's row. */}
      <Button
        type="submit"
        size="sm"
        variant="primary"
        loading={saving}
        disabled={saving || !day}
        aria-label={view.state === 'done' ? `Save the done date of ${view.milestone.name}` : `Complete ${view.milestone.name}`}
      >
        {view.state === 'done' ? 'Save date' : 'Complete'}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
    </form>
  );
}

function MilestoneRow({
  view,
  index,
  count,
  today,
  dragging,
  dropTarget,
  onDragStart,
  onDragOver,
  onDrop,
  onDragEnd,
  onMove,
  onDelete,
}: {
  view: MilestoneView;
  index: number;
  count: number;
  today: string;
  dragging: boolean;
  dropTarget: boolean;
  onDragStart: () => void;
  onDragOver: (e: DragEvent) => void;
  onDrop: () => void;
  onDragEnd: () => void;
  onMove: (to: number) => Promise<void>;
  onDelete: () => void;
}) {
  const m = view.milestone;
  const [renaming, setRenaming] = useState(false);
  const [completing, setCompleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const dateId = `target-${m.id}`;
  const done = view.state === 'done';

  const act = async (action: () => Promise<unknown>, fallback: string) => {
    setBusy(true);
    const ok = await run(action, fallback);
    setBusy(false);
    return ok;
  };

  return (
    <li
      data-testid="milestone"
      data-state={view.state}
      data-milestone-id={m.id}
      onDragOver={onDragOver}
      onDrop={(e) => {
        e.preventDefault();
        onDrop();
      }}
      className={cn(
        'rounded-xl border bg-white px-2 py-2.5 transition sm:px-3 dark:bg-slate-900',
        dropTarget ? 'border-brand-400 ring-2 ring-brand-400/40' : 'border-slate-200 dark:border-slate-800',
        dragging && 'opacity-50',
      )}
    >
      <div className="flex items-center gap-1.5 sm:gap-2.5">
        <span
          draggable
          onDragStart={(e) => {
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', m.id);
            onDragStart();
          }}
          onDragEnd={onDragEnd}
          title="Drag to reorder"
          className="hidden cursor-grab touch-none items-center text-slate-400 hover:text-slate-600 active:cursor-grabbing sm:flex dark:text-slate-500"
          aria-hidden="true"
          data-testid="drag-handle"
        >
          <GripVertical className="size-4" />
        </span>
        <MilestoneMarker state={view.state} className="size-7" />
        {renaming ? (
          <NameEditor
            name={m.name}
            onCancel={() => setRenaming(false)}
            onSave={async (name) => {
              if (await act(() => commands.updateMilestone({ id: m.id, name }), 'Failed to rename the milestone')) setRenaming(false);
            }}
          />
        ) : (
          <>
            <p className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900 dark:text-white" data-testid="milestone-name">
              {m.name}
            </p>
            <MilestoneStateBadge state={view.state} className="shrink-0" />
            <button type="button" className={iconButton} aria-label={`Rename ${m.name}`} title="Rename" onClick={() => setRenaming(true)} disabled={busy}>
              <Pencil className="size-4" aria-hidden="true" />
            </button>
          </>
        )}
      </div>

      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 pl-0 sm:pl-[3.25rem]">
        {done ? (
          <div className="flex items-center gap-1">
            <p className="text-sm text-green-800 dark:text-green-300">Done {m.doneDate ? formatDay(m.doneDate, today) : ''}</p>
            <button
              type="button"
              className={iconButton}
              aria-label={`Change the done date of ${m.name}`}
              title="Change the done date"
              onClick={() => setCompleting(true)}
              disabled={busy || completing}
            >
              <CalendarClock className="size-4" aria-hidden="true" />
            </button>
          </div>
        ) : (
          <div className="flex items-center gap-2">
            <label htmlFor={dateId} className={cn('text-sm', view.state === 'late' ? 'font-medium text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-300')}>
              Target
            </label>
            <input
              id={dateId}
              type="date"
              className={dateInput}
              defaultValue={m.targetDate ?? ''}
              key={m.targetDate ?? ''}
              disabled={busy}
              // Saved when the field is left, not on every keystroke of a typed date.
              onBlur={(e) => {
                const value = e.target.value;
                if (value === (m.targetDate ?? '')) return;
                void act(() => commands.updateMilestone({ id: m.id, targetDate: value }), 'Failed to update the milestone');
              }}
            />
            {m.targetDate && (
              <button
                type="button"
                className={iconButton}
                aria-label={`Clear the target date of ${m.name}`}
                title="Clear target date"
                disabled={busy}
                onClick={() => void act(() => commands.updateMilestone({ id: m.id, targetDate: '' }), 'Failed to update the milestone')}
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            )}
          </div>
        )}

        <div className="ml-auto flex items-center gap-1">
          {done ? (
            <>
              <Button
                variant="outline"
                size="sm"
                disabled={busy}
                onClick={() => void act(() => commands.setMilestoneDone({ id: m.id, done: false }), 'Failed to reopen the milestone')}
              >
                <RotateCcw className="size-4" aria-hidden="true" />
                Reopen
              </Button>
            </>
          ) : (
            <Button variant="outline" size="sm" onClick={() => setCompleting(true)} disabled={busy || completing}>
              <Check className="size-4" aria-hidden="true" />
              Complete
            </Button>
          )}
          <button type="button" className={iconButton} aria-label={`Move ${m.name} up`} disabled={busy || index === 0} onClick={() => void onMove(index - 1)}>
            <ArrowUp className="size-4" aria-hidden="true" />
          </button>
          <button type="button" className={iconButton} aria-label={`Move ${m.name} down`} disabled={busy || index === count - 1} onClick={() => void onMove(index + 1)}>
            <ArrowDown className="size-4" aria-hidden="true" />
          </button>
          <button
            type="button"
            className={cn(iconButton, 'hover:bg-red-50 hover:text-red-700 dark:hover:bg-red-500/10 dark:hover:text-red-300')}
            aria-label={`Delete ${m.name}`}
            disabled={busy}
            onClick={onDelete}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>

      {completing && (
        <div className="mt-2 sm:pl-[3.25rem]">
          <CompleteForm
            view={view}
            today={today}
            onCancel={() => setCompleting(false)}
            onDone={async (day) => {
              if (await act(() => commands.setMilestoneDone({ id: m.id, done: true, doneDate: day }), 'Failed to complete the milestone')) setCompleting(false);
            }}
          />
        </div>
      )}
    </li>
  );
}

function AddMilestoneForm({ projectId }: { projectId: string }) {
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [saving, setSaving] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast.error('Give the milestone a name');
      nameRef.current?.focus();
      return;
    }
    setSaving(true);
    // An absent field, not `undefined` (which msgpackr would encode as a value).
    const input = target ? { projectId, name: trimmed, targetDate: target } : { projectId, name: trimmed };
    const ok = await run(() => commands.addMilestone(input), 'Failed to add the milestone');
    setSaving(false);
    if (ok) {
      setName('');
      setTarget('');
      nameRef.current?.focus();
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Add a milestone" className="flex flex-col gap-3 rounded-xl border border-dashed border-slate-300 p-3 sm:flex-row sm:items-end dark:border-slate-700">
      <div className="min-w-0 flex-1 space-y-1.5">
        <label htmlFor="new-milestone-name" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          New milestone
        </label>
        <input
          id="new-milestone-name"
          ref={nameRef}
          className={inputClasses(false)}
          placeholder="e.g. Kitchen installed"
          maxLength={NAME_MAX}
          value={name}
          disabled={saving}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <label htmlFor="new-milestone-target" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          Target date <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
        </label>
        <input id="new-milestone-target" type="date" className={cn(inputClasses(false), 'sm:w-44')} value={target} disabled={saving} onChange={(e) => setTarget(e.target.value)} />
      </div>
      <Button type="submit" variant="secondary" loading={saving} disabled={saving}>
        <Plus className="size-4" aria-hidden="true" />
        Add milestone
      </Button>
    </form>
  );
}

/**
 * The milestone editor of admins and the project's builder: add, rename, date,
 * complete and reopen, reorder (drag, or the up and down buttons), delete; and the
 * standard residential plan for a project without milestones.
 */
export function MilestoneEditor({ plan, today = localDay() }: { plan: MilestonePlan; today?: string }) {
  const views = milestoneStates(plan, today);
  const [dragId, setDragIdState] = useState<string | null>(null);
  // Drag events come faster than renders: handlers read the ref, the view the state.
  const dragRef = useRef<string | null>(null);
  const setDragId = (id: string | null) => {
    dragRef.current = id;
    setDragIdState(id);
  };
  const [overId, setOverId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<MilestoneView | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [templating, setTemplating] = useState(false);

  const move = async (id: string, to: number) => {
    await run(() => commands.moveMilestone(id, to), 'Failed to move the milestone');
  };

  const drop = (targetIndex: number) => {
    const id = dragRef.current;
    const from = views.findIndex((v) => v.milestone.id === id);
    setDragId(null);
    setOverId(null);
    if (id === null || from < 0 || from === targetIndex) return;
    void move(id, targetIndex);
  };

  const remove = async () => {
    if (!removing) return;
    setDeleting(true);
    const ok = await run(() => commands.deleteMilestone(removing.milestone.id), 'Failed to delete the milestone');
    setDeleting(false);
    if (ok) setRemoving(null);
  };

  return (
    <div className="space-y-5" data-testid="milestone-editor">
      {views.length > 0 ? (
        <>
          <MilestoneSummaryLine plan={plan} today={today} />
          <ol className="space-y-2" aria-label="Milestones">
            {views.map((view, index) => (
              <MilestoneRow
                key={view.milestone.id}
                view={view}
                index={index}
                count={views.length}
                today={today}
                dragging={dragId === view.milestone.id}
                dropTarget={dragId !== null && overId === view.milestone.id && dragId !== overId}
                onDragStart={() => setDragId(view.milestone.id)}
                onDragOver={(e) => {
                  if (dragRef.current === null) return;
                  e.preventDefault();
                  e.dataTransfer.dropEffect = 'move';
                  if (overId !== view.milestone.id) setOverId(view.milestone.id);
                }}
                onDrop={() => drop(index)}
                onDragEnd={() => {
                  setDragId(null);
                  setOverId(null);
                }}
                onMove={(to) => move(view.milestone.id, to)}
                onDelete={() => setRemoving(view)}
              />
            ))}
          </ol>
        </>
      ) : (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 px-4 py-8 text-center dark:border-slate-800 dark:bg-slate-800/40">
          <span className="flex size-12 items-center justify-center rounded-full bg-white text-slate-500 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
            <ListChecks className="size-6" aria-hidden="true" />
          </span>
          <div>
            <p className="text-sm font-semibold text-slate-900 dark:text-white">No milestones yet</p>
            <p className="mt-1 max-w-md text-sm text-slate-600 dark:text-slate-300">
              Milestones tell the homeowner what comes next. Start from the nine steps of a typical house, or add your own below.
            </p>
          </div>
          <Button
            variant="secondary"
            loading={templating}
            disabled={templating}
            onClick={async () => {
              setTemplating(true);
              await run(() => commands.addMilestoneTemplate(plan.projectId), 'Failed to add the milestones');
              setTemplating(false);
            }}
          >
            Start from the standard residential plan
          </Button>
        </div>
      )}
      <AddMilestoneForm projectId={plan.projectId} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={removing ? `Delete “${removing.milestone.name}”?` : 'Delete milestone?'}
        description="The milestone leaves the plan for everyone. Photos tagged with it keep their place in the gallery, untagged."
        confirmLabel="Delete milestone"
        busy={deleting}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
