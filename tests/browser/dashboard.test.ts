import type { Checklist } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const RIVERBEND = 'Riverbend College';
const HILLCREST = 'Hillcrest University';

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: RIVERBEND,
      links: ['https://www.riverbend.edu/admissions'],
      demographics: { schoolCity: 'Riverbend', schoolState: 'OR', studentFacRatio: 12 },
      info: {
        deadlines: [
          { type: 'Early Action', date: '2026-11-01' },
          { type: 'Regular Decision', date: '2027-01-15' },
        ],
        essayPrompts: ['Why Riverbend?'],
        tips: ['Apply early action if you can.'],
        admissionStatistics: { overallAcceptanceRate: 0.31, year: '2025' },
      },
    }),
    buildCollege({ name: HILLCREST }),
  ],
});

const addByApi = (user: TestUser, collegeName: string) =>
  gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName } });
const serverChecklist = async (user: TestUser, collegeName: string) =>
  (
    await gw.api<{ checklist: Checklist }>('GET', '/api/get-college-checklist', {
      token: user.idToken,
      query: { collegeName },
    })
  ).body.checklist;

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Your Colleges' });
const checklistPanel = (page: Page) => page.getByRole('region', { name: /^Checklist/ });
const progress = (page: Page) => checklistPanel(page).locator('.progress-message');

