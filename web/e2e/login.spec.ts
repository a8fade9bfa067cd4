import { expect, test } from '@playwright/test';
import { demoConfig, shoot, toast } from './helpers';
import { makeWorld } from './world';

test('login page is pre-filled with the admin demo account', async ({ page }) => {
  const demo = await demoConfig(page.request);
  const admin = demo.accounts.find((a) => a.role === 'admin');
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toHaveValue(admin?.email ?? '');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(demo.password);
  await expect(page.getByRole('link', { name: 'Forgot Password?' })).toBeVisible();
  await expect(page.getByText("Don't have an account?")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
  await shoot(page, 'login');
});

test('/ is the login screen too', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('login form validation messages', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Admin', exact: true })).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters.')).toBeVisible();
  await shoot(page, 'login-validation');

  // After the first submit, messages re-validate on change.
  await page.getByLabel('Email').fill('someone@example.com');
  await expect(page.getByText('Please enter a valid email address.')).toHaveCount(0);
  await page.getByLabel('Password', { exact: true }).fill('123456');
  await expect(page.getByText('Password must be at least 6 characters.')).toHaveCount(0);
});

test('wrong password shows the Login Failed toast', async ({ page }) => {
  // A world's account: failed attempts count towards an account's lock, which must not
  // fall on an account other tests sign in with.
  const world = await makeWorld({ projects: 0 });
  await page.goto('/login');
  await page.getByLabel('Email').fill(world.users.homeowner.email);
  await page.getByLabel('Password', { exact: true }).fill('definitely-wrong-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toast(page, 'Login Failed')).toBeVisible();
  await expect(toast(page, 'Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The form is usable again.
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await shoot(page, 'login-failed', { toasts: true });
});

test('login notices from query flags', async ({ page }) => {
  await page.goto('/login?confirmed=1');
  await expect(page.getByText('Your email is confirmed. You can now log in.')).toBeVisible();
  await page.goto('/login?confirm=invalid');
  await expect(page.getByText('This confirmation link is invalid or has expired.')).toBeVisible();
});
