import { expect, test } from '@playwright/test';
import { shoot } from './helpers';

test('sign-up validation messages', async ({ page }) => {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await shoot(page, 'signup');

  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Please select a role.')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();

  await page.getByText('Homeowner', { exact: true }).click();
  await expect(page.getByText('Please select a role.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('longenough');
  await page.getByLabel('Confirm password').fill('different');
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await shoot(page, 'signup-homeowner-validation');

  await page.getByText('Builder', { exact: true }).click();
  await expect(page.getByLabel('Company/Builder Name')).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await shoot(page, 'signup-builder-validation');

  await expect(page.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
});

test('successful sign-up goes to /check-email with the address', async ({ page }) => {
  const email = `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto('/signup');
  await page.getByText('Homeowner', { exact: true }).click();
  await page.getByLabel('First name').fill('Erin');
  await page.getByLabel('Last name').fill('Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse');
  await page.getByLabel('Confirm password').fill('correct-horse');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/check-email$/);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('link', { name: 'sign up again' })).toHaveAttribute('href', '/signup');
  await shoot(page, 'check-email');
});
