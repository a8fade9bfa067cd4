// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListUsers, UserCounts } from '../protocol/types';
import type { UserPage } from '../sync/commands';
import { RequestError } from '../sync/requests';
import { profile } from '../testing/fixtures';
import { UserTable } from './UserTables';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Sent {
  input: ListUsers;
  answer: (reply: UserPage) => Promise<void>;
  fail: (error: Error) => Promise<void>;
}
const sent = vi.hoisted(() => [] as Sent[]);
vi.mock('../sync/commands', () => ({
  commands: {
    listUsers: (input: ListUsers) =>
      new Promise<UserPage>((resolve, reject) => {
        sent.push({ input, answer: (reply) => act(async () => resolve(reply)), fail: (error) => act(async () => reject(error)) });
      }),
  },
}));

const admin = profile({ id: 'me', role: 'admin', name: 'Alex Admin', email: 'alex@example.com' });
const counts: UserCounts = { admins: 2, builders: 5, homeowners: 120 };

/** Page `page` of 120 homeowners, 50 to a page, as the server answers it. */
function homeowners(page: number, total = 120): UserPage {
  const first = page * 50;
  const listings = Array.from({ length: Math.max(0, Math.min(50, total - first)) }, (_, i) => ({
    user: profile({ id: `h${first + i}`, name: `Homeowner ${first + i}`, email: `h${first + i}@example.com` }),
    projectCount: 1,
    builderName: 'Summit Homes',
  }));
  return { type: 'user_page', role: 'homeowner', listings, total, page, pageSize: 50, counts };
}

let wide = true;
let host: HTMLDivElement;
let root: Root;
let told: UserCounts[] = [];

function render() {
  act(() =>
    root.render(
      <MemoryRouter>
        <UserTable role="homeowner" viewer={admin} onCounts={(c) => told.push(c)} />
      </MemoryRouter>,
    ),
  );
}

const table = () => host.querySelector('table');
const rows = () => host.querySelectorAll('[data-testid="user-row"]');
const range = () => host.querySelector('[data-testid="table-range"]')?.textContent;
const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent?.trim() === name || b.getAttribute('aria-label') === name);
const click = (el: Element | undefined) => act(() => (el as HTMLElement).click());

beforeEach(() => {
  vi.useFakeTimers();
  sent.length = 0;
  told = [];
  wide = true;
  window.matchMedia = vi.fn((query: string) => ({
    matches: wide,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.useRealTimers();
});

describe('UserTable', () => {
  it('says it is loading until the first page comes, then shows the server\'s rows and range', async () => {
    render();
    expect(sent[0].input).toEqual({ role: 'homeowner', query: '', sort: 'name', descending: false, page: 0 });
    expect(table()?.getAttribute('aria-busy')).toBe('true');
    expect(host.textContent).toContain('Loading homeowners…');
    expect(host.textContent).not.toContain('No homeowners found');
    await sent[0].answer(homeowners(0));
    expect(table()?.hasAttribute('aria-busy')).toBe(false);
    expect(rows()).toHaveLength(50);
    expect(range()).toBe('Showing 1–50 of 120');
    expect(told).toEqual([counts]);
  });

  it('pages through the server, keeping the rows shown until the next page comes', async () => {
    render();
    await sent[0].answer(homeowners(0));
    expect(button('Previous')?.disabled).toBe(true);
    click(button('Next'));
    expect(sent[1].input.page).toBe(1);
    expect(table()?.getAttribute('aria-busy')).toBe('true');
    expect(rows()[0].textContent).toContain('Homeowner 0');
    await sent[1].answer(homeowners(1));
    expect(range()).toBe('Showing 51–100 of 120');
    click(button('Next'));
    expect(sent[2].input.page).toBe(2);
    // Meanwhile people went: past the last page, the server answers its last.
    await sent[2].answer(homeowners(1, 60));
    expect(range()).toBe('Showing 51–60 of 60');
    expect(button('Next')?.disabled).toBe(true);
    click(button('Previous'));
    expect(sent[3].input.page).toBe(0);
  });

  it('sorts by a column through the server, from the first page', async () => {
    render();
    await sent[0].answer(homeowners(0));
    click(button('Next'));
    await sent[1].answer(homeowners(1));
    const email = [...host.querySelectorAll('th')].find((th) => th.textContent === 'Email');
    click(email?.querySelector('button') ?? undefined);
    expect(email?.getAttribute('aria-sort')).toBe('ascending');
    expect(sent[2].input).toMatchObject({ sort: 'email', descending: false, page: 0 });
    click(email?.querySelector('button') ?? undefined);
    expect(email?.getAttribute('aria-sort')).toBe('descending');
    expect(sent[3].input).toMatchObject({ sort: 'email', descending: true, page: 0 });
  });

  it('shows the empty text when nothing matches', async () => {
    render();
    await sent[0].answer(homeowners(0, 0));
    expect(host.textContent).toContain('No homeowners found matching your search.');
    expect(range()).toBeUndefined();
  });

  it('says why the page could not be read, with a Retry', async () => {
    render();
    await sent[0].fail(new RequestError({ code: 'not_connected', message: 'Not connected to the server.' }));
    const alert = host.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Homeowners could not be loaded. Not connected to the server.');
    expect(table()).toBeNull();
    click(button('Retry'));
    expect(sent).toHaveLength(2);
    await sent[1].answer(homeowners(0));
    expect(host.querySelector('[role="alert"]')).toBeNull();
    expect(rows()).toHaveLength(50);
  });

  it('on a phone, shows cards, busy while the next page loads', async () => {
    wide = false;
    render();
    await sent[0].answer(homeowners(0));
    const list = host.querySelector('ul');
    expect(list?.hasAttribute('aria-busy')).toBe(false);
    expect(rows()).toHaveLength(50);
    click(button('Next'));
    expect(host.querySelector('ul')?.getAttribute('aria-busy')).toBe('true');
  });
});
