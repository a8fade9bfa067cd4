// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateProject, ListUsers, Project } from '../../protocol/types';
import { useAppStore } from '../../store';
import type { UserPage } from '../../sync/commands';
import { profile, project } from '../../testing/fixtures';
import { dialogLibrary } from '../ui/radixLibraries';
import { SEARCH_DEBOUNCE_MS } from '../useUserPage';
import { ProjectFormDialog } from './ProjectFormDialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const fake = vi.hoisted(() => ({
  /** Each homeowner search sent, answered from `homeowners` by the server's rule. */
  searches: [] as ListUsers[],
  created: [] as CreateProject[],
  homeowners: [] as { id: string; name: string; email: string }[],
}));
vi.mock('../../lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn(), warning: vi.fn() } }));
vi.mock('../../sync/commands', async () => {
  const { profile: person } = await import('../../testing/fixtures');
  return {
    commands: {
      listUsers: async (input: ListUsers): Promise<UserPage> => {
        fake.searches.push(input);
        const q = input.query.toLowerCase();
        const hits = fake.homeowners.filter((h) => h.name.toLowerCase().includes(q) || h.email.toLowerCase().includes(q));
        return {
          type: 'user_page',
          role: 'homeowner',
          listings: hits.slice(0, 50).map((h) => ({ user: person(h), projectCount: 0, builderName: null })),
          total: hits.length,
          page: 0,
          pageSize: 50,
          counts: { admins: 0, builders: 0, homeowners: fake.homeowners.length },
        };
      },
      createProject: async (input: CreateProject) => {
        fake.created.push(input);
        return { id: 'new' };
      },
    },
  };
});

let host: HTMLDivElement;
let root: Root;

async function open(props: { project?: Project; defaultHomeownerId?: string } = {}) {
  await act(async () =>
    root.render(
      <MemoryRouter>
        <ProjectFormDialog {...props} onClose={() => undefined} />
      </MemoryRouter>,
    ),
  );
}

const dialog = () => document.querySelector('[role="dialog"]') as HTMLElement;
const search = () => dialog().querySelector('input[type="search"]') as HTMLInputElement;
const picker = () => [...dialog().querySelectorAll('select')].find((s) => s.labels?.[0]?.textContent === 'Homeowner') as HTMLSelectElement;
const options = () => [...picker().querySelectorAll('option:not([disabled])')].map((o) => o.textContent);
const chosen = () => picker().selectedOptions[0]?.textContent;
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 50)));

function type(input: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

beforeAll(async () => {
  await dialogLibrary.load();
});

beforeEach(() => {
  fake.searches.length = 0;
  fake.created.length = 0;
  fake.homeowners = Array.from({ length: 60 }, (_, i) => ({ id: `h${i}`, name: `Person ${String(i).padStart(2, '0')}`, email: `p${i}@example.com` }));
  fake.homeowners.push({ id: 'jamie', name: 'Jamie Carter', email: 'jamie@example.com' });
  useAppStore.setState({ users: {}, projects: {} });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the homeowner picker', () => {
  it('lists the first page of homeowners from the server, and says when there are more', async () => {
    await open();
    expect(fake.searches[0]).toEqual({ role: 'homeowner', query: '', sort: 'name', descending: false, page: 0 });
    expect(options()).toHaveLength(50);
    expect(dialog().textContent).toContain('The list holds the first 50 of 61 homeowners');
  });

  it('searches the server from a labelled box and chooses a single match', async () => {
    await open();
    expect(search().getAttribute('aria-label')).toBe('Search by name or email');
    type(search(), 'JAMIE');
    await settle();
    expect(fake.searches.at(-1)?.query).toBe('JAMIE');
    expect(options()).toEqual(['Jamie Carter']);
    expect(chosen()).toBe('Jamie Carter');
    expect(dialog().textContent).toContain('1 match');
    // Another search keeps the chosen one listed.
    type(search(), 'Person 0');
    await settle();
    expect(options()).toEqual(['Jamie Carter', ...Array.from({ length: 10 }, (_, i) => `Person 0${i}`)]);
    expect(chosen()).toBe('Jamie Carter');
    expect(dialog().textContent).toContain('10 matches');
  });

  it("keeps an edited project's homeowner, named as the project names them, though no page lists them", async () => {
    const edited = project({ id: 'p1', homeownerId: 'gone-from-page', homeownerName: 'Priya Shah' });
    await open({ project: edited });
    expect(options()[0]).toBe('Priya Shah');
    expect(chosen()).toBe('Priya Shah');
  });

  it("names a homeowner given by the page from the store's projects when the store does not hold them", async () => {
    useAppStore.setState({ projects: { p1: project({ id: 'p1', homeownerId: 'h-far', homeownerName: 'Zed Far' }) } });
    await open({ defaultHomeownerId: 'h-far' });
    expect(chosen()).toBe('Zed Far');
    useAppStore.setState({ users: { 'h-held': profile({ id: 'h-held', name: 'Held Person' }) } });
    act(() => root.unmount());
    root = createRoot(host);
    await open({ defaultHomeownerId: 'h-held' });
    expect(chosen()).toBe('Held Person');
  });

  it('creates a project for a homeowner the store does not hold (the server checks they exist)', async () => {
    await open();
    type(search(), 'jamie@');
    await settle();
    const field = (label: string) => [...dialog().querySelectorAll('input')].find((i) => i.labels?.[0]?.textContent?.startsWith(label)) as HTMLInputElement;
    type(field('Title'), 'Maple Street');
    type(field('Address'), '1 Maple Street');
    await act(async () => (dialog().querySelector('form') as HTMLFormElement).requestSubmit());
    expect(fake.created).toHaveLength(1);
    expect(fake.created[0].homeownerId).toBe('jamie');
  });
});
