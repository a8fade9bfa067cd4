import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Plus } from 'lucide-react';
import type { TagUse } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { MAX_LENGTH } from '../../lib/limits';
import { cleanTag, sameTag, tagOptions, tagProblem } from '../../lib/tags';
import { TAG_KIND_ICON, TAG_KIND_LABEL, type ChipTone } from './TagChip';

interface Option {
  id: string;
  name: string;
  use: TagUse | null;
}

const inputTones: Record<ChipTone, string> = {
  light:
    'border-slate-300 bg-white text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400',
  dark: 'border-white/20 bg-white/10 text-white placeholder:text-white/60 focus:border-white/60 focus:ring-white/20',
};

function optionDetail(use: TagUse): string {
  if (use.photos > 0) return use.photos === 1 ? '1 photo' : `${use.photos} photos`;
  return use.kind === 'free' ? 'Tag' : `Suggested ${TAG_KIND_LABEL[use.kind].toLowerCase()}`;
}

/**
 * "Add tag": type to narrow the project's tags (used ones first, then
 * suggested areas and trades), arrows to move, Enter adds the highlighted one or the
 * text as typed. Adding keeps focus here, so several tags go in one after another.
 */
export function TagCombobox({
  label,
  known,
  chosen,
  onAdd,
  placeholder = 'Add tag',
  tone = 'light',
  placement = 'bottom',
  disabled = false,
  full = false,
  hideLabel = false,
  className,
}: {
  label: string;
  /** The project's tags (`list_tags`). */
  known: readonly TagUse[];
  /** Tags already there: not offered again. */
  chosen: readonly string[];
  /** Resolves false when the tag was not added (the text stays to fix it). */
  onAdd: (tag: string) => void | boolean | Promise<boolean | void>;
  placeholder?: string;
  tone?: ChipTone;
  /** Where the list opens: above the box near the bottom of the screen (the lightbox). */
  placement?: 'top' | 'bottom';
  disabled?: boolean;
  /** The photo has as many tags as it may have. */
  full?: boolean;
  hideLabel?: boolean;
  className?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const options = useMemo<Option[]>(() => {
    const list: Option[] = tagOptions(known, text, chosen).map((use, i) => ({ id: `${id}-o${i}`, name: use.name, use }));
    const typed = cleanTag(text);
    const alreadyChosen = chosen.some((t) => sameTag(t, typed));
    if (typed && !alreadyChosen && !list.some((o) => sameTag(o.name, typed)) && !known.some((k) => sameTag(k.name, typed))) {
      list.push({ id: `${id}-new`, name: typed, use: null });
    }
    return list;
  }, [known, text, chosen, id]);
  const showList = open && options.length > 0 && !disabled && !full;
  const activeOption = showList && active >= 0 ? options[active] : undefined;

  const add = async (raw: string) => {
    const why = tagProblem(raw);
    if (why) {
      setProblem(why);
      return;
    }
    if (chosen.some((t) => sameTag(t, raw))) {
      setProblem(`“${cleanTag(raw)}” is already there.`);
      return;
    }
    setBusy(true);
    const done = await onAdd(cleanTag(raw));
    setBusy(false);
    if (done === false) return;
    setText('');
    setProblem(null);
    setActive(-1);
    // The list closes with the added tag (typing opens it again), so it never covers
    // the buttons under the box.
    setOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // The caret moves in the text; the lightbox must not step to another photo.
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.stopPropagation();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (options.length === 0) return;
      const delta = e.key === 'ArrowDown' ? 1 : -1;
      // Past either end is back in the box (no option highlighted).
      setActive((i) => {
        const n = options.length;
        if (delta > 0) return i + 1 >= n ? -1 : i + 1;
        return i <= -1 ? n - 1 : i - 1;
      });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const pick = activeOption?.name ?? text;
      if (pick.trim()) void add(pick);
    } else if (e.key === 'Escape') {
      // Handled here, it goes no further: it closes the list, not the dialog around it.
      if (showList) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        e.preventDefault();
        e.stopPropagation();
        setText('');
        setProblem(null);
      }
    }
  };

  const hintId = `${id}-hint`;
  return (
    <div className={cn('relative', className)}>
      <label htmlFor={id} className={cn(hideLabel ? 'sr-only' : 'mb-1.5 block text-sm font-medium', tone === 'dark' ? 'text-white/85' : 'text-slate-700 dark:text-slate-200')}>
        {label}
      </label>
      <div className="relative">
        <Plus className={cn('pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2', tone === 'dark' ? 'text-white/60' : 'text-slate-400')} aria-hidden="true" />
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          aria-expanded={showList}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={activeOption?.id}
          aria-describedby={problem || full ? hintId : undefined}
          aria-invalid={problem ? true : undefined}
          autoComplete="off"
          enterKeyHint="done"
          // Escape closes the list (or clears the text) before it closes the lightbox.
          data-keep-escape={showList || text ? 'true' : undefined}
          maxLength={MAX_LENGTH.tag + 10}
          value={text}
          disabled={disabled || full || busy}
          placeholder={full ? 'Tag limit reached' : placeholder}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
            setProblem(null);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className={cn('h-9 w-full rounded-lg border pr-3 pl-8 text-sm shadow-sm focus:ring-2 focus:outline-none disabled:opacity-60', inputTones[tone])}
        />
      </div>
      {(problem || full) && (
        <p id={hintId} role={problem ? 'alert' : undefined} className={cn('mt-1 text-xs', problem ? (tone === 'dark' ? 'text-red-300' : 'text-red-700 dark:text-red-400') : tone === 'dark' ? 'text-white/65' : 'text-slate-500 dark:text-slate-400')}>
          {problem ?? 'A photo can have up to 20 tags.'}
        </p>
      )}
      <ul
        id={`${id}-list`}
        role="listbox"
        aria-label={`${label}: suggestions`}
        hidden={!showList}
        className={cn(
          'absolute left-0 z-30 max-h-64 w-max max-w-[min(20rem,calc(100vw-2rem))] min-w-full overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
          placement === 'top' ? 'bottom-full mb-1' : 'top-full mt-1',
        )}
      >
        {options.map((o, i) => {
          const Icon = TAG_KIND_ICON[o.use?.kind ?? 'free'];
          return (
            <li
              key={o.id}
              id={o.id}
              role="option"
              aria-selected={i === active}
              data-testid="tag-option"
              // mousedown, so the box keeps focus and the list does not close first.
              onMouseDown={(e) => {
                e.preventDefault();
                void add(o.name);
              }}
              onMouseEnter={() => setActive(i)}
              className={cn('flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm', i === active && 'bg-amber-50 dark:bg-amber-400/10')}
            >
              {o.use ? (
                <Icon className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
              ) : (
                <Plus className="size-4 shrink-0 text-amber-600" aria-hidden="true" />
              )}
              <span className="min-w-0 flex-1 truncate">{o.use ? o.name : `Add “${o.name}”`}</span>
              {o.use && <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">{optionDetail(o.use)}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
