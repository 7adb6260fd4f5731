// Protect a student's work, in Chromium: a removed college keeps its progress and Undo brings it back (so
// does adding it again from Search), a failed dashboard load says so with Retry (never "No colleges added
// yet."), leaving checklist edit mode with unsaved changes asks first, and deleting a note asks first.
import type { Checklist } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const ASHFORD = 'Ashford College';
const BRENTWOOD = 'Brentwood University';
const CARLISLE = 'Carlisle Institute of Technology';

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({ name: ASHFORD }),
    buildCollege({ name: BRENTWOOD }),
    buildCollege({ name: CARLISLE }),
  ],
});

const addByApi = (user: TestUser, collegeName: string) =>
  gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName } });
const tick = (user: TestUser, collegeName: string, itemIndex: number) =>
  gw.api('POST', '/api/update-checklist', {
    token: user.idToken,
    body: { collegeName, section: 'application', itemIndex, completed: true },
  });
const checklistOf = async (user: TestUser, collegeName: string) =>
  (
    await gw.api<{ checklist: Checklist }>('GET', '/api/get-college-checklist', {
      token: user.idToken,
      query: { collegeName },
    })
  ).body.checklist;
const listOf = async (user: TestUser) =>
  (
    await gw.api<{ colleges: Array<{ collegeName: string }> }>('GET', '/api/get-user-colleges', {
      token: user.idToken,
    })
  ).body.colleges.map((c) => c.collegeName);

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Your Colleges' });
const checklistPanel = (page: Page) => page.getByRole('region', { name: /^Checklist/ });
const percent = (page: Page) => checklistPanel(page).getByRole('progressbar').getAttribute('aria-valuenow');

