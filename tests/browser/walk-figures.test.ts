// Issue 34, items 5-8, in Chromium, with real College Scorecard rows (tests/fixtures) served by the local
// Scorecard fake and a local OpenAI fake, as a deployment with both keys runs. Two colleges are stored as
// the shipped snapshot stores them (dated sources), then read from their own pages on a student's first
// search: Miami Dade College (public, open admissions) and Yale University (private, a page that gives
// its own acceptance rate).
// 5: every official figure keeps its year after the college's pages were read: card, dashboard, Compare,
// aid comparison. 6: the official acceptance rate leads, with source and year; the page's own figure
// follows with its cycle. 7: a private college has one tuition. 8: an open-admissions college is likely.
import type { College } from '@ct/contracts';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { governmentCollege, governmentData, recordFromCsv } from '@ct/providers';
import {
  browserSuite,
  buildFactsAnswer,
  createVerifiedUser,
  newPage,
  providerFakes,
  signInInBrowser,
  type ResponsesRequest,
  type TestUser,
} from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startCollegesGateway } from '../api/colleges-helpers.ts';

vi.setConfig({ testTimeout: 180_000 });

const MIAMI_DADE = 'Miami Dade College';
const MIAMI_DADE_ID = 135717;
const YALE = 'Yale University';
const YALE_ID = 130794;

/** The name the facts question is about (the worker sends it as data). */
function askedAbout(req: ResponsesRequest): unknown {
  const items = req.rawInput as Array<{ content: Array<{ text: string }> }>;
  const text = Array.isArray(items) ? (items[1]?.content[0]?.text ?? '') : '';
  const data = JSON.parse(text.slice('<data>'.length, -'</data>'.length) || '{}') as Record<string, unknown>;
  return data.officialName ?? data.nameAsTyped;
}

/** As the shipped snapshot stores a college: its figures' sources name the year of the file they are from. */
function asShipped(id: number): College {
  const doc = governmentCollege(
    governmentData(recordFromCsv(scorecard.row(id)!))!,
    '2026-01-05T00:00:00.000Z',
  );
  const dated = (dataYear: string) => ({
    url: `https://collegescorecard.ed.gov/school/?${id}`,
    title: `College Scorecard, U.S. Department of Education, ${dataYear}`,
    gatheredAt: '2025-01-16T00:00:00.000Z',
    dataYear,
    released: '2025-01-16',
  });
  doc.sources = {
    ...doc.sources,
    name: dated('2021-22'),
    demographics: dated('2021-22'),
    'demographics.finance': dated('2021-22'),
    'demographics.finance.medianEarnings': dated('2020-21'),
  };
  return doc;
}

const { scorecard, openai, providerEnv } = providerFakes();
const { gw, browser } = browserSuite({
  start: () => startCollegesGateway({ ...providerEnv(), INGESTION_BACKOFF_MS: '50' }, { listen: true }),
});
beforeAll(async () => {
  openai.setResponder((req) => {
    if (req.schemaName !== 'college_facts') return undefined;
    const name = askedAbout(req);
    if (name === YALE)
      return {
        value: buildFactsAnswer({
          officialName: YALE,
          website: 'https://www.yale.edu/',
          admissionStatistics: {
            value: { overallAcceptanceRate: 0.45, year: 'Class of 2029' },
            sourceUrl: 'https://www.yale.edu/admissions/profile',
          },
        }),
        citations: [{ url: 'https://www.yale.edu/admissions/profile', title: 'admissions profile' }],
      };
    return {
      value: buildFactsAnswer({
        officialName: MIAMI_DADE,
        website: 'https://www.mdc.edu/',
        tips: { value: ['Apply online any time of year.'], sourceUrl: 'https://www.mdc.edu/admissions' },
      }),
      citations: [{ url: 'https://www.mdc.edu/admissions', title: 'Admission' }],
    };
  });
  await new CollegeRepository(gw.db).upsertColleges([asShipped(MIAMI_DADE_ID), asShipped(YALE_ID)], {
    mode: 'government',
  });
});

const post = (user: TestUser, path: string, body: Record<string, unknown>) =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });

/** What a college's card shows once its own pages have been read. */
const READ: Record<string, string> = {
  [MIAMI_DADE]: 'Apply online any time of year.',
  [YALE]: 'The college’s own figure',
};

