// A returning student on a phone sees the last screen of the page at once, drawn from the device before
// the app has started and before the network answers; it cannot be used by mistake (inert), the live page
// replaces it, and nothing of it stays after signing out or comes back for another student (issue 32).
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  noteWhetherShown,
  signInInBrowser,
  signOutInBrowser,
  wasShown,
} from '@ct/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const PHONE = { width: 390, height: 844 };
const KEY = 'college-ready:last-screen';
const college = buildCollege({ name: 'Lantern Hill College' });
const view = `/usercolleges?college=${encodeURIComponent(college.name)}`;

const { gw, browser } = browserSuite({ colleges: [college] });

/** A student with the college on their list, signed in on a phone. */
async function student(name: string): Promise<{ page: Page; context: BrowserContext }> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: college.name } });
  const { page, context } = await newPage(browser, gw.url, { viewport: PHONE });
  await signInInBrowser(page, user);
  return { page, context };
}

/** Holds every answer from /api until the returned release is called. */
async function holdApi(context: BrowserContext): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await context.route(/\/api\//, async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

describe('the last screen kept on the device', () => {
  it('is drawn at once on return, inert, with the ticks as they were, and the live page replaces it', async () => {
    const user = await createVerifiedUser({ name: 'Return Visit' });
    await gw.api('POST', '/api/add-user-college', {
      token: user.idToken,
      body: { collegeName: college.name },
    });
    // No service worker: the page's chunk is then a request this test can hold back, and the app waits
    // for it (up to 3 s) before it replaces the kept screen with the live page.
    const { page, context } = await newPage(browser, gw.url, { viewport: PHONE, serviceWorkers: 'block' });
    await signInInBrowser(page, user);
    await page.goto(view);
    const checklist = page.getByRole('region', { name: /^Checklist/ });
    await checklist.getByRole('checkbox').first().check();
    await checklist.getByRole('checkbox', { checked: true }).first().waitFor();
    // Taken a second after the data last changed (and at once when the tab is hidden).
    await page.waitForTimeout(1_500);
    await page.close();

    const releaseApi = await holdApi(context);
    let releasePage!: () => void;
    const pageReleased = new Promise<void>((r) => (releasePage = r));
    await context.route(/\/assets\/Dashboard-[\w-]+\.js$/, async (route) => {
      await pageReleased;
      await route.continue().catch(() => {});
    });
    const again = await context.newPage();
    await again.goto(view, { waitUntil: 'commit' });
    const kept = again.locator('[data-last-screen]');
    await kept.locator('#checklist').waitFor();
    const seen = await again.evaluate(() => {
      const copy = document.querySelector<HTMLElement>('[data-last-screen]')!;
      const boxes = [...copy.querySelectorAll<HTMLInputElement>('#checklist input[type="checkbox"]')];
      return {
        inert: copy.inert,
        heading: copy.querySelector('#checklist h2, #checklist h3')?.textContent,
        ticked: boxes.filter((b) => b.checked).length,
        boxes: boxes.length,
        api: performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname.startsWith('/api/')).length,
      };
    });
    expect(seen).toMatchObject({ inert: true, heading: `Checklist — ${college.name}`, ticked: 1, api: 0 });
    expect(seen.boxes).toBeGreaterThan(1);
    // A tap on the kept screen changes nothing: its checkboxes are a picture of the page, not the page.
    const box = kept.locator('#checklist input[type="checkbox"]').nth(1);
    const at = (await box.boundingBox())!;
    await again.mouse.click(at.x + at.width / 2, at.y + at.height / 2);

    releasePage();
    releaseApi();
    await kept.waitFor({ state: 'detached' });
    const boxes = again.getByRole('region', { name: /^Checklist/ }).getByRole('checkbox');
    await expect.poll(() => boxes.first().isChecked()).toBe(true);
    expect(await boxes.nth(1).isChecked()).toBe(false);
    await context.close();
  });

  it('is forgotten at sign-out: the next visitor never sees it', async () => {
    const { page, context } = await student('Shared Phone');
    await page.goto('/usercolleges');
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), KEY)).toContain(college.name);
    await signOutInBrowser(page);
    expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBeNull();

    await noteWhetherShown(context, college.name);
    await page.goto('/usercolleges');
    await page.waitForURL(/\/login/);
    await page.getByRole('form', { name: 'Login' }).waitFor();
    expect(await wasShown(page)).toBe(false);
    await context.close();
  });

  it("is not drawn over another student's session: the screen kept for someone else goes at once", async () => {
    const { page, context } = await student('Second Student');
    // A screen kept for another uid at this address (left by a session that ended without the app),
    // planted from a page of the site outside the app (the app's own page would keep its screen over it),
    // as this build keeps them (the build is read from the student's own kept screen).
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), KEY)).not.toBeNull();
    await page.goto('/api/healthz');
    await page.evaluate(
      ({ k, path }) =>
        localStorage.setItem(
          k,
          JSON.stringify({
            v: 1,
            build: (JSON.parse(localStorage.getItem(k)!) as { build: string }).build,
            uid: 'someone-else',
            screens: {
              [path]: { html: '<main><h1>Someone Else Private Notes</h1></main>', savedAt: Date.now() },
            },
          }),
        ),
      { k: KEY, path: '/usercolleges' },
    );
    // The page's chunk held back: the app waits for it (up to 3 s) before its first render.
    let releasePage!: () => void;
    const pageReleased = new Promise<void>((r) => (releasePage = r));
    await context.route(/\/assets\/Dashboard-[\w-]+\.js$/, async (route) => {
      await pageReleased;
      await route.continue().catch(() => {});
    });
    await noteWhetherShown(context, 'Someone Else Private Notes');
    await page.goto('/usercolleges', { waitUntil: 'commit' });
    // Drawn (before anything knows who is signed in), then taken away as soon as the device says who
    // is: well before the app's first render, which is still waiting for the page's chunk.
    await expect.poll(() => wasShown(page)).toBe(true);
    await page.locator('[data-last-screen]').waitFor({ state: 'detached', timeout: 2_500 });
    expect(await page.evaluate(() => document.getElementById('root')!.textContent!.trim())).toBe(
      'College Ready',
    );
    releasePage();
    await page.getByRole('heading', { name: 'Your Colleges', level: 1 }).waitFor();
    expect(await page.getByText('Someone Else Private Notes').count()).toBe(0);
    // What is kept from now on is this student's own.
    await page.waitForTimeout(1_500);
    const kept = await page.evaluate((k) => localStorage.getItem(k), KEY);
    expect(kept).not.toContain('someone-else');
    expect(kept).not.toContain('Someone Else Private Notes');
    await context.close();
  });

  it('draws what the device kept as data: markup planted in storage never runs (issue 50.3)', async () => {
    const { page, context } = await student('Planted Markup');
    await page.goto('/usercolleges');
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), KEY)).toContain(college.name);
    // Whatever else runs on this origin could write the key: a screen with a handler, a script and a
    // javascript: link in it, for the very page and student the app would draw it for.
    await page.evaluate((k) => {
      const saved = JSON.parse(localStorage.getItem(k)!) as { screens: Record<string, { html: string }> };
      const screen = saved.screens['/usercolleges']!;
      screen.html +=
        '<img id="planted-img" src="/no-such.png" onerror="window.__planted = 1">' +
        '<script>window.__planted = 2</script>' +
        '<a id="planted-link" href="javascript:window.__planted=3">x</a>' +
        '<svg><animate onbegin="window.__planted = 4" attributeName="x" dur="1s"></animate></svg>';
      localStorage.setItem(k, JSON.stringify(saved));
    }, KEY);
    // What the kept screen held the moment it was drawn (the live page may replace it soon after).
    await context.addInitScript({
      content: `new MutationObserver((_, observer) => {
        const kept = document.querySelector('[data-last-screen]');
        if (!kept) return;
        window.__keptHtml = kept.innerHTML;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });`,
    });
    const releaseApi = await holdApi(context);
    const again = await context.newPage();
    await again.goto('/usercolleges', { waitUntil: 'commit' });
    await again.waitForFunction(
      () => typeof (window as unknown as { __keptHtml?: string }).__keptHtml === 'string',
    );
    await again.waitForTimeout(500);
    const seen = await again.evaluate(() => {
      const w = window as unknown as { __planted?: number; __keptHtml: string };
      return { planted: w.__planted ?? null, html: w.__keptHtml };
    });
    expect(seen.planted).toBeNull();
    expect(seen.html).toContain('Lantern Hill College');
    expect(seen.html).toContain('id="planted-img"');
    expect(seen.html).toContain('id="planted-link"');
    expect(seen.html).not.toMatch(/onerror|onbegin|<script|javascript:/i);
    releaseApi();
    await context.close();
  });
});
