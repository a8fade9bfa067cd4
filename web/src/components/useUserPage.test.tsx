// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListUsers, UserListing } from '../protocol/types';
import { DEFAULT_SORT } from '../lib/userTable';
import { useAppStore } from '../store';
import type { UserPage } from '../sync/commands';
import { RequestError } from '../sync/requests';
import { profile } from '../testing/fixtures';
import { REFRESH_DEBOUNCE_MS, SEARCH_DEBOUNCE_MS, useUserPage, type UserPageRequest, type UserPageState } from './useUserPage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Each `listUsers` the hook sends, answered when a test says. */
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
        sent.push({
          input,
          answer: (reply) => act(async () => resolve(reply)),
          fail: (error) => act(async () => reject(error)),
        });
      }),
  },
}));

const listing = (name: string): UserListing => ({ user: profile({ id: name, name, email: `${name}@example.com` }), projectCount: 0, builderName: null });

function reply(names: string[], over: Partial<UserPage> = {}): UserPage {
  return {
    type: 'user_page',
    role: 'homeowner',
    listings: names.map(listing),
    total: names.length,
    page: 0,
    pageSize: 50,
    counts: { admins: 1, builders: 2, homeowners: names.length },
    ...over,
  };
}

let state: UserPageState;
function Probe(props: UserPageRequest) {
  state = useUserPage(props);
  return null;
}

let host: HTMLDivElement;
let root: Root;
const ask: UserPageRequest = { role: 'homeowner', query: '', sort: DEFAULT_SORT, page: 0 };
const show = (props: Partial<UserPageRequest> = {}) => act(() => root.render(<Probe {...ask} {...props} />));
const names = () => state.rows.map((r) => r.user.name);
const wait = (ms: number) => act(async () => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
  sent.length = 0;
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.useRealTimers();
});

describe('useUserPage', () => {
  it('asks for the first page at once and shows what comes, with the counts', async () => {
    show({ query: '  jam  ' });
    expect(sent.map((s) => s.input)).toEqual([{ role: 'homeowner', query: 'jam', sort: 'name', descending: false, page: 0 }]);
    expect(state).toMatchObject({ rows: [], loading: true, counts: null, answered: null, error: null });
    await sent[0].answer(reply(['Jamie', 'Jamal'], { total: 72, counts: { admins: 1, builders: 2, homeowners: 300 } }));
    expect(names()).toEqual(['Jamie', 'Jamal']);
    expect(state).toMatchObject({ total: 72, page: 0, pageSize: 50, loading: false, answered: 'jam', counts: { admins: 1, builders: 2, homeowners: 300 } });
  });

  it('waits for typing to stop, keeping the last rows meanwhile', async () => {
    show();
    await sent[0].answer(reply(['Alex', 'Jamie']));
    show({ query: 'j' });
    await wait(100);
    show({ query: 'ja' });
    await wait(100);
    show({ query: 'jam' });
    expect(sent).toHaveLength(1);
    // Busy while the typing settles, with the last page still shown.
    expect(state.loading).toBe(true);
    expect(names()).toEqual(['Alex', 'Jamie']);
    await wait(SEARCH_DEBOUNCE_MS);
    expect(sent.map((s) => s.input.query)).toEqual(['', 'jam']);
    expect(names()).toEqual(['Alex', 'Jamie']);
    await sent[1].answer(reply(['Jamie']));
    expect(names()).toEqual(['Jamie']);
    expect(state.loading).toBe(false);
  });

  it('asks at once for another sort or page, with the query typed so far', async () => {
    show();
    await sent[0].answer(reply(['Alex']));
    show({ sort: { key: 'email', direction: 'descending' } });
    expect(sent[1].input).toMatchObject({ sort: 'email', descending: true, page: 0 });
    show({ sort: { key: 'email', direction: 'descending' }, page: 2 });
    expect(sent[2].input).toMatchObject({ sort: 'email', descending: true, page: 2 });
    // A new search from page 2 goes back to the first page in the same step: no wait.
    show({ sort: { key: 'email', direction: 'descending' }, page: 0, query: 'x' });
    expect(sent[3].input).toMatchObject({ query: 'x', page: 0 });
  });

  it('shows only the latest request\'s reply, whatever order the replies come in', async () => {
    show();
    show({ page: 1 });
    show({ page: 2 });
    expect(sent.map((s) => s.input.page)).toEqual([0, 1, 2]);
    await sent[2].answer(reply(['Page three'], { page: 2, total: 120 }));
    await sent[0].answer(reply(['Page one']));
    await sent[1].answer(reply(['Page two'], { page: 1, total: 120 }));
    expect(names()).toEqual(['Page three']);
    expect(state).toMatchObject({ page: 2, loading: false });
  });

  it('reads its page again, once, after changes that may move its rows', async () => {
    show({ query: 'jam', page: 1 });
    await sent[0].answer(reply(['Jamie'], { page: 1 }));
    const bump = () => act(() => useAppStore.setState((s) => ({ directoryVersion: s.directoryVersion + 1 })));
    bump();
    await wait(100);
    bump();
    await wait(REFRESH_DEBOUNCE_MS - 1);
    expect(sent).toHaveLength(1);
    await wait(1);
    expect(sent.map((s) => s.input)).toEqual([sent[0].input, sent[0].input]);
    // The rows stay until the new page comes.
    expect(names()).toEqual(['Jamie']);
    await sent[1].answer(reply(['Jamie', 'Jamal'], { page: 1 }));
    expect(names()).toEqual(['Jamie', 'Jamal']);
  });

  it('says why a read failed and reads again on Retry', async () => {
    show();
    await sent[0].answer(reply(['Alex']));
    show({ page: 1 });
    await sent[1].fail(new RequestError({ code: 'timeout', message: 'The server did not answer in time.' }));
    expect(state.error?.message).toBe('The server did not answer in time.');
    expect(state.loading).toBe(false);
    expect(names()).toEqual(['Alex']);
    act(() => state.retry());
    expect(sent.map((s) => s.input.page)).toEqual([0, 1, 1]);
    expect(state.loading).toBe(true);
    await sent[2].answer(reply(['Priya'], { page: 1 }));
    expect(state.error).toBeNull();
    expect(names()).toEqual(['Priya']);
  });

  it('sends no more than the server takes of a query', () => {
    show({ query: 'x'.repeat(250) });
    expect(sent[0].input.query).toHaveLength(200);
  });

});
