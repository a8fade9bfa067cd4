import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { SendHorizontal } from 'lucide-react';
import { COMMENT_MAX, insertMention, mentionMatches, mentionQuery, type Mentionable } from '../../lib/commentText';
import { cn } from '../../lib/cn';
import { Avatar } from '../Avatar';

/**
 * The text box under a thread: Enter sends (Shift+Enter breaks the line), `@` offers
 * the project's people. Also used to edit a comment in place.
 */
export function CommentComposer({
  people,
  initial = '',
  placeholder,
  submitLabel,
  autoFocus = false,
  onSubmit,
  onCancel,
}: {
  people: Mentionable[];
  initial?: string;
  placeholder: string;
  submitLabel: string;
  autoFocus?: boolean;
  /** Resolves true when the text was saved (the box then empties). */
  onSubmit: (body: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [value, setValue] = useState(initial);
  const [caret, setCaret] = useState(initial.length);
  const [busy, setBusy] = useState(false);
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const placeCaret = useRef<number | null>(null);
  const listId = useId();

  const query = mentionQuery(value, caret);
  const matches = useMemo(() => (query ? mentionMatches(people, query.query) : []), [people, query]);
  // A name just chosen (followed by its space) is done: the list does not come back.
  const complete =
    query !== null && query.query.endsWith(' ') && people.some((p) => p.name.toLowerCase() === query.query.trimEnd().toLowerCase());
  const open = query !== null && !complete && matches.length > 0 && dismissed !== query.start;
  const trimmed = value.trim();
  const over = value.length > COMMENT_MAX;

  const choose = (person: Mentionable) => {
    if (!query) return;
    const next = insertMention(value, query.start, caret, person.name);
    setValue(next.value);
    setCaret(next.caret);
    // Placed in the commit that shows the new text, not a frame later: keys typed in
    // between would land at the end and then be overtaken by the moved caret.
    placeCaret.current = next.caret;
  };

  useLayoutEffect(() => {
    const at = placeCaret.current;
    if (at === null || !box.current) return;
    placeCaret.current = null;
    box.current.focus();
    box.current.setSelectionRange(at, at);
  });

  const submit = async () => {
    if (!trimmed || over || busy) return;
    setBusy(true);
    const saved = await onSubmit(trimmed);
    setBusy(false);
    if (saved && !initial) {
      setValue('');
      setCaret(0);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const delta = e.key === 'ArrowDown' ? 1 : -1;
        setHighlight((h) => (h + delta + matches.length) % matches.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        choose(matches[Math.min(highlight, matches.length - 1)]);
        return;
      }
      if (e.key === 'Escape') {
        // Closes the list, not the lightbox.
        e.preventDefault();
        e.stopPropagation();
        setDismissed(query?.start ?? null);
        return;
      }
    }
    if (e.key === 'Escape' && onCancel) {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
    // Arrow keys move the caret here, not the lightbox to another photo.
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.stopPropagation();
  };

  return (
    <form
      className="relative"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="People on this project"
          className="absolute inset-x-0 bottom-full mb-2 overflow-hidden rounded-lg bg-slate-800 py-1 shadow-xl ring-1 ring-white/10"
        >
          {matches.map((person, i) => (
            <li
              key={person.id}
              role="option"
              aria-selected={i === highlight}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(person);
              }}
              onMouseEnter={() => setHighlight(i)}
              className={cn('flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-white/90', i === highlight && 'bg-white/10')}
            >
              <Avatar name={person.name} size="sm" className="scale-75" />
              {person.name}
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-end gap-2 rounded-xl bg-white/5 p-1.5 ring-1 ring-white/15 focus-within:ring-amber-400/70">
        <textarea
          ref={box}
          value={value}
          rows={initial ? 3 : 1}
          autoFocus={autoFocus}
          placeholder={placeholder}
          aria-label={placeholder}
          aria-autocomplete="list"
          // A textarea is a textbox, which takes no aria-expanded (axe: critical); the
          // list it controls, while open, says the rest.
          aria-controls={open ? listId : undefined}
          aria-invalid={over || undefined}
          // Escape here closes the mention list or the edit, or keeps a draft: the
          // lightbox reads this before it closes.
          data-keep-escape={open || Boolean(onCancel) || value.trim() !== '' || undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setCaret(e.target.selectionStart);
            setHighlight(0);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          className="max-h-32 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm text-white placeholder:text-white/45 focus:outline-none"
        />
        <button
          type="submit"
          disabled={!trimmed || over || busy}
          aria-label={submitLabel}
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-amber-400 text-slate-950 transition hover:bg-amber-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-40"
        >
          <SendHorizontal className="size-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-1 flex justify-between gap-2 px-1 text-[11px] text-white/65">
        <span>{onCancel ? 'Enter to save · Esc to cancel' : 'Enter to send · Shift+Enter for a new line · @ to mention'}</span>
        {value.length > COMMENT_MAX - 200 && (
          <span className={cn(over && 'font-medium text-red-300')} aria-live="polite">
            {value.length} / {COMMENT_MAX}
          </span>
        )}
      </div>
    </form>
  );
}
