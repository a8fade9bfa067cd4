import { Hammer, Home, Tag, X } from 'lucide-react';
import type { TagKind } from '../../protocol/types';
import { cn } from '../../lib/cn';

/** Areas of the house and trades read at a glance; a tag typed fresh has the plain tag icon. */
export const TAG_KIND_ICON = { area: Home, trade: Hammer, free: Tag } as const;
export const TAG_KIND_LABEL: Record<TagKind, string> = { area: 'Area', trade: 'Trade', free: 'Tag' };

/** `light` on cards and forms, `dark` over the lightbox's black. */
export type ChipTone = 'light' | 'dark';

const tones: Record<ChipTone, string> = {
  light: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200',
  dark: 'border-white/15 bg-white/10 text-white',
};

/** One photo tag; with `onRemove`, a × that removes it. */
export function TagChip({
  tag,
  kind = 'free',
  tone = 'light',
  onRemove,
  disabled,
  size = 'md',
  className,
}: {
  tag: string;
  kind?: TagKind;
  tone?: ChipTone;
  onRemove?: () => void;
  disabled?: boolean;
  size?: 'sm' | 'md';
  className?: string;
}) {
  const Icon = TAG_KIND_ICON[kind];
  return (
    <span
      data-testid="tag-chip"
      data-tag={tag}
      className={cn(
        'inline-flex max-w-full items-center gap-1 rounded-full border font-medium',
        size === 'sm' ? 'h-5 px-1.5 text-[11px]' : 'h-7 px-2.5 text-xs',
        onRemove && (size === 'sm' ? 'pr-0.5' : 'pr-1'),
        tones[tone],
        className,
      )}
    >
      <Icon className={cn('shrink-0 opacity-70', size === 'sm' ? 'size-3' : 'size-3.5')} aria-hidden="true" />
      <span className="truncate">{tag}</span>
      {onRemove && (
        <button
          type="button"
          onClick={onRemove}
          disabled={disabled}
          aria-label={`Remove tag ${tag}`}
          className={cn(
            'inline-flex shrink-0 items-center justify-center rounded-full transition focus-visible:ring-2 focus-visible:outline-none disabled:opacity-50',
            size === 'sm' ? 'size-4' : 'size-5',
            tone === 'dark' ? 'hover:bg-white/20 focus-visible:ring-white' : 'hover:bg-amber-200/70 focus-visible:ring-brand-500 dark:hover:bg-amber-400/20',
          )}
        >
          <X className="size-3" aria-hidden="true" />
        </button>
      )}
    </span>
  );
}

/** A photo's tags as a wrapping row of chips (read only unless `onRemove`). */
export function TagChipList({
  tags,
  kindOf,
  tone,
  onRemove,
  disabled,
  size,
  label = 'Tags',
  className,
}: {
  tags: readonly string[];
  kindOf?: (tag: string) => TagKind;
  tone?: ChipTone;
  onRemove?: (tag: string) => void;
  disabled?: boolean;
  size?: 'sm' | 'md';
  label?: string;
  className?: string;
}) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label={label} className={cn('flex flex-wrap gap-1.5', className)} data-testid="tag-list">
      {tags.map((tag) => (
        <li key={tag} className="max-w-full">
          <TagChip tag={tag} kind={kindOf?.(tag)} tone={tone} size={size} disabled={disabled} onRemove={onRemove ? () => onRemove(tag) : undefined} />
        </li>
      ))}
    </ul>
  );
}
