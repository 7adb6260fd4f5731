import {
  browserSuite,
  buildFactsAnswer,
  createVerifiedUser,
  exampleFromSchema,
  providerFakes,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGE_TEXT } from '../../web/src/features/search/stages.ts';
import { TIMINGS } from '../../web/src/lib/timings.ts';
import { startCollegesGateway } from '../api/colleges-helpers.ts';

// A college that is NOT cached: the real worker gathers it from the local Scorecard fake (answering from
// rows of the official CSV in tests/fixtures) and the local OpenAI fake, while the page shows the loading overlay.
const GEORGIA_TECH = 'Georgia Institute of Technology-Main Campus';
const GEORGIA_TECH_ID = 139755;

const GEORGIA_TECH_FACTS = buildFactsAnswer({
  officialName: GEORGIA_TECH,
  city: 'Atlanta',
  state: 'GA',
  website: 'https://www.gatech.edu/',
  aliases: { value: ['Georgia Tech'], sourceUrl: 'https://www.gatech.edu/about' },
  links: {
    value: ['https://admission.gatech.edu/first-year'],
    sourceUrl: 'https://admission.gatech.edu/first-year',
  },
  deadlines: {
    value: [
      { type: 'Early Action 1', date: '2026-10-15' },
      { type: 'Regular Decision', date: '2027-01-05' },
    ],
    sourceUrl: 'https://admission.gatech.edu/first-year/deadlines',
  },
  essayPrompts: {
    value: ['Why do you want to study your chosen major specifically at Georgia Tech?'],
    sourceUrl: 'https://admission.gatech.edu/first-year/essay',
  },
  requirements: {
    value: { transcripts: 'Required', SAT_ACT: 'Required', teacherRecommendations: 'One counselor letter' },
    sourceUrl: 'https://admission.gatech.edu/first-year/requirements',
  },
  admissionStatistics: {
    value: { overallAcceptanceRate: 0.16, year: 'Class of 2029' },
    sourceUrl: 'https://admission.gatech.edu/first-year/profile',
  },
  admittedStudentProfile: {
    value: { GPA: '4.0', SAT: '1370-1530', Major: null },
    sourceUrl: 'https://admission.gatech.edu/first-year/profile',
  },
});

let user: TestUser;

const { scorecard, openai, providerEnv } = providerFakes({
  openai: {
    responder: (req) => {
      if (req.input.includes('Georgia Institute of Technology')) return { value: GEORGIA_TECH_FACTS };
      // Anything else: the model finds no such college.
      if (req.schemaName === 'college_facts') {
        return { value: { ...(exampleFromSchema(req.schema) as object), found: false } };
      }
      return undefined;
    },
  },
});
const { gw, newPage } = browserSuite({
  start: () =>
    startCollegesGateway(
      {
        ...providerEnv(),
        INGESTION_BACKOFF_MS: '50',
        INGESTION_ATTEMPTS: '2',
      },
      { listen: true },
    ),
});
beforeAll(async () => {
  user = await createVerifiedUser({ name: 'Ingestion Student' });
});

async function openSearch(): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const { page, context, errors } = await newPage();
  await signInInBrowser(page, user);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Search', exact: true })
    .click();
  await page.getByRole('heading', { name: 'Search and Compare Colleges' }).waitFor();
  return { page, errors, close: () => context.close() };
}

function fact(section: Locator, label: string): Locator {
  return section
    .locator('.fact')
    .filter({ has: section.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

/** When the status route was asked, and each stage the answers gave. */
function watchStatusAsks(page: Page): { at: number[]; stages: string[] } {
  const asks = { at: [] as number[], stages: [] as string[] };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/ingestion-status') asks.at.push(Date.now());
  });
  page.on('response', (r) => {
    // The add-college answer gives the first stage; each status ask the next.
    if (!['/api/ingestion-status', '/api/add-college'].includes(new URL(r.url()).pathname)) return;
    void r
      .json()
      .then((b: { data?: { stage?: string } }) => b.data?.stage && asks.stages.push(b.data.stage))
      .catch(() => undefined);
  });
  return asks;
}

/** Every line the loading overlay shows under its message, in order, as the page changes. */
async function recordOverlayLines(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { overlayLines: string[] }).overlayLines = seen;
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="loading-overlay"] .loading-detail')?.textContent;
      if (line && seen.at(-1) !== line) seen.push(line);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { overlayLines: string[] }).overlayLines);
}

