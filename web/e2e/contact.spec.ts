import { expect, test, type Page } from '@playwright/test';
import { shoot as shootFullPage } from './helpers';

/** Full-page shots from the top: a sticky header would otherwise be drawn mid-page. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shootFullPage(page, name);
}

test('contact page shows details and validates on submit, then on change', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'support@sitecast.app' })).toHaveAttribute('href', 'mailto:support@sitecast.app');
  await expect(page.getByRole('link', { name: '(555) 123-4567' })).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveAttribute('rows', '6');
  await shoot(page, 'contact');

  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Message is required')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'contact-validation');

  // After the first submit, each message clears as its field becomes valid.
  await page.getByLabel('Name').fill('Jane Doe');
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await page.getByLabel('Email').fill('jane@example.com');
  await expect(page.getByText('Please enter a valid email address.')).toHaveCount(0);
  await page.getByLabel('Message').fill('Hello');
  await expect(page.getByText('Message is required')).toHaveCount(0);
});

test('contact error banner shows the server message', async ({ page }) => {
  let received: unknown = null;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/contact', async (route) => {
    received = route.request().postDataJSON();
    await held;
    await route.fulfill({
      status: 500,
      json: { code: 'internal', message: 'Our mail server is taking a break.', fields: [] },
    });
  });
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Doe');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByLabel('Message').fill('When is the next site visit?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  release();
  await expect(page.getByRole('alert').filter({ hasText: 'Our mail server is taking a break.' })).toBeVisible();
  expect(received).toEqual({
    name: 'Jane Doe',
    email: 'jane@example.com',
    phone: null,
    message: 'When is the next site visit?',
  });
  // The form keeps what was typed so the visitor can try again.
  await expect(page.getByLabel('Message')).toHaveValue('When is the next site visit?');
  await shoot(page, 'contact-error');
});

test('contact network failure shows the generic message', async ({ page }) => {
  await page.route('**/api/contact', (route) => route.abort('failed'));
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Doe');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to send message. Please try again.' })).toBeVisible();
});

test('contact field errors from the server land on the fields', async ({ page }) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({
      status: 400,
      json: {
        code: 'validation',
        message: 'Please check the highlighted fields.',
        fields: [{ field: 'phone', message: 'Phone number looks too short.' }],
      },
    }),
  );
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Doe');
  await page.getByLabel('Email').fill('jane@example.com');
  await page.getByLabel('Phone').fill('12');
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Please check the highlighted fields.')).toBeVisible();
  await expect(page.getByText('Phone number looks too short.')).toBeVisible();
  await expect(page.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
});

test('contact message is sent to the real server', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Jane Doe');
  await page.getByLabel('Email').fill(`jane-${Date.now()}@example.com`);
  await page.getByLabel('Phone').fill('(555) 123-4567');
  await page.getByLabel('Message').fill('When is the next site visit?');
  const response = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect((await response).status()).toBe(200);
  const banner = page.getByTestId('contact-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Message sent successfully!');
  // The form resets after a successful send.
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByLabel('Message')).toHaveValue('');
  await shoot(page, 'contact-sent');
});