/** The card of a college, once its own pages have been read (the first search reads them). */
async function readCard(page: Page, name: string): Promise<Locator> {
  await page.goto(`/search?q=${encodeURIComponent(name)}`);
  const card = page.getByRole('article', { name });
  await card
    .getByText(READ[name]!)
    .waitFor({ timeout: 60_000 })
    .catch(async (err: unknown) => {
      // Say what the student saw instead (a status line: paused, failed, not asked), not only the wait.
      const seen = await page
        .locator('main')
        .innerText()
        .catch(() => '(no page)');
      const rows = await gw.db.query(
        `SELECT r.state, r.stage, r.attempts, r.failure_reason, r.last_error, r.updated_at,
           c.facts_gathered_at, c.document->'info'->'tips' AS tips
         FROM colleges.college c LEFT JOIN colleges.ingestion_request r ON r.key = c.normalized_name
         WHERE c.name = $1`,
        [name],
      );
      const asked = openai.responses().map((r) => `${r.schemaName}:${String(askedAbout(r))}`);
      throw new Error(
        `${(err as Error).message}\nRequest and college: ${JSON.stringify(rows.rows)}\nAI asked: ${asked.join(', ')}\nThe page showed:\n${seen.slice(0, 600)}`,
      );
    });
  return card;
}

/** A money figure of a "Cost for you" summary, by its key: label and value as the student reads them. */
const money = (scope: Locator, key: string) => scope.locator(`.money-fact[data-key="${key}"]`).innerText();

