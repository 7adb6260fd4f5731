// What a student and an admin see of issue 12's items 3 and 4, in Chromium: official figures at once with
// enrichment as a status line, one short line when no AI key is set, a college private to the student who
// asked, both admission rates labelled, and the admin's College Review section.
import { RoleRepository } from '@ct/auth/repositories/roles';
import { countdownText, daysBetween, localToday } from '@ct/contracts/planning';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { governmentCollege, governmentData, recordFromCsv } from '@ct/providers';
import {
  buildCollege,
  buildFactsAnswer,
  createVerifiedUser,
  newPage,
  seedColleges,
  signInInBrowser,
  providerFakes,
  sharedBrowser,
  type ResponsesRequest,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { collegesSuite } from '../api/colleges-helpers.ts';

let student: TestUser;
let admin: TestUser;

const YALE_ID = 130794;
const MADE_UP = 'Example Imaginary Academy of Nowhere';

function typedName(req: ResponsesRequest): unknown {
  const items = req.rawInput as Array<{ content: Array<{ text: string }> }>;
  const text = Array.isArray(items) ? (items[1]?.content[0]?.text ?? '') : '';
  const data = JSON.parse(text.slice('<data>'.length, -'</data>'.length) || '{}') as Record<string, unknown>;
  return data.officialName ?? data.nameAsTyped;
}

function answer(req: ResponsesRequest) {
  const name = typedName(req);
  if (name === 'Yale University')
    return buildFactsAnswer({
      officialName: 'Yale University',
      website: 'https://www.yale.edu/',
      deadlines: {
        value: [{ type: 'Regular Decision', date: '2027-01-02' }],
        sourceUrl: 'https://admissions.yale.edu/dates',
      },
      admissionStatistics: {
        value: { overallAcceptanceRate: 0.5, year: 'Class of 2029' },
        sourceUrl: 'https://admissions.yale.edu/profile',
      },
    });
  return buildFactsAnswer({ officialName: 'Example official name', website: 'https://www.example.com/' });
}

const browser = sharedBrowser();
const { scorecard, openai } = providerFakes();
beforeAll(async () => {
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Trust Student' }),
    createVerifiedUser({ name: 'Trust Admin' }),
  ]);
  openai.setResponder((req) =>
    req.schemaName === 'college_facts'
      ? {
          value: answer(req),
          citations: [
            { url: 'https://admissions.yale.edu/profile', title: 'admissions page' },
            { url: 'https://admissions.yale.edu/dates', title: 'dates page' },
          ],
        }
      : undefined,
  );
});

async function importYale(gw: TestGateway): Promise<void> {
  const yale = governmentData(recordFromCsv(scorecard.row(YALE_ID)!))!;
  await new CollegeRepository(gw.db).upsertColleges([governmentCollege(yale, new Date().toISOString())], {
    mode: 'government',
  });
}

async function search(gw: TestGateway, name: string, user = student) {
  const { page, context, errors } = await newPage(browser, gw.url);
  await signInInBrowser(page, user);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Search', exact: true })
    .click();
  await page.getByLabel('College name').fill(name);
  await page.getByRole('button', { name: 'Search/Add College' }).click();
  return { page, context, errors };
}

const percent = (v: number) =>
  `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(v * 100)}%`;

