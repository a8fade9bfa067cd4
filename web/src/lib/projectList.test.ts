import { describe, expect, it } from 'vitest';
import { project } from '../testing/fixtures';
import {
  DEFAULT_PROJECT_QUERY,
  filterByStatus,
  formatCount,
  listProjects,
  PROJECT_PAGE,
  readProjectQuery,
  searchProjects,
  showMore,
  shownFor,
  sortProjectList,
  statusCounts,
  writeProjectQuery,
} from './projectList';

const maple = project({
  id: 'maple',
  title: 'Maple Street Residence',
  address: '1428 Maple Street, Springfield',
  homeownerName: 'Jamie Carter',
  homeownerFirstName: 'Jamie',
  homeownerLastName: 'Carter',
  builderName: 'Summit Homes',
  status: 'in-progress',
  progress: 45,
  createdAt: 100,
  updatedAt: 900,
});
const cafe = project({
  id: 'cafe',
  title: 'Café Renovation',
  address: '9 Élysée Avenue',
  homeownerName: 'Zoë Brontë',
  homeownerFirstName: 'Zoë',
  homeownerLastName: 'Brontë',
  builderName: 'Åsa Builders',
  status: 'planning',
  progress: 5,
  createdAt: 300,
  updatedAt: 800,
});
const oak = project({
  id: 'oak',
  title: 'oak lane cottage',
  address: '77 Oak Lane',
  homeownerName: 'Ravi Patel',
  homeownerFirstName: null,
  homeownerLastName: null,
  builderName: null,
  status: 'completed',
  progress: 100,
  createdAt: 200,
  updatedAt: 700,
});
const barn = project({
  id: 'barn',
  title: 'Barn 10 Conversion',
  address: '2 Mill Road',
  homeownerName: 'Jamie Lee',
  homeownerFirstName: 'Jamie',
  homeownerLastName: 'Lee',
  builderName: 'Summit Homes',
  status: 'on-hold',
  progress: 45,
  createdAt: 50,
  updatedAt: 600,
});
const all = [maple, cafe, oak, barn];
const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe('searchProjects', () => {
  it('matches the title, the address, the homeowner and the builder company', () => {
    expect(ids(searchProjects(all, 'residence'))).toEqual(['maple']);
    expect(ids(searchProjects(all, 'springfield'))).toEqual(['maple']);
    expect(ids(searchProjects(all, '1428'))).toEqual(['maple']);
    expect(ids(searchProjects(all, 'patel'))).toEqual(['oak']);
    expect(ids(searchProjects(all, 'summit'))).toEqual(['maple', 'barn']);
  });

  it('ignores case and accents, both ways', () => {
    expect(ids(searchProjects(all, 'CAFE'))).toEqual(['cafe']);
    expect(ids(searchProjects(all, 'elysee'))).toEqual(['cafe']);
    expect(ids(searchProjects(all, 'zoe bronte'))).toEqual(['cafe']);
    expect(ids(searchProjects(all, 'asa'))).toEqual(['cafe']);
    expect(ids(searchProjects(all, 'ÓÄK'))).toEqual(['oak']);
  });

  it('needs every word to match, each at the start of a word', () => {
    expect(ids(searchProjects(all, 'jamie'))).toEqual(['maple', 'barn']);
    expect(ids(searchProjects(all, 'jamie carter'))).toEqual(['maple']);
    expect(ids(searchProjects(all, 'carter  jam'))).toEqual(['maple']);
    expect(ids(searchProjects(all, 'jamie patel'))).toEqual([]);
    expect(ids(searchProjects(all, 'aple'))).toEqual([]);
  });

  it('finds everything for an empty or blank search', () => {
    expect(ids(searchProjects(all, ''))).toEqual(ids(all));
    expect(ids(searchProjects(all, '  , '))).toEqual(ids(all));
  });
});