describe('a removed college', () => {
  it('goes with an Undo that brings it back with its progress and its place in the list', async () => {
    const user = await createVerifiedUser({ name: 'Uma' });
    for (const name of [ASHFORD, BRENTWOOD, CARLISLE]) await addByApi(user, name);
    await tick(user, BRENTWOOD, 0);
    await tick(user, BRENTWOOD, 1);
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto(`/usercolleges?college=${encodeURIComponent(BRENTWOOD)}`);
    await page.getByRole('heading', { name: `Checklist — ${BRENTWOOD}` }).waitFor();
    const before = await percent(page);
    expect(Number(before)).toBeGreaterThan(0);

    await sidebar(page)
      .getByRole('button', { name: `Remove ${BRENTWOOD}` })
      .click();
    const message = page.getByRole('status').filter({ hasText: MSG.collegeRemoved });
    await message.getByText(`${BRENTWOOD}. Its checklist progress is kept for 30 days.`).waitFor();
    await sidebar(page).getByRole('button', { name: BRENTWOOD, exact: true }).waitFor({ state: 'detached' });
    expect(await listOf(user)).toEqual([ASHFORD, CARLISLE]);
    // The selection went with it.
    expect(new URL(page.url()).searchParams.get('college')).toBeNull();
    // No college selected: the season overview shows instead of the panels.
    await page.getByRole('heading', { name: 'Your season at a glance' }).waitFor();

    await page.getByRole('button', { name: `Undo removing ${BRENTWOOD}` }).click();
    await page.getByText(`${BRENTWOOD} is back on your list, with its checklist progress.`).waitFor();
    // Back in its place, selected again, with the same progress.
    await expect
      .poll(async () =>
        sidebar(page)
          .locator('.college-select')
          .evaluateAll((els) => els.map((e) => e.textContent)),
      )
      .toEqual([ASHFORD, BRENTWOOD, CARLISLE]);
    await page.getByRole('heading', { name: `Checklist — ${BRENTWOOD}` }).waitFor();
    await expect.poll(() => percent(page)).toBe(before);
    expect((await checklistOf(user, BRENTWOOD)).application?.slice(0, 2).map((i) => i.completed)).toEqual([
      true,
      true,
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('comes back with its progress when added again from Search', async () => {
    const user = await createVerifiedUser({ name: 'Vic' });
    await addByApi(user, CARLISLE);
    await tick(user, CARLISLE, 0);
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    await sidebar(page)
      .getByRole('button', { name: `Remove ${CARLISLE}` })
      .click();
    await sidebar(page).getByText(MSG.noCollegesAdded).waitFor();

    await page.goto(`/search?q=${encodeURIComponent(CARLISLE)}`);
    const card = page.getByRole('article', { name: CARLISLE });
    await card.getByRole('button', { name: 'Add to Profile' }).click();
    await card.getByText('College added back to your profile, with its checklist progress.').waitFor();
    expect((await checklistOf(user, CARLISLE)).application?.[0]?.completed).toBe(true);
    await context.close();
  });
});

describe('a dashboard that could not load', () => {
  it('shows the error with Retry, never the empty state, and Retry loads the list or the checklist', async () => {
    const user = await createVerifiedUser({ name: 'Wes' });
    await addByApi(user, ASHFORD);
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.route('**/api/get-user-colleges*', (route) => route.abort());
    await page.goto('/usercolleges');
    const alert = page.getByRole('alert').filter({ hasText: 'Your colleges could not be loaded.' });
    await alert.waitFor();
    expect(await sidebar(page).getByText('Your colleges could not be loaded.').isVisible()).toBe(true);
    expect(await page.getByText(MSG.noCollegesAdded).count()).toBe(0);

    // The same for a checklist that could not be loaded (the sidebar's progress chart reads the checklists
    // as soon as the list shows, so they fail from here on).
    await page.route('**/api/get-college-checklist*', (route) => route.abort());
    await page.unroute('**/api/get-user-colleges*');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await sidebar(page).getByRole('button', { name: ASHFORD, exact: true }).waitFor();
    expect(await alert.count()).toBe(0);

    await sidebar(page).getByRole('button', { name: ASHFORD, exact: true }).click();
    const failed = checklistPanel(page).getByRole('alert');
    await failed.getByText('The checklist could not be loaded.').waitFor();
    await page.unroute('**/api/get-college-checklist*');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await checklistPanel(page).getByRole('button', { name: 'Edit Checklist' }).waitFor();
    await context.close();
  });
});

describe('unsaved checklist changes', () => {
  it('asks before leaving edit mode by a link or by Back, and keeps the edits when told to stay', async () => {
    const user = await createVerifiedUser({ name: 'Xia' });
    await addByApi(user, ASHFORD);
    await addByApi(user, BRENTWOOD);
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    await sidebar(page).getByRole('button', { name: BRENTWOOD, exact: true }).click();
    await sidebar(page).getByRole('button', { name: ASHFORD, exact: true }).click();
    const panel = checklistPanel(page);
    await page.getByRole('heading', { name: `Checklist — ${ASHFORD}` }).waitFor();
    await panel.getByRole('button', { name: 'Edit Checklist' }).click();
    const first = panel.getByRole('textbox', { name: 'Item 1 of Application' });
    const original = await first.inputValue();

    // Nothing changed yet: leaving is not held up.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: `Checklist — ${ASHFORD}` }).waitFor();
    await panel.getByRole('button', { name: 'Edit Checklist' }).click();
    await first.fill('Ask Ms. Rivera to read my essay');

    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await leave.getByText(`Your changes to the ${ASHFORD} checklist are not saved.`).waitFor();
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/usercolleges');
    expect(await first.inputValue()).toBe('Ask Ms. Rivera to read my essay');

    // The browser's Back button is held the same way (the college is in the URL).
    await page.goBack();
    await leave.waitFor();
    expect(new URL(page.url()).searchParams.get('college')).toBe(ASHFORD);
    await leave.getByRole('button', { name: 'Keep editing' }).click();

    // Closing or reloading the tab gets the browser's own warning.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    expect(await first.inputValue()).toBe('Ask Ms. Rivera to read my essay');

    // Leaving on purpose drops the edits; the server still has the checklist as it was.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
    expect((await checklistOf(user, ASHFORD)).application?.[0]).toMatchObject({ text: original });

    // Back, then leaving on purpose, goes back for real, and holding it left no history entry behind.
    await page.goBack();
    await panel.getByRole('button', { name: 'Edit Checklist' }).click();
    await first.fill('Ask Ms. Rivera to read my essay');
    const entries = await page.evaluate(() => history.length);
    await page.goBack();
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await page.getByRole('heading', { name: `Checklist — ${BRENTWOOD}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('college')).toBe(BRENTWOOD);
    expect(await page.evaluate(() => history.length)).toBe(entries);
    await page.goForward();
    await page.getByRole('heading', { name: `Checklist — ${ASHFORD}` }).waitFor();
    await page.goForward();
    await page.waitForURL((u) => u.pathname === '/profile');
    await context.close();
  });
});

describe('deleting a note', () => {
  it('asks first, names the note, and keeps it on Cancel', async () => {
    const user = await createVerifiedUser({ name: 'Yan' });
    await gw.api('POST', '/api/add-note', {
      token: user.idToken,
      body: {
        note: { title: 'Counselor meeting', content: 'Bring the transcript.', deadline: '2026-10-02' },
      },
    });
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/profile');
    const del = page.getByRole('button', { name: 'Delete Counselor meeting' });
    await del.click();
    const dialog = page.getByRole('dialog', { name: 'Delete this note?' });
    await dialog
      .getByText('“Counselor meeting” will be deleted for good, and its date leaves your deadlines calendar.')
      .waitFor();
    // The safe answer has the focus; Escape is a Cancel too, and focus goes back to the Delete button.
    expect(
      await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => del.evaluate((b) => b === document.activeElement)).toBe(true);
    const notes = async () =>
      (await gw.api<{ notes: unknown[] }>('GET', '/api/get-notes', { token: user.idToken })).body.notes;
    expect(await notes()).toHaveLength(1);

    await del.click();
    await dialog.getByRole('button', { name: 'Delete note' }).click();
    await page.getByText(MSG.noNotesYet).waitFor();
    expect(await notes()).toEqual([]);
    await context.close();
  });
});
