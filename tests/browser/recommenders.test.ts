// The recommender tracker on /usercolleges: per college, who writes a recommendation, when they were
// asked, whether it is submitted, and the date to ask by (four weeks before the earliest deadline still
// to come); plus the countdowns on the checklist's deadline items.
import type { Recommender } from '@ct/contracts';
import { addDays, countdownText, localToday } from '@ct/contracts/planning';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  longDate,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

// Dates relative to today (the browser and this process share the clock and zone).
const today = localToday();
const PAST = addDays(today, -3);
const SOON = addDays(today, 40);
const COLLEGE = 'Quarry Hill College';

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: COLLEGE,
      info: {
        deadlines: [
          { type: 'Early Decision', date: PAST },
          { type: 'Regular Decision', date: SOON },
        ],
      },
    }),
  ],
});

const recommendersOf = async (user: TestUser) =>
  (
    await gw.api<{ recommenders: Recommender[] }>('GET', '/api/get-recommenders', {
      token: user.idToken,
      query: { collegeName: COLLEGE },
    })
  ).body.recommenders;

describe('recommenders on the dashboard in Chromium', () => {
  it('tracks who, asked on and submitted per college, with the ask-by date from its deadlines', async () => {
    const user = await createVerifiedUser({ name: 'Noor' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    const panel = page.getByRole('region', { name: /^Recommenders/ });
    // Before a college is chosen, the dashboard shows the whole season; recommenders belong to one college.
    await page.getByRole('region', { name: 'Your season at a glance' }).waitFor();
    expect(await panel.count()).toBe(0);
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: COLLEGE, exact: true })
      .click();

    // Ask by: four weeks before Regular Decision (Early Decision has passed).
    const askBy = addDays(SOON, -28);
    await panel.getByText(`Ask by ${longDate(askBy)}`).waitFor();
    expect(await panel.locator('.ask-by .countdown').innerText()).toBe(countdownText(askBy, today));
    expect(await panel.locator('.ask-by').innerText()).toContain(
      `four weeks before Regular Decision (${longDate(SOON)})`,
    );

    // Add two recommenders; one already asked.
    const form = panel.getByRole('form', { name: 'Add a recommender' });
    await form.getByLabel('Who').fill('Ms. Rivera, chemistry');
    await form.getByLabel('Asked on (optional)').fill(today);
    await form.getByRole('button', { name: 'Add recommender' }).click();
    const rivera = panel.getByRole('listitem', { name: 'Ms. Rivera, chemistry' });
    await rivera.getByText(`Asked ${longDate(today)}, waiting`).waitFor();
    await form.getByLabel('Who').fill('Mr. Okafor, counselor');
    await form.getByRole('button', { name: 'Add recommender' }).click();
    const okafor = panel.getByRole('listitem', { name: 'Mr. Okafor, counselor' });
    await okafor.getByText('Not asked yet').waitFor();
    expect(await form.getByLabel('Who').inputValue()).toBe('');

    // Submitted: ticked, dated today, kept on the server.
    await rivera.getByLabel('Submitted').check();
    await rivera.getByText(`Submitted ${longDate(today)}`).waitFor();
    await okafor.getByLabel('Asked on').fill(PAST);
    await okafor.getByText(`Asked ${longDate(PAST)}, waiting`).waitFor();
    await expect
      .poll(async () => (await recommendersOf(user)).map((r) => [r.who, r.askedOn, r.submittedOn]))
      .toEqual([
        ['Ms. Rivera, chemistry', today, today],
        ['Mr. Okafor, counselor', PAST, null],
      ]);

    // Removing asks once more, then goes.
    await okafor.getByRole('button', { name: 'Remove' }).click();
    await okafor.getByRole('button', { name: 'Remove Mr. Okafor, counselor' }).click();
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(1);
    expect((await recommendersOf(user)).map((r) => r.who)).toEqual(['Ms. Rivera, chemistry']);

    // The checklist's deadline items count down; the passed one is marked.
    const deadlines = page
      .getByRole('region', { name: /^Checklist/ })
      .getByRole('group', { name: 'Deadlines' });
    expect(await deadlines.locator('.countdown').allInnerTexts()).toEqual([
      `Passed · ${countdownText(PAST, today)}`,
      countdownText(SOON, today),
    ]);
    expect(await deadlines.locator('.countdown-past').count()).toBe(1);

    // After a reload everything is still there.
    await page.reload();
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: COLLEGE, exact: true })
      .click();
    const kept = panel.getByRole('listitem', { name: 'Ms. Rivera, chemistry' });
    await kept.locator('.rec-state', { hasText: `Submitted ${longDate(today)}` }).waitFor();
    expect(await kept.getByLabel('Submitted').isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