describe('status', () => {
  it('filters by one status, or none', () => {
    expect(ids(filterByStatus(all, 'completed'))).toEqual(['oak']);
    expect(ids(filterByStatus(all, 'on-hold'))).toEqual(['barn']);
    expect(ids(filterByStatus(all, 'all'))).toEqual(ids(all));
  });

  it('counts the projects of each status', () => {
    expect(statusCounts([...all, project({ id: 'x', status: 'completed' })])).toEqual({
      all: 5,
      planning: 1,
      'in-progress': 1,
      'on-hold': 1,
      completed: 2,
    });
  });

  it('counts what the search found, and the filter does not change the counts', () => {
    const { projects, counts } = listProjects(all, { q: 'summit', status: 'on-hold', sort: 'updated' });
    expect(ids(projects)).toEqual(['barn']);
    expect(counts).toEqual({ all: 2, planning: 0, 'in-progress': 1, 'on-hold': 1, completed: 0 });
  });
});

describe('sortProjectList', () => {
  const shuffled = [oak, barn, maple, cafe];

  it('puts the project updated last first by default', () => {
    expect(ids(sortProjectList(shuffled, 'updated'))).toEqual(['maple', 'cafe', 'oak', 'barn']);
  });

  it('sorts by name A–Z, ignoring case and accents, numbers by value', () => {
    const barn9 = project({ id: 'barn9', title: 'Barn 9 Conversion', updatedAt: 1 });
    expect(ids(sortProjectList([...shuffled, barn9], 'name'))).toEqual(['barn9', 'barn', 'cafe', 'maple', 'oak']);
  });

  it('sorts by progress, high to low, the project updated last first among equals', () => {
    expect(ids(sortProjectList(shuffled, 'progress'))).toEqual(['oak', 'maple', 'barn', 'cafe']);
  });

  it('sorts the newest project first', () => {
    expect(ids(sortProjectList(shuffled, 'newest'))).toEqual(['cafe', 'oak', 'maple', 'barn']);
  });

  it('leaves its input as it was', () => {
    sortProjectList(shuffled, 'name');
    expect(ids(shuffled)).toEqual(['oak', 'barn', 'maple', 'cafe']);
  });
});

describe('the URL', () => {
  it('reads the defaults from a bare URL, and from unknown values', () => {
    expect(readProjectQuery(new URLSearchParams())).toEqual(DEFAULT_PROJECT_QUERY);
    expect(readProjectQuery(new URLSearchParams('status=all&sort=size&view=table'))).toEqual(DEFAULT_PROJECT_QUERY);
  });

  it('reads every choice', () => {
    expect(readProjectQuery(new URLSearchParams('q=oak+lane&status=on-hold&sort=progress&view=list'))).toEqual({
      q: 'oak lane',
      status: 'on-hold',
      sort: 'progress',
      view: 'list',
    });
  });

  it("uses the device's view when the URL names none", () => {
    expect(readProjectQuery(new URLSearchParams(), 'list').view).toBe('list');
    expect(readProjectQuery(new URLSearchParams('view=grid'), 'list').view).toBe('grid');
  });

  it('writes only what differs from the defaults, and keeps other parameters', () => {
    const prev = new URLSearchParams('builderId=b1&q=old&sort=name');
    const next = writeProjectQuery(prev, { q: 'Café 9', status: 'completed', sort: 'updated', view: 'grid' });
    expect(next.toString()).toBe('builderId=b1&q=Caf%C3%A9+9&status=completed');
    expect(writeProjectQuery(next, { q: '   ', status: 'all' }).toString()).toBe('builderId=b1');
    expect(prev.toString()).toBe('builderId=b1&q=old&sort=name');
  });

  it('round-trips every choice', () => {
    const query = { q: 'zoë b', status: 'planning', sort: 'newest', view: 'list' } as const;
    expect(readProjectQuery(writeProjectQuery(new URLSearchParams(), query))).toEqual(query);
  });
});

describe('paging', () => {
  it('shows one page, then one more each time', () => {
    let paging = { key: 'a', shown: PROJECT_PAGE };
    expect(shownFor(paging, 'a')).toBe(60);
    paging = showMore(paging, 'a');
    expect(shownFor(paging, 'a')).toBe(120);
    expect(shownFor(showMore(paging, 'a'), 'a')).toBe(180);
  });

  it('starts again from the first page for another search, filter or sort', () => {
    const paging = showMore(showMore({ key: 'a', shown: PROJECT_PAGE }, 'a'), 'a');
    expect(shownFor(paging, 'b')).toBe(60);
    expect(shownFor(showMore(paging, 'b'), 'b')).toBe(120);
  });

  it('writes counts as en-US numbers', () => {
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(60)).toBe('60');
  });
});
