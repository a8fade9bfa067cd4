import { describe, expect, it } from 'vitest';
import { deletionSummary, namesMatch, projectsTitle } from './people';
import { profile } from '../testing/fixtures';

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