function fact(page: Page, region: string, label: string) {
  return page
    .getByRole('region', { name: region, exact: true })
    .locator('.fact')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

describe('with an AI key', { timeout: 120_000 }, () => {
  const gw = collegesSuite(
    () => ({
      SCORECARD_API_URL: undefined,
      SCORECARD_API_KEY: undefined,
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
      INGESTION_BACKOFF_MS: '50',
    }),
    { listen: true },
  );
  beforeAll(async () => {
    await importYale(gw);
    await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
    await seedColleges(gw.db, [
      buildCollege({
        name: 'Harbor Data Year College',
        scorecardId: 900811,
        demographics: { admissionRate: 0.04 },
        info: { admissionStatistics: { overallAcceptanceRate: 0.036, year: 'Class of 2029' } },
        sources: {
          demographics: {
            url: 'https://collegescorecard.ed.gov/school/?900811',
            title: 'College Scorecard',
            gatheredAt: '2026-01-05T00:00:00.000Z',
            dataYear: '2022-23',
          },
          'info.admissionStatistics': {
            url: 'https://www.harbor.edu/admissions/profile',
            title: 'admissions page',
            gatheredAt: '2026-01-05T00:00:00.000Z',
          },
        },
      }),
      buildCollege({ name: 'Review Target University' }),
    ]);
  });

  it('shows a Scorecard college at once, with a status line while its own pages are read, then fills in', async () => {
    openai.server.hold();
    let released = false;
    try {
      const { page, context, errors } = await search(gw, 'Yale University');
      const card = page.getByRole('article', { name: 'Yale University' });
      await card.waitFor();
      // Official figures right away, no blocking overlay; the enrichment is a status line.
      expect(await page.getByTestId('loading-overlay').count()).toBe(0);
      const row = scorecard.row(YALE_ID)!;
      expect(await fact(page, 'Demographics', 'Admission Rate').innerText()).toBe(
        percent(Number(row.ADM_RATE)),
      );
      const line = card.getByTestId('enrichment-status');
      expect(await line.innerText()).toBe(
        "Gathering deadlines, essay prompts and requirements from the college's own pages...",
      );
      // The page stays usable meanwhile.
      expect(await card.getByRole('button', { name: /Add to Profile/ }).isEnabled()).toBe(true);
      expect(await page.getByLabel('College name').isEnabled()).toBe(true);

      openai.server.release();
      released = true;
      await expect
        .poll(() => line.innerText(), { timeout: 30_000 })
        .toBe("Deadlines, essay prompts and requirements from the college's own pages were added.");
      // The date, and how far it is from today (the browser and this process share the clock).
      const today = localToday();
      // Issue 44: the grid names Yale's plans; the answer's newer date for RD shows, in the grid's words,
      // and the grid's other plan stays.
      expect(await fact(page, 'Deadlines', 'Regular Decision').innerText()).toMatch(
        new RegExp(
          `^January 2, 2027 ${daysBetween(today, '2027-01-02') < 0 ? 'Passed · ' : ''}${countdownText('2027-01-02', today)}(\\nSource: .+)?$`,
        ),
      );
      const deadlines = await page.getByRole('region', { name: 'Deadlines', exact: true }).innerText();
      expect(deadlines).toContain('Restrictive Early Action');
      expect(deadlines).not.toMatch(/Early Decision/);
      // Both admission rates, labelled: the official one stays as it was, and leads (issue 34, item 6).
      expect(await fact(page, 'Demographics', 'Admission Rate').innerText()).toBe(
        percent(Number(row.ADM_RATE)),
      );
      expect(await fact(page, 'Admission Statistics', 'Acceptance Rate').innerText()).toContain(
        `${percent(Number(row.ADM_RATE))}\nOfficial figure: College Scorecard, year not stated`,
      );
      expect(await fact(page, 'Admission Statistics', 'The college’s own figure').innerText()).toContain(
        '50%\nClass of 2029, from the college’s own page (admissions page)',
      );
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      if (!released) openai.server.release();
    }
  });

  it("labels the official figure with its data year and the college's own with its year and page", async () => {
    const { page, context } = await search(gw, 'Harbor Data Year College');
    const card = page.getByRole('article', { name: 'Harbor Data Year College' });
    await card.waitFor();
    expect(await fact(page, 'Admission Statistics', 'Acceptance Rate').innerText()).toContain(
      '4%\nOfficial figure: College Scorecard, 2022-23 data',
    );
    expect(await fact(page, 'Admission Statistics', 'Year').innerText()).toBe('2022-23');
    expect(await fact(page, 'Admission Statistics', 'The college’s own figure').innerText()).toContain(
      '3.6%\nClass of 2029, from the college’s own page (admissions page)',
    );
    await context.close();
  });

  it('gathers a made-up name behind the overlay and shows it as private to the student', async () => {
    const { page, context } = await search(gw, MADE_UP);
    const card = page.getByRole('article', { name: 'Example official name' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('private-college').innerText()).toMatch(
      /^Only you can see this college for now/,
    );
    // Nobody else's autocomplete offers it.
    const suggested = page.waitForResponse((r) => r.url().includes('/api/get-college-suggestions'));
    await page.getByLabel('College name').fill('Example off');
    const body = (await (await suggested).json()) as { suggestions: string[] };
    expect(body.suggestions).not.toContain('Example official name');
    expect(await page.getByRole('option', { name: 'Example official name' }).count()).toBe(0);
    await context.close();
  });

  it('lets an admin approve, merge and delete from the College Review section', async () => {
    // Two more review items, made the way students make them.
    for (const name of ['Example Phantom College', 'Example Mirage Institute']) {
      const r = await gw.api('POST', '/api/add-college', { token: student.idToken, body: { name } });
      expect(r.status).toBe(202);
    }
    await expect
      .poll(async () => (await gw.db.query('SELECT 1 FROM colleges.private_college')).rows.length, {
        timeout: 30_000,
      })
      .toBe(3);
    const { page, context, errors } = await newPage(browser, gw.url);
    await signInInBrowser(page, admin);
    await page.goto('/admin');
    const review = page
      .locator('section.admin-section')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'College Review', exact: true }) });
    const rows = review.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(3);
    const rowOf = (typed: string) => rows.filter({ hasText: typed });
    expect(await rowOf(MADE_UP).locator('td').nth(3).innerText()).toBe(
      'The official name "Example official name" does not contain "imaginary nowhere" from what was typed.',
    );

    // Merge into a shared college, by its name.
    await rowOf('Example Phantom College')
      .getByRole('button', { name: 'Merge Example official name' })
      .click();
    await review.getByLabel('Merge “Example official name” into').fill('Review Target University');
    await review.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect
      .poll(() => review.getByRole('status').first().innerText())
      .toBe('"Example official name" was merged into "Review Target University".');
    await expect.poll(() => rows.count()).toBe(2);

    // Delete asks to be confirmed.
    await rowOf('Example Mirage Institute')
      .getByRole('button', { name: 'Delete Example official name' })
      .click();
    await review.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => rows.count()).toBe(1);

    // Approve makes the last one shared: the Colleges section lists it.
    await rowOf(MADE_UP).getByRole('button', { name: 'Approve Example official name' }).click();
    await expect
      .poll(() => review.getByRole('status').first().innerText())
      .toBe('"Example official name" is now shared with every student.');
    await review.getByText('No college is waiting for review.').waitFor();
    const colleges = page
      .locator('section.admin-section')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Colleges', exact: true }) });
    await colleges.getByLabel('Filter colleges by name').fill('Example official');
    await expect
      .poll(() => colleges.locator('tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining('Example official name')]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('without any key', { timeout: 120_000 }, () => {
  const gw = collegesSuite(
    () => ({
      SCORECARD_API_URL: undefined,
      SCORECARD_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      OPENAI_API_KEY: undefined,
    }),
    { listen: true },
  );
  beforeAll(() => importYale(gw));

  it('shows the official figures and one short line saying which facts need which key', async () => {
    const { page, context, errors } = await search(gw, 'Yale University');
    const card = page.getByRole('article', { name: 'Yale University' });
    await card.waitFor();
    expect(await card.getByTestId('enrichment-status').innerText()).toBe(
      "Deadlines, essay prompts and requirements from the college's own pages need an AI key (OPENAI_API_KEY); official figures are from the College Scorecard.",
    );
    const row = scorecard.row(YALE_ID)!;
    expect(await fact(page, 'Demographics', 'City').innerText()).toBe(row.CITY);
    // What is missing is one folded line, not a list that fills the screen.
    const missing = card.locator('details.missing-facts');
    expect(await missing.getAttribute('open')).toBeNull();
    expect(await missing.locator('li').first().isVisible()).toBe(false);
    expect(await page.getByTestId('loading-overlay').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
