import { expect, test } from '@playwright/test';
import { welcomeHeading } from '../src/lib/names';
import { demoConfig, ROLE_LABELS, shoot, toast, type Role } from './helpers';
import { makeWorld, signIn, type Person } from './world';

const roles: Role[] = ['admin', 'builder', 'homeowner'];

/** Who of a world stands for each demo role. */
const WORLD_PERSON: Record<Role, Person> = { admin: 'admin', builder: 'owner', homeowner: 'homeowner' };

interface Me {
  user: { role: Role; email: string; name: string | null; firstName: string | null; lastName: string | null };
}

for (const role of roles) {
  // Of the demo itself: its buttons and its dashboards, only read.
  test(`${role} demo button logs in and shows the dashboard`, async ({ page }) => {
    await demoConfig(page.request);
    await page.goto('/login');
    const button = page.getByRole('button', { name: ROLE_LABELS[role], exact: true });
    await expect(button).toBeVisible();
    await button.click();

    // One toast with both lines, looked for at once: it lasts only a second and a half.
    await expect(toast(page, 'Login Successful').filter({ hasText: `Logged in as ${ROLE_LABELS[role]}. Redirecting to dashboard...` })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The heading is computed from the signed-in profile by the same rules the app uses.
    const me = await page.request.get('/api/auth/me');
    expect(me.ok()).toBeTruthy();
    const { user } = (await me.json()) as Me;
    expect(user.role).toBe(role);
    await expect(page.getByRole('heading', { level: 1, name: welcomeHeading(role, user) })).toBeVisible();
    await expect(page.getByTestId('project-card').first()).toBeVisible();

    await shoot(page, `dashboard-${role}`);

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await expect(page.getByRole('menu')).toContainText(user.email);
    await shoot(page, `dashboard-${role}-menu`);
  });

  // Logging out ends a session for good, so it is done by a world's account, not a demo one.
  test(`${role} dashboard shows their projects, and logging out ends the session`, async ({ page }) => {
    const world = await makeWorld({ photos: 1, milestones: false, comments: false });
    const who = world.users[WORLD_PERSON[role]];
    await signIn(page, world, WORLD_PERSON[role]);
    await expect(page).toHaveURL(/\/dashboard$/);

    const me = await page.request.get('/api/auth/me');
    expect(me.ok()).toBeTruthy();
    const { user } = (await me.json()) as Me;
    expect(user.role).toBe(role);
    expect(user.email).toBe(who.email);
    await expect(page.getByRole('heading', { level: 1, name: welcomeHeading(role, user) })).toBeVisible();
    const project = world.projects[0].title;
    if (role === 'admin') {
      // The admin's dashboard shows the latest projects of the whole installation, which
      // other tests are changing: their own project is not sure to be among them.
      await expect(page.getByTestId('project-card').first()).toBeVisible();
      const people = page.getByRole('tabpanel');
      await people.getByRole('searchbox').fill(world.tag);
      await expect(people.getByTestId('user-row').filter({ hasText: world.users.homeowner.email })).toBeVisible();
    } else {
      await expect(page.getByTestId('project-card').filter({ hasText: project })).toBeVisible();
    }

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await expect(page.getByRole('menu')).toContainText(who.email);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login\?logout=true$/);
    await expect(page.getByText('You have been logged out.')).toBeVisible();

    // The session is gone server-side too.
    const after = await page.request.get('/api/auth/me');
    expect(after.status()).toBe(401);
  });
}

test('unauthenticated /dashboard goes to /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
