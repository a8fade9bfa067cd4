import { AlertCircle, CheckCircle2, ImageIcon, Pause, Play, RotateCcw, WifiOff, X } from 'lucide-react';
import { useId, useState } from 'react';
import type { ImageCategory } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { CATEGORIES, CATEGORY_LABELS } from '../../lib/imageCategories';
import { MAX_LENGTH } from '../../lib/limits';
import { formatBytes } from '../../lib/photoUpload';
import { isSending, isWhole, stateLabel, timeLeft, totals, type QueueFile } from '../../lib/uploadQueue';
import { useMediaQuery } from '../../lib/useMediaQuery';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TagChipList } from '../tags/TagChip';
import { TagCombobox } from '../tags/TagCombobox';
import { canonicalTag, tagKind, withoutTag, withTag } from '../../lib/tags';
import { TAGS_PER_PHOTO } from '../../lib/limits';
import type { TagUse } from '../../protocol/types';

export interface SelectedPhoto {
  key: string;
  file: File;
  /** An object URL for the preview, once made; revoked when the photo leaves the selection. */
  previewUrl?: string;
  caption: string;
  /** Unset: "Other" on the server. */
  category?: ImageCategory;
  /** Its upload: progress and state. */
  status: QueueFile;
}

/** `editing` while it is written; `publishing` until the server takes it; `published` while its files settle. */
export type SelectionStage = 'editing' | 'publishing' | 'published';

/** Phones (up to 640 px wide) get the compact grid and the bar with Publish at the foot of the screen. */
export const PHONE_QUERY = '(max-width: 640px)';

const CATEGORY_OPTIONS = CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));
const selectClasses =
  'block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';
const inputClasses = selectClasses;
const fieldClasses =
  'mt-1.5 block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

const photos = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);
const percentOf = (file: QueueFile) => (isWhole(file.state) ? 100 : file.size > 0 ? Math.floor((Math.min(file.sent, file.size) / file.size) * 100) : 0);

/**
 * A chosen photo. Browsers other than Safari cannot draw HEIC, so a preview that does
 * not load shows the format's name instead of a broken image.
 */
function Preview({ item, dimmed }: { item: SelectedPhoto; dimmed: boolean }) {
  const [failed, setFailed] = useState(false);
  if (!item.previewUrl) return <div className="size-full" />;
  if (failed) {
    const extension = /\.([a-z0-9]+)$/i.exec(item.file.name)?.[1]?.toUpperCase() ?? 'Photo';
    return (
      <div className="flex size-full flex-col items-center justify-center gap-1 text-slate-600 dark:text-slate-300" data-testid="preview-unavailable">
        <ImageIcon className="size-7" aria-hidden="true" />
        <span className="text-xs font-semibold">{extension}</span>
      </div>
    );
  }
  return <img src={item.previewUrl} alt="" onError={() => setFailed(true)} className={cn('size-full object-cover transition-opacity', dimmed && 'opacity-70')} />;
}

/** Per-file actions of a file on its way; without `onCancel`, no Cancel (a selection's photo is removed instead). */
export interface FileActions {
  onPause: (key: string) => void;
  onResume: (key: string) => void;
  onCancel?: (key: string) => void;
}

/** "12.4 of 40.0 MB · about 1 min left" */
export function TotalsLine({ files, speed, label }: { files: QueueFile[]; speed: number | null; label: string }) {
  const t = totals(files);
  const left = t.active > 0 ? timeLeft(t.total - t.sent, speed) : null;
  // Chosen offline, they wait on the device and go by themselves.
  const waiting = t.active === 0 && t.waiting > 0;
  return (
    <div className="px-4 pt-3" data-testid="upload-totals">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        <span>{waiting ? "Waiting for connection — saved on this device and sent automatically once you're back online." : label}</span>
        <span className="tabular-nums">
          {formatBytes(t.sent)} of {formatBytes(t.total)}
          {left ? ` · ${left}` : ''} · <span className="font-semibold text-slate-800 dark:text-slate-100">{t.percent}%</span>
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={t.percent}
        className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-brand-500 transition-[width] duration-200" style={{ width: `${t.percent}%` }} />
      </div>
    </div>
  );
}

