import { expect, request as playwrightRequest, type Browser, type BrowserContext, type Page } from '@playwright/test';

/**
 * A test's own world (server: `domain::world`, `POST /api/testing/world`): a company
 * with its owner, site manager and crew (the crew on the first project only), an
 * admin, homeowners, and projects with photos, milestones and a comment, every name
 * and email carrying the world's tag. Each test makes its own, so specs running side
 * by side never meet each other's photos, comments or settings, nor the demo's.
 *
 * The e2e script starts its servers with SITECAST_TEST_WORLDS=true; a server without
 * it answers the route with a 404.
 */
export interface WorldSpec {
  /** Projects of the company (default 1, at most 30). */
  projects?: number;
  /** Photos on each project, oldest first, a day apart (default 3, at most 80). */
  photos?: number;
  /** Homeowners (default 1, at most 80: more than a user table's page); project i belongs to homeowner i mod this. */
  homeowners?: number;
  /** The residential milestone plan on each project, its first two steps done (default true). */
  milestones?: boolean;
  /** A comment by the homeowner on each project's newest photo (default true). */
  comments?: boolean;
  /** A project of another company that nobody in the world may see (default false). */
  strangerProject?: boolean;
  /**
   * A year of site visits on each project besides `photos`: this many photos (at most
   * 5,000), made as `sitecast seed` makes them, for tests of big projects.
   */
  yearOfPhotos?: number;
}

export type WorldRole = 'admin' | 'builder' | 'homeowner';
export type Person = 'admin' | 'owner' | 'manager' | 'crew' | 'homeowner' | 'homeowner2' | 'homeowner3' | 'homeowner4';

export interface WorldUser {
  id: string;
  email: string;
  name: string;
  role: WorldRole;
  companyRole: 'owner' | 'manager' | 'crew' | null;
  /** A signed-in session's cookie value. */
  session: string;
}

export interface WorldPhoto {
  id: string;
  caption: string;
}

export interface WorldProject {
  id: string;
  title: string;
  address: string;
  /** Which person in `users` is its homeowner. */
  homeowner: Person;
  /** Oldest first. */
  photos: WorldPhoto[];
  milestones: { id: string; name: string; done: boolean }[];
  comments: string[];
}

export interface World {
  tag: string;
  /** Every world account's password, for signing in through the form. */
  password: string;
  company: { id: string; name: string };
  users: Record<Person, WorldUser>;
  projects: WorldProject[];
  strangerProject: WorldProject | null;
  /** The server the world lives on. */
  baseURL: string;
  /** The session cookie's name on that server. */
  cookie: string;
}

/** The main e2e server, as the config's `baseURL` names it. */
export const E2E_URL = process.env.SITECAST_E2E_URL ?? 'http://127.0.0.1:8099';

/** Makes a world on `baseURL` (the main e2e server by default). */
export async function makeWorld(spec: WorldSpec = {}, baseURL: string = E2E_URL): Promise<World> {
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const response = await api.post('/api/testing/world', { data: spec });
    expect(response.ok(), `making a world on ${baseURL}: ${response.status()} ${await response.text()}`).toBeTruthy();
    const body = (await response.json()) as { cookie: string; world: Omit<World, 'baseURL' | 'cookie'> };
    return { ...body.world, baseURL, cookie: body.cookie };
  } finally {
    await api.dispose();
  }
}

/** Someone of the world, by key; fails clearly when the world has no such person. */
export function person(world: World, who: Person): WorldUser {
  const user = world.users[who];
  if (!user) throw new Error(`This world has no ${who} (it has ${Object.keys(world.users).join(', ')})`);
  return user;
}

/**
 * Puts `who`'s session cookie into a browser context, so its pages on `baseURL` (the
 * world's server, or another instance on the same database) are signed in.
 */
export async function addSession(context: BrowserContext, world: World, who: Person, baseURL: string = world.baseURL): Promise<void> {
  await context.addCookies([{ name: world.cookie, value: person(world, who).session, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/** Signs `page` in as `who` and opens `path` (the dashboard by default) on `baseURL`, waiting for its heading. */
export async function signIn(page: Page, world: World, who: Person, path = '/dashboard', baseURL: string = world.baseURL): Promise<void> {
  await addSession(page.context(), world, who, baseURL);
  await page.goto(new URL(path, baseURL).toString());
  // The first page of a fresh browser loads the app and its socket: longer than a step's wait.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
}

/** A new browser context and page signed in as `who`, at `path`. Close the context when done. */
export async function browserAs(browser: Browser, world: World, who: Person, path = '/dashboard'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: world.baseURL });
  const page = await context.newPage();
  await signIn(page, world, who, path);
  return { context, page };
}

/** Playwright's `storageState` for `who`: `browser.newContext({ storageState })`. */
export function storageState(world: World, who: Person) {
  const url = new URL(world.baseURL);
  return {
    cookies: [
      {
        name: world.cookie,
        value: person(world, who).session,
        domain: url.hostname,
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: url.protocol === 'https:',
        sameSite: 'Lax' as const,
      },
    ],
    origins: [],
  };
}
