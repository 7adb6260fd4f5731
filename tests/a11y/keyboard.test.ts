// Keyboard only, in real Chromium: a student logs in, searches for a college with the suggestion list and
// adds it, ticks a checklist item on the dashboard and writes a note on the profile, using Tab, Shift+Tab,
// arrow keys, Enter and Space only (no mouse, no direct focus). Every stop of the Tab key must show a
// visible focus indicator (WCAG 2.4.7 / 2.4.11).
import { MSG } from '@ct/contracts/messages';
import { browserSuite, buildCollege, createVerifiedUser, type TestUser } from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { settled, tabTo } from './lib.ts';

let student: TestUser;
const COLLEGE = 'Keyboard Valley University';

const { newPage } = browserSuite({ colleges: [buildCollege({ name: COLLEGE })] });
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Kim Keys' });
});

/** True when the element is the one that has the keyboard focus. */
const focused = (l: Locator) => () =>
  l.evaluate(
    (el: unknown) => el === (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
  );

/** Follows a link of the main navigation with Tab and Enter. */
async function navigate(page: Page, name: string, path: string, noRing: string[]): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  await tabTo(page, focused(link), { noFocusRing: noRing });
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === path);
  await settled(page);
}

describe('keyboard only', () => {
  it('logs in, searches and adds a college, ticks a checklist item and writes a note', async () => {
    const { page, context, errors } = await newPage();
    const noRing: string[] = [];
    try {
      // Login.
      await page.goto('/login');
      await settled(page);
      const form = page.getByRole('form', { name: 'Login' });
      await tabTo(page, focused(form.getByLabel('Email', { exact: true })), { noFocusRing: noRing });
      await page.keyboard.type(student.email);
      await tabTo(page, focused(form.getByLabel('Password', { exact: true })), { noFocusRing: noRing });
      await page.keyboard.type(student.password);
      await page.keyboard.press('Enter');
      await page.waitForSelector('html[data-session="signed-in"]', { state: 'attached', timeout: 60_000 });
      // A signed-in student lands on Your Colleges.
      await page.waitForURL((u) => u.pathname === '/usercolleges');
      await settled(page);

      // Search: type, pick the suggestion with the arrow keys, search, add to profile.
      await navigate(page, 'Search', '/search', noRing);
      const input = page.getByLabel('College name');
      await tabTo(page, focused(input), { noFocusRing: noRing });
      await page.keyboard.type(COLLEGE.slice(0, 8));
      await page.getByRole('option', { name: COLLEGE }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => input.inputValue()).toBe(COLLEGE);
      await tabTo(page, focused(page.getByRole('button', { name: 'Search/Add College' })), {
        noFocusRing: noRing,
      });
      await page.keyboard.press('Enter');
      const card = page.getByRole('article', { name: COLLEGE });
      await card.waitFor();
      await tabTo(page, focused(card.getByRole('button', { name: 'Add to Profile' })), {
        noFocusRing: noRing,
      });
      await page.keyboard.press('Enter');
      await card.getByText(MSG.collegeAdded).waitFor();

      // Dashboard: open the college, tick the first application item with Space.
      await navigate(page, 'Your Colleges', '/usercolleges', noRing);
      const item = page
        .getByRole('complementary', { name: 'Your Colleges' })
        .getByRole('button', { name: COLLEGE, exact: true });
      await tabTo(page, focused(item), { noFocusRing: noRing });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Checklist — ${COLLEGE}` }).waitFor();
      const box = page
        .getByRole('region', { name: /^Checklist/ })
        .getByRole('group', { name: 'Application' })
        .getByRole('checkbox')
        .first();
      await tabTo(page, focused(box), { noFocusRing: noRing });
      await page.keyboard.press('Space');
      await expect.poll(() => box.isChecked()).toBe(true);
      await expect
        .poll(() =>
          page
            .getByRole('region', { name: /^Checklist/ })
            .locator('.progress-message')
            .textContent(),
        )
        .toBe(MSG.progressSome);

      // Profile: write a note.
      await navigate(page, 'Profile', '/profile', noRing);
      // The profile now holds the deadline settings, reminders and share links before the notes.
      await tabTo(page, focused(page.getByLabel('Title')), { noFocusRing: noRing, max: 200 });
      await page.keyboard.type('Keyboard note');
      await tabTo(page, focused(page.getByLabel('Content')), { noFocusRing: noRing });
      await page.keyboard.type('Written without a mouse.');
      await tabTo(page, focused(page.getByRole('button', { name: 'Add Note' })), { noFocusRing: noRing });
      await page.keyboard.press('Enter');
      await page.getByText(MSG.noteAdded).waitFor();
      await page.getByRole('list', { name: 'Your Notes' }).getByText('Keyboard note').waitFor();

      expect(noRing, 'focused without a visible focus indicator').toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
