// The essay workspace on /essays: a draft per prompt of the student's colleges (one shared draft where
// prompts read the same), word limit and live count, autosave that loses nothing on reload, versions,
// a warning when a draft names another college, and the college list with the student's own first.
import type { EssayDraft } from '@ct/contracts';
import { EssaysRepository } from '@ct/essays/repositories/essays';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const COLBY = 'Colby College';
const BATES = 'Bates College';
const HILL = 'Hill House College';
const OTHER = 'Distant Other University';
const WHY_COLBY = 'Why Colby? (250 words)';
const COMMUNITY = 'Describe a community you belong to and your place within it.';
const COMMUNITY_BATES = `${COMMUNITY} Please answer in 200 words or fewer.`;

const { gw, newPage } = browserSuite({
  colleges: [COLBY, BATES, HILL, OTHER].map((name) => buildCollege({ name })),
});
beforeAll(async () => {
  const essays = new EssaysRepository(gw.db);
  await essays.saveCollegePrompts({ name: COLBY }, [
    { text: WHY_COLBY },
    { text: COMMUNITY, wordLimit: 300 },
  ]);
  await essays.saveCollegePrompts({ name: BATES }, [{ text: 'Why Bates?' }, { text: COMMUNITY_BATES }]);
  await essays.saveCollegePrompts({ name: OTHER }, [{ text: 'Why Other?' }]);
});

async function student(name: string): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  for (const collegeName of [COLBY, BATES, HILL])
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName } });
  return user;
}

const draftsOf = async (user: TestUser) =>
  (await gw.api<{ drafts: EssayDraft[] }>('GET', '/api/get-essay-drafts', { token: user.idToken })).body
    .drafts;

const workspace = (page: Page) => page.getByRole('region', { name: 'Your essay drafts' });
const card = (page: Page, prompt: string) =>
  workspace(page).getByRole('group', { name: prompt, exact: true });

/** Opens a prompt's draft and returns its text box. */
async function openDraft(page: Page, prompt: string): Promise<Locator> {
  const c = card(page, prompt);
  await c.getByRole('button', { name: /^(Start|Open) draft$/ }).click();
  const box = c.getByLabel('Your draft');
  await box.waitFor();
  return box;
}

