import { describe, expect, it } from 'vitest';
import type { CompanyRole } from '../protocol/types';
import { company, member, project } from '../testing/fixtures';
import {
  companyAbilities,
  companyDeletionSummary,
  companyMatches,
  crewAfter,
  crewChoices,
  crewSummary,
  defaultInviteRole,
  editsHomeowners,
  isOnlyOwner,
  memberActions,
  memberRoleLabel,
  memberStatus,
  projectAbilities,
  projectCrew,
  projectStanding,
  roleChangeMessage,
  yourRole,
} from './companyRules';

const inCompany = (id: string, companyRole: CompanyRole, companyId = 'c1', allProjects = false) => ({
  id,
  role: 'builder' as const,
  companyId,
  companyRole,
  allProjects,
});
const admin = { id: 'a1', role: 'admin' as const };
const homeowner = { id: 'h1', role: 'homeowner' as const };

// Maple Street, built by c1 (Summit Homes), with k1 on its crew.
const maple = project({ builderId: 'c1', homeownerId: 'h1', crew: ['k1'] });

describe('how someone stands to a project', () => {
  it('owners and managers of its company lead it; crew work on it when on its crew or seeing all', () => {
    expect(projectStanding(admin, maple)).toBe('admin');
    expect(projectStanding(inCompany('o1', 'owner'), maple)).toBe('lead');
    expect(projectStanding(inCompany('m1', 'manager'), maple)).toBe('lead');
    expect(projectStanding(inCompany('k1', 'crew'), maple)).toBe('crew');
    expect(projectStanding(inCompany('k2', 'crew'), maple)).toBe('none');
    expect(projectStanding(inCompany('k3', 'crew', 'c1', true), maple)).toBe('crew');
    expect(projectStanding(homeowner, maple)).toBe('homeowner');
  });

  it('gives nothing to another company, another homeowner, a builder without a company, or nobody', () => {
    expect(projectStanding(inCompany('o2', 'owner', 'c2'), maple)).toBe('none');
    expect(projectStanding({ id: 'h2', role: 'homeowner' }, maple)).toBe('none');
    // Removed from their company: no company id, whatever their old role.
    expect(projectStanding({ id: 'k1', role: 'builder', companyId: null, companyRole: null, allProjects: false }, maple)).toBe('none');
    expect(projectStanding(null, maple)).toBe('none');
    // A project without a builder is no member's.
    expect(projectStanding(inCompany('o1', 'owner'), { ...maple, builderId: null })).toBe('none');
  });
});

describe('what a project page offers', () => {
  it('leads and admins everything a builder could do, and the crew', () => {
    for (const standing of ['admin', 'lead'] as const) {
      expect(projectAbilities(standing)).toEqual({
        editDetails: true,
        editMilestones: true,
        share: true,
        mailReports: true,
        documentPhotos: true,
        assignCrew: true,
      });
    }
  });

  it('crew document the build but do not edit details or milestones, share, mail or pick the crew', () => {
    expect(projectAbilities('crew')).toEqual({
      editDetails: false,
      editMilestones: false,
      share: false,
      mailReports: false,
      documentPhotos: true,
      assignCrew: false,
    });
  });

  it('the homeowner only shares; a stranger gets nothing', () => {
    expect(projectAbilities('homeowner')).toMatchObject({ share: true, editDetails: false, documentPhotos: false, assignCrew: false });
    expect(Object.values(projectAbilities('none')).some(Boolean)).toBe(false);
  });
});

describe('editing the homeowners one sees', () => {
  it('admins, owners and managers; not crew, homeowners or a builder without a company', () => {
    expect(editsHomeowners(admin)).toBe(true);
    expect(editsHomeowners(inCompany('o1', 'owner'))).toBe(true);
    expect(editsHomeowners(inCompany('m1', 'manager'))).toBe(true);
    expect(editsHomeowners(inCompany('k1', 'crew', 'c1', true))).toBe(false);
    expect(editsHomeowners(homeowner)).toBe(false);
    expect(editsHomeowners({ id: 'b9', role: 'builder', companyId: null, companyRole: null })).toBe(false);
  });
});

