import { describe, expect, it } from 'vitest';
import type { Project } from '../protocol/types';
import { deletionSummary, matchesSearch, namesMatch, projectsTitle, userDirectory } from './people';
import { profile } from '../testing/fixtures';

const project = (over: Partial<Project>): Project => ({
  id: 'p',
  title: 'T',
  description: '',
  address: 'A',
  homeownerId: 'h1',
  homeownerName: 'H',
  homeownerFirstName: null,
  homeownerLastName: null,
  builderId: null,
  builderName: null,
  crew: [],
  status: 'in-progress',
  progress: 0,
  progressMode: 'manual',
  thumbnailUrl: null,
  thumbnailPinned: false,
  createdAt: 0,
  updatedAt: 0,
  version: 1,
  ...over,
});

describe('matchesSearch', () => {
  const jamie = profile({ firstName: 'Jamie', lastName: 'Carter', name: 'Jamie Carter', email: 'Homeowner@Sitecast.demo' });
  it('matches name or email case-insensitively, as a substring', () => {
    expect(matchesSearch(jamie, 'CART')).toBe(true);
    expect(matchesSearch(jamie, 'sitecast.DEMO')).toBe(true);
    expect(matchesSearch(jamie, 'priya')).toBe(false);
    expect(matchesSearch(jamie, '  ')).toBe(true);
  });
});

describe('projectsTitle', () => {
  it('uses the first name, else the name', () => {
    expect(projectsTitle(profile({ firstName: 'Jamie', name: 'Jamie Carter' }))).toBe("Jamie's Projects");
    expect(projectsTitle(profile({ role: 'builder', name: 'Summit Homes' }))).toBe("Summit Homes' Projects");
    expect(projectsTitle(null)).toBe('Projects');
  });

  it('writes the possessive of a name ending in s without another s', () => {
    expect(projectsTitle(profile({ firstName: 'James', name: 'James Hart' }))).toBe("James' Projects");
    expect(projectsTitle(profile({ role: 'builder', name: 'ACC builders' }))).toBe("ACC builders' Projects");
    expect(projectsTitle(profile({ role: 'builder', name: 'Oak & Co' }))).toBe("Oak & Co's Projects");
  });
});

describe('userDirectory', () => {
  it('groups by role, counts projects and finds a homeowner\'s builder', () => {
    const self = profile({ id: 'a1', role: 'admin', name: 'Alex' });
    const users = {
      h1: profile({ id: 'h1', name: 'Jamie', builderId: 'b1' }),
      h2: profile({ id: 'h2', name: 'Priya' }),
      b1: profile({ id: 'b1', role: 'builder', name: 'Summit Homes', companyId: 'c1', companyRole: 'owner' }),
      k1: profile({ id: 'k1', role: 'builder', name: 'Luis Romero', companyId: 'c1', companyRole: 'crew' }),
    };
    const projects = [
      project({ id: 'p1', homeownerId: 'h1', builderId: 'c1', builderName: 'Summit Homes', crew: ['k1'] }),
      project({ id: 'p2', homeownerId: 'h1' }),
      project({ id: 'p3', homeownerId: 'h2', builderId: 'c1', builderName: 'Summit Homes' }),
    ];
    const dir = userDirectory(self, users, projects);
    expect(dir.admins.map((l) => l.user.id)).toEqual(['a1']);
    // A builder's projects are their company's they work on: all for its
    // owner, those on whose crew they are for crew.
    expect(dir.builders.map((l) => [l.user.id, l.projectCount])).toEqual([
      ['k1', 1],
      ['b1', 2],
    ]);
    expect(dir.homeowners.map((l) => [l.user.id, l.projectCount, l.builderName])).toEqual([
      ['h1', 2, 'Summit Homes'],
      ['h2', 1, 'Summit Homes'],
    ]);
  });
});

describe('deleting a person', () => {
  it('says what goes with them', () => {
    expect(deletionSummary(0, 0)).toBe('They have no projects or photos.');
    expect(deletionSummary(1, 0)).toBe('1 project and 0 photos will be deleted with them.');
    expect(deletionSummary(3, 1)).toBe('3 projects and 1 photo will be deleted with them.');
  });

  it('accepts the typed name whatever the case and spacing, and nothing else', () => {
    expect(namesMatch('  jamie   CARTER ', 'Jamie Carter')).toBe(true);
    expect(namesMatch('Jamie', 'Jamie Carter')).toBe(false);
    expect(namesMatch('', '')).toBe(false);
  });
});