describe('dashboard in Chromium', () => {
  it('adds a college from search, then works through its checklist with progress, edit and cancel', async () => {
    const user = await createVerifiedUser({ name: 'Dana' });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);

    // Add from the search screen, as a student would.
    await page.goto('/search');
    await page.getByLabel('College name').fill('riverbend college');
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    const card = page.getByRole('article', { name: RIVERBEND });
    await card.getByRole('button', { name: 'Add to Profile' }).click();
    await card.getByText(MSG.collegeAdded).waitFor();
    expect((await addByApi(user, HILLCREST)).status).toBe(200);

    await page.goto('/usercolleges');
    const list = sidebar(page);
    await list.getByRole('button', { name: RIVERBEND, exact: true }).waitFor();
    expect(await list.getByRole('button', { name: HILLCREST, exact: true }).isVisible()).toBe(true);
    // No college selected: the season overview shows instead of the panels.
    await page.getByRole('heading', { name: 'Your season at a glance' }).waitFor();

    await list.getByRole('button', { name: RIVERBEND, exact: true }).click();
    await page.getByRole('heading', { name: `Checklist — ${RIVERBEND}` }).waitFor();
    expect(await progress(page).textContent()).toBe(MSG.progressZero);
    // Resources and demographics start collapsed.
    const resources = page.getByRole('region', { name: 'College Resources' });
    const showResources = resources.getByRole('button', { name: 'Show Resources' });
    expect(await showResources.getAttribute('aria-expanded')).toBe('false');
    await showResources.click();
    // Links read as words, never as the address.
    await resources.getByRole('link', { name: /^Admissions at riverbend\.edu/ }).waitFor();
    expect(await resources.getByText('Apply early action if you can.').isVisible()).toBe(true);
    expect(await resources.getByText('31%').isVisible()).toBe(true);
    const demographics = page.getByRole('region', { name: 'College Demographics' });
    expect(await demographics.getByText(MSG.selectCollegeDemographics).count()).toBe(0);
    await demographics.getByRole('button', { name: 'Show Demographics' }).click();
    await demographics.getByText('12:1').waitFor();
    expect(await demographics.getByText('Riverbend', { exact: true }).isVisible()).toBe(true);

    // Sections from camelCase keys; deadline items shown with their dates.
    const panel = checklistPanel(page);
    for (const legend of [
      'Application',
      'Testing',
      'Recommendations',
      'Essays',
      'Financial Aid',
      'Deadlines',
    ])
      expect(await panel.getByRole('group', { name: legend }).isVisible(), legend).toBe(true);
    expect(await panel.getByLabel('Early Action: November 1, 2026').isVisible()).toBe(true);

    // One tick: the middle message, and it is kept on the server.
    const firstTask = panel.getByRole('group', { name: 'Application' }).getByRole('checkbox').first();
    await firstTask.check();
    await expect.poll(() => progress(page).textContent()).toBe(MSG.progressSome);
    await expect
      .poll(async () => (await serverChecklist(user, RIVERBEND)).application?.[0]?.completed)
      .toBe(true);

    // Every item ticked: "Congratulations!" and the bar turns to its last colour.
    const boxes = panel.getByRole('checkbox');
    const n = await boxes.count();
    for (let i = 0; i < n; i++) if (!(await boxes.nth(i).isChecked())) await boxes.nth(i).check();
    await expect.poll(() => progress(page).textContent()).toBe(MSG.progressDone);
    expect(await panel.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await panel.locator('.progress-track').getAttribute('class')).toContain('level-done');
    await expect
      .poll(async () =>
        Object.values(await serverChecklist(user, RIVERBEND))
          .flat()
          .every((i) => i.completed),
      )
      .toBe(true);

    // Edit mode: switching colleges is refused; Cancel Changes throws the copy away.
    await panel.getByRole('button', { name: 'Edit Checklist' }).click();
    const firstText = panel.getByRole('textbox', { name: 'Item 1 of Application' });
    const original = await firstText.inputValue();
    await firstText.fill('Finish the Riverbend application by October');
    await panel.getByRole('button', { name: 'Add item to Testing' }).click();
    await panel.getByRole('textbox', { name: 'Item 3 of Testing' }).fill('Book a practice test');
    expect(await panel.getByText('From the college (read-only)').count()).toBe(2);
    await list.getByRole('button', { name: HILLCREST, exact: true }).click();
    await page.getByRole('alert').getByText(MSG.cannotSwitchInEdit).waitFor();
    expect(await page.getByRole('heading', { name: `Checklist — ${RIVERBEND}` }).isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Cancel Changes' }).click();
    expect(await panel.getByText(original, { exact: true }).isVisible()).toBe(true);
    expect(await panel.getByText('Book a practice test').count()).toBe(0);
    expect((await serverChecklist(user, RIVERBEND)).testing).toHaveLength(2);

    // Edit and Save: the whole checklist is replaced.
    await panel.getByRole('button', { name: 'Edit Checklist' }).click();
    await panel
      .getByRole('textbox', { name: 'Item 1 of Application' })
      .fill('Finish the Riverbend application by October');
    await panel.getByRole('button', { name: 'Delete item 2 of Testing' }).click();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Finish the Riverbend application by October').waitFor();
    const saved = await serverChecklist(user, RIVERBEND);
    expect(saved.application?.[0]).toEqual({
      text: 'Finish the Riverbend application by October',
      completed: true,
    });
    expect(saved.testing).toHaveLength(1);

    // Now switching works.
    await list.getByRole('button', { name: HILLCREST, exact: true }).click();
    await page.getByRole('heading', { name: `Checklist — ${HILLCREST}` }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reverts a tick the server refuses, with "Failed to update checklist."', async () => {
    const user = await createVerifiedUser({ name: 'Eli' });
    await addByApi(user, RIVERBEND);
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    await sidebar(page).getByRole('button', { name: RIVERBEND, exact: true }).click();
    const panel = checklistPanel(page);
    const group = panel.getByRole('group', { name: 'Application' });
    await group.getByRole('checkbox').first().waitFor();
    // The checklist may first be drawn from what the list page had already read, with its own read still
    // on the way: let it land first, or it could bring the rewrite below before the tick is made.
    await page.waitForLoadState('networkidle');

    // Meanwhile another device rewrites the checklist: the first item is now a different one.
    const current = await serverChecklist(user, RIVERBEND);
    const moved = { ...current, application: [{ text: 'Moved here from another tab', completed: false }] };
    await gw.api('POST', '/api/update-checklist', {
      token: user.idToken,
      body: { collegeName: RIVERBEND, checklist: moved },
    });

    await group.getByRole('checkbox').first().click();
    await page.getByRole('alert').getByText(MSG.failedToUpdateChecklist).waitFor();
    // The tick is never applied to the item that took that place, and the fresh checklist is shown.
    await group.getByText('Moved here from another tab').waitFor();
    expect(await group.getByRole('checkbox').first().isChecked()).toBe(false);
    expect((await serverChecklist(user, RIVERBEND)).application).toEqual(moved.application);
    await context.close();
  });

  it('removes colleges from the sidebar, clearing the selection, down to the empty state', async () => {
    const user = await createVerifiedUser({ name: 'Fay' });
    await addByApi(user, RIVERBEND);
    await addByApi(user, HILLCREST);
    const { page, context } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    const list = sidebar(page);
    await list.getByRole('button', { name: HILLCREST, exact: true }).click();
    await page.getByRole('heading', { name: `Checklist — ${HILLCREST}` }).waitFor();

    await list.getByRole('button', { name: `Remove ${HILLCREST}` }).click();
    await page.getByRole('status').getByText(MSG.collegeRemoved).waitFor();
    await list.getByRole('button', { name: HILLCREST, exact: true }).waitFor({ state: 'detached' });
    // No college selected: the season overview shows instead of the panels.
    await page.getByRole('heading', { name: 'Your season at a glance' }).waitFor();

    await list.getByRole('button', { name: `Remove ${RIVERBEND}` }).click();
    await list.getByText(MSG.noCollegesAdded).waitFor();
    const left = await gw.api<{ colleges: unknown[] }>('GET', '/api/get-user-colleges', {
      token: user.idToken,
    });
    expect(left.body.colleges).toEqual([]);
    await context.close();
  });

  it('turns the sidebar into a slide-in drawer on small screens, and collapses it on wide ones', async () => {
    const user = await createVerifiedUser({ name: 'Gus' });
    await addByApi(user, RIVERBEND);
    const { page, context } = await newPage({ viewport: { width: 390, height: 800 } });
    await signInInBrowser(page, user);
    await page.goto('/usercolleges');
    const open = page.getByRole('button', { name: 'Open Your Colleges' });
    await open.waitFor();
    const college = sidebar(page).getByRole('button', { name: RIVERBEND, exact: true });
    expect(await college.isVisible()).toBe(false);
    await open.click();
    await expect.poll(() => college.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => college.isVisible()).toBe(false);
    await open.click();
    await college.click();
    await expect.poll(() => college.isVisible()).toBe(false);
    await page.getByRole('heading', { name: `Checklist — ${RIVERBEND}` }).waitFor();

    await page.setViewportSize({ width: 1280, height: 800 });
    const collapse = sidebar(page).getByRole('button', { name: 'Collapse Your Colleges' });
    await collapse.click();
    expect(await college.isVisible()).toBe(false);
    await sidebar(page).getByRole('button', { name: 'Expand Your Colleges' }).click();
    expect(await college.isVisible()).toBe(true);
    await context.close();
  });
});
