import type { ImageCategory } from '../protocol/types';

export const CATEGORY_LABELS: Record<ImageCategory, string> = {
  interior: 'Interior',
  exterior: 'Exterior',
  structural: 'Structural',
  finishes: 'Finishes',
  other: 'Other',
  general: 'General',
};

/** The categories in the order the edit form offers them. */
export const CATEGORIES = Object.keys(CATEGORY_LABELS) as ImageCategory[];

// SPEC §3 gives each category a badge colour without naming them; ours: one hue per
// category, readable on the dark lightbox as well as on photos.
export const CATEGORY_BADGE_CLASSES: Record<ImageCategory, string> = {
  interior: 'bg-sky-100 text-sky-800 ring-sky-600/20',
  exterior: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  structural: 'bg-orange-100 text-orange-800 ring-orange-600/20',
  finishes: 'bg-violet-100 text-violet-800 ring-violet-600/20',
  other: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  general: 'bg-teal-100 text-teal-800 ring-teal-600/20',
};

export function categoryLabel(category: string): string {
  return CATEGORY_LABELS[category as ImageCategory] ?? category;
}