/** One file's progress, state and its pause / resume / retry / cancel buttons. */
export function FileStatus({ file, actions }: { file: QueueFile; actions: FileActions }) {
  const pct = percentOf(file);
  const problem = file.state === 'failed' || file.state === 'refused';
  const iconButton =
    'inline-flex size-7 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-300 dark:hover:bg-slate-800';
  const { onCancel } = actions;
  return (
    <div className="space-y-1">
      <div className="flex min-h-7 items-center justify-between gap-1">
        <p
          className={cn(
            'min-w-0 truncate text-[11px] tabular-nums',
            problem ? 'text-red-700 dark:text-red-400' : file.state === 'held' ? 'font-medium text-green-700 dark:text-green-400' : 'text-slate-600 dark:text-slate-300',
          )}
          title={stateLabel(file)}
        >
          {stateLabel(file)}
        </p>
        <div className="flex shrink-0">
          {(isSending(file.state) || file.state === 'waiting') && (
            <button type="button" className={iconButton} aria-label={`Pause ${file.name}`} onClick={() => actions.onPause(file.key)}>
              <Pause className="size-3.5" aria-hidden="true" />
            </button>
          )}
          {file.state === 'paused' && (
            <button type="button" className={iconButton} aria-label={`Resume ${file.name}`} onClick={() => actions.onResume(file.key)}>
              <Play className="size-3.5" aria-hidden="true" />
            </button>
          )}
          {file.state === 'failed' && (
            <button type="button" className={iconButton} aria-label={`Retry ${file.name}`} onClick={() => actions.onResume(file.key)}>
              <RotateCcw className="size-3.5" aria-hidden="true" />
            </button>
          )}
          {onCancel && file.state !== 'done' && file.state !== 'refused' && (
            <button type="button" className={iconButton} aria-label={`Cancel ${file.name}`} onClick={() => onCancel(file.key)}>
              <X className="size-3.5" aria-hidden="true" />
            </button>
          )}
        </div>
      </div>
      <div
        role="progressbar"
        aria-label={`Uploading ${file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="h-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={cn('h-full transition-[width] duration-150', problem ? 'bg-red-500' : isWhole(file.state) ? 'bg-green-500' : 'bg-brand-500')} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

export interface SelectedPhotosPanelProps {
  items: SelectedPhoto[];
  note: string;
  stage: SelectionStage;
  /** Publish was pressed and waits for the connection: it goes by itself once back. */
  waitingToPublish: boolean;
  speed: number | null;
  actions: FileActions;
  onChange: (key: string, change: { caption?: string; category?: ImageCategory }) => void;
  onApplyToAll: (change: { caption?: string; category?: ImageCategory }) => void;
  onNote: (note: string) => void;
  onRemove: (key: string) => void;
  onDiscard: () => void;
  onPublish: () => void;
  onPauseAll: () => void;
  onResumeAll: () => void;
  /** The milestone chosen for the whole visit ('' for none). */
  milestoneId?: string;
  /** The project's milestones in plan order; no select without them. */
  milestoneOptions?: { value: string; label: string }[];
  onMilestone?: (milestoneId: string) => void;
  /** Tags every photo of the visit gets. */
  tags?: string[];
  /** The project's tags to suggest (`list_tags`). */
  knownTags?: TagUse[];
  onTags?: (tags: string[]) => void;
}

/**
 * SPEC §2 Photo upload: "Selected Photos (n)" with a preview per file, per-file remove,
 * caption and category per photo (or for all at once), the site visit's note, Discard
 * and Publish. The photos' bytes go from the moment they are chosen (docs/FEATURES.md,
 * "Photo upload"), so each shows its progress, and "Sent" once it waits only for
 * Publish; after Publish the panel follows each until it is stored. On a phone the
 * photos are a compact grid of thumbnails (a tap opens the photo's caption and
 * category), the note sits above them and Publish stays at the foot of the screen.
 */
export function SelectedPhotosPanel(props: SelectedPhotosPanelProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  const { items, stage, waitingToPublish, speed, onDiscard, onPublish, onPauseAll, onResumeAll } = props;
  const locked = stage !== 'editing';
  const files = items.map((i) => i.status);
  const anyRunning = files.some((f) => isSending(f.state));
  const anyPaused = files.some((f) => f.state === 'paused' || f.state === 'failed');
  // Published while offline: every file left waits for the network, nothing is on its way.
  const waiting = waitingToPublish || (locked && !anyRunning && files.some((f) => f.state === 'waiting'));
  const publishable = files.filter((f) => f.state !== 'refused' && f.state !== 'done');
  const allSent = publishable.length > 0 && publishable.every((f) => isWhole(f.state));
  const label = locked
    ? `Uploading ${photos(items.length)}…`
    : allSent
      ? 'All photos sent. Publish makes them visible.'
      : `Sending ${photos(items.length)} while you write…`;

  const publishButton = (
    <Button
      variant="secondary"
      size={phone ? 'md' : 'sm'}
      onClick={onPublish}
      loading={locked && !waiting}
      disabled={locked || publishable.length === 0}
      className={phone ? 'min-w-32' : undefined}
    >
      {locked ? (waiting ? 'Waiting for connection' : 'Publishing...') : 'Publish'}
    </Button>
  );
  const transferButtons = (
    <>
      {anyRunning && (
        <Button variant="outline" size="sm" onClick={onPauseAll}>
          <Pause className="size-4" aria-hidden="true" /> Pause all
        </Button>
      )}
      {!anyRunning && anyPaused && (
        <Button variant="outline" size="sm" onClick={onResumeAll}>
          <Play className="size-4" aria-hidden="true" /> Resume all
        </Button>
      )}
    </>
  );
  const discardButton = (
    <Button variant="outline" size="sm" onClick={onDiscard} disabled={locked}>
      Discard
    </Button>
  );

  return (
    <section aria-label="Selected Photos" className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 dark:border-slate-800">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Selected Photos ({items.length})</h3>
        <div className="flex flex-wrap gap-2">
          {transferButtons}
          {discardButton}
          {!phone && publishButton}
        </div>
      </div>
      <TotalsLine files={files} speed={speed} label={label} />
      {phone ? <PhoneBody {...props} locked={locked} /> : <DesktopBody {...props} locked={locked} />}
      {phone && (
        <>
          {/* Room for the bar, so the last fields are never under it. */}
          <div aria-hidden="true" className="h-20" />
          <div
            data-testid="publish-bar"
            className="fixed inset-x-0 bottom-0 z-40 flex items-center justify-between gap-3 border-t border-slate-200 bg-white/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_16px_rgba(15,23,42,0.08)] backdrop-blur dark:border-slate-800 dark:bg-slate-900/95"
          >
            <div className="min-w-0">
              <p className="text-sm font-semibold text-slate-900 dark:text-white">{photos(items.length)}</p>
              <p className="truncate text-xs text-slate-600 dark:text-slate-300">
                {waiting ? 'Waiting for connection' : allSent || locked ? (locked ? 'Publishing…' : 'All sent') : `${totals(files).percent}% sent`}
              </p>
            </div>
            {publishButton}
          </div>
        </>
      )}
    </section>
  );
}

/** The visit's note for the homeowner, with the photos. */
function NoteField({ note, onNote, locked, rows }: { note: string; onNote: (note: string) => void; locked: boolean; rows?: number }) {
  return (
    <>
      <label htmlFor="batch-note" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        Note for the homeowner <span className="font-normal text-slate-600 dark:text-slate-400">(optional, sent with these photos)</span>
      </label>
      <textarea
        id="batch-note"
        rows={rows}
        className="mt-1.5 block min-h-16 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-70 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        placeholder="Framing inspected; windows arrive Tuesday"
        maxLength={MAX_LENGTH.batchNote}
        value={note}
        disabled={locked}
        onChange={(e) => onNote(e.target.value)}
      />
    </>
  );
}

/** The visit's milestone and tags, for every photo of it. */
function VisitFields({ locked, milestoneId = '', milestoneOptions = [], onMilestone, tags = [], knownTags = [], onTags }: SelectedPhotosPanelProps & { locked: boolean }) {
  return (
    <>
      {onMilestone && milestoneOptions.length > 0 && (
        <div className="border-t border-slate-100 px-4 py-3 dark:border-slate-800">
          <label htmlFor="batch-milestone" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            Milestone <span className="font-normal text-slate-600 dark:text-slate-400">(optional, for all these photos)</span>
          </label>
          <select id="batch-milestone" className={cn(fieldClasses, 'max-w-sm')} value={milestoneId} disabled={locked} onChange={(e) => onMilestone(e.target.value)}>
            <option value="">No milestone</option>
            {milestoneOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {onTags && (
        <div className="space-y-2 border-t border-slate-100 px-4 py-3 dark:border-slate-800" data-testid="batch-tags">
          <TagCombobox
            label="Tags for this visit"
            placeholder="Kitchen, Electrical…"
            known={knownTags}
            chosen={tags}
            disabled={locked}
            full={tags.length >= TAGS_PER_PHOTO}
            className="max-w-sm"
            onAdd={(tag) => onTags(withTag(tags, canonicalTag(tag, knownTags)))}
          />
          <p className="text-xs text-slate-600 dark:text-slate-400">Every photo of this visit gets these tags.</p>
          <TagChipList
            tags={tags}
            kindOf={(t) => tagKind(t, knownTags)}
            label="Chosen tags"
            disabled={locked}
            onRemove={locked ? undefined : (tag) => onTags(withoutTag(tags, tag))}
          />
        </div>
      )}
    </>
  );
}

/** Caption and category of one photo. */
function PhotoFieldsInputs({ item, locked, onChange, large }: { item: SelectedPhoto; locked: boolean; onChange: SelectedPhotosPanelProps['onChange']; large?: boolean }) {
  return (
    <>
      <label className={large ? 'block text-sm font-medium text-slate-700 dark:text-slate-200' : 'sr-only'} htmlFor={`caption-${item.key}`}>
        Caption for {item.file.name}
      </label>
      <input
        id={`caption-${item.key}`}
        className={large ? fieldClasses : inputClasses}
        value={item.caption}
        maxLength={MAX_LENGTH.caption}
        placeholder="Caption"
        disabled={locked}
        onChange={(e) => onChange(item.key, { caption: e.target.value })}
      />
      <label className={large ? 'mt-3 block text-sm font-medium text-slate-700 dark:text-slate-200' : 'sr-only'} htmlFor={`category-${item.key}`}>
        Category for {item.file.name}
      </label>
      <select
        id={`category-${item.key}`}
        className={large ? fieldClasses : selectClasses}
        value={item.category ?? 'other'}
        disabled={locked}
        onChange={(e) => onChange(item.key, { category: e.target.value as ImageCategory })}
      >
        {CATEGORY_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** Wider screens: a card per photo with its caption, category and progress in view. */
function DesktopBody(props: SelectedPhotosPanelProps & { locked: boolean }) {
  const { items, locked, actions, onChange, onApplyToAll, onRemove, note, onNote } = props;
  return (
    <>
      {!locked && items.length > 1 && <ApplyToAll onApply={onApplyToAll} />}
      <ul className="grid grid-cols-1 gap-3 p-4 min-[420px]:grid-cols-2 sm:grid-cols-3 lg:grid-cols-4">
        {items.map((item) => {
          const sent = isWhole(item.status.state);
          return (
            <li key={item.key} data-testid="selected-photo" className="relative overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
              <div className="relative aspect-[4/3] bg-slate-100 dark:bg-slate-800">
                <Preview item={item} dimmed={!sent} />
                {!locked && (
                  <button
                    type="button"
                    onClick={() => onRemove(item.key)}
                    aria-label={`Remove ${item.file.name}`}
                    className="absolute top-1.5 right-1.5 inline-flex size-7 items-center justify-center rounded-full bg-slate-950/60 text-white shadow-sm backdrop-blur-sm transition hover:bg-red-600 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
                  >
                    <X className="size-4" aria-hidden="true" />
                  </button>
                )}
                {sent && <CheckCircle2 className={cn('absolute top-1.5 size-6 rounded-full bg-white text-green-600 shadow-sm', locked ? 'right-1.5' : 'left-1.5')} aria-hidden="true" />}
              </div>
              <div className="space-y-1.5 px-2 py-2">
                <p className="truncate text-xs font-medium text-slate-700 dark:text-slate-200" title={item.file.name}>
                  {item.file.name} <span className="font-normal text-slate-600 tabular-nums dark:text-slate-400">· {formatBytes(item.file.size)}</span>
                </p>
                <PhotoFieldsInputs item={item} locked={locked} onChange={onChange} />
                <FileStatus file={item.status} actions={actions} />
              </div>
            </li>
          );
        })}
      </ul>
      <VisitFields {...props} />
      <div className="border-t border-slate-100 px-4 py-3 dark:border-slate-800">
        <NoteField note={note} onNote={onNote} locked={locked} />
      </div>
    </>
  );
}

/**
 * Phones: the note first, then the photos as a grid of square thumbnails, each with its
 * progress along its foot and a tick once sent; a tap opens its caption and category.
 */
function PhoneBody(props: SelectedPhotosPanelProps & { locked: boolean }) {
  const { items, locked, actions, onChange, onApplyToAll, onRemove, note, onNote } = props;
  const [open, setOpen] = useState<string | null>(null);
  const editing = items.find((i) => i.key === open);
  return (
    <>
      <div className="px-4 pt-3">
        <NoteField note={note} onNote={onNote} locked={locked} rows={2} />
      </div>
      <ul className="grid grid-cols-3 gap-2 p-4 min-[480px]:grid-cols-4" data-testid="selected-grid">
        {items.map((item) => (
          <PhotoThumb key={item.key} item={item} locked={locked} onOpen={() => setOpen(item.key)} onRemove={() => onRemove(item.key)} />
        ))}
      </ul>
      {!locked && items.length > 1 && <ApplyToAll onApply={onApplyToAll} />}
      <VisitFields {...props} />
      <Dialog
        open={editing !== undefined}
        onOpenChange={(next) => !next && setOpen(null)}
        title={editing?.file.name ?? 'Photo'}
        description={editing ? formatBytes(editing.file.size) : undefined}
        footer={
          <div className="flex justify-between gap-2">
            {editing && !locked ? (
              <Button
                variant="outline"
                onClick={() => {
                  onRemove(editing.key);
                  setOpen(null);
                }}
              >
                Remove photo
              </Button>
            ) : (
              <span />
            )}
            <Button variant="secondary" onClick={() => setOpen(null)}>
              Done
            </Button>
          </div>
        }
      >
        {editing && (
          <div className="space-y-4">
            <div>
              <PhotoFieldsInputs item={editing} locked={locked} onChange={onChange} large />
            </div>
            <FileStatus file={editing.status} actions={actions} />
          </div>
        )}
      </Dialog>
    </>
  );
}

/** One photo of the phone's grid: its thumbnail, progress, state and caption; a tap edits it. */
function PhotoThumb({ item, locked, onOpen, onRemove }: { item: SelectedPhoto; locked: boolean; onOpen: () => void; onRemove: () => void }) {
  const stateId = useId();
  const { status } = item;
  const pct = percentOf(status);
  const sent = isWhole(status.state);
  const problem = status.state === 'failed' || status.state === 'refused';
  return (
    <li data-testid="selected-photo" className="min-w-0">
      <div className="relative">
        <button
          type="button"
          onClick={onOpen}
          aria-label={`Edit ${item.file.name}`}
          aria-describedby={stateId}
          className="relative block aspect-square w-full overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:bg-slate-800 dark:ring-slate-700"
        >
          <Preview item={item} dimmed={!sent} />
          {problem && (
            <span className="absolute inset-0 flex items-center justify-center bg-red-950/40">
              <AlertCircle className="size-7 rounded-full bg-white text-red-600" aria-hidden="true" />
            </span>
          )}
          {status.state === 'waiting' && (
            <span className="absolute inset-0 flex items-center justify-center bg-slate-950/30">
              <WifiOff className="size-6 text-white" aria-hidden="true" />
            </span>
          )}
          {status.state === 'paused' && (
            <span className="absolute inset-0 flex items-center justify-center bg-slate-950/30">
              <Pause className="size-6 text-white" aria-hidden="true" />
            </span>
          )}
          {sent && <CheckCircle2 className="absolute top-1 left-1 size-5 rounded-full bg-white text-green-600 shadow-sm" aria-hidden="true" />}
        </button>
        <div
          role="progressbar"
          aria-label={`Uploading ${item.file.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          className="pointer-events-none absolute inset-x-1.5 bottom-1.5 h-1 overflow-hidden rounded-full bg-slate-950/30"
        >
          <div className={cn('h-full transition-[width] duration-150', problem ? 'bg-red-500' : sent ? 'bg-green-400' : 'bg-brand-400')} style={{ width: `${pct}%` }} />
        </div>
        {!locked && (
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove ${item.file.name}`}
            className="absolute top-1 right-1 inline-flex size-7 items-center justify-center rounded-full bg-slate-950/60 text-white shadow-sm backdrop-blur-sm transition hover:bg-red-600 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        )}
      </div>
      <span id={stateId} className="sr-only">
        {stateLabel(status)}
      </span>
      <p className="mt-1 truncate text-[11px] leading-4 text-slate-700 dark:text-slate-300" title={item.caption || item.file.name}>
        {item.caption || item.file.name}
      </p>
    </li>
  );
}

/** One caption and/or category for every selected photo. */
function ApplyToAll({ onApply }: { onApply: (change: { caption?: string; category?: ImageCategory }) => void }) {
  return (
    <form
      className="flex flex-wrap items-end gap-2 border-b border-slate-100 px-4 py-3 dark:border-slate-800"
      aria-label="For all selected photos"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const caption = String(data.get('caption') ?? '').trim();
        const category = String(data.get('category') ?? '');
        onApply({ caption: caption || undefined, category: (category || undefined) as ImageCategory | undefined });
      }}
    >
      <div className="min-w-40 flex-1">
        <label htmlFor="all-caption" className="block text-xs font-medium text-slate-700 dark:text-slate-200">
          Caption for all
        </label>
        <input id="all-caption" name="caption" maxLength={MAX_LENGTH.caption} className={cn(inputClasses, 'mt-1')} placeholder="Leave empty to keep each" />
      </div>
      <div className="w-36">
        <label htmlFor="all-category" className="block text-xs font-medium text-slate-700 dark:text-slate-200">
          Category for all
        </label>
        <select id="all-category" name="category" className={cn(selectClasses, 'mt-1')} defaultValue="">
          <option value="">Keep each</option>
          {CATEGORY_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="outline" size="sm">
        Apply to all
      </Button>
    </form>
  );
}
