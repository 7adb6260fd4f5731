// The season (issue 21) in Chromium at 1280x800 and 390x844: the overview on /usercolleges with no
// college selected, every status change through the editor, two admitted colleges' aid offers side by
// side, and the dates that follow in the profile's calendar.
import { addDays, entryYear, localToday } from '@ct/contracts/planning';
import { STATUS_LABELS, type ApplicationStatus } from '@ct/contracts/season';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  scorecardSource,
  signInInBrowser,
  VIEWPORTS,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const today = localToday();
const entry = entryYear(today);
const ALDER = 'Alder Season College';
const BIRCH = 'Birch Season University';
const CEDAR = 'Cedar Season Institute';
const SCORECARD = scorecardSource(1);

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: ALDER,
      demographics: {
        graduationRate: 0.91,
        retentionRate: 0.97,
        finance: { netPrice48001to75000: 14000, medianEarnings: 61000 },
        dataYears: { netPrice: '2021-22', earnings: '2020-21', completion: '2021-22' },
      },
      sources: { demographics: SCORECARD },
      info: {
        deadlines: [
          { type: 'Early Decision', date: addDays(today, 40) },
          { type: 'Regular Decision', date: addDays(today, 80) },
        ],
        essayPrompts: [],
      },
    }),
    buildCollege({
      name: BIRCH,
      demographics: {
        graduationRate: 0.72,
        finance: { netPrice48001to75000: 19000, medianEarnings: 48000, avgNetPrice: 21000 },
        dataYears: { netPrice: '2021-22', earnings: '2020-21', completion: '2021-22' },
      },
      sources: { demographics: SCORECARD },
      info: {
        deadlines: [
          { type: 'Early Action', date: addDays(today, 10) },
          { type: 'Regular Decision', date: addDays(today, 70) },
        ],
        essayPrompts: [],
      },
    }),
    buildCollege({
      name: CEDAR,
      info: { deadlines: [{ type: 'Regular Decision', date: addDays(today, 5) }], essayPrompts: [] },
    }),
  ],
});

const post = (user: TestUser, path: string, body: Record<string, unknown>) =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });
async function studentWith(colleges: string[]): Promise<TestUser> {
  const user = await createVerifiedUser({ name: 'Sam' });
  for (const collegeName of colleges)
    expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
  return user;
}
const overview = (page: Page) => page.getByRole('region', { name: 'Your season at a glance' });
const card = (page: Page, name: string) => page.locator(`tbody.season-college[data-college="${name}"]`);
const names = (page: Page) =>
  page.locator('tbody.season-college').evaluateAll((els) => els.map((e) => e.getAttribute('data-college')));

