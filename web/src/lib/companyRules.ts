import type { Company, CompanyRole, Member, Profile, Project } from '../protocol/types';
import { relativeTime } from './dates';

// Builder companies (docs/FEATURES.md, "Builder companies"): who may do what with a
// project and with a company, as the server's policy decides it
// (server/src/domain/policy.rs, RULES). The screens offer only what the server would
// accept; the server still checks every request.

/** The parts of the signed-in user the rules read. */
export type Viewer = Pick<Profile, 'id' | 'role'> & Partial<Pick<Profile, 'companyId' | 'companyRole' | 'allProjects'>>;

/**
 * How someone stands to a project: an admin; a lead (an owner or a manager of the
 * project's company); crew of that company who see it (on its crew, or seeing all the
 * company's projects); its homeowner; or none of these.
 */
export type ProjectStanding = 'admin' | 'lead' | 'crew' | 'homeowner' | 'none';

export function projectStanding(
  user: Viewer | null | undefined,
  project: Pick<Project, 'builderId' | 'homeownerId'> & Partial<Pick<Project, 'crew'>>,
): ProjectStanding {
  if (!user) return 'none';
  if (user.role === 'admin') return 'admin';
  if (user.role === 'homeowner') return project.homeownerId === user.id ? 'homeowner' : 'none';
  // A builder outside any company (removed from theirs) has no project.
  if (!user.companyId || !user.companyRole || project.builderId !== user.companyId) return 'none';
  if (user.companyRole !== 'crew') return 'lead';
  return user.allProjects || (project.crew ?? []).includes(user.id) ? 'crew' : 'none';
}

/** What a project's page offers someone, by their standing. */
export interface ProjectAbilities {
  /** Title, address and description (status and progress stay an admin's, SPEC §6). */
  editDetails: boolean;
  /** The milestone plan. */
  editMilestones: boolean;
  /** Guest links to the project and to its reports. */
  share: boolean;
  /** Mailing a report to the homeowner. */
  mailReports: boolean;
  /** Uploading, captions, categories and tags: the people who document the build. */
  documentPhotos: boolean;
  /** Who of the company's crew is on the project. */
  assignCrew: boolean;
}

const NOTHING: ProjectAbilities = {
  editDetails: false,
  editMilestones: false,
  share: false,
  mailReports: false,
  documentPhotos: false,
  assignCrew: false,
};

/**
 * Admins and the company's owners and managers keep everything a builder did; crew
 * document the build on the projects they see (photos, captions, markup, tags, comments,
 * reports) but leave its details, its plan, sharing it and mailing its homeowner to them;
 * the homeowner shares their own project.
 */
export function projectAbilities(standing: ProjectStanding): ProjectAbilities {
  switch (standing) {
    case 'admin':
    case 'lead':
      return { editDetails: true, editMilestones: true, share: true, mailReports: true, documentPhotos: true, assignCrew: true };
    case 'crew':
      return { ...NOTHING, documentPhotos: true };
    case 'homeowner':
      return { ...NOTHING, share: true };
    default:
      return NOTHING;
  }
}

/**
 * Whether someone edits the homeowners they see (SPEC §6 "Edit users: builder,
 * homeowners"): admins, and builders who lead their company's projects, not crew.
 */
export function editsHomeowners(user: Viewer | null | undefined): boolean {
  if (!user) return false;
  return user.role === 'admin' || (user.role === 'builder' && (user.companyRole === 'owner' || user.companyRole === 'manager'));
}

// --- Companies and their people --------------------------------------------------------

export const COMPANY_ROLES: readonly CompanyRole[] = ['owner', 'manager', 'crew'];

export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = { owner: 'Owner', manager: 'Manager', crew: 'Crew' };

/** What each role may do, in the words of the invite and role dialogs. */
export const COMPANY_ROLE_HINTS: Record<CompanyRole, string> = {
  owner: 'Manages the company and its people, and works on every project.',
  manager: 'Works on every project, invites crew and puts them on projects.',
  crew: 'Adds photos, markup, tags, comments and reports on the projects they are on.',
};

