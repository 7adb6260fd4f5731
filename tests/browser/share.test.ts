// Share links and finding things on one's own lists (issue 33), in Chromium at 1280x800 and 390x844: the
// student creates a link on the profile, a parent opens it in a fresh browser that is not signed in and
// sees the list and the deadlines (read only, nothing private, axe finds no violation), the student
// revokes it and the page says so; the season overview, the sidebar and the notes are filtered and
// sorted, and the choices survive a reload and the back button (they live in the URL).
import { addDays, localToday } from '@ct/contracts/planning';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  signInInBrowser,
  VIEWPORTS,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { axe, describeViolations, settled } from '../a11y/lib.ts';

vi.setConfig({ testTimeout: 180_000 });

const today = localToday();
const ASPEN = 'Aspen Share College';
const BIRCH = 'Birch Share University';
const CEDAR = 'Cedar Share Institute';
const SECRET = 'Private worry about the interview';

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: ASPEN,
      info: { deadlines: [{ type: 'Regular Decision', date: addDays(today, 60) }], essayPrompts: [] },
    }),
    buildCollege({
      name: BIRCH,
      info: { deadlines: [{ type: 'Early Action', date: addDays(today, 12) }], essayPrompts: [] },
    }),
    buildCollege({
      name: CEDAR,
      info: { deadlines: [{ type: 'Regular Decision', date: addDays(today, 30) }], essayPrompts: [] },
    }),
  ],
});

const post = (user: TestUser, path: string, body: Record<string, unknown>) =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });

/** A student with three colleges (Birch submitted) and two notes, one of them private. */
async function student(): Promise<TestUser> {
  const user = await createVerifiedUser({ name: 'Sam Share' });
  for (const collegeName of [ASPEN, BIRCH, CEDAR])
    expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
  expect((await post(user, '/update-application', { collegeName: BIRCH, status: 'submitted' })).status).toBe(
    200,
  );
  expect(
    (await post(user, '/add-note', { note: { title: 'Interview', content: SECRET, deadline: null } })).status,
  ).toBe(200);
  expect(
    (
      await post(user, '/add-note', {
        note: { title: 'Essay ideas', content: 'The lake, the boat', deadline: null },
      })
    ).status,
  ).toBe(200);
  return user;
}

const overview = (page: Page) => page.getByRole('region', { name: 'Your season at a glance' });
const rowNames = (page: Page) =>
  page.locator('tbody.season-college').evaluateAll((els) => els.map((e) => e.getAttribute('data-college')));
const noteTitles = (page: Page) => page.locator('.notes-list h4').allInnerTexts();

