// What a student sees when the server goes away or a deploy lands while a tab is open: the product's own
// pages (with the header, Retry and a way home), never React Router's developer page or a bare line of text,
// and a checklist that stays on screen, its tick kept on the device, when the server cannot be reached.
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 90_000 });

let student: TestUser;
const COLLEGE = 'Maple Ridge College';

const { gw, newPage } = browserSuite({ colleges: [buildCollege({ name: COLLEGE })] });
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Rae Student' });
  await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName: COLLEGE } });
});

/** Every request to the app's server fails, as when the server is stopped (or the network is gone). */
async function serverDown(page: Page): Promise<void> {
  await page.route(`${gw.url}/**`, (route) => route.abort('connectionrefused'));
}
async function serverUp(page: Page): Promise<void> {
  await page.unroute(`${gw.url}/**`);
}

const DEVELOPER_PAGE = /Unexpected Application Error|Hey developer/;

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('at $width x $height', (viewport) => {
  it('server stopped, Search clicked: the product page with the header, Retry and Home, then Search after Retry', async () => {
    const { page, context } = await newPage({ viewport });
    await signInInBrowser(page, student);
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await serverDown(page);
    if (viewport.width < 800) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();

    const heading = page.getByRole('heading', { level: 1, name: 'We could not reach the server' });
    await heading.waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(DEVELOPER_PAGE);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Go to the home page' }).isVisible()).toBe(true);
    // Focus is on the message, so a screen reader reads it first.
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);

    // Retry while the server is still down says so, and stays.
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('alert').getByText('Still not working').waitFor();

    await serverUp(page);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Search and Compare Colleges' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    await context.close();
  });
});

describe('a deploy while a tab is open', () => {
  it('reloads once onto the newer build when a page chunk is missing, and never loops', async () => {
    // Without the service worker: with it, the old build's chunks come from its precache and a new
    // version is offered by its update prompt (tests/browser/phone-offline.test.ts).
    const { page, context } = await newPage({ serviceWorkers: 'block' });
    await signInInBrowser(page, student);
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const html = await (await fetch(`${gw.url}/`)).text();
    const entry = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)![1]!;

    // The deploy: the old Search chunk is gone (404), and the server's index.html names a new entry file.
    await page.route(/\/assets\/Search-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.route(`${gw.url}/`, async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.fallback();
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: html.replace(entry, entry.replace(/index-[^.]+/, 'index-NEWBUILD')),
      });
    });
    let loads = 0;
    page.on('load', () => loads++);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();

    // One reload (the tab fetches the newer build); the chunk is still missing here, so the second failure
    // shows the product's page instead of reloading again.
    await page.getByRole('heading', { level: 1, name: 'Something went wrong on this page' }).waitFor();
    expect(loads).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(await page.locator('body').innerText()).not.toMatch(DEVELOPER_PAGE);
    await page.waitForTimeout(1500);
    expect(loads).toBe(1);
    await context.close();
  });

  it('shows the product page, with Retry, when a page throws while rendering', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    // A reply the page cannot use (the list is not a list): the page throws while rendering.
    await page.route('**/api/get-user-colleges*', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ success: true, message: 'Colleges Found For User', colleges: 'oops' }),
      }),
    );
    await page.goto('/usercolleges');
    await page.getByRole('heading', { level: 1, name: 'Something went wrong on this page' }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(DEVELOPER_PAGE);
    // Retry loads the page again once the server answers as it should.
    await page.unroute('**/api/get-user-colleges*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your Colleges' }).waitFor();
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: COLLEGE, exact: true })
      .waitFor();
    await context.close();
  });
});

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('the app cannot start, at $width x $height', (viewport) => {
  it('a failed /api/public-config shows the header, the reason and Retry, which starts the app', async () => {
    const { page, context } = await newPage({ viewport });
    // The gateway writes the configuration into the page; a page served without it (a static host, a
    // proxy that rewrote it) asks /api/public-config, and that request fails.
    await page.route('**/about', async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const served = await route.fetch();
      const html = (await served.text()).replace(
        /<script type="application\/json" id="public-config">.*?<\/script>/,
        '',
      );
      expect(html).not.toContain('public-config');
      await route.fulfill({ response: served, body: html });
    });
    await page.route('**/api/public-config', (route) => route.abort('connectionrefused'));
    await page.goto('/about');
    await page.getByRole('heading', { level: 1, name: 'We could not reach the server' }).waitFor();
    expect(await page.locator('header.navbar').isVisible()).toBe(true);
    expect(await page.locator('header.navbar').innerText()).toContain('College Ready');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(viewport.width);

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('alert').getByText('Still not working').waitFor();

    await page.unroute('**/api/public-config');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'About College Ready' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('a tick while the server is down', () => {
  it('keeps the tick on the device, keeps the checklist on screen, and sends it once the server is back', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    await page.goto(`/usercolleges?college=${encodeURIComponent(COLLEGE)}`);
    const panel = page.getByRole('region', { name: `Checklist — ${COLLEGE}` });
    const group = panel.getByRole('group', { name: 'Application' });
    const box = group.getByRole('checkbox').first();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);

    // A server that cannot be reached is, for the phone, no network: the tick is kept on the device
    // (issue 32) and the student is told so, never "could not be loaded".
    await serverDown(page);
    await box.click();
    await page.getByText("Saved on this device — will sync when you're online").first().waitFor();
    expect(await box.isChecked()).toBe(true);
    expect(await panel.getByText('The checklist could not be loaded.').count()).toBe(0);
    expect(await group.getByRole('checkbox').count()).toBeGreaterThan(2);
    expect(await panel.getByRole('progressbar').isVisible()).toBe(true);

    // The server back: the next open sends the queued tick, and the server keeps it.
    await serverUp(page);
    await page.reload();
    await box.waitFor();
    await expect
      .poll(async () => {
        const r = await gw.api<{ checklist: Record<string, Array<{ completed?: boolean }>> }>(
          'GET',
          '/api/get-college-checklist',
          { token: student.idToken, query: { collegeName: COLLEGE } },
        );
        return r.body.checklist?.application?.[0]?.completed ?? null;
      })
      .toBe(true);
    await context.close();
  });
});