/** The Company page's line for its viewer: what their role lets them do. */
export function yourRole(user: Pick<Profile, 'companyRole' | 'allProjects'>): string {
  switch (user.companyRole) {
    case 'owner':
      return 'You own this company: you manage its people and work on every project.';
    case 'manager':
      return 'You are a manager: you work on every project, invite crew and put them on projects.';
    case 'crew':
      return user.allProjects ? 'You are crew: you work on every project of the company.' : 'You are crew: you work on the projects you are put on.';
    default:
      return '';
  }
}

/** What the company screens offer someone. */
export interface CompanyAbilities {
  /** Admins and the company's owners. */
  rename: boolean;
  /** The roles they may invite people in: owners any, managers crew (admins any). */
  invite: CompanyRole[];
  /** Change a member's role or whether crew see all projects; remove a member. */
  manageMembers: boolean;
  /** Admins only: it takes the company's projects and its members' logins with it. */
  delete: boolean;
}

export function companyAbilities(user: Viewer | null | undefined, company: Pick<Company, 'id'>): CompanyAbilities {
  const none: CompanyAbilities = { rename: false, invite: [], manageMembers: false, delete: false };
  if (!user) return none;
  if (user.role === 'admin') return { rename: true, invite: [...COMPANY_ROLES], manageMembers: true, delete: true };
  if (user.role !== 'builder' || user.companyId !== company.id) return none;
  if (user.companyRole === 'owner') return { rename: true, invite: [...COMPANY_ROLES], manageMembers: true, delete: false };
  if (user.companyRole === 'manager') return { ...none, invite: ['crew'] };
  return none;
}

/**
 * The role an invitation starts on: a company without an owner yet needs one first
 * (when the inviter may invite one); otherwise crew, the role most people join in.
 */
export function defaultInviteRole(company: Pick<Company, 'members'>, roles: readonly CompanyRole[]): CompanyRole {
  if (roles.includes('owner') && !company.members.some((m) => m.companyRole === 'owner')) return 'owner';
  return roles.includes('crew') ? 'crew' : (roles[0] ?? 'crew');
}

/** Whether `member` is the company's only owner: they stay one until someone else is. */
export function isOnlyOwner(company: Pick<Company, 'members'>, member: Pick<Member, 'id' | 'companyRole'>): boolean {
  return member.companyRole === 'owner' && !company.members.some((m) => m.id !== member.id && m.companyRole === 'owner');
}

/** The server's words for it, shown before the request rather than after. */
export const NEEDS_AN_OWNER = 'A company needs an owner: make another member its owner first.';

/** What a member's row offers: a role change and a removal, for those who manage members. */
export function memberActions(
  abilities: CompanyAbilities,
  viewer: Viewer | null | undefined,
  company: Pick<Company, 'members'>,
  member: Pick<Member, 'id' | 'companyRole'>,
): { changeRole: boolean; remove: boolean } {
  if (!abilities.manageMembers) return { changeRole: false, remove: false };
  // Removing oneself would sign one out for good: an admin (or another owner) does it.
  const self = viewer?.id === member.id;
  return { changeRole: true, remove: !self && !isOnlyOwner(company, member) };
}