describe.each(VIEWPORTS)('share links at $width x $height', (viewport) => {
  it('a parent opens the link without signing in, sees the list and deadlines, and not after revoking', async () => {
    const user = await student();
    const me = await newPage({ viewport });
    const parent = await newPage({ viewport, reducedMotion: 'reduce' });
    try {
      await signInInBrowser(me.page, user, { path: '/login' });
      await me.page.goto('/profile');
      const panel = me.page.getByRole('region', { name: 'Share with a parent or counselor' });
      await panel.getByLabel('Who is it for?').fill('Mom');
      // The private parts are offered, unticked, with plain words about who sees them.
      const notesBox = panel.getByRole('checkbox', { name: /Your notes/ });
      expect(await notesBox.isChecked()).toBe(false);
      expect(await panel.getByText('Anyone with the link can read them.').first().isVisible()).toBe(true);
      await panel.getByRole('button', { name: 'Create share link' }).click();
      const link = panel.getByLabel('Link for Mom');
      await link.waitFor();
      const url = await link.inputValue();
      expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
      await panel.locator('[data-share-link="Mom"]').waitFor();

      // A fresh browser, nobody signed in.
      const response = await parent.page.goto(new URL(url).pathname);
      expect(response?.headers()['x-robots-tag']).toContain('noindex');
      expect(response?.headers()['cache-control']).toBe('no-store');
      const p = parent.page;
      await p.getByRole('heading', { name: 'Shared by Sam Share, read only' }).waitFor();
      await settled(p);
      expect(await p.locator('html').getAttribute('data-session')).toBe('signed-out');
      expect(await p.getByText(/^Data as of /).isVisible()).toBe(true);
      for (const name of [ASPEN, BIRCH, CEDAR])
        expect(await p.getByRole('heading', { name, exact: true }).isVisible()).toBe(true);
      const deadlines = p.getByRole('region', { name: 'Next deadlines' });
      expect(await deadlines.innerText()).toContain(`${CEDAR}: Regular Decision`);
      // Birch's application is submitted: its application deadline no longer shows, as on the student's own.
      expect(await deadlines.innerText()).not.toContain(`${BIRCH}: Early Action`);
      expect(await p.getByText('Submitted', { exact: true }).isVisible()).toBe(true);
      expect(
        await p.getByRole('link', { name: 'Subscribe in your calendar app' }).getAttribute('href'),
      ).toMatch(/^webcal:\/\/.+\/api\/shared\/[A-Za-z0-9_-]{43}\/deadlines\.ics$/);
      // Read only and nothing private.
      expect(await p.locator('main input, main textarea, main select').count()).toBe(0);
      expect(await p.locator('main').innerText()).not.toContain(SECRET);
      expect(await p.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
      if (viewport.width < 500)
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const violations = await axe(p);
      expect(describeViolations(violations)).toEqual([]);

      // The student sees the view, then revokes the link.
      await me.page.reload();
      const row = panel.locator('[data-share-link="Mom"]');
      await expect.poll(() => row.innerText()).toMatch(/Viewed 1 time/);
      await row.getByRole('button', { name: 'Revoke the link for Mom' }).click();
      await panel.getByText('Share link revoked. It stopped working at once.').waitFor();
      expect(await panel.locator('[data-share-link="Mom"]').count()).toBe(0);

      await p.reload();
      await p.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      expect(await p.getByRole('alert').innerText()).toContain('It may have been revoked or have expired');
      expect(await p.locator('main').innerText()).not.toContain(ASPEN);
      expect(describeViolations(await axe(p))).toEqual([]);
      expect(me.errors.concat(parent.errors).filter((e) => !/404|Not Found/i.test(e))).toEqual([]);
    } finally {
      await me.context.close();
      await parent.context.close();
    }
  });

  it('filters and sorts the list and the notes, and keeps the choices in the URL', async () => {
    const user = await student();
    const { page, context } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user, { path: '/login' });
      await page.goto('/usercolleges');
      await overview(page).waitFor();
      await expect.poll(() => rowNames(page)).toEqual([ASPEN, BIRCH, CEDAR]);

      const ov = overview(page);
      // By next deadline, soonest first; Birch, submitted, has none ahead and comes last.
      await ov.getByLabel('Sort by').selectOption('deadline');
      await expect.poll(() => rowNames(page)).toEqual([CEDAR, ASPEN, BIRCH]);
      await ov.getByLabel('Sort by').selectOption('name');
      await expect.poll(() => rowNames(page)).toEqual([ASPEN, BIRCH, CEDAR]);
      await ov.getByLabel('Filter by name').fill('cedar');
      await expect.poll(() => rowNames(page)).toEqual([CEDAR]);
      expect(await ov.getByText('1 of 3 shown').isVisible()).toBe(true);
      await ov.getByLabel('Filter by name').fill('');
      await ov.getByLabel('Status').selectOption('submitted');
      await expect.poll(() => rowNames(page)).toEqual([BIRCH]);
      expect(new URL(page.url()).searchParams.get('status')).toBe('submitted');
      expect(new URL(page.url()).searchParams.get('sort')).toBe('name');

      // A reload keeps the choices.
      await page.reload();
      await overview(page).waitFor();
      await expect.poll(() => rowNames(page)).toEqual([BIRCH]);
      expect(await overview(page).getByLabel('Status').inputValue()).toBe('submitted');

      // The sidebar follows the same choices while a college is open.
      await page.goto('/usercolleges?college=' + encodeURIComponent(ASPEN) + '&sort=name');
      if (viewport.width < 500) await page.getByRole('button', { name: 'Open Your Colleges' }).click();
      const sidebar = page.locator('#your-colleges');
      await sidebar.getByLabel('Sort by').waitFor();
      const sidebarNames = () => sidebar.locator('.college-select').allInnerTexts();
      await sidebar.getByLabel('Sort by').selectOption('status');
      // Researching comes before submitted; ties keep the list's order.
      await expect.poll(sidebarNames).toEqual([ASPEN, CEDAR, BIRCH]);
      await sidebar.getByLabel('Filter by name').fill('birch');
      await expect.poll(sidebarNames).toEqual([BIRCH]);
      expect(new URL(page.url()).searchParams.get('q')).toBe('birch');

      // Notes: newest first by default, searchable, and oldest first on request; back keeps it.
      await page.goto('/profile');
      await expect.poll(() => noteTitles(page)).toEqual(['Essay ideas', 'Interview']);
      await page.getByLabel('Search notes').fill('interview');
      await expect.poll(() => noteTitles(page)).toEqual(['Interview']);
      await page.getByLabel('Search notes').fill('');
      await page.getByLabel('Order', { exact: true }).selectOption('oldest');
      await expect.poll(() => noteTitles(page)).toEqual(['Interview', 'Essay ideas']);
      await page.goto('/about');
      await page.goBack();
      await expect.poll(() => noteTitles(page)).toEqual(['Interview', 'Essay ideas']);
      expect(new URL(page.url()).searchParams.get('noteSort')).toBe('oldest');
    } finally {
      await context.close();
    }
  });
});
