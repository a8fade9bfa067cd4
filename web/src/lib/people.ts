import type { Profile, Role } from '../protocol/types';
import { emailLocalPart } from './names';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', homeowner: 'Homeowner' };

/** "{first name}'s Projects": the first name, else the name (a builder's company), else the email's local part. */
export function projectsTitle(person: Profile | null | undefined): string {
  if (!person) return 'Projects';
  const first = person.firstName?.trim() || person.name?.trim() || emailLocalPart(person.email);
  if (!first) return 'Projects';
  return `${possessive(first)} Projects`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What deleting a person removes with them, in the confirmation dialog's words. */
export function deletionSummary(projects: number, photos: number): string {
  if (projects === 0) return 'They have no projects or photos.';
  return `${plural(projects, 'project', 'projects')} and ${plural(photos, 'photo', 'photos')} will be deleted with them.`;
}

/** The name typed to confirm a deletion: spaces around it and letter case do not matter. */
export function namesMatch(typed: string, name: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(typed) !== '' && norm(typed) === norm(name);
}

/** English possessive: "Jamie's", but "Summit Homes'" for a name ending in s. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
