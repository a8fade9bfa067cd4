import type { Profile, Project, Role, UserDirectory, UserListing } from '../protocol/types';
import { projectStanding } from './companyRules';
import { displayName, emailLocalPart } from './names';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', homeowner: 'Homeowner' };

/** SPEC §2 Tables: a case-insensitive substring match on name or email. */
export function matchesSearch(user: Profile, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [displayName(user), user.name ?? '', user.email].some((text) => text.toLowerCase().includes(q));
}

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

/**
 * The user tables of the admin and builder dashboards, derived from the live mirror so
 * they follow every event: project counts from the visible projects (for a builder,
 * that is their projects), a homeowner's builder from their profile or their projects.
 */
export function userDirectory(self: Profile | null, users: Record<string, Profile>, projects: Project[]): UserDirectory {
  const everyone = Object.values(users);
  if (self && !users[self.id]) everyone.push(self);
  const byName = (a: UserListing, b: UserListing) => displayName(a.user).localeCompare(displayName(b.user));
  const listing = (user: Profile): UserListing => {
    if (user.role === 'homeowner') {
      const own = projects.filter((p) => p.homeownerId === user.id);
      const builder = user.builderId ? users[user.builderId] : undefined;
      const builderName =
        (builder ? displayName(builder) : null) ?? own.find((p) => p.builderName)?.builderName ?? null;
      return { user, projectCount: own.length, builderName };
    }
    if (user.role === 'builder') {
      // A builder's projects are those of their company they work on.
      return { user, projectCount: projects.filter((p) => projectStanding(user, p) !== 'none').length, builderName: null };
    }
    return { user, projectCount: 0, builderName: null };
  };
  const of = (role: Role) => everyone.filter((u) => u.role === role).map(listing).sort(byName);
  return { admins: of('admin'), builders: of('builder'), homeowners: of('homeowner') };
}
