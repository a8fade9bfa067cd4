import type { MilestonePlan, ProjectImage } from '../protocol/types';
import { formatDate } from './dates';
import { orderedMilestones } from './milestones';

/** The gallery can group photos by milestone or by site visit (upload batch). */
export type PhotoGrouping = 'none' | 'milestone' | 'visit';

export const GROUPINGS: { value: PhotoGrouping; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'milestone', label: 'Milestone' },
  { value: 'visit', label: 'Site visit' },
];

export function parseGrouping(value: string | null | undefined): PhotoGrouping {
  return value === 'milestone' || value === 'visit' ? value : 'none';
}

export interface PhotoGroup {
  key: string;
  title: string;
  /** "12 photos", with the visit's date for site visits. */
  detail: string;
  /** A site visit's note. */
  note: string | null;
  photos: ProjectImage[];
}

const count = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

/**
 * `photos` (already filtered, newest first) in groups; each group keeps that order.
 * By milestone: groups in plan order, empty ones left out, then "Not tagged" (a tag
 * whose milestone is gone counts as not tagged). By site visit: one group per batch,
 * newest visit first, headed with its date, count and note; photos from before
 * batches existed go last, under "Other uploads".
 */
export function groupPhotos(photos: ProjectImage[], grouping: PhotoGrouping, plan: MilestonePlan | undefined): PhotoGroup[] {
  if (grouping === 'milestone') {
    const milestones = plan ? orderedMilestones(plan) : [];
    const byMilestone = new Map<string, ProjectImage[]>(milestones.map((m) => [m.id, []]));
    const untagged: ProjectImage[] = [];
    for (const photo of photos) {
      const list = photo.milestoneId ? byMilestone.get(photo.milestoneId) : undefined;
      if (list) list.push(photo);
      else untagged.push(photo);
    }
    const groups: PhotoGroup[] = milestones
      .filter((m) => (byMilestone.get(m.id) ?? []).length > 0)
      .map((m) => {
        const list = byMilestone.get(m.id) ?? [];
        return { key: `m:${m.id}`, title: m.name, detail: count(list.length), note: null, photos: list };
      });
    if (untagged.length > 0) groups.push({ key: 'untagged', title: 'Not tagged', detail: count(untagged.length), note: null, photos: untagged });
    return groups;
  }
  if (grouping === 'visit') {
    const visits = new Map<string, ProjectImage[]>();
    const loose: ProjectImage[] = [];
    for (const photo of photos) {
      if (!photo.batchId) {
        loose.push(photo);
        continue;
      }
      const list = visits.get(photo.batchId);
      if (list) list.push(photo);
      else visits.set(photo.batchId, [photo]);
    }
    const newest = (list: ProjectImage[]) => Math.max(...list.map((p) => p.createdAt));
    const groups: PhotoGroup[] = [...visits.entries()]
      .sort(([, a], [, b]) => newest(b) - newest(a))
      .map(([batchId, list]) => ({
        key: `v:${batchId}`,
        title: `Site visit · ${formatDate(newest(list))}`,
        detail: count(list.length),
        note: list.find((p) => p.visitNote)?.visitNote ?? null,
        photos: list,
      }));
    if (loose.length > 0) groups.push({ key: 'loose', title: 'Other uploads', detail: count(loose.length), note: null, photos: loose });
    return groups;
  }
  return [{ key: 'all', title: '', detail: count(photos.length), note: null, photos }];
}
