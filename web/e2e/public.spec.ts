import { expect, test, type Page } from '@playwright/test';
import { shoot as shootFullPage } from './helpers';
import { makeWorld } from './world';

/** Full-page shots from the top: a sticky header would otherwise be drawn mid-page. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shootFullPage(page, name);
}

async function expectFooter(page: Page) {
  const footer = page.getByTestId('site-footer');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Sitecast. All rights reserved.`);
  const links: [string, string][] = [
    ['About Us', '/about'],
    ['Contact Us', '/contact'],
    ['Terms', '/terms-of-service'],
    ['Privacy', '/privacy-policy'],
    ['Cookies', '/cookie-policy'],
  ];
  for (const [name, href] of links) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  // Social links open in a new tab, so the visitor never leaves Sitecast.
  for (const name of ['Sitecast on Facebook', 'Sitecast on X', 'Sitecast on LinkedIn']) {
    const link = footer.getByRole('link', { name });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
}

test('landing shows the skeleton, then the hero, features, call to action and footer', async ({ page }) => {
  // Watch the DOM from the first script on: when the skeleton appears and when it goes.
  // A timer can fire late on a busy machine but never early, so the shown time is a
  // lower bound that cannot flake.
  await page.addInitScript(() => {
    const w = window as unknown as { __skeleton: { shown?: number; hidden?: number } };
    w.__skeleton = {};
    new MutationObserver(() => {
      const present = document.querySelector('[data-testid="landing-skeleton"]') !== null;
      if (present && w.__skeleton.shown === undefined) w.__skeleton.shown = performance.now();
      if (!present && w.__skeleton.shown !== undefined && w.__skeleton.hidden === undefined) {
        w.__skeleton.hidden = performance.now();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/home');
  const hero = page.getByRole('heading', { level: 1, name: "Track Your Building Project's Progress" });
  await expect(hero).toBeVisible();
  await expect(page.getByTestId('landing-skeleton')).toHaveCount(0);
  const skeleton = await page.evaluate(
    () => (window as unknown as { __skeleton: { shown?: number; hidden?: number } }).__skeleton,
  );
  expect(skeleton.shown, 'the skeleton was shown').toBeDefined();
  expect((skeleton.hidden ?? 0) - (skeleton.shown ?? 0), 'for about a second').toBeGreaterThanOrEqual(950);

  await expect(page.getByRole('link', { name: 'Get Started', exact: true })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Get Started Now' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');

  const cards = page.getByTestId('feature-card');
  await expect(cards).toHaveCount(6);
  for (const title of [
    'Photo Documentation',
    'Role-Based Access',
    'Project Management',
    'Secure Storage',
    'Communication',
    'Progress Tracking',
  ]) {
    await expect(cards.getByRole('heading', { name: title })).toBeVisible();
  }
  await expectFooter(page);
  await shoot(page, 'landing');

  await page.getByRole('link', { name: 'Get Started', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('landing in dark mode', async ({ page }) => {
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: "Track Your Building Project's Progress" })).toBeVisible();
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  await shoot(page, 'landing-dark');
});

test('login page links to the landing page', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Learn more about Sitecast' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { level: 1, name: "Track Your Building Project's Progress" })).toBeVisible();
});

test('signed in, the landing header shows the avatar menu', async ({ page }) => {
  const world = await makeWorld({ projects: 0 });
  const login = await page.request.post('/api/auth/login', {
    data: { email: world.users.homeowner.email, password: world.password },
  });
  expect(login.ok()).toBeTruthy();
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1, name: "Track Your Building Project's Progress" })).toBeVisible();
  await page.getByRole('button', { name: 'Open user menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toHaveCount(0);
});

test('about page: story, values, steps, FAQ and Get Started', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'Building trust, one photo at a time.' })).toBeVisible();
  for (const name of ['Our story', 'What we stand for', 'From site visit to your inbox', 'Frequently asked questions']) {
    await expect(page.getByRole('heading', { name, exact: true }).or(page.getByText(name, { exact: true })).first()).toBeVisible();
  }
  const faq = page.getByTestId('faq-item');
  await expect(faq).toHaveCount(6);
  // SPEC §1: the FAQ's claims.
  const answers: [string, string][] = [
    ['How often are photos updated?', 'about every two weeks, or whenever the build reaches a milestone'],
    ['How soon after a site visit can I see the photos?', 'within 24–48 hours of a site visit'],
    ['Will I know when new photos are added?', 'An email notification is sent'],
    ['Can I download and share photos?', 'Photos can be downloaded and shared'],
    ['Can I comment on photos?', 'Comments on photos are possible'],
  ];
  for (const [question, answer] of answers) {
    const item = faq.filter({ hasText: question });
    await expect(item.getByText(answer)).toBeHidden();
    await item.getByText(question).click();
    await expect(item.getByText(answer)).toBeVisible();
  }
  await expectFooter(page);
  await shoot(page, 'about');

  await page.getByRole('link', { name: 'Get Started', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
});

const legalPages: [string, string, string][] = [
  ['/terms-of-service', 'Terms of Service', 'terms'],
  ['/privacy-policy', 'Privacy Policy', 'privacy'],
  ['/cookie-policy', 'Cookie Policy', 'cookies'],
];

for (const [path, title, shot] of legalPages) {
  test(`${title} page renders with placeholder dates and contacts`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('Last updated:')).toContainText('[date]');
    await expect(page.getByText('[contact email]').first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Contact us' })).toBeVisible();
    await expectFooter(page);
    await shoot(page, shot);
  });
}

test('footer links move between public pages and start at the top', async ({ page }) => {
  await page.goto('/about');
  await page.getByTestId('site-footer').getByRole('link', { name: 'Privacy', exact: true }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInViewport();
  await page.getByTestId('site-footer').getByRole('link', { name: 'Contact Us', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeInViewport();
});
