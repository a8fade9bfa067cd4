import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Project, ProjectStatus } from '../../protocol/types';
import { project } from '../../testing/fixtures';
import { ProjectBrowser } from './ProjectBrowser';
import { ProjectList } from './ProjectList';

const noop = () => undefined;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const count = (html: string, needle: string) => html.split(needle).length - 1;
const rows = (html: string) => count(html, 'data-testid="project-row"');
const cards = (html: string) => count(html, 'data-testid="project-card"');
/** The titles of the rows or cards, in order. */
const titles = (html: string) => [...html.matchAll(/href="\/projects\/([^"]+)"/g)].map((m) => m[1]);

const maple = project({ id: 'maple', title: 'Maple Street Residence', address: '1428 Maple Street', status: 'in-progress', progress: 45, updatedAt: 900, createdAt: 1 });
const cafe = project({
  id: 'cafe',
  title: 'Café Renovation',
  address: '9 Élysée Avenue',
  homeownerName: 'Zoë Brontë',
  homeownerFirstName: 'Zoë',
  homeownerLastName: 'Brontë',
  status: 'planning',
  progress: 5,
  updatedAt: 800,
  createdAt: 3,
});
const oak = project({ id: 'oak', title: 'Oak Lane Cottage', address: '77 Oak Lane', status: 'completed', progress: 100, updatedAt: 700, createdAt: 2 });
const few = [maple, cafe, oak];

const STATUSES: ProjectStatus[] = ['planning', 'in-progress', 'on-hold', 'completed'];
const many: Project[] = Array.from({ length: 1000 }, (_, i) =>
  project({ id: `p${i}`, title: `Project ${i}`, status: STATUSES[i % 4], updatedAt: 10_000 - i }),
);

function render(projects: Project[], url = '/projects', onAdd?: () => void) {
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <ProjectBrowser projects={projects} onAdd={onAdd} />
    </MemoryRouter>,
  );
}

describe('ProjectBrowser', () => {
  it('shows every project as a card, in the store order, under the toolbar by default', () => {
    const html = render(few, '/projects', noop);
    expect(cards(html)).toBe(3);
    expect(rows(html)).toBe(0);
    expect(titles(html)).toEqual(['maple', 'cafe', 'oak']);
    expect(html).toContain('aria-label="Search projects"');
    expect(html).toMatch(/aria-label="Grid view" title="Grid view" aria-pressed="true"/);
    expect(html).toMatch(/aria-label="List view" title="List view" aria-pressed="false"/);
    expect(text(html)).toContain('Add New Project');
    expect(text(html)).not.toContain('Showing');
  });

  it('counts each status in the filter', () => {
    const html = text(render(many));
    expect(html).toContain('All 1,000');
    expect(html).toContain('Planning 250');
    expect(html).toContain('In Progress 250');
    expect(html).toContain('On Hold 250');
    expect(html).toContain('Completed 250');
  });

  it('narrows the list to what the search in the URL finds, accents and case aside', () => {
    const html = render(few, '/projects?q=CAFE');
    expect(titles(html)).toEqual(['cafe']);
    expect(html).toContain('value="CAFE"');
    expect(text(html)).toContain('1 match');
    expect(text(html)).toContain('All 1');
  });

  it('takes every choice from the URL, so a reload or a shared link shows the same list', () => {
    const mapleDone = project({ id: 'maple-done', title: 'Maple Barn', status: 'completed', updatedAt: 1000 });
    const html = render([...few, mapleDone], '/homeowner/h1/projects?builderId=b1&q=jamie&status=completed&sort=name&view=list');
    expect(rows(html)).toBe(2);
    expect(cards(html)).toBe(0);
    expect(titles(html)).toEqual(['maple-done', 'oak']);
    expect(html).toContain('value="jamie"');
    expect(html).toMatch(/<input type="radio"[^>]* checked=""[^>]* value="completed"/);
    expect(count(html, 'checked=""')).toBe(1);
    expect(html).toMatch(/<option value="name" selected="">Name A–Z<\/option>/);
    expect(html).toMatch(/aria-label="List view" title="List view" aria-pressed="true"/);
    expect(text(html)).toContain('2 matches');
  });

  it('draws 60 of 1,000 projects at first, with a line saying so and a "Show more" button', () => {
    const grid = render(many);
    expect(cards(grid)).toBe(60);
    expect(text(grid)).toContain('Showing 60 of 1,000');
    expect(text(grid)).toContain('Show more');
    const list = render(many, '/projects?view=list');
    expect(rows(list)).toBe(60);
    expect(titles(list)[59]).toBe('p59');
  });

  it('keeps the "Add New Project" card for the end of the whole list', () => {
    expect(text(render(many, '/projects', noop))).not.toContain('Add New Project');
  });

  it('pages what the filter leaves, and stops the paging when it all fits', () => {
    const html = render(many, '/projects?status=on-hold&view=list');
    expect(rows(html)).toBe(60);
    expect(text(html)).toContain('Showing 60 of 250');
    const narrow = render(many, '/projects?q=project+99&view=list');
    // A word must start with "99": "Project 990" is found, "Project 199" is not.
    expect(titles(narrow)).toEqual(['p99', 'p990', 'p991', 'p992', 'p993', 'p994', 'p995', 'p996', 'p997', 'p998', 'p999']);
    expect(text(narrow)).not.toContain('Show more');
  });

  it('says when nothing matches, with a way out', () => {
    const html = text(render(few, '/projects?q=nowhere'));
    expect(html).toContain('No projects match your search.');
    expect(html).toContain('Clear filters');
    expect(html).toContain('0 matches');
  });

  it('keeps the empty grid, without a toolbar, when there is no project at all', () => {
    const html = render([], '/projects', noop);
    expect(html).not.toContain('Search projects');
    expect(text(html)).toContain('No projects found');
    expect(text(html)).toContain('Add New Project');
  });
});

describe('ProjectList', () => {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <ProjectList projects={[cafe, project({ id: 'bare', title: 'Bare Lot', thumbnailUrl: '/media/t.jpg', updatedAt: Date.UTC(2025, 2, 4, 12) })]} />
    </MemoryRouter>,
  );

  it('is a list of rows, each a link named by the project title', () => {
    expect(html).toMatch(/^<ul aria-label="Projects"/);
    expect(count(html, '<li ')).toBe(2);
    expect(html).toMatch(/<a [^>]*href="\/projects\/cafe"[^>]*>Café Renovation<\/a>/);
    expect(html).toMatch(/<a [^>]*href="\/projects\/bare"[^>]*>Bare Lot<\/a>/);
  });

  it('shows the address, homeowner, status, progress and the date of the last update', () => {
    const row = text(html);
    expect(row).toContain('9 Élysée Avenue');
    expect(row).toContain('Zoë Brontë');
    expect(row).toContain('Planning');
    expect(html).toContain('aria-valuenow="5"');
    expect(row).toContain('5%');
    expect(row).toContain('Updated Mar 4, 2025');
  });

  it('shows the thumbnail, or a placeholder', () => {
    expect(count(html, '<img')).toBe(1);
    expect(html).toContain('src="/media/t.jpg" alt=""');
  });
});
