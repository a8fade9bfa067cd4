// The first screens: what the most-used addresses draw first, named by the source
// modules App.tsx loads lazily for them. Three things read this one table, so they
// cannot disagree:
//   - build/chunking.ts puts the code only these screens reach into a few large chunks
//     (one per group below, and one per mix of groups) rather than a chunk per shared
//     module: on a weak signal every extra file costs a round trip;
//   - build/routePreload.ts has index.html fetch an address's chunks beside the entry, so
//     its first screen arrives in one round instead of one round per lazy level;
//   - scripts/js-budget.mjs weighs what each address needs before its first content.
// Rarely used screens (compare, company, profile settings, public pages) are not listed:
// they stay lazy, in chunks of their own.

const LOGIN = 'src/pages/LoginPage.tsx';
const SIGNUP = 'src/pages/SignupPage.tsx';
const CHECK_EMAIL = 'src/pages/CheckEmailPage.tsx';
const FORGOT_PASSWORD = 'src/pages/ForgotPasswordPage.tsx';
const RESET_PASSWORD = 'src/pages/ResetPasswordPage.tsx';
const APP_SHELL = 'src/components/AppShell.tsx';
// The socket carries the signed-in screens' data: without it nothing but the header draws.
const LIVE_SOCKET = 'src/sync/LiveSocket.tsx';
// "Confirm it's you", mounted with the signed-in app (App.tsx, FactorPromptHost).
const CONFIRM_ITS_YOU = 'src/components/security/FactorPromptHost.tsx';
/** What every signed-in screen loads with it (App.tsx). */
const SIGNED_IN = [APP_SHELL, LIVE_SOCKET, CONFIRM_ITS_YOU];
const DASHBOARD = 'src/pages/DashboardPage.tsx';
const PROJECTS = 'src/pages/ProjectsPage.tsx';
const PROJECT = 'src/pages/ProjectDetailPage.tsx';
const GUEST = 'src/pages/GuestPages.tsx';

/** The module index.html loads. */
export const entry = 'src/main.tsx';

/**
 * Chunk groups, each a tree of chunks: a module only one group's screens reach goes into
 * that group's chunk. `within` makes a group part of another's tree: a module that two
 * screens of one tree share goes into the tree's root chunk (`app`), loaded with each.
 * @type {Record<string, { modules: string[], within?: string }>}
 */
export const chunkGroups = {
  // Signed out: the login page, and apart from it the forms it links to, which share
  // much of its code (that stays in `public`) but are not opened as often.
  public: { modules: [LOGIN] },
  account: { modules: [SIGNUP, CHECK_EMAIL, FORGOT_PASSWORD, RESET_PASSWORD], within: 'public' },
  // Signed in: the header, the socket and the step-up prompt, under every screen below.
  app: { modules: SIGNED_IN },
  dashboard: { modules: [DASHBOARD], within: 'app' },
  projects: { modules: [PROJECTS], within: 'app' },
  project: { modules: [PROJECT], within: 'app' },
  // A guest link, opened by someone with no account.
  guest: { modules: [GUEST] },
};

/**
 * Addresses (react-router patterns, as in App.tsx) and the modules their first screen
 * needs besides the entry.
 * @type {{ name: string, paths: string[], modules: string[] }[]}
 */
export const routes = [
  { name: 'login', paths: ['/login', '/'], modules: [LOGIN] },
  {
    name: 'signed-out forms',
    paths: ['/signup', '/check-email', '/forgot-password', '/reset-password'],
    modules: [SIGNUP, CHECK_EMAIL, FORGOT_PASSWORD, RESET_PASSWORD],
  },
  { name: 'dashboard', paths: ['/dashboard'], modules: [...SIGNED_IN, DASHBOARD] },
  {
    name: 'projects',
    paths: ['/projects', '/homeowner/:homeownerId/projects', '/builder/:builderId/projects'],
    modules: [...SIGNED_IN, PROJECTS],
  },
  { name: 'project', paths: ['/projects/:id'], modules: [...SIGNED_IN, PROJECT] },
  { name: 'guest', paths: ['/guest/:token'], modules: [GUEST] },
];
