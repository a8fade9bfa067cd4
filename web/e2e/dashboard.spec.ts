import { expect, test } from '@playwright/test';
import { welcomeHeading } from '../src/lib/names';
import { demoConfig, ROLE_LABELS, shoot, toast, type Role } from './helpers';

const roles: Role[] = ['admin', 'builder', 'homeowner'];

for (const role of roles) {
  test(`${role} demo button logs in, shows the dashboard, and logs out`, async ({ page }) => {
    await demoConfig(page.request);
    await page.goto('/login');
    const button = page.getByRole('button', { name: ROLE_LABELS[role], exact: true });
    await expect(button).toBeVisible();
    await button.click();

    await expect(toast(page, 'Login Successful')).toBeVisible();
    await expect(toast(page, `Logged in as ${ROLE_LABELS[role]}. Redirecting to dashboard...`)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The heading is computed from the signed-in profile by the same rules the app uses.
    const me = await page.request.get('/api/auth/me');
    expect(me.ok()).toBeTruthy();
    const { user } = (await me.json()) as {
      user: { role: Role; email: string; name: string | null; firstName: string | null; lastName: string | null };
    };
    expect(user.role).toBe(role);
    await expect(page.getByRole('heading', { level: 1, name: welcomeHeading(role, user) })).toBeVisible();
    await expect(page.getByTestId('project-card').first()).toBeVisible();

    await shoot(page, `dashboard-${role}`);

    await page.getByRole('button', { name: 'Open user menu' }).click();
    await expect(page.getByRole('menu')).toContainText(user.email);
    await shoot(page, `dashboard-${role}-menu`);
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
