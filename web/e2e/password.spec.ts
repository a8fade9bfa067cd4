import { expect, test } from '@playwright/test';
import { shoot } from './helpers';

test('forgot password: validation, then the sent state', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('link', { name: 'Login here' })).toBeVisible();
  await shoot(page, 'forgot');
  await page.getByLabel('Email').fill('nope');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText('If an account exists for this email, a password reset link has been sent.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  await shoot(page, 'forgot-sent');
});

test('reset password with an invalid token shows the server message', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByText('This link is invalid or has expired. Please request a new one.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  await shoot(page, 'reset-invalid');
});

test('reset password form validation', async ({ page }) => {
  // A valid token only exists in the server's outbox; the form itself is checked with a
  // stubbed token check so its layout and messages are covered here.
  await page.route('**/api/auth/reset/check?*', (route) =>
    route.fulfill({ json: { kind: 'reset', email: 'homeowner@example.com' } }),
  );
  await page.goto('/reset-password?token=stub');
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await shoot(page, 'reset');
  await page.getByLabel('New password', { exact: true }).fill('123');
  await page.getByLabel('Confirm new password').fill('456');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password must be at least 6 characters.')).toBeVisible();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await shoot(page, 'reset-validation');
});

test('invite link greets the new user', async ({ page }) => {
  await page.route('**/api/auth/reset/check?*', (route) =>
    route.fulfill({ json: { kind: 'invite', email: 'new.builder@example.com' } }),
  );
  await page.goto('/reset-password?token=stub');
  await expect(page.getByRole('heading', { name: 'Welcome to Sitecast — set your password' })).toBeVisible();
  await expect(page.getByText('new.builder@example.com')).toBeVisible();
  await shoot(page, 'reset-invite');
});
