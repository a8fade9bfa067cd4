import { CheckCircle2, ImageIcon, Pause, Play, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import type { ImageCategory } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { CATEGORIES, CATEGORY_LABELS } from '../../lib/imageCategories';
import { MAX_LENGTH } from '../../lib/limits';
import { formatBytes } from '../../lib/photoUpload';
import { isSending, stateLabel, timeLeft, totals, type QueueFile } from '../../lib/uploadQueue';
import { Button } from '../ui/Button';
import { TagChipList } from '../tags/TagChip';
import { TagCombobox } from '../tags/TagCombobox';
import { canonicalTag, tagKind, withoutTag, withTag } from '../../lib/tags';
import { TAGS_PER_PHOTO } from '../../lib/limits';
import type { TagUse } from '../../protocol/types';

export interface SelectedPhoto {
  key: string;
  file: File;
  /** An object URL for the preview; revoked when the photo leaves the selection. */
  previewUrl: string;
  caption: string;
  /** Unset: "Other" on the server. */
  category?: ImageCategory;
}

const CATEGORY_OPTIONS = CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));
const selectClasses =
  'block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';
const inputClasses = selectClasses;

/**
 * A chosen photo before it is sent. Browsers other than Safari cannot draw HEIC, so a
 * preview that does not load shows the format's name instead of a broken image.
 */
