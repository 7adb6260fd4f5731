// The essays page as `npm start` shows it with no AI key and no operator's prompts file: no prompt is
// known for any college, so the page lists the student's colleges with what their data says about writing
// (personal essay, writing supplement), never "No colleges available." beside them, and lets the student
// start a draft for any prompt they paste, with its word limit.
import type { EssayDraft } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

let student: TestUser;
const promptsFile = process.env.ESSAY_PROMPTS_FILE;

const GRID = 'Grid Supplement College';
const PLAIN = 'Plain Data University';
const COMMON_APP =
  'Some students have a background, identity, interest, or talent that is so meaningful they believe their application would be incomplete without it. Share your story.';

beforeAll(async () => {
  // As `npm start` with no key: no operator's Common App / UC prompts file either.
  delete process.env.ESSAY_PROMPTS_FILE;
  delete process.env.OPENAI_API_KEY;
});
const { gw, newPage } = browserSuite({
  colleges: [
    // What the Common App requirements grid says, as the shipped snapshot stores it.
    buildCollege({
      name: GRID,
      info: {
        essayPrompts: [],
        requirements: {
          transcripts: null,
          SAT_ACT: null,
          teacherRecommendations: null,
          personalEssay: 'Required',
          writingSupplement: 'Required',
        },
      },
    }),
    buildCollege({
      name: PLAIN,
      info: {
        essayPrompts: [],
        requirements: { transcripts: null, SAT_ACT: null, teacherRecommendations: null },
      },
    }),
  ],
});
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Pat Student' });
  for (const collegeName of [GRID, PLAIN])
    await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName } });
});
afterAll(() => {
  if (promptsFile !== undefined) process.env.ESSAY_PROMPTS_FILE = promptsFile;
});

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('essays with no AI key at $width x $height', (viewport) => {
  it('lists the student colleges with what the data says, and never "No colleges available." beside them', async () => {
    const { page, context } = await newPage({ viewport });
    await signInInBrowser(page, student);
    await page.goto('/essays');
    const writing = page.getByRole('list', { name: 'What your colleges ask for in writing' });
    await writing.waitFor();
    const grid = writing.getByRole('listitem').filter({ hasText: GRID });
    await expect
      .poll(() => grid.innerText())
      .toMatch(/Personal essay\s*Required\s*Writing supplement\s*Required/);
    const plain = writing.getByRole('listitem').filter({ hasText: PLAIN });
    await expect
      .poll(() => plain.innerText())
      .toMatch(/Personal essay\s*No Info Found\s*Writing supplement\s*No Info Found/);
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(MSG.noCollegesAvailable, { exact: true }).count()).toBe(0);
    expect(await page.getByText('No college has essay prompts here yet.').isVisible()).toBe(true);
    // The grouping card does not list colleges it has nothing to group for.
    expect(await page.getByText(/Similar prompts across your colleges/).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await context.close();
  });
});

describe('a pasted prompt', () => {
  it('starts a draft with its word limit, autosaved like any other, and refuses bad input', async () => {
    const user = await createVerifiedUser({ name: 'Sam Student' });
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: GRID } });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/essays');
    const form = page.getByRole('form', { name: 'Write for another prompt' });
    await form.waitFor();

    // Bad input: a clear message, nothing saved.
    await form.getByLabel('Prompt').fill('Why?');
    await form.getByRole('button', { name: 'Start draft' }).click();
    await form.getByRole('alert').getByText('Paste the whole prompt').waitFor();
    await form.getByLabel('Prompt').fill(COMMON_APP);
    await form.getByLabel('Word limit (optional)').fill('9');
    await form.getByRole('button', { name: 'Start draft' }).click();
    await form.getByRole('alert').getByText('A word limit is a whole number from 25 to 5000.').waitFor();
    const drafts = async () =>
      (await gw.api<{ drafts: EssayDraft[] }>('GET', '/api/get-essay-drafts', { token: user.idToken })).body
        .drafts;
    expect(await drafts()).toEqual([]);

    await form.getByLabel('Word limit (optional)').fill('650');
    await form.getByRole('button', { name: 'Start draft' }).click();
    // The new draft opens with the cursor in it, its limit from the pasted number.
    const card = page.getByRole('group', { name: COMMON_APP, exact: false });
    await card.getByText('Up to 650 words').waitFor();
    const box = card.getByRole('textbox', { name: 'Your draft' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.fill('My grandmother taught me to fix bicycles.');
    expect(await card.locator('.word-count').innerText()).toBe('7 / 650 words');
    await card.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    const saved = await drafts();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.prompt).toBe(`${COMMON_APP} (650 words)`);
    expect(saved[0]!.body).toBe('My grandmother taught me to fix bicycles.');

    // Still there after a reload.
    await page.reload();
    await page.getByRole('group', { name: COMMON_APP, exact: false }).getByText('Up to 650 words').waitFor();
    await context.close();
  });
});
