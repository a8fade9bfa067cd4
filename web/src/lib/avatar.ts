// Avatar rules from SPEC.md §2 (Header) and §9 (colour by char-code sum mod 8).

/**
 * First letters of the first two words of the name, or the first two letters of a
 * single word, or "??" when there is no name.
 */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '??';
  if (parts.length === 1) return parts[0].slice(0, 2).toUpperCase();
  return (parts[0].charAt(0) + parts[1].charAt(0)).toUpperCase();
}

export interface AvatarColor {
  /** Tailwind classes for background and text; literal so Tailwind sees them. */
  className: string;
}

export const AVATAR_COLORS: readonly AvatarColor[] = [
  { className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/20 dark:text-amber-200' },
  { className: 'bg-sky-100 text-sky-800 dark:bg-sky-500/20 dark:text-sky-200' },
  { className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/20 dark:text-emerald-200' },
  { className: 'bg-rose-100 text-rose-800 dark:bg-rose-500/20 dark:text-rose-200' },
  { className: 'bg-violet-100 text-violet-800 dark:bg-violet-500/20 dark:text-violet-200' },
  { className: 'bg-teal-100 text-teal-800 dark:bg-teal-500/20 dark:text-teal-200' },
  { className: 'bg-orange-100 text-orange-800 dark:bg-orange-500/20 dark:text-orange-200' },
  { className: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-500/20 dark:text-indigo-200' },
];

export function avatarColorIndex(name: string | null | undefined): number {
  const value = name ?? '';
  let sum = 0;
  for (let i = 0; i < value.length; i += 1) sum += value.charCodeAt(i);
  return sum % AVATAR_COLORS.length;
}

export function avatarColor(name: string | null | undefined): AvatarColor {
  return AVATAR_COLORS[avatarColorIndex(name)];
}