function Preview({ item, dimmed }: { item: SelectedPhoto; dimmed: boolean }) {
  const [failed, setFailed] = useState(false);
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

/** Per-file actions of a file on its way. */
export interface FileActions {
  onPause: (key: string) => void;
  onResume: (key: string) => void;
  onCancel: (key: string) => void;
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
  const pct = file.size > 0 ? Math.floor((Math.min(file.sent, file.size) / file.size) * 100) : 0;
  const problem = file.state === 'failed' || file.state === 'refused';
  const iconButton =
    'inline-flex size-7 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-300 dark:hover:bg-slate-800';
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-1">
        <p className={cn('min-w-0 truncate text-[11px] tabular-nums', problem ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-300')} title={stateLabel(file)}>
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
          {file.state !== 'done' && file.state !== 'refused' && (
            <button type="button" className={iconButton} aria-label={`Cancel ${file.name}`} onClick={() => actions.onCancel(file.key)}>
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
        <div className={cn('h-full transition-[width] duration-150', problem ? 'bg-red-500' : 'bg-brand-500')} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/**
 * SPEC §2 Photo upload: "Selected Photos (n)" with a preview per file, per-file remove,
 * caption and category per photo (or for all at once), the site visit's note, Discard
 * and Publish. While the batch is publishing the same panel shows each file's progress
 * and state with its pause, resume and retry; Discard waits until it is done.
 */
export function SelectedPhotosPanel({
  items,
  note,
  publishing,
  queue,
  speed,
  actions,
  onChange,
  onApplyToAll,
  onNote,
  onRemove,
  onDiscard,
  onPublish,
  onPauseAll,
  onResumeAll,
  milestoneId = '',
  milestoneOptions = [],
  onMilestone,
  tags = [],
  knownTags = [],
  onTags,
}: {
  items: SelectedPhoto[];
  note: string;
  publishing: boolean;
  /** The publishing batch's files by key (same keys as `items`), while publishing. */
  queue: Record<string, QueueFile> | null;
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
  /** The milestone chosen for the whole batch ('' for none). */
  milestoneId?: string;
  /** The project's milestones in plan order; no select without them. */
  milestoneOptions?: { value: string; label: string }[];
  onMilestone?: (milestoneId: string) => void;
  /** Tags every photo of the batch gets. */
  tags?: string[];
  /** The project's tags to suggest (`list_tags`). */
  knownTags?: TagUse[];
  onTags?: (tags: string[]) => void;
}) {
  const files = queue ? items.map((i) => queue[i.key]).filter((f): f is QueueFile => Boolean(f)) : [];
  const anyRunning = files.some((f) => isSending(f.state));
  const anyPaused = files.some((f) => f.state === 'paused' || f.state === 'failed');
  // Every file left waits for the network; nothing is on its way yet.
  const offline = !anyRunning && files.some((f) => f.state === 'waiting');
  return (
    <section aria-label="Selected Photos" className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 dark:border-slate-800">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Selected Photos ({items.length})</h3>
        <div className="flex flex-wrap gap-2">
          {publishing && anyRunning && (
            <Button variant="outline" size="sm" onClick={onPauseAll}>
              <Pause className="size-4" aria-hidden="true" /> Pause all
            </Button>
          )}
          {publishing && !anyRunning && anyPaused && (
            <Button variant="outline" size="sm" onClick={onResumeAll}>
              <Play className="size-4" aria-hidden="true" /> Resume all
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={onDiscard} disabled={publishing}>
            Discard
          </Button>
          <Button variant="secondary" size="sm" onClick={onPublish} loading={publishing && !offline} disabled={publishing || items.length === 0}>
            {publishing ? (offline ? 'Waiting for connection' : 'Publishing...') : 'Publish'}
          </Button>
        </div>
      </div>
      {publishing && <TotalsLine files={files} speed={speed} label={`Uploading ${items.length === 1 ? '1 photo' : `${items.length} photos`}…`} />}
      {!publishing && items.length > 1 && <ApplyToAll onApply={onApplyToAll} />}
      <ul className="grid grid-cols-1 gap-3 p-4 min-[420px]:grid-cols-2 sm:grid-cols-3 lg:grid-cols-4">
        {items.map((item) => {
          const file = queue?.[item.key];
          const done = file?.state === 'done';
          return (
            <li key={item.key} data-testid="selected-photo" className="relative overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
              <div className="relative aspect-[4/3] bg-slate-100 dark:bg-slate-800">
                <Preview item={item} dimmed={publishing && !done} />
                {!publishing && (
                  <button
                    type="button"
                    onClick={() => onRemove(item.key)}
                    aria-label={`Remove ${item.file.name}`}
                    className="absolute top-1.5 right-1.5 inline-flex size-7 items-center justify-center rounded-full bg-slate-950/60 text-white shadow-sm backdrop-blur-sm transition hover:bg-red-600 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
                  >
                    <X className="size-4" aria-hidden="true" />
                  </button>
                )}
                {done && <CheckCircle2 className="absolute top-1.5 right-1.5 size-6 rounded-full bg-white text-green-600 shadow-sm" aria-hidden="true" />}
              </div>
              <div className="space-y-1.5 px-2 py-2">
                <p className="truncate text-xs font-medium text-slate-700 dark:text-slate-200" title={item.file.name}>
                  {item.file.name} <span className="font-normal text-slate-600 tabular-nums dark:text-slate-400">· {formatBytes(item.file.size)}</span>
                </p>
                <label className="sr-only" htmlFor={`caption-${item.key}`}>
                  Caption for {item.file.name}
                </label>
                <input
                  id={`caption-${item.key}`}
                  className={inputClasses}
                  value={item.caption}
                  maxLength={MAX_LENGTH.caption}
                  placeholder="Caption"
                  disabled={publishing}
                  onChange={(e) => onChange(item.key, { caption: e.target.value })}
                />
                <label className="sr-only" htmlFor={`category-${item.key}`}>
                  Category for {item.file.name}
                </label>
                <select
                  id={`category-${item.key}`}
                  className={selectClasses}
                  value={item.category ?? 'other'}
                  disabled={publishing}
                  onChange={(e) => onChange(item.key, { category: e.target.value as ImageCategory })}
                >
                  {CATEGORY_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
                {file && <FileStatus file={file} actions={actions} />}
              </div>
            </li>
          );
        })}
      </ul>
      {onMilestone && milestoneOptions.length > 0 && (
        <div className="border-t border-slate-100 px-4 py-3 dark:border-slate-800">
          <label htmlFor="batch-milestone" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            Milestone <span className="font-normal text-slate-600 dark:text-slate-400">(optional, for all these photos)</span>
          </label>
          <select
            id="batch-milestone"
            className="mt-1.5 block h-10 w-full max-w-sm rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            value={milestoneId}
            disabled={publishing}
            onChange={(e) => onMilestone(e.target.value)}
          >
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
            disabled={publishing}
            full={tags.length >= TAGS_PER_PHOTO}
            className="max-w-sm"
            onAdd={(tag) => onTags(withTag(tags, canonicalTag(tag, knownTags)))}
          />
          <p className="text-xs text-slate-600 dark:text-slate-400">Every photo of this visit gets these tags.</p>
          <TagChipList
            tags={tags}
            kindOf={(t) => tagKind(t, knownTags)}
            label="Chosen tags"
            disabled={publishing}
            onRemove={publishing ? undefined : (tag) => onTags(withoutTag(tags, tag))}
          />
        </div>
      )}
      <div className="border-t border-slate-100 px-4 py-3 dark:border-slate-800">
        <label htmlFor="batch-note" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          Note for the homeowner <span className="font-normal text-slate-600 dark:text-slate-400">(optional, sent with these photos)</span>
        </label>
        <textarea
          id="batch-note"
          className="mt-1.5 block min-h-16 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:opacity-70 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          placeholder="Framing inspected; windows arrive Tuesday"
          maxLength={MAX_LENGTH.batchNote}
          value={note}
          disabled={publishing}
          onChange={(e) => onNote(e.target.value)}
        />
      </div>
    </section>
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