/** "Invited", "Last signed in 3 d ago", or "Never signed in". */
export function memberStatus(member: Pick<Member, 'invited' | 'lastSignInAt'>, now: number): string {
  if (member.invited) return 'Invited';
  if (member.lastSignInAt === null) return 'Never signed in';
  return `Last signed in ${relativeTime(member.lastSignInAt, now)}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The toast once a role is saved: "Dana Ortiz is now a manager", "Luis Romero now sees all projects". */
export function roleChangeMessage(before: Pick<Member, 'name' | 'companyRole' | 'allProjects'>, role: CompanyRole, allProjects: boolean): string {
  const article: Record<CompanyRole, string> = { owner: 'an owner', manager: 'a manager', crew: 'crew' };
  if (role !== before.companyRole) return `${before.name} is now ${article[role]}${role === 'crew' && allProjects ? ' who sees all projects' : ''}`;
  return allProjects ? `${before.name} now sees all projects` : `${before.name} now sees only the projects they are on`;
}

/** "Owner", "Crew · sees all projects". */
export function memberRoleLabel(member: Pick<Member, 'companyRole' | 'allProjects'>): string {
  const role = COMPANY_ROLE_LABELS[member.companyRole];
  return member.companyRole === 'crew' && member.allProjects ? `${role} · sees all projects` : role;
}

/** "3 members" (and how many of them have not signed in yet). */
export function membersSummary(company: Pick<Company, 'members'>): string {
  const invited = company.members.filter((m) => m.invited).length;
  const total = plural(company.members.length, 'member', 'members');
  return invited > 0 ? `${total}, ${invited} invited` : total;
}

export function projectsSummary(company: Pick<Company, 'projectCount'>): string {
  return plural(company.projectCount, 'project', 'projects');
}

/**
 * What the delete dialog says goes with a company: "Deleting Summit Homes also deletes
 * its 3 projects with their 14 photos and 3 member logins. This cannot be undone."
 */
export function companyDeletionSummary(name: string, impact: { projects: number; photos: number; members: number }): string {
  const parts: string[] = [];
  if (impact.projects > 0) {
    const photos = plural(impact.photos, 'photo', 'photos');
    parts.push(impact.projects === 1 ? `its 1 project with its ${photos}` : `its ${impact.projects} projects with their ${photos}`);
  }
  if (impact.members > 0) parts.push(plural(impact.members, 'member login', 'member logins'));
  if (parts.length === 0) return `${name} has no projects or members. This cannot be undone.`;
  const what = parts.length === 1 ? parts[0] : `${parts[0]} and ${parts[1]}`;
  return `Deleting ${name} also deletes ${parts[0].startsWith('its') ? what : `its ${what}`}. This cannot be undone.`;
}

/** A company's members matching a search box: name or email, any case (SPEC §2 Tables). */
export function companyMatches(company: Pick<Company, 'name' | 'members'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return company.name.toLowerCase().includes(q) || company.members.some((m) => m.name.toLowerCase().includes(q) || m.email.toLowerCase().includes(q));
}

// --- A project's crew ------------------------------------------------------------------

/** One of the company's crew as the crew dialog offers them. */
export interface CrewChoice {
  member: Member;
  /** on: on this project's crew; off: not; all: sees every project, nothing to toggle. */
  state: 'on' | 'off' | 'all';
}

/** The company's crew members, each on or off this project (or seeing all projects). */
export function crewChoices(company: Pick<Company, 'members'>, project: Pick<Project, 'crew'>): CrewChoice[] {
  return company.members
    .filter((m) => m.companyRole === 'crew')
    .map((member) => ({ member, state: member.allProjects ? 'all' : project.crew.includes(member.id) ? 'on' : 'off' }));
}

/**
 * The `set_project_crew` list once the dialog saves with `chosen` ticked: the chosen crew,
 * and whoever else the list already held that the dialog does not offer (a manager put on
 * it, crew who see all projects), so saving changes only what was shown.
 */
export function crewAfter(company: Pick<Company, 'members'>, project: Pick<Project, 'crew'>, chosen: ReadonlySet<string>): string[] {
  const offered = new Set(crewChoices(company, project).filter((c) => c.state !== 'all').map((c) => c.member.id));
  const kept = project.crew.filter((id) => !offered.has(id));
  const picked = [...offered].filter((id) => chosen.has(id));
  return [...new Set([...kept, ...picked])].sort();
}

/** Who works on the project beside its owners and managers: its crew, and crew who see all. */
export function projectCrew(company: Pick<Company, 'members'>, project: Pick<Project, 'crew'>): Member[] {
  return company.members.filter((m) => project.crew.includes(m.id) || (m.companyRole === 'crew' && m.allProjects));
}

/** "2 on the crew" / "No crew yet" under the Crew card's title. */
export function crewSummary(company: Pick<Company, 'members'>, project: Pick<Project, 'crew'>): string {
  const crew = projectCrew(company, project);
  if (crew.length === 0) return 'No crew on this project yet';
  return `${plural(crew.length, 'person', 'people')} on the crew`;
}