describe('/essays in Chromium', () => {
  it('lists the student’s own colleges first, and other colleges only through the filter', async () => {
    const user = await student('Ines');
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/essays');
    const grid = page.getByRole('list', { name: 'Colleges with essay prompts' });
    await grid.getByRole('button', { name: new RegExp(COLBY) }).waitFor();
    const names = async () => (await grid.getByRole('button').allInnerTexts()).map((t) => t.split('\n')[0]);
    expect(await names()).toEqual([COLBY, BATES, 'Common App', 'University of California']);
    expect(await grid.getByRole('button', { name: OTHER }).count()).toBe(0);

    const filter = page.getByLabel('Filter colleges');
    await filter.fill('distant');
    await expect.poll(names).toEqual([OTHER]);
    await grid.getByRole('button', { name: OTHER }).click();
    await page.getByRole('heading', { name: `Prompts for ${OTHER}` }).waitFor();
    await filter.fill('no such place');
    await page.getByText('No college matches “no such place”.').waitFor();
    await filter.fill('');
    await expect.poll(names).toEqual([COLBY, BATES, 'Common App', 'University of California']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives each prompt a draft with its limit and a live count, autosaves it, and loses nothing on reload', async () => {
    const user = await student('Jude');
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/essays');
    const ws = workspace(page);
    const list = ws.getByRole('list', { name: 'Drafts for your colleges' });
    await list.waitFor();

    // One draft per prompt; the community prompt reads the same at both colleges: one draft, the
    // strictest limit.
    expect(await list.locator('h3').allInnerTexts()).toEqual([WHY_COLBY, COMMUNITY, 'Why Bates?']);
    const shared = card(page, COMMUNITY);
    expect(await shared.innerText()).toContain(`For ${COLBY}, ${BATES}`);
    expect(await shared.getByText('One draft for 2 colleges').isVisible()).toBe(true);
    expect(await shared.getByText('Up to 200 words').isVisible()).toBe(true);
    expect(await card(page, WHY_COLBY).getByText('Up to 250 words').isVisible()).toBe(true);
    // A college without prompts is listed with what its data says about writing.
    const writing = ws.getByRole('list', { name: 'What your colleges ask for in writing' });
    expect(await writing.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining(HILL) as unknown as string,
    ]);

    // Typing: a live count, then an autosave after a pause.
    const box = await openDraft(page, WHY_COLBY);
    const why = card(page, WHY_COLBY);
    await box.fill('The lake at dawn taught me patience.');
    expect(await why.locator('.word-count').innerText()).toBe('7 / 250 words');
    await why.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    await expect
      .poll(async () => (await draftsOf(user)).map((d) => [d.prompt, d.body]), { timeout: 10_000 })
      .toEqual([[WHY_COLBY, 'The lake at dawn taught me patience.']]);

    // Text that could not be saved (the network is down) is kept in the browser: after a reload it comes
    // back, and is then saved.
    await page.route('**/api/save-essay-draft', (route) => route.abort());
    await box.fill('The lake at dawn taught me patience and rowing.');
    await why
      .locator('.save-status')
      .getByText(/^Not saved yet: Network error/)
      .waitFor();
    await page.reload();
    const again = await openDraft(page, WHY_COLBY);
    await expect.poll(() => again.inputValue()).toBe('The lake at dawn taught me patience and rowing.');
    expect(
      await card(page, WHY_COLBY)
        .getByText('Restored text from this browser that had not been saved yet.')
        .isVisible(),
    ).toBe(true);
    expect((await draftsOf(user))[0]?.body).toBe('The lake at dawn taught me patience.');
    // The network is back: the next try (every few seconds) saves it.
    await page.unroute('**/api/save-essay-draft');
    await expect
      .poll(async () => (await draftsOf(user))[0]?.body, { timeout: 15_000 })
      .toBe('The lake at dawn taught me patience and rowing.');

    // A plain reload right after typing loses nothing either.
    await again.fill('The lake at dawn taught me patience, rowing and patience again.');
    await page.reload();
    const third = await openDraft(page, WHY_COLBY);
    await expect
      .poll(() => third.inputValue())
      .toBe('The lake at dawn taught me patience, rowing and patience again.');
    await expect
      .poll(async () => (await draftsOf(user))[0]?.body, { timeout: 10_000 })
      .toBe('The lake at dawn taught me patience, rowing and patience again.');

    // Over the limit of the shared draft: the count says so.
    const sharedBox = await openDraft(page, COMMUNITY);
    await sharedBox.fill(Array.from({ length: 205 }, (_, i) => `w${i}`).join(' '));
    const count = shared.locator('.word-count');
    expect(await count.innerText()).toBe('205 / 200 words (5 over the limit)');
    expect(await count.getAttribute('class')).toContain('over');
    await shared.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps versions and restores one, and warns when a draft names another of the student’s colleges', async () => {
    const user = await student('Kit');
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/essays');
    const box = await openDraft(page, WHY_COLBY);
    const why = card(page, WHY_COLBY);

    await box.fill('First idea: the lake.');
    await why.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    await why.getByRole('button', { name: 'Save a version' }).click();
    await why.getByText('Version saved.').waitFor();
    await box.fill('Second idea: Bates has a lake too.');
    // Pasted from another college's essay: the warning names it.
    await why.getByText(`This draft names ${BATES}, but it is for ${COLBY}.`, { exact: false }).waitFor();
    await why.locator('.save-status').getByText('Saved', { exact: true }).waitFor();

    await why.getByRole('button', { name: 'Show versions' }).click();
    const versions = why.getByRole('list', { name: 'Earlier versions' });
    await versions.getByText('First idea: the lake.').waitFor();
    await versions
      .getByRole('button', { name: /^Restore the version of/ })
      .first()
      .click();
    await expect.poll(() => box.inputValue()).toBe('First idea: the lake.');
    await why.getByText('Version restored. The text it replaced is kept as a version.').waitFor();
    expect(await why.getByText(`This draft names ${BATES}`, { exact: false }).count()).toBe(0);
    // The text it replaced is a version now: nothing was lost.
    await versions.getByText('Second idea: Bates has a lake too.').waitFor();
    expect((await draftsOf(user))[0]?.body).toBe('First idea: the lake.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never overwrites a newer copy saved elsewhere: the student chooses', async () => {
    const user = await student('Lou');
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/essays');
    const box = await openDraft(page, 'Why Bates?');
    const why = card(page, 'Why Bates?');
    await box.fill('Written in this tab.');
    await why.locator('.save-status').getByText('Saved', { exact: true }).waitFor();

    // Another tab saves a newer text.
    const [mine] = await draftsOf(user);
    const other = await gw.api('POST', '/api/save-essay-draft', {
      token: user.idToken,
      body: { prompt: 'Why Bates?', body: 'Written in another tab.', baseRevision: mine!.revision },
    });
    expect(other.status).toBe(200);

    await box.fill('Written in this tab, later.');
    await why
      .getByRole('alert')
      .getByText(/changed in another tab or on another device/)
      .waitFor();
    expect((await draftsOf(user))[0]?.body).toBe('Written in another tab.');
    await why.getByRole('button', { name: 'Keep mine' }).click();
    await why.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    expect((await draftsOf(user))[0]?.body).toBe('Written in this tab, later.');
    // The other tab's text is kept as a version.
    await why.getByRole('button', { name: 'Show versions' }).click();
    await why.getByRole('list', { name: 'Earlier versions' }).getByText('Written in another tab.').waitFor();
    await context.close();
  });
});