describe('what the company screens offer', () => {
  const summit = company({});

  it('admins everything, anywhere, deleting included', () => {
    expect(companyAbilities(admin, summit)).toEqual({ rename: true, invite: ['owner', 'manager', 'crew'], manageMembers: true, delete: true });
  });

  it('its owner renames, invites any role and manages members, but does not delete it', () => {
    expect(companyAbilities(inCompany('o1', 'owner'), summit)).toEqual({ rename: true, invite: ['owner', 'manager', 'crew'], manageMembers: true, delete: false });
  });

  it('a manager only invites crew; crew only look', () => {
    expect(companyAbilities(inCompany('m1', 'manager'), summit)).toEqual({ rename: false, invite: ['crew'], manageMembers: false, delete: false });
    expect(companyAbilities(inCompany('k1', 'crew'), summit)).toEqual({ rename: false, invite: [], manageMembers: false, delete: false });
  });

  it('nothing in another company, nor for homeowners or nobody', () => {
    const none = { rename: false, invite: [], manageMembers: false, delete: false };
    expect(companyAbilities(inCompany('o2', 'owner', 'c2'), summit)).toEqual(none);
    expect(companyAbilities(homeowner, summit)).toEqual(none);
    expect(companyAbilities(null, summit)).toEqual(none);
  });
});

describe('an invitation', () => {
  it('starts on owner for a company without one, else on crew', () => {
    const all = ['owner', 'manager', 'crew'] as const;
    expect(defaultInviteRole(company({ members: [] }), all)).toBe('owner');
    expect(defaultInviteRole(company({}), all)).toBe('crew');
    // A manager invites crew only, owner or not.
    expect(defaultInviteRole(company({ members: [] }), ['crew'])).toBe('crew');
  });
});

describe('a member row', () => {
  const summit = company({});
  const [owner, manager, crew] = summit.members;

  it('the only owner stays one: no removal, and the role dialog says why', () => {
    expect(isOnlyOwner(summit, owner)).toBe(true);
    expect(isOnlyOwner(summit, manager)).toBe(false);
    const twoOwners = company({ members: [...summit.members, member({ id: 'o2', companyRole: 'owner' })] });
    expect(isOnlyOwner(twoOwners, owner)).toBe(false);
  });

  it('owners and admins change roles and remove others; nobody removes themself here', () => {
    const asOwner = companyAbilities(inCompany('o1', 'owner'), summit);
    expect(memberActions(asOwner, inCompany('o1', 'owner'), summit, crew)).toEqual({ changeRole: true, remove: true });
    expect(memberActions(asOwner, inCompany('o1', 'owner'), summit, owner)).toEqual({ changeRole: true, remove: false });
    expect(memberActions(companyAbilities(admin, summit), admin, summit, owner)).toEqual({ changeRole: true, remove: false });
    expect(memberActions(companyAbilities(admin, summit), admin, summit, manager)).toEqual({ changeRole: true, remove: true });
    const asManager = companyAbilities(inCompany('m1', 'manager'), summit);
    expect(memberActions(asManager, inCompany('m1', 'manager'), summit, crew)).toEqual({ changeRole: false, remove: false });
  });

  it('says whether they signed in, and their role', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    expect(memberStatus(member({ invited: true }), now)).toBe('Invited');
    expect(memberStatus(member({ lastSignInAt: null }), now)).toBe('Never signed in');
    expect(memberStatus(member({ lastSignInAt: now - 3 * 3600_000 }), now)).toBe('Last signed in 3 h ago');
    expect(memberRoleLabel(member({ companyRole: 'crew', allProjects: true }))).toBe('Crew · sees all projects');
    expect(memberRoleLabel(member({ companyRole: 'crew' }))).toBe('Crew');
    // Only crew are limited to some projects: the flag means nothing for the others.
    expect(memberRoleLabel(member({ companyRole: 'manager', allProjects: true }))).toBe('Manager');
  });
});

describe('the Company page', () => {
  it('tells its viewer what their role lets them do', () => {
    expect(yourRole({ companyRole: 'owner', allProjects: false })).toMatch(/^You own this company/);
    expect(yourRole({ companyRole: 'manager', allProjects: false })).toMatch(/invite crew/);
    expect(yourRole({ companyRole: 'crew', allProjects: false })).toBe('You are crew: you work on the projects you are put on.');
    expect(yourRole({ companyRole: 'crew', allProjects: true })).toBe('You are crew: you work on every project of the company.');
    expect(yourRole({ companyRole: null, allProjects: false })).toBe('');
  });
});

