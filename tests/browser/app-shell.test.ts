import { browserSuite } from '@ct/testkit';
import { describe, expect, it } from 'vitest';

const { newPage } = browserSuite();

describe('app shell in Chromium', () => {
  it('loads the app and shows the navigation bar', async () => {
    const { page, errors, context } = await newPage();
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.isVisible()).toBe(true);
    for (const name of ['Home', 'About', 'Search', 'Essays', 'Your Colleges', 'Profile']) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends anonymous visitors from protected pages to the login page, which will bring them back', async () => {
    const { page, context } = await newPage();
    for (const path of ['/search', '/usercolleges', '/essays', '/profile']) {
      await page.goto(path);
      await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === path);
      await page.getByRole('status').getByText('Please log in to continue.').waitFor();
    }
    await context.close();
  });

  it('collapses the header into a toggle menu on small screens', async () => {
    const { page, context } = await newPage({ viewport: { width: 390, height: 800 } });
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.waitFor();
    expect(await page.getByRole('link', { name: 'Essays' }).isVisible()).toBe(false);
    await toggle.click();
    expect(await page.getByRole('link', { name: 'Essays' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close menu' }).click();
    expect(await page.getByRole('link', { name: 'Essays' }).isVisible()).toBe(false);
    await context.close();
  });
});
