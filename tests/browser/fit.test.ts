// The fit band (issue 22) in Chromium at 1280x800 and 390x844: on the college card with its rule on
// screen (each section against its range, the data year, where the test policy comes from), across
// the list in the season overview (counts per band, the notes, the cost of applying), and in Compare
// (each college's band with its reason, the full rule on its card, the invitation to add scores).
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  scorecardSource,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const OAK = 'Oak Fit College';
const PINE = 'Pine Fit University';
const SCORECARD = scorecardSource(2);
const tests = (rw: number, math: number, rate: number) => ({
  admissionRate: rate,
  admissionTests: {
    satReading25: rw,
    satReading75: rw + 100,
    satMath25: math,
    satMath75: math + 100,
    act25: null,
    act75: null,
    testRequirement: 1,
  },
  dataYears: { admissions: '2021-22' },
});

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({ name: OAK, demographics: tests(550, 560, 0.6), sources: { demographics: SCORECARD } }),
    buildCollege({ name: PINE, demographics: tests(720, 740, 0.08), sources: { demographics: SCORECARD } }),
  ],
});

async function studentWithScores(): Promise<TestUser> {
  const user = await createVerifiedUser({ name: 'Riley' });
  const post = (path: string, body: Record<string, unknown>) =>
    gw.api('POST', `/api${path}`, { token: user.idToken, body });
  const set = await post('/update-academic-profile', {
    userId: user.uid,
    satReadingWriting: 700,
    satMath: 720,
    act: null,
    gpa: 3.8,
    yearlyBudget: null,
    testOptional: [],
  });
  expect(set.status).toBe(200);
  for (const collegeName of [OAK, PINE])
    expect((await post('/add-user-college', { collegeName })).status).toBe(200);
  return user;
}

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('the fit band at $width', (viewport) => {
  it('shows the band with its rule on the card, and the list balance in the season overview', async () => {
    const user = await studentWithScores();
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/search');
      await page.getByRole('combobox', { name: 'College name' }).fill(OAK);
      await page.getByRole('button', { name: 'Search/Add College' }).click();
      const card = page.getByRole('article', { name: OAK });
      const band = card.getByTestId('fit-band');
      await band.waitFor({ timeout: 20_000 });
      // Both sections above the middle half: likely, with each section and the policy's source shown.
      await expect.poll(() => band.getAttribute('data-band')).toBe('likely');
      const text = await band.innerText();
      expect(text).toContain('Fit for you: Likely');
      expect(text).toContain('2021-22');
      expect(text).toMatch(/you 700, admitted middle half 550-650 \(above the range\)/);
      expect(text).toMatch(/you 720, admitted middle half 560-660 \(above the range\)/);
      expect(text).toContain('not a chance of admission');
      expect(text).not.toMatch(/\d+ ?%\s*chance/);

      // Across the list: Pine admits under 15 %, a reach for everyone whatever the scores.
      await page.goto('/usercolleges');
      const pine = page.locator(`tbody.season-college[data-college="${PINE}"] td[data-label="Fit"]`);
      // (each college's document loads after the list: a busy machine can take more than the default second)
      await expect.poll(() => pine.innerText(), { timeout: 20_000 }).toContain('Reach');
      const balance = page.getByTestId('list-balance');
      await expect.poll(() => balance.innerText()).toContain('Reach: 1 · Target: 0 · Likely: 1');
      expect(await balance.innerText()).not.toContain('Your list has no likely college');
      expect(await balance.innerText()).toContain('Set your income band and a yearly budget');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The lines a locator shows, blank ones (between paragraphs) left out. */
const lines = async (l: Locator) => (await l.innerText()).split('\n').filter((x) => x.trim());

/** Compare's fit of one college: its column of the table on a wide screen, its stacked card on a phone. */
async function compareFit(page: Page, wide: boolean, names: string[], name: string) {
  const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
  if (!wide) {
    const card = panel.getByRole('region', { name: `${name} at a glance` });
    await card.waitFor({ timeout: 20_000 });
    return card.getByTestId('fit-band');
  }
  const table = panel.getByRole('table');
  await table.waitFor({ timeout: 20_000 });
  expect(await table.locator('thead th').allInnerTexts()).toEqual(['Metric', ...names]);
  return table
    .locator('tbody tr')
    .filter({ has: page.getByRole('rowheader', { name: 'Fit for you and cost of applying' }) })
    .locator('td')
    .nth(names.indexOf(name))
    .getByTestId('fit-band');
}

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('the fit band in Compare at $width', (viewport) => {
  const names = [OAK, PINE];
  const compare = `/search?${new URLSearchParams([['mode', 'compare'], ...names.map((n) => ['c', n])])}`;
  const wide = viewport.width > 600;

  it("shows each compared college's band with the rule it was judged by", async () => {
    const user = await studentWithScores();
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto(compare);
      const oak = await compareFit(page, wide, names, OAK);
      const pine = await compareFit(page, wide, names, PINE);
      await oak.waitFor({ timeout: 20_000 });
      expect(await oak.isVisible()).toBe(true);
      // Both SAT sections above Oak's middle half: likely, and why, with the data year.
      expect(await oak.getAttribute('data-band')).toBe('likely');
      expect(await lines(oak)).toEqual([
        'Fit for you: Likely',
        'Your SAT sections are each above the 75th percentile of admitted students (College Scorecard, 2021-22).',
      ]);
      // Pine admits 8 %: a reach whatever the scores, and the row says so.
      expect(await pine.getAttribute('data-band')).toBe('reach');
      expect(await lines(pine)).toEqual([
        'Fit for you: Reach',
        'It admits 8.0% of applicants (College Scorecard, 2021-22); under 15% is a reach for everyone.',
      ]);
      // The whole rule is on each college's card on the same page: each section against its range and
      // where the test policy comes from; never a chance of admission.
      const oakRule = page.getByRole('article', { name: OAK }).getByTestId('fit-band');
      const rule = await oakRule.innerText();
      expect(rule).toContain(
        'SAT Reading and Writing: you 700, admitted middle half 550-650 (above the range)',
      );
      expect(rule).toContain('SAT Math: you 720, admitted middle half 560-660 (above the range)');
      expect(rule).toContain('Test policy: required (College Scorecard test requirement (ADMCON7), 2021-22)');
      expect(rule).toContain('it is not a chance of admission');
      expect(await page.getByRole('link', { name: 'Add your scores on your Profile' }).count()).toBe(0);
      expect(await page.locator('body').innerText()).not.toMatch(/\d+ ?%\s*chance/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('invites a student without scores to add them, and still shows the band no score can change', async () => {
    const user = await createVerifiedUser({ name: 'Noor' });
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto(compare);
      const oak = await compareFit(page, wide, names, OAK);
      const pine = await compareFit(page, wide, names, PINE);
      await oak.waitFor({ timeout: 20_000 });
      expect(await oak.getAttribute('data-band')).toBe('not enough data');
      expect(await lines(oak)).toEqual([
        'Fit for you: Not enough data',
        'Add your SAT or ACT scores to compare them with the ranges of admitted students.',
      ]);
      expect(await pine.getAttribute('data-band')).toBe('reach');
      // The invitation leads to the academic profile on the Profile page.
      const invite = page
        .getByRole('article', { name: OAK })
        .getByRole('link', { name: 'Add your scores on your Profile' });
      expect(await invite.getAttribute('href')).toBe('/profile#academic-profile');
      await invite.click();
      await page.waitForURL((u) => u.pathname === '/profile' && u.hash === '#academic-profile');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
