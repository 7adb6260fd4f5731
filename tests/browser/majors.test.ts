import { MSG } from '@ct/contracts/messages';
import {
  browserSuite,
  buildCollege,
  buildMajorAnswer,
  createVerifiedUser,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

const COLLEGE = 'Lakeside Majors College';
const PAGE = 'https://www.lakeside.example.edu/programs/computer-science';

let user: TestUser;

beforeAll(() => {
  delete process.env.SCORECARD_API_KEY;
});
const { gw, openai, newPage } = browserSuite({
  queue: 'bullmq',
  openai: {
    responder: (req) => {
      if (req.schemaName !== 'major_profile') return undefined;
      const cs = req.input.startsWith('Major: Computer Science ');
      return {
        value: buildMajorAnswer({
          found: cs,
          averageWeightedGpa: { value: cs ? 4.05 : null, scope: 'major', sourceUrl: cs ? PAGE : null },
          averageSatScore: { value: cs ? 1450 : null, scope: 'major', sourceUrl: cs ? PAGE : null },
          extracurriculars: {
            value: cs ? ['Robotics team', 'Coding club'] : [],
            sourceUrl: cs ? PAGE : null,
          },
          description: {
            value: cs ? 'Computing from theory to practice.' : null,
            sourceUrl: cs ? PAGE : null,
          },
        }),
      };
    },
  },
  colleges: [buildCollege({ name: COLLEGE })],
});
beforeAll(async () => {
  user = await createVerifiedUser({ name: 'Major Seeker' });
  const added = await gw.api('POST', '/api/add-user-college', {
    token: user.idToken,
    body: { collegeName: COLLEGE },
  });
  expect(added.status).toBe(200);
});

async function openPanel(page: Page) {
  await signInInBrowser(page, user, { timeout: 45_000 });
  await page.goto('/usercolleges');
  const list = page.getByRole('complementary', { name: 'Your Colleges' });
  await list.getByRole('button', { name: COLLEGE, exact: true }).click();
  const panel = page.getByRole('region', { name: 'Major stats' });
  await panel.getByText(`Look up a major at ${COLLEGE}.`).waitFor();
  return panel;
}

describe('dashboard major stats in Chromium', () => {
  it('types a major, picks a suggestion, waits behind the overlay, and sees the stats', async () => {
    const { page, context, errors } = await newPage();
    const panel = await openPanel(page);
    const input = panel.getByRole('combobox', { name: 'Major' });
    const submit = panel.getByRole('button', { name: 'Get Major Stats' });

    await input.pressSequentially('comp', { delay: 30 });
    const list = panel.getByRole('listbox');
    await list.waitFor(); // after the 1 s pause
    expect(await list.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('160px'); // 10rem
    const options = await list.getByRole('option').allInnerTexts();
    expect(options[0]).toBe('Computer Science');
    await list.getByRole('option', { name: 'Computer Science', exact: true }).click();
    expect(await input.inputValue()).toBe('Computer Science');

    // a slow provider: the overlay shows, the input and button are disabled
    openai.server.hold();
    await submit.click();
    const overlay = page.getByTestId('loading-overlay');
    await overlay.waitFor();
    expect(await overlay.innerText()).toContain(MSG.loadingOverlay);
    expect(await input.isDisabled()).toBe(true);
    expect(await submit.isDisabled()).toBe(true);
    openai.server.release();

    await panel.getByRole('heading', { name: `Computer Science at ${COLLEGE}` }).waitFor({ timeout: 20_000 });
    expect(await overlay.count()).toBe(0);
    const text = await panel.innerText();
    expect(text).toContain('Average weighted GPA\n4.05');
    expect(text).toContain('Average SAT score\n1450');
    expect(await panel.getByRole('listitem').allInnerTexts()).toEqual(['Robotics team', 'Coding club']);
    expect(text).toContain(MSG.noEssayTopics);
    expect(text).toContain('Computing from theory to practice.');
    // where it came from, and when
    expect(await panel.locator(`a[href="${PAGE}"]`).count()).toBe(1);
    expect(text).toMatch(/Gathered on \w{3} \d{1,2}, \d{4} from /);
    expect(await input.isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the spec texts when stats or suggestions cannot be found', async () => {
    const { page, context } = await newPage();
    const panel = await openPanel(page);
    const input = panel.getByRole('combobox', { name: 'Major' });

    await input.fill('zzqxv');
    await panel.getByText(MSG.cannotFetchSuggestionsFor('zzqxv')).waitFor();

    await input.fill('History');
    await panel.getByRole('button', { name: 'Get Major Stats' }).click();
    await panel.getByRole('alert').filter({ hasText: MSG.majorStatsNotFound }).waitFor({ timeout: 20_000 });
    expect(await panel.getByText(MSG.noExtracurriculars).count()).toBe(0);
    await context.close();
  }, 120_000);
});
