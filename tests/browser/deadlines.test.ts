// Issue 31 in Chromium at 1280x800 and 390x844: on 2026-11-27 (the service's clock and the page's, both
// fixed), six colleges of the shipped Common App grid whose only dates are last cycle's each show a
// labelled projected deadline ahead on the overview; the checklist says the date is expected; Coming up
// on the profile lists it, and drops it once the application is submitted.
import type { College } from '@ct/contracts';
import { CommonAppGrid, gridFacts } from '@ct/providers';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  signInInBrowser,
  VIEWPORTS,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const NOW = '2026-11-27T17:00:00Z';
const GRID = [166027, 168342, 139755, 130794, 112260, 141644];
const HARVARD = 'Harvard University';
const EXPECTED_HARVARD = "Expected January 1, 2027 (last cycle's date; confirm on the college's site)";

let names: string[];

const { gw, newPage } = browserSuite({
  env: { USER_DATA_CLOCK: NOW },
  colleges: async () => {
    const grid = await CommonAppGrid.shipped();
    const colleges: College[] = GRID.map((id) => {
      const entry = grid.entry(id)!;
      return buildCollege({
        name: entry.name,
        scorecardId: id,
        info: { deadlines: gridFacts(entry, grid.source, new Date(NOW))!.deadlines, essayPrompts: [] },
        sources: { 'info.deadlines': { ...grid.source, gatheredAt: NOW } },
      });
    });
    names = colleges.map((c) => c.name);
    return colleges;
  },
});

const api = (user: TestUser, path: string, body: unknown) =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });
const card = (page: Page, name: string) => page.locator(`tbody.season-college[data-college="${name}"]`);

describe.each(VIEWPORTS)('deadlines at $width x $height', (viewport) => {
  it('shows each projected deadline, labelled, and drops a submitted one from Coming up', async () => {
    const user = await createVerifiedUser({ name: 'Grid' });
    for (const name of names)
      expect((await api(user, '/add-user-college', { collegeName: name })).status).toBe(200);
    const { page, context, errors } = await newPage({ viewport });
    try {
      await context.clock.setFixedTime(new Date(NOW));
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      const cell = (name: string) => card(page, name).locator('td[data-label="Next deadline"]');
      const text = async (name: string) => (await cell(name).innerText()).replace(/\s+/g, ' ');
      await cell(HARVARD).waitFor();
      for (const name of names)
        expect(await text(name), name).toMatch(
          /Expected [A-Z][a-z]+ \d{1,2}, 2027 \(last cycle's date; confirm on the college's site\)/,
        );
      expect(await text(HARVARD)).toContain(`Regular Decision ${EXPECTED_HARVARD} in 35 days`);
      expect(await cell(HARVARD).getByRole('link', { name: 'Source' }).getAttribute('href')).toBe(
        'https://content.commonapp.org/Files/ReqGrid.pdf',
      );

      // The checklist says the date is expected, not passed.
      await card(page, HARVARD).getByRole('button', { name: HARVARD, exact: true }).click();
      const checklist = page.locator('.checklist-panel');
      await page.getByRole('heading', { name: `Checklist — ${HARVARD}` }).waitFor();
      await expect
        .poll(async () => (await checklist.innerText()).replace(/\s+/g, ' '))
        .toContain(`Regular Decision: ${EXPECTED_HARVARD}`);
      expect(await checklist.innerText()).toContain('CSS Profile deadline: not known');
      expect(await checklist.innerText()).not.toContain('Passed · 330 days ago');

      // Coming up on the profile lists it first, labelled.
      await page.goto('/profile');
      const comingUp = page.getByRole('region', { name: 'Coming up' });
      await expect.poll(() => comingUp.innerText()).toContain(`${HARVARD}: Regular Decision`);
      expect((await comingUp.innerText()).replace(/\s+/g, ' ')).toContain(EXPECTED_HARVARD);

      // Submitted: the application deadline leaves Coming up.
      const sent = await api(user, '/update-application', {
        collegeName: HARVARD,
        plan: 'RD',
        status: 'submitted',
        submittedOn: '2026-11-20',
      });
      expect(sent.status).toBe(200);
      // The reload first paints the last data kept on this device, then the server's answer.
      await page.reload();
      await expect
        .poll(async () => {
          const shown = await comingUp.innerText();
          return (
            shown.includes('Yale University: Regular Decision') &&
            !shown.includes(`${HARVARD}: Regular Decision`)
          );
        })
        .toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