function fact(scope: Locator, region: string, label: string): Locator {
  return scope
    .getByRole('region', { name: region, exact: true })
    .locator('.fact')
    .filter({ has: scope.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

describe('official figures after a college’s own pages were read (issue 34, item 5)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createVerifiedUser({ name: 'Years' });
  });

  it('keeps every official figure’s year on the card, on a later visit, on the dashboard and in Compare', async () => {
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      const card = await readCard(page, MIAMI_DADE);
      const check = async (scope: Locator) => {
        expect(await money(scope, 'inStateTuition')).toMatch(/\$2,838\s*2021-22 data/);
        expect(await money(scope, 'outOfStateTuition')).toMatch(/\$9,661\s*2021-22 data/);
        expect(await money(scope, 'netPrice')).toMatch(/\$3,732\s*2021-22 data/);
        expect(await money(scope, 'medianEarnings')).toMatch(/\$40,654\s*2020-21 data/);
        expect(await scope.innerText()).not.toContain('year not stated');
      };
      await check(card.getByTestId('money-summary'));
      expect(await card.locator('.college-card-header .muted').innerText()).toContain(
        'Figures from 2020-21, 2021-22',
      );
      // A later visit reads the stored college: the same years.
      await page.reload();
      await card.getByText('Apply online any time of year.').waitFor();
      await check(card.getByTestId('money-summary'));

      // The dashboard's cost panel and its demographics panel.
      expect((await post(user, '/add-user-college', { collegeName: MIAMI_DADE })).status).toBe(200);
      await page.goto(`/usercolleges?college=${encodeURIComponent(MIAMI_DADE)}`);
      const cost = page.getByRole('region', { name: `Cost for you — ${MIAMI_DADE}` });
      await cost.locator('.money-fact').first().waitFor();
      await check(cost);
      await page.getByRole('button', { name: 'Show Demographics' }).click();
      await expect
        .poll(() => page.locator('.official-years').innerText())
        .toBe('Official figures: College Scorecard, U.S. Department of Education, 2020-21, 2021-22 data.');

      // Compare, side by side with a college whose pages were not read.
      await page.goto(
        `/search?${new URLSearchParams([
          ['mode', 'compare'],
          ['c', MIAMI_DADE],
          ['c', YALE],
        ])}`,
      );
      const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
      await panel.getByRole('heading', { name: 'Comparison' }).waitFor();
      const inState = panel
        .getByRole('table')
        .first()
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /^In-state tuition/ }) })
        .locator('td')
        .first();
      expect(await inState.innerText()).toMatch(/\$2,838\s*2021-22 data/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the years in the aid comparison of two admissions', async () => {
    const admitted = await createVerifiedUser({ name: 'Admitted Years' });
    for (const collegeName of [MIAMI_DADE, YALE]) {
      expect((await post(admitted, '/add-user-college', { collegeName })).status).toBe(200);
      expect(
        (
          await post(admitted, '/update-application', {
            collegeName,
            plan: 'RD',
            status: 'admitted-with-aid',
          })
        ).status,
      ).toBe(200);
    }
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, admitted);
      // Yale's pages are read now, after Miami Dade's: both stored colleges have been enriched.
      await readCard(page, YALE);
      await page.goto('/usercolleges');
      const side = page.getByTestId('admitted-comparison');
      const row = side.getByRole('row', { name: /^Graduation rate/ });
      await row.waitFor();
      await expect
        .poll(() => row.locator('td').allInnerTexts())
        .toEqual([
          expect.stringMatching(/34\.73%\s*2021-22 data/),
          expect.stringMatching(/96\.92%\s*2021-22 data/),
        ]);
      const earnings = side.getByRole('row', { name: /^Median earnings/ });
      expect(await earnings.locator('td').allInnerTexts()).toEqual([
        expect.stringMatching(/\$40,654\s*2020-21 data/),
        expect.stringMatching(/\$100,533\s*2020-21 data/),
      ]);
      expect(await side.innerText()).not.toContain('year not stated');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('two acceptance rates (issue 34, item 6)', () => {
  it('leads with the official rate, its source and year, then the college’s own figure with its cycle', async () => {
    const user = await createVerifiedUser({ name: 'Rates' });
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      const card = await readCard(page, YALE);
      const expectRates = async (scope: Locator) => {
        const rate = fact(scope, 'Admission Statistics', 'Acceptance Rate');
        await expect
          .poll(() => rate.innerText())
          .toMatch(/^5\.31%\s*Official figure: College Scorecard, 2021-22 data/);
        expect(await fact(scope, 'Admission Statistics', 'Year').innerText()).toBe('2021-22');
        expect(await fact(scope, 'Admission Statistics', 'The college’s own figure').innerText()).toMatch(
          /^45%\s*Class of 2029, from the college’s own page \(admissions profile\)/,
        );
        // The official figure comes first.
        expect(
          await scope
            .getByRole('region', { name: 'Admission Statistics', exact: true })
            .locator('dt')
            .allInnerTexts(),
        ).toEqual(['Acceptance Rate', 'Year', 'The college’s own figure']);
      };
      await expectRates(card);

      // The dashboard's Resources panel says the same as the card, and Demographics names its source.
      expect((await post(user, '/add-user-college', { collegeName: YALE })).status).toBe(200);
      await page.goto(`/usercolleges?college=${encodeURIComponent(YALE)}`);
      await page.getByRole('button', { name: 'Show Resources' }).click();
      await page.getByRole('button', { name: 'Show Demographics' }).click();
      const main = page.locator('main');
      await expectRates(main);
      expect(await fact(main, 'Demographics', 'Admission Rate').innerText()).toBe('5.31%');
      expect(await main.locator('.official-years').innerText()).toContain('College Scorecard');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('money words that fit the college (issue 34, item 7)', () => {
  it('gives a private college one tuition, with no in-state or out-of-state, on the card and in Compare', async () => {
    const user = await createVerifiedUser({ name: 'Tuition' });
    expect((await post(user, '/update-student-profile', { homeState: 'FL', incomeBand: null })).status).toBe(
      200,
    );
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      const yale = await readCard(page, YALE);
      const summary = yale.getByTestId('money-summary');
      await summary.locator('.money-fact').first().waitFor();
      expect(await money(summary, 'privateTuition')).toMatch(
        /^Tuition\s*\$59,950 Private college: one tuition for every student\s*2021-22 data$/,
      );
      expect(await summary.innerText()).not.toMatch(/in-state|out-of-state|home state/i);
      // A public college in the student's home state: their in-state tuition.
      const smc = await readCard(page, MIAMI_DADE);
      expect(await money(smc.getByTestId('money-summary'), 'tuition')).toMatch(
        /^Your tuition \(home state Florida\)\s*\$2,838 In-state/,
      );

      await page.goto(
        `/search?${new URLSearchParams([
          ['mode', 'compare'],
          ['c', YALE],
          ['c', MIAMI_DADE],
        ])}`,
      );
      const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
      await panel.getByRole('heading', { name: 'Comparison' }).waitFor();
      const row = panel
        .getByRole('table')
        .first()
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /^Your tuition/ }) });
      expect(await row.getByRole('rowheader').innerText()).toMatch(/^Your tuition \(home state Florida\)\n/);
      expect(await row.locator('td').allInnerTexts()).toEqual([
        expect.stringMatching(/^\$59,950 Private college: one tuition for every student/),
        expect.stringMatching(/^\$2,838 In-state/),
      ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('an open-admissions college (issue 34, item 8)', () => {
  it('is likely, and the list is not told it lacks a likely college', async () => {
    const user = await createVerifiedUser({ name: 'Open Door' });
    expect((await post(user, '/add-user-college', { collegeName: MIAMI_DADE })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      await page.goto(`/search?q=${encodeURIComponent(MIAMI_DADE)}`);
      const band = page.getByRole('article', { name: MIAMI_DADE }).getByTestId('fit-band');
      await band.waitFor();
      expect(await band.getAttribute('data-band')).toBe('likely');
      expect(await band.locator('.fit-reason').innerText()).toBe(
        'It admits every applicant (open admissions, College Scorecard, 2021-22): a likely college whatever your scores.',
      );
      await page.goto('/usercolleges');
      const balance = page.getByTestId('list-balance');
      await balance.waitFor();
      await expect.poll(() => balance.innerText()).not.toContain('no likely college');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
