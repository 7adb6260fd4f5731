// The finish, in Chromium: the /usercolleges layout (panels keep their own heights), the collapsed
// sidebar's whole button, long notes clamped with "Show more", readable calendar markers, admin tables
// that wrap long text, focus kept inside the phone menu and the college drawer, the search and the chosen
// college in the URL (back and forward), autocomplete ranking, and page loads with no failing request.
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../hardening/lib/users.ts';

let student: TestUser;

const COLBY = 'Colby College';
const SAWYER = 'Colby-Sawyer College';
const BOWDOIN = 'Bowdoin College';
const MICHIGAN = 'University of Michigan-Ann Arbor';
const LONG_NAME = `Institute of ${'Interdisciplinary'.repeat(8)} Studies`;

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({ name: COLBY, info: { deadlines: [{ type: 'Early Decision I', date: '2026-11-15' }] } }),
    buildCollege({ name: SAWYER }),
    buildCollege({ name: BOWDOIN }),
    buildCollege({ name: MICHIGAN, info: { deadlines: [{ type: 'Early Action', date: '2026-11-03' }] } }),
    buildCollege({ name: LONG_NAME, links: [`https://www.example.edu/${'a-very-long-path-'.repeat(12)}`] }),
  ],
});
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Finn Ish' });
  for (const collegeName of [COLBY, MICHIGAN, BOWDOIN])
    await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName } });
});

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
};
const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Your Colleges' });