describe.each(VIEWPORTS)('the season at $width', (viewport) => {
  it('shows every college at a glance, sorts by next deadline, and opens a college’s panels', async () => {
    const user = await studentWith([ALDER, BIRCH, CEDAR]);
    await post(user, '/update-application', { collegeName: ALDER, plan: 'ED' });
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      await overview(page).waitFor();
      expect(await names(page)).toEqual([ALDER, BIRCH, CEDAR]);
      const alder = card(page, ALDER);
      expect(await alder.locator('td[data-label="Plan"]').innerText()).toContain('Early Decision (binding)');
      expect(await alder.locator('td[data-label="Next deadline"]').innerText()).toContain('in 40 days');
      expect(await card(page, BIRCH).locator('td[data-label="Plan"]').innerText()).toContain('offers EA, RD');
      expect(await card(page, BIRCH).locator('td[data-label="Status"]').innerText()).toContain('Researching');
      await expect
        .poll(() => card(page, BIRCH).locator('td[data-label="Cost for you"]').innerText())
        .toBe('$21,000 average net price');
      // Each college's fit band with its reason, the list's balance and what applying costs (issue 22).
      await expect
        .poll(() => card(page, ALDER).locator('td[data-label="Fit"]').innerText())
        .toContain('Fit for you:');
      const balance = page.getByTestId('list-balance');
      await expect.poll(() => balance.innerText()).toContain('Likely: 0');
      expect(await balance.innerText()).toContain('Your list has no likely college');
      expect(await page.getByTestId('application-cost-summary').innerText()).toContain('Application fees');

      await overview(page).getByLabel('Sort by').selectOption('deadline');
      // The order lives in the URL: the table follows once the address has changed.
      await expect.poll(() => names(page)).toEqual([CEDAR, BIRCH, ALDER]);

      if (viewport.width < 500) {
        // One compact card per college: the card fits the phone, its lines labelled.
        const box = (await card(page, BIRCH).boundingBox())!;
        expect(box.width).toBeLessThanOrEqual(390);
        expect(await page.locator('.season-table thead').isVisible()).toBe(true); // kept for screen readers
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }

      await card(page, BIRCH).getByRole('button', { name: BIRCH, exact: true }).click();
      await page.getByRole('heading', { name: `Checklist — ${BIRCH}` }).waitFor();
      expect(await overview(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('leads a new student to Search', async () => {
    const user = await createVerifiedUser({ name: 'New' });
    const { page, context } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      await page.getByRole('link', { name: 'Search for colleges' }).click();
      await page.waitForURL(/\/search$/);
    } finally {
      await context.close();
    }
  });

  it('takes an application through every status, and refuses an answer before an admission', async () => {
    const user = await studentWith([BIRCH]);
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      const birch = card(page, BIRCH);
      await birch.waitFor();
      const setStatus = async (
        status: ApplicationStatus,
        dates: Record<string, string> = {},
        plan?: string,
      ) => {
        await birch.getByRole('button', { name: `Update application to ${BIRCH}` }).click();
        const form = page.getByRole('form', { name: `Application to ${BIRCH}` });
        if (plan) await form.getByLabel('Plan').selectOption(plan);
        await form.getByLabel('Status').selectOption(status);
        for (const [label, value] of Object.entries(dates)) await form.getByLabel(label).fill(value);
        await form.getByRole('button', { name: `Save application to ${BIRCH}` }).click();
      };
      // Enrolled before any admission: refused, said plainly, nothing changes.
      await setStatus('enrolled');
      await page
        .getByRole('alert')
        .getByText('Enrolled and declined answer an admission: set the status to admitted first.')
        .waitFor();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      expect(await birch.locator('.season-badge').innerText()).toBe('Researching');

      await setStatus('applying');
      await page.getByRole('form', { name: `Application to ${BIRCH}` }).waitFor({ state: 'detached' });
      await birch.locator('.season-badge', { hasText: 'Applying' }).waitFor();
      await setStatus('submitted', { 'Submitted on': today }, 'RD');
      await page.getByRole('form', { name: `Application to ${BIRCH}` }).waitFor({ state: 'detached' });
      await birch.locator('.season-badge', { hasText: 'Submitted' }).waitFor();
      expect(await birch.locator('.season-status').innerText()).toMatch(/Decision expected .*\(estimated\)/);
      for (const status of [
        'deferred',
        'waitlisted',
        'denied',
        'withdrawn',
        'admitted',
        'admitted-with-aid',
        'declined',
        'admitted',
        'enrolled',
      ] as const) {
        await setStatus(status);
        // Saved: the editor closes (the next Update opens it afresh).
        await page.getByRole('form', { name: `Application to ${BIRCH}` }).waitFor({ state: 'detached' });
        await expect.poll(() => birch.locator('.season-badge').innerText()).toBe(STATUS_LABELS[status]);
      }
      const saved = await gw.api<{
        colleges: Array<{ application: { status: string; submittedOn: string } }>;
      }>('GET', '/api/get-season', { token: user.idToken });
      expect(saved.body.colleges[0]!.application).toMatchObject({ status: 'enrolled', submittedOn: today });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('compares the aid offers of two admitted colleges, flags a poor letter and refuses grants above the cost', async () => {
    const user = await studentWith([ALDER, BIRCH]);
    await post(user, '/update-student-profile', { homeState: 'ME', incomeBand: '48001-75000' });
    for (const collegeName of [ALDER, BIRCH])
      await post(user, '/update-application', { collegeName, plan: 'RD', status: 'admitted' });
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      const enter = async (name: string, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>) => {
        await card(page, name)
          .getByRole('button', { name: `Enter aid offer from ${name}` })
          .click();
        const form = page.getByRole('form', { name: `Aid offer from ${name}` });
        await fill(form);
        await form.getByRole('button', { name: `Save aid offer from ${name}` }).click();
        return form;
      };
      // Grants above the cost: refused with the reason, and nothing is saved.
      const bad = await enter(ALDER, async (form) => {
        await form.getByLabel('Cost of attendance ($ a year)').fill('30000');
        await form.getByLabel('Grant or scholarship 1').fill('Alder Grant');
        await form.getByLabel('Amount ($)').first().fill('45000');
      });
      await bad
        .getByRole('alert')
        .getByText(
          "Grants and scholarships ($45,000) cannot be more than the cost of attendance ($30,000). Check the letter's figures.",
        )
        .waitFor();
      await bad.getByLabel('Cost of attendance ($ a year)').fill('80000');
      await bad.getByRole('button', { name: `Save aid offer from ${ALDER}` }).click();
      await bad.waitFor({ state: 'detached' });

      await enter(BIRCH, async (form) => {
        await form.getByLabel('The letter does not state it').check();
        await form.getByLabel('Grant or scholarship 1').fill('Birch Scholarship');
        await form.getByLabel('Amount ($)').first().fill('10000');
        await form.getByRole('button', { name: 'Add a loan' }).click();
        await form.getByLabel('Loan 1: kind').selectOption('parent-plus');
        await form.getByLabel('Amount ($)').last().fill('12000');
        await form.getByLabel('Total aid, if the letter states one ($)').fill('22000');
      });
      await page.getByRole('form', { name: `Aid offer from ${BIRCH}` }).waitFor({ state: 'detached' });

      const compare = page.getByTestId('admitted-comparison');
      await compare.waitFor();
      const rowText = (label: string | RegExp) => compare.getByRole('row', { name: label }).innerText();
      expect(await rowText(/^Net cost \(cost minus grants\)/)).toMatch(
        /\$35,000[\s\S]*Unknown: no cost stated/,
      );
      expect(await rowText(/^Loans offered/)).toContain('Parent PLUS: $12,000');
      const flags = await rowText(/^Check the letter/);
      expect(flags).toContain('This letter does not state the cost of attendance');
      expect(flags).toContain('This letter counts loans as aid');
      await expect
        .poll(() => rowText(/^Your net price/))
        .toMatch(/\$14,000[\s\S]*2021-22 data[\s\S]*\$19,000/);
      expect(await rowText(/^Your net price/)).toContain('Your offer is $21,000 more than this.');
      await expect.poll(() => rowText(/^Graduation rate/)).toMatch(/91\.?0*%[\s\S]*72\.?0*%/);
      expect(await rowText(/^Graduation rate/)).toContain('College Scorecard');
      expect(await rowText(/^Median earnings/)).toMatch(/\$61,000[\s\S]*2020-21 data[\s\S]*\$48,000/);
      // Alder's file gives a retention rate; Birch's gives none, and says so.
      expect(await rowText(/^Retention/)).toMatch(/97\.?0*%[\s\S]*2021-22 data[\s\S]*No Info Found/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('puts decisions, the May 1 reply, deposit and the waitlist letter in the calendar', async () => {
    const user = await studentWith([ALDER, BIRCH]);
    await post(user, '/update-application', { collegeName: ALDER, status: 'admitted', decisionOn: today });
    await post(user, '/update-application', { collegeName: BIRCH, status: 'waitlisted', decisionOn: today });
    const { page, context, errors } = await newPage({ viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/profile');
      const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });
      await calendar.getByRole('button', { name: 'Reveal all Deadlines' }).click();
      const all = calendar.locator('#all-deadlines');
      for (const title of [
        `${ALDER}: Decision received`,
        `${ALDER}: Reply by (May 1)`,
        `${ALDER}: Enrollment deposit due`,
        `${BIRCH}: Send a letter of continued interest`,
      ])
        await all.getByText(title, { exact: true }).waitFor();
      expect(
        await all
          .getByRole('link', { name: `Add to Google Calendar: ${ALDER}: Reply by (May 1), May 1, ${entry}` })
          .count(),
      ).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