describe('search for a college that is not cached yet', () => {
  it('shows the overlay with each stage the job reports, then the card', async () => {
    const { page, errors, close } = await openSearch();
    const asks = watchStatusAsks(page);
    const overlayLines = await recordOverlayLines(page);
    // The AI provider answers only when the test says so, so the overlay is certainly seen mid-way.
    openai.server.hold();
    await page.getByLabel('College name').fill(GEORGIA_TECH);
    await page.getByRole('button', { name: 'Search/Add College' }).click();

    const overlay = page.getByTestId('loading-overlay');
    await overlay.waitFor();
    expect(await overlay.getByText('Taking our time :D', { exact: true }).isVisible()).toBe(true);
    await openai.server.waitForCalls(1);
    // The polled stage reaches the overlay: government data is in, college facts are being gathered.
    await overlay.getByText(/^Step 2 of 3: gathering deadlines/).waitFor();

    // One poll watches the request: a few more asks come at most one an interval (two loops would
    // ask about twice as often).
    const first = asks.at.length;
    await expect.poll(() => asks.at.length).toBeGreaterThanOrEqual(first + 5);
    const recent = asks.at.slice(first - 1);
    const span = recent.at(-1)! - recent[0]!;
    expect(recent.length - 1).toBeLessThanOrEqual(span / TIMINGS.ingestionPollMs + 1);

    // The job's last step shows too: while the college cannot be written yet, the job says "saving".
    let unlock = () => {};
    const locked = new Promise<void>((resolve) => (unlock = resolve));
    let taken = () => {};
    const lockTaken = new Promise<void>((resolve) => (taken = resolve));
    const holding = gw.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE colleges.college IN EXCLUSIVE MODE');
      taken();
      await locked;
    });
    try {
      await lockTaken;
      openai.server.release();
      await overlay.getByText(/^Step 3 of 3: saving what we found/).waitFor();
    } finally {
      unlock();
      await holding;
    }

    const card = page.getByRole('article', { name: GEORGIA_TECH });
    await card.waitFor();
    await overlay.waitFor({ state: 'detached' });
    // No step shows that the job did not report: each line is a reported stage's, in the job's order.
    const shown = await overlayLines();
    const reported = new Set(asks.stages);
    const unreported = shown.filter(
      (line) => !Object.entries(STAGE_TEXT).some(([stage, text]) => text === line && reported.has(stage)),
    );
    expect(unreported).toEqual([]);
    const order = Object.values(STAGE_TEXT);
    const steps = shown.map((line) => order.indexOf(line));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(shown).toContain(STAGE_TEXT.saving);

    // Government data, mapped from the official Scorecard row and shown by the display rules.
    const row = scorecard.row(GEORGIA_TECH_ID)!;
    const demo = card.getByRole('region', { name: 'Demographics', exact: true });
    expect(await fact(demo, 'City').innerText()).toBe(row.CITY);
    expect(await fact(demo, 'State').innerText()).toBe(row.STABBR);
    expect(await fact(demo, 'Undergraduate Size').innerText()).toBe(Number(row.UGDS).toLocaleString('en-US'));
    expect(await fact(demo, 'Admission Rate').innerText()).toBe(
      `${Number((Number(row.ADM_RATE) * 100).toFixed(2))}%`,
    );
    expect(await fact(demo, 'Student-Faculty Ratio').innerText()).toBe(`${row.STUFACR}:1`);
    const finance = card.getByRole('region', { name: 'Financial Breakdown', exact: true });
    expect(await fact(finance, 'Net Price \\(income \\$0-\\$30,000\\)').innerText()).toBe(
      `$${Number(row.NPT41_PUB).toLocaleString('en-US')}`,
    );

    // College facts from the AI provider, each section with the page it came from and the date.
    const deadlines = card.getByRole('region', { name: 'Deadlines', exact: true });
    // The date, then how far off it is ("in 42 days").
    expect(await fact(deadlines, 'Regular Decision').innerText()).toMatch(
      /^January 5, 2027 (in \d+ days?|today|Passed · \d+ days? ago)(\nSource: .+)?$/,
    );
    expect(
      await deadlines
        .getByRole('link', { name: /admission\.gatech\.edu\/first-year\/deadlines|Page/ })
        .first()
        .getAttribute('href'),
    ).toBe('https://admission.gatech.edu/first-year/deadlines');
    expect(await deadlines.innerText()).toMatch(/gathered [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    const profile = card.getByRole('region', { name: 'Admitted Student Profile', exact: true });
    expect(await fact(profile, 'SAT').innerText()).toBe('1370-1530');
    expect(await fact(profile, 'Major').innerText()).toBe('No Info Found');

    // Now cached: the autocomplete offers it.
    await page.getByLabel('College name').fill('Georgia Inst');
    await page.getByRole('option', { name: GEORGIA_TECH }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('says why when a college cannot be gathered', async () => {
    const { page, close } = await openSearch();
    const name = 'Zzyzx Imaginary College of Nowhere';
    await page.getByLabel('College name').fill(name);
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 25_000 });
    const text = await alert.innerText();
    expect(text).toMatch(
      new RegExp(`^Failed to add college: We could not find a college called "${name}"\\.`),
    );
    expect(text).toContain('Check the spelling or try its full official name.');
    expect(await page.getByTestId('loading-overlay').count()).toBe(0);
    expect(await page.getByRole('article').count()).toBe(0);
    await close();
  });
});