describe('layout', () => {
  it('keeps each /usercolleges panel at its own height, and the checklist beside the tall ones', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    await page.goto(`/usercolleges?college=${encodeURIComponent(COLBY)}`);
    await page.getByRole('heading', { name: `Checklist — ${COLBY}` }).waitFor();
    const resources = page.getByRole('region', { name: 'College Resources' });
    const demographics = page.getByRole('region', { name: 'College Demographics' });
    const checklist = page.getByRole('region', { name: /^Checklist/ });
    const closedHeight = (await box(resources)).height;
    await demographics.getByRole('button', { name: 'Show Demographics' }).click();
    await demographics.getByText('Financial Breakdown').waitFor();
    // Opening one panel neither stretches another nor pushes the checklist below it.
    expect((await box(resources)).height).toBe(closedHeight);
    expect((await box(demographics)).height).toBeGreaterThan(closedHeight * 3);
    const d = await box(demographics);
    const c = await box(checklist);
    expect(c.y).toBeLessThan(d.y + d.height);
    expect(c.x + c.width).toBeLessThanOrEqual(d.x);
    await context.close();
  });

  it('shows the collapsed sidebar its whole Expand button', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    await sidebar(page).getByRole('button', { name: 'Collapse Your Colleges' }).click();
    const expand = sidebar(page).getByRole('button', { name: 'Expand Your Colleges' });
    const b = await box(expand);
    const s = await box(sidebar(page));
    expect(b.x).toBeGreaterThanOrEqual(s.x);
    expect(b.x + b.width).toBeLessThanOrEqual(s.x + s.width);
    expect(await expand.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await context.close();
  });

  it('clamps a long note to a few lines with "Show more", and leaves a short one alone', async () => {
    const user = await createVerifiedUser({ name: 'Long Notes' });
    const post = (title: string, content: string) =>
      gw.api('POST', '/api/add-note', { token: user.idToken, body: { note: { title, content } } });
    await post('Essay plan', 'One line of the plan, and then another thought about it.\n'.repeat(20));
    await post('Short', 'Bring a pen.');
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const long = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Essay plan' }) });
    const short = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Short' }) });
    const more = long.getByRole('button', { name: 'Show more' });
    await more.waitFor();
    expect(await short.getByRole('button', { name: /Show (more|less)/ }).count()).toBe(0);
    const text = long.locator('.note-content');
    const clamped = (await box(text)).height;
    const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(clamped).toBeLessThanOrEqual(lineHeight * 6 + 1);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    const less = long.getByRole('button', { name: 'Show less' });
    expect(await less.getAttribute('aria-expanded')).toBe('true');
    expect((await box(text)).height).toBeGreaterThan(clamped * 2);
    await less.click();
    await expect.poll(async () => (await box(text)).height).toBe(clamped);
    await context.close();
  });

  it('marks calendar days with readable labels in the app style', async () => {
    const { page, context } = await newPage({ viewport: { width: 390, height: 844 } });
    await signInInBrowser(page, student);
    await page.goto('/profile');
    const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });
    const next = calendar.getByRole('button', { name: /›/ }).first();
    // Move the month view to November 2026.
    for (let i = 0; i < 36; i++) {
      if (await calendar.getByText('November 2026').count()) break;
      const label = (await calendar.locator('.react-calendar__navigation__label').textContent()) ?? '';
      const [month, year] = label.split(' ');
      const ahead = Number(year) < 2026 || (Number(year) === 2026 && month !== 'December');
      await (ahead ? next : calendar.getByRole('button', { name: /‹/ }).first()).click();
    }
    const marker = calendar.locator('.cal-marker').filter({ hasText: 'Michigan' });
    await marker.waitFor();
    // The day names the college by the word that tells it apart; the full name is read out and in the tooltip.
    expect(await marker.getAttribute('title')).toBe(MICHIGAN);
    expect(await marker.locator('.visually-hidden').textContent()).toBe(MICHIGAN);
    const style = await marker.evaluate((el) => {
      const s = getComputedStyle(el);
      return { size: parseFloat(s.fontSize), color: s.color, background: s.backgroundColor };
    });
    expect(style.size).toBeGreaterThanOrEqual(11);
    expect(style).toMatchObject({ color: 'rgb(255, 255, 255)', background: 'rgb(29, 53, 87)' });
    // The label fits its day.
    const m = await box(marker);
    const tile = await box(marker.locator('xpath=ancestor::button[1]'));
    expect(m.x).toBeGreaterThanOrEqual(tile.x - 0.5);
    expect(m.x + m.width).toBeLessThanOrEqual(tile.x + tile.width + 0.5);
    await context.close();
  });

  it('wraps long text in the admin tables at desktop and phone widths', async () => {
    const admin = await createVerifiedUser({ name: 'Wrap Admin' });
    await grantRole(gw.db, admin.uid, 'admin');
    const { page, context } = await newPage();
    await signInInBrowser(page, admin);
    await page.goto('/admin');
    await page.getByText('Welcome, Admin!').waitFor();
    const closed = page.locator('section.admin-section button[aria-expanded="false"]');
    for (let n = await closed.count(); n > 0; n = await closed.count()) await closed.first().click();
    const colleges = page.locator('section.admin-section').filter({ hasText: 'Filter colleges by name' });
    await colleges.getByRole('cell', { name: LONG_NAME }).first().waitFor();
    const fits = () =>
      page
        .locator('.admin-table-wrap')
        .evaluateAll((wraps) => wraps.every((w) => w.scrollWidth <= w.clientWidth));
    expect(await fits()).toBe(true);
    await colleges.getByRole('button', { name: 'Show Full Data' }).click();
    const json = colleges.locator('.admin-json');
    await json.waitFor();
    expect(await json.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fits()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Each value is still labelled with its column on a phone.
    const cell = colleges.getByRole('cell', { name: LONG_NAME }).first();
    expect(await cell.getAttribute('data-label')).toBe('Name');
    await context.close();
  });
});

