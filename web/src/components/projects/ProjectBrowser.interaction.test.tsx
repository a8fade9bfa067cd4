// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project, ProjectStatus } from '../../protocol/types';
import { project } from '../../testing/fixtures';
import { ProjectBrowser } from './ProjectBrowser';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const STATUSES: ProjectStatus[] = ['planning', 'in-progress', 'on-hold', 'completed'];
const many: Project[] = Array.from({ length: 1000 }, (_, i) =>
  project({ id: `p${i}`, title: `Project ${i}`, status: STATUSES[i % 4], updatedAt: 10_000 - i }),
);
const few = [
  project({ id: 'maple', title: 'Maple Street Residence', status: 'in-progress', updatedAt: 30 }),
  project({ id: 'cafe', title: 'Café Renovation', status: 'planning', updatedAt: 20 }),
  project({ id: 'oak', title: 'Oak Lane Cottage', status: 'completed', updatedAt: 10 }),
];

/** The IntersectionObservers the page made: a test says when their target comes into view. */
let observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
class FakeObserver {
  private entry: { callback: IntersectionObserverCallback; targets: Element[] };
  constructor(callback: IntersectionObserverCallback) {
    this.entry = { callback, targets: [] };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.push(target);
  }
  disconnect() {
    observers = observers.filter((o) => o !== this.entry);
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
}

let host: HTMLDivElement;
let root: Root | null = null;
let location = '';
let navigate: NavigateFunction = () => undefined;

function Where() {
  const at = useLocation();
  location = `${at.pathname}${at.search}`;
  navigate = useNavigate();
  return null;
}

function render(projects: Project[], url = '/projects') {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() =>
    root!.render(
      <MemoryRouter initialEntries={[url]}>
        <ProjectBrowser projects={projects} />
        <Where />
      </MemoryRouter>,
    ),
  );
}

const rows = () => host.querySelectorAll('[data-testid="project-row"]').length;
const cards = () => host.querySelectorAll('[data-testid="project-card"]').length;
const searchBox = () => host.querySelector<HTMLInputElement>('input[aria-label="Search projects"]')!;
const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent?.trim() === name || b.getAttribute('aria-label') === name);

/** Types as a user does: React hears the input event, not a bare value change. */
function type(input: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function choose(select: HTMLSelectElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

beforeEach(() => {
  observers = [];
  globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
  localStorage.clear();
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host.remove();
});

describe('ProjectBrowser, used', () => {
  it('narrows the list as a search is typed, and keeps the search in the URL', () => {
    render(few, '/homeowner/h1/projects?builderId=b1');
    expect(cards()).toBe(3);
    type(searchBox(), 'cafe ren');
    expect(cards()).toBe(1);
    expect(host.textContent).toContain('Café Renovation');
    expect(location).toBe('/homeowner/h1/projects?builderId=b1&q=cafe+ren');
    type(searchBox(), '');
    expect(cards()).toBe(3);
    expect(location).toBe('/homeowner/h1/projects?builderId=b1');
  });

  it('puts the status, sort and view chosen in the URL, and leaves the defaults out', () => {
    render(few);
    act(() => host.querySelector<HTMLInputElement>('input[type="radio"][value="completed"]')!.click());
    expect(location).toBe('/projects?status=completed');
    expect(cards()).toBe(1);
    choose(host.querySelector('select')!, 'name');
    expect(location).toBe('/projects?status=completed&sort=name');
    act(() => button('List view')!.click());
    expect(location).toBe('/projects?status=completed&sort=name&view=list');
    expect(rows()).toBe(1);
    expect(button('List view')!.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem('projectsView')).toBe('list');
    act(() => host.querySelector<HTMLInputElement>('input[type="radio"][value="all"]')!.click());
    choose(host.querySelector('select')!, 'updated');
    act(() => button('Grid view')!.click());
    expect(location).toBe('/projects');
  });

  it('takes in a search the box did not write (a link, Back)', () => {
    render(few, '/projects?q=residence');
    expect(cards()).toBe(1);
    act(() => navigate('/projects?q=oak'));
    expect(searchBox().value).toBe('oak');
    expect(host.textContent).toContain('Oak Lane Cottage');
    act(() => navigate('/projects'));
    expect(searchBox().value).toBe('');
    expect(cards()).toBe(3);
  });

  it('opens in the view this device chose last when the link names none', () => {
    localStorage.setItem('projectsView', 'list');
    render(few);
    expect(rows()).toBe(3);
  });

  it('draws 60 of 1,000 projects, then 120 when "Show more" is pressed, focusing the 61st', () => {
    render(many, '/projects?view=list');
    expect(rows()).toBe(60);
    expect(host.textContent).toContain('Showing 60 of 1,000');
    act(() => button('Show more')!.click());
    expect(rows()).toBe(120);
    expect(host.textContent).toContain('Showing 120 of 1,000');
    expect(document.activeElement?.textContent).toBe('Project 60');
  });

  it('draws the next page when the end of the list comes into view', () => {
    render(many);
    expect(cards()).toBe(60);
    const [sentinel] = observers;
    expect(sentinel.targets).toHaveLength(1);
    act(() => sentinel.callback([{ isIntersecting: true, target: sentinel.targets[0] } as IntersectionObserverEntry], sentinel as unknown as IntersectionObserver));
    expect(cards()).toBe(120);
  });

  it('starts again from the first 60 when the filter or the sort changes', () => {
    render(many, '/projects?view=list');
    act(() => button('Show more')!.click());
    expect(rows()).toBe(120);
    choose(host.querySelector('select')!, 'name');
    expect(rows()).toBe(60);
    act(() => button('Show more')!.click());
    act(() => host.querySelector<HTMLInputElement>('input[type="radio"][value="planning"]')!.click());
    expect(rows()).toBe(60);
    expect(host.textContent).toContain('Showing 60 of 250');
  });

  it('offers to clear a search that finds nothing, and clears it', () => {
    render(few, '/projects?q=nowhere&status=planning&sort=name');
    expect(host.textContent).toContain('No projects match your search.');
    act(() => button('Clear filters')!.click());
    expect(cards()).toBe(3);
    expect(searchBox().value).toBe('');
    expect(document.activeElement).toBe(searchBox());
    expect(location).toBe('/projects?sort=name');
  });
});
