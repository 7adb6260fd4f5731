// The fit band (issue 22) in Chromium at 1280x800 and 390x844: on the college card with its rule on
// screen (each section against its range, the data year, where the test policy comes from), and across
// the list in the season overview (counts per band, the notes, the cost of applying).
import {
  buildCollege,
  createVerifiedUser,
  launchBrowser,
  newPage,
  seedColleges,
  signInInBrowser,
  startTestGateway,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

let gw: TestGateway;
let browser: Browser;
const OAK = 'Oak Fit College';
const PINE = 'Pine Fit University';
const SCORECARD = {
  url: 'https://collegescorecard.ed.gov/school/?2',
  title: 'College Scorecard, U.S. Department of Education',
  gatheredAt: '2025-01-16T00:00:00.000Z',
  dataYear: '2021-22',
};
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

beforeAll(async () => {
  [gw, browser] = await Promise.all([startTestGateway({ listen: true, queue: 'memory' }), launchBrowser()]);
  await seedColleges(gw.db, [
    buildCollege({ name: OAK, demographics: tests(550, 560, 0.6), sources: { demographics: SCORECARD } }),
    buildCollege({ name: PINE, demographics: tests(720, 740, 0.08), sources: { demographics: SCORECARD } }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await gw?.close();
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
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
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
      await expect.poll(() => pine.innerText()).toContain('Reach');
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
