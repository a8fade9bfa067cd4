import { useState } from 'react';
import { Check, ChevronDown, Tag, X } from 'lucide-react';
import { cn } from '../../lib/cn';
import { sameTag, withoutTag, withTag } from '../../lib/tags';
import { PendingTrigger, useTriggerSwap } from '../lazyPart';
import { useLazyModule } from '../../lib/lazyModule';
import { menuLibrary } from '../ui/radixLibraries';

export interface TagFilterProps {
  /** The tags the project's photos carry, most photos first. */
  options: { tag: string; photos: number }[];
  chosen: string[];
  onChange: (tags: string[]) => void;
}

const itemClasses =
  'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800';

/**
 * Narrow the gallery to photos that carry every chosen tag. The menu stays
 * open while tags are ticked; the chosen ones show as chips, each with its ×, and one
 * "Clear tags" takes them all off.
 */
export function TagFilterMenu({ options, chosen, onChange }: TagFilterProps) {
  const isChosen = (tag: string) => chosen.some((t) => sameTag(t, tag));
  const [pressed, setPressed] = useState(false);
  const DropdownMenu = useLazyModule(menuLibrary, { what: 'The tag filter', wanted: pressed, onFailed: () => setPressed(false) });
  const { pendingRef, ref } = useTriggerSwap(DropdownMenu !== null);
  const trigger = {
    'data-testid': 'tag-filter',
    className: cn(
      'inline-flex h-9 items-center gap-2 rounded-lg border px-3 text-sm font-medium shadow-sm transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
      chosen.length > 0
        ? 'border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-200'
        : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
    ),
    children: (
      <>
        <Tag className="size-4 opacity-70" aria-hidden="true" />
        Tags
        {chosen.length > 0 && (
          <span className="min-w-5 rounded-full bg-amber-500 px-1.5 text-center text-xs font-semibold text-slate-950 tabular-nums">{chosen.length}</span>
        )}
        <ChevronDown className="size-4 text-slate-400" aria-hidden="true" />
      </>
    ),
  };
  if (!DropdownMenu) return <PendingTrigger popup="menu" pendingRef={pendingRef} onPress={() => setPressed(true)} {...trigger} />;

  return (
    <DropdownMenu.Root defaultOpen={pressed}>
      <DropdownMenu.Trigger ref={ref} {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 max-h-[min(22rem,var(--radix-dropdown-menu-content-available-height))] w-64 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          <DropdownMenu.Label className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-500 dark:text-slate-400">
            Show photos tagged with all of
          </DropdownMenu.Label>
          {options.map(({ tag, photos }) => (
            <DropdownMenu.CheckboxItem
              key={tag}
              checked={isChosen(tag)}
              // Ticking several in a row: the menu stays open.
              onSelect={(e) => e.preventDefault()}
              onCheckedChange={(on) => onChange(on ? withTag(chosen, tag) : withoutTag(chosen, tag))}
              className={itemClasses}
            >
              <span className="flex size-4 items-center justify-center rounded border border-slate-300 dark:border-slate-600">
                <DropdownMenu.ItemIndicator>
                  <Check className="size-3.5 text-amber-600" strokeWidth={3} aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </span>
              <span className="min-w-0 flex-1 truncate">{tag}</span>
              <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{photos}</span>
            </DropdownMenu.CheckboxItem>
          ))}
          {chosen.length > 0 && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-slate-100 dark:bg-slate-800" />
              <DropdownMenu.Item className={itemClasses} onSelect={() => onChange([])}>
                <X className="size-4" aria-hidden="true" />
                Clear tags
              </DropdownMenu.Item>
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The chosen tags under the filter row, each removable, and "Clear tags". */
export function ChosenTags({ chosen, onChange }: Pick<TagFilterProps, 'chosen' | 'onChange'>) {
  if (chosen.length === 0) return null;
  return (
    <div className="flex w-full flex-wrap items-center gap-1.5" data-testid="chosen-tags">
      <span className="text-xs font-medium text-slate-500 dark:text-slate-400">Tagged:</span>
      {chosen.map((tag) => (
        <button
          key={tag}
          type="button"
          onClick={() => onChange(withoutTag(chosen, tag))}
          aria-label={`Remove filter ${tag}`}
          className="inline-flex h-7 items-center gap-1 rounded-full border border-amber-200 bg-amber-50 pr-1.5 pl-2.5 text-xs font-medium text-amber-900 transition hover:bg-amber-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200"
        >
          {tag}
          <X className="size-3.5" aria-hidden="true" />
        </button>
      ))}
      <button
        type="button"
        onClick={() => onChange([])}
        className="inline-flex h-7 items-center rounded-md px-2 text-xs font-medium text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-300 dark:hover:text-white"
      >
        Clear tags
      </button>
    </div>
  );
}
