// Issue 48: "Students like you" shows the official rates of every listed college side by side, names the
// gap between Pell Grant students and the others in words, says why a rate is missing, and sorts by the
// rate the student's own (private) answer on the profile picks; at 1280x800 and 390x844 with no sideways
// scroll and nothing axe finds.
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  scorecardSource,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { axe, describeViolations, settled } from '../a11y/lib.ts';

vi.setConfig({ testTimeout: 240_000 });

const rates = (o: Record<string, number | null>) => ({
  pellGraduationRate: null,
  noPellNoLoanGraduationRate: null,
  pooledGraduationRate: null,
  firstGenCompletionRate: null,
  lessThan4yrPellGraduationRate: null,
  lessThan4yrNoPellNoLoanGraduationRate: null,
  allGraduationRate: null,
  lessThan4yrGraduationRate: null,
  ...o,
});
const official = (name: string, id: number, outcomes: ReturnType<typeof rates>, degree = 3) =>
  buildCollege({
    name,
    scorecardId: id,
    demographics: { predominantDegree: degree, outcomes },
    sources: { demographics: scorecardSource(id), 'demographics.outcomes': scorecardSource(id) },
  });

const HIGH_PELL = 'Likeyou Pell Strong University';
const LOW_PELL = 'Likeyou Wide Gap College';
const TWO_YEAR = 'Likeyou Community College';
const { gw, browser } = browserSuite({
  colleges: [
    official(
      LOW_PELL,
      900001,
      rates({ pellGraduationRate: 0.6, noPellNoLoanGraduationRate: 0.99, allGraduationRate: 0.8 }),
    ),
    official(
      HIGH_PELL,
      900002,
      rates({ pellGraduationRate: 0.939, noPellNoLoanGraduationRate: 0.9725, allGraduationRate: 0.9674 }),
    ),
    official(
      TWO_YEAR,
      900003,
      rates({ lessThan4yrPellGraduationRate: 0.31, lessThan4yrNoPellNoLoanGraduationRate: 0.4 }),
      2,
    ),
  ],
});
let student: TestUser;

beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Lia Likeyou' });
  for (const collegeName of [LOW_PELL, HIGH_PELL, TWO_YEAR])
    await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName } });
});

describe('Students like you', () => {
  it('sorts by the rate the student picks on the profile, and names the gap and what is missing', async () => {
    const { page, context } = await newPage(browser, gw.url, { viewport: { width: 1280, height: 800 } });
    try {
      await signInInBrowser(page, student, { timeout: 60_000 });
      await page.goto('/profile#situation');
      const panel = page.getByRole('region', { name: 'Students like you' });
      await panel
        .getByRole('group', { name: 'Do you expect a Pell Grant?' })
        .getByLabel('Yes', { exact: true })
        .check();
      await panel.getByRole('button', { name: 'Save' }).click();
      await panel.getByText('Saved.').waitFor();

      await page.goto('/students-like-you');
      const list = page.getByRole('list', { name: 'Your colleges, by the rate that applies to you' });
      await list.getByRole('heading').first().waitFor();
      expect(await list.getByRole('heading').allTextContents()).toEqual([HIGH_PELL, LOW_PELL, TWO_YEAR]);
      const low = list.getByRole('listitem').filter({ hasText: LOW_PELL });
      await low.getByText('Pell Grant students finish 39 points less often here').waitFor();
      await low.getByText('60.0%').waitFor();
      await low.getByText('Year: 2021-22.').waitFor();
      const two = list.getByRole('listitem').filter({ hasText: TWO_YEAR });
      await two.getByText(/A two-year college: .*C150_L4_PELL/).waitFor();
      await two.getByText('31.0%').waitFor();
      await low.getByText(/FIRSTGEN_COMP_ORIG_YR4_RT/).waitFor();

      // Not a Pell Grant student: the other rate decides the order.
      await page.goto('/profile#situation');
      await panel
        .getByRole('group', { name: 'Do you expect a Pell Grant?' })
        .getByLabel('No', { exact: true })
        .check();
      await panel.getByRole('button', { name: 'Save' }).click();
      await panel.getByText('Saved.').waitFor();
      await page.goto('/students-like-you');
      await list.getByRole('heading').first().waitFor();
      expect(await list.getByRole('heading').allTextContents()).toEqual([LOW_PELL, HIGH_PELL, TWO_YEAR]);
      await page.getByText(/Sorted by the rate for students with neither/).waitFor();
    } finally {
      await context.close();
    }
  });

  it.each([
    [1280, 800],
    [390, 844],
  ])('fits %ix%i with no sideways scroll and no axe violation', async (width, height) => {
    const { page, context } = await newPage(browser, gw.url, { viewport: { width, height } });
    try {
      await signInInBrowser(page, student, { timeout: 60_000 });
      await page.goto('/students-like-you');
      await page.getByRole('heading', { name: LOW_PELL }).waitFor();
      await settled(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(describeViolations(await axe(page))).toEqual([]);
      await page.goto('/profile#situation');
      await page.getByRole('region', { name: 'Students like you' }).waitFor();
      await settled(page);
      expect(describeViolations(await axe(page))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