describe('the toast after a role change', () => {
  it('says the new role, or what crew now see', () => {
    const luis = member({ name: 'Luis Romero' });
    expect(roleChangeMessage(luis, 'manager', false)).toBe('Luis Romero is now a manager');
    expect(roleChangeMessage(member({ name: 'Dana Ortiz', companyRole: 'manager' }), 'crew', true)).toBe('Dana Ortiz is now crew who sees all projects');
    expect(roleChangeMessage(luis, 'owner', false)).toBe('Luis Romero is now an owner');
    expect(roleChangeMessage(luis, 'crew', true)).toBe('Luis Romero now sees all projects');
    expect(roleChangeMessage(member({ name: 'Luis Romero', allProjects: true }), 'crew', false)).toBe('Luis Romero now sees only the projects they are on');
  });
});

describe('the delete dialog', () => {
  it('says what goes with the company', () => {
    expect(companyDeletionSummary('Summit Homes', { projects: 3, photos: 14, members: 3 })).toBe(
      'Deleting Summit Homes also deletes its 3 projects with their 14 photos and 3 member logins. This cannot be undone.',
    );
    expect(companyDeletionSummary('Birch & Co', { projects: 1, photos: 1, members: 1 })).toBe(
      'Deleting Birch & Co also deletes its 1 project with its 1 photo and 1 member login. This cannot be undone.',
    );
    expect(companyDeletionSummary('Birch & Co', { projects: 0, photos: 0, members: 2 })).toBe(
      'Deleting Birch & Co also deletes its 2 member logins. This cannot be undone.',
    );
    expect(companyDeletionSummary('Birch & Co', { projects: 2, photos: 0, members: 0 })).toBe(
      'Deleting Birch & Co also deletes its 2 projects with their 0 photos. This cannot be undone.',
    );
    expect(companyDeletionSummary('Birch & Co', { projects: 0, photos: 0, members: 0 })).toBe('Birch & Co has no projects or members. This cannot be undone.');
  });
});

describe('searching companies', () => {
  it('matches the company name or a member’s name or email, any case', () => {
    const summit = company({});
    expect(companyMatches(summit, '')).toBe(true);
    expect(companyMatches(summit, 'summit')).toBe(true);
    expect(companyMatches(summit, 'DANA')).toBe(true);
    expect(companyMatches(summit, 'luis.romero@')).toBe(true);
    expect(companyMatches(summit, 'birch')).toBe(false);
  });
});

describe('a project’s crew', () => {
  const summit = company({
    members: [
      member({ id: 'o1', companyRole: 'owner' }),
      member({ id: 'm1', companyRole: 'manager' }),
      member({ id: 'k1', name: 'Luis Romero' }),
      member({ id: 'k2', name: 'Ana Diaz' }),
      member({ id: 'k3', name: 'Sam Lee', allProjects: true }),
    ],
  });

  it('offers the company’s crew, each on or off; crew who see all projects are not toggled', () => {
    const choices = crewChoices(summit, project({ crew: ['k1'] }));
    expect(choices.map((c) => [c.member.id, c.state])).toEqual([
      ['k1', 'on'],
      ['k2', 'off'],
      ['k3', 'all'],
    ]);
  });

  it('saves the ticked crew and keeps what the dialog did not show', () => {
    // A manager put on the crew elsewhere, and k3 (who sees all) listed on it too.
    const maple = project({ crew: ['k1', 'm1', 'k3'] });
    expect(crewAfter(summit, maple, new Set(['k2']))).toEqual(['k2', 'k3', 'm1']);
    expect(crewAfter(summit, maple, new Set(['k1', 'k2']))).toEqual(['k1', 'k2', 'k3', 'm1']);
    // Ticking someone the dialog does not offer changes nothing.
    expect(crewAfter(summit, project({ crew: [] }), new Set(['o1']))).toEqual([]);
  });

  it('lists who works on it beside its leads, and says how many', () => {
    expect(projectCrew(summit, project({ crew: ['k1'] })).map((m) => m.id)).toEqual(['k1', 'k3']);
    expect(crewSummary(summit, project({ crew: ['k1'] }))).toBe('2 people on the crew');
    const noneSeeAll = company({ members: [member({ id: 'k1' })] });
    expect(crewSummary(noneSeeAll, project({ crew: ['k1'] }))).toBe('1 person on the crew');
    expect(crewSummary(noneSeeAll, project({ crew: [] }))).toBe('No crew on this project yet');
  });
});