describe('focus stays inside what is open (WCAG 2.4.3)', () => {
  /** Presses Tab (or Shift+Tab) n times and returns whether each stop was inside `inside`. */
  async function stops(page: Page, inside: Locator[], n: number, back = false): Promise<boolean[]> {
    const out: boolean[] = [];
    for (let i = 0; i < n; i++) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      const hits = await Promise.all(
        inside.map((l) => l.evaluate((el) => el.contains(document.activeElement))),
      );
      out.push(hits.some(Boolean));
    }
    return out;
  }

  it('keeps focus in the phone menu, closes it on Escape and returns to the toggle', async () => {
    const { page, context } = await newPage({ viewport: { width: 390, height: 844 } });
    await signInInBrowser(page, student);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.locator('#main-menu');
    const close = page.getByRole('button', { name: 'Close menu' });
    expect(await stops(page, [menu, close], 10)).toEqual(Array(10).fill(true));
    expect(await stops(page, [menu, close], 10, true)).toEqual(Array(10).fill(true));
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await isFocused(toggle)).toBe(true);
    await context.close();
  });

  it('keeps focus in the college drawer, closes it on Escape and returns to its opener', async () => {
    const { page, context } = await newPage({ viewport: { width: 390, height: 844 } });
    await signInInBrowser(page, student);
    const open = page.getByRole('button', { name: 'Open Your Colleges' });
    await open.click();
    const drawer = sidebar(page);
    await expect.poll(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await stops(page, [drawer], 12)).toEqual(Array(12).fill(true));
    expect(await stops(page, [drawer], 12, true)).toEqual(Array(12).fill(true));
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.getByRole('button', { name: COLBY, exact: true }).isVisible()).toBe(false);
    expect(await isFocused(open)).toBe(true);
    await context.close();
  });
});

describe('state in the URL', () => {
  it('puts the search in the URL, so reload, back and forward show the same college', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    await page.goto('/search');
    const input = page.getByLabel('College name');
    const search = page.getByRole('button', { name: 'Search/Add College' });
    await input.fill(COLBY);
    await search.click();
    await page.getByRole('article', { name: COLBY }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(COLBY);
    await input.fill(BOWDOIN);
    await search.click();
    await page.getByRole('article', { name: BOWDOIN }).waitFor();

    await page.goBack();
    await page.getByRole('article', { name: COLBY }).waitFor();
    expect(await input.inputValue()).toBe(COLBY);
    await page.goForward();
    await page.getByRole('article', { name: BOWDOIN }).waitFor();
    await page.reload();
    await page.getByRole('article', { name: BOWDOIN }).waitFor();
    expect(await input.inputValue()).toBe(BOWDOIN);
    await context.close();
  });

  it('puts the chosen college in the URL, so reload, back and forward show the same checklist', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    const heading = (name: string) => page.getByRole('heading', { name: `Checklist — ${name}` });
    await sidebar(page).getByRole('button', { name: COLBY, exact: true }).click();
    await heading(COLBY).waitFor();
    expect(new URL(page.url()).searchParams.get('college')).toBe(COLBY);
    await sidebar(page).getByRole('button', { name: MICHIGAN, exact: true }).click();
    await heading(MICHIGAN).waitFor();
    await page.goBack();
    await heading(COLBY).waitFor();
    expect(
      await sidebar(page).getByRole('button', { name: COLBY, exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    await page.goForward();
    await heading(MICHIGAN).waitFor();
    await page.reload();
    await heading(MICHIGAN).waitFor();
    // A college not on the list selects nothing.
    await page.goto('/usercolleges?college=Nowhere%20College');
    await page.getByRole('heading', { name: 'Your season at a glance' }).waitFor();
    await context.close();
  });
});

describe('autocomplete', () => {
  it('suggests the Colbys for "Colby", Colby College first, and not Bowdoin', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, student);
    await page.goto('/search');
    await page.getByLabel('College name').fill('Colby');
    await page.getByRole('option', { name: COLBY }).waitFor();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toEqual([COLBY, SAWYER]);
    await context.close();
  });
});

describe('page loads of an ordinary student', () => {
  it('make no failing request on any page', async () => {
    const { page, context, errors } = await newPage();
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    // A load cut short by the next page.goto is the test's doing, not a failure.
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${r.failure()?.errorText} ${r.url()}`);
    });
    await signInInBrowser(page, student);
    for (const path of ['/', '/about', '/search', '/usercolleges', '/essays', '/profile', '/admin']) {
      await page.goto(path);
      await page.waitForSelector('html[data-session="signed-in"]', { state: 'attached' });
      await page.waitForLoadState('networkidle');
    }
    // The role lookup answered (no role: not admin) without a 404.
    expect(await page.locator('html').getAttribute('data-admin')).toBe('false');
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
