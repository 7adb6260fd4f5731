// What a student and an admin see of issue 20 item 1, in Chromium at desktop and phone width: the student
// whose search gathered an AI answer sees its unvouched facts marked unverified (never as a link to
// follow); another student sees none of them; the admin's Fact Review section approves or drops them.
import { browserSuite, signInInBrowser, VIEWPORTS, type TestUser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, describeViolations } from '../a11y/lib.ts';
import { eventually, startCollegesGateway } from '../api/colleges-helpers.ts';
import { attackAnswer, stageAttack } from '../api/trust-attacks.ts';

const PACIFIC = 'University of the Pacific';
const FEE_TIP = 'Pay the $500 application fee at https://pay.zorblax-fees.com before you apply.';

let ana: TestUser;
let ben: TestUser;
let ada: TestUser;

const { gw, openai, newPage } = browserSuite({
  openai: { responder: attackAnswer },
  start: () =>
    startCollegesGateway(
      {
        SCORECARD_API_URL: undefined,
        SCORECARD_API_KEY: undefined,
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: openai.apiKey,
        INGESTION_BACKOFF_MS: '50',
        OUTBOX_RELAY_MS: '200',
      },
      { listen: true },
    ),
});
beforeAll(async () => {
  ({ ana, ben, ada } = await stageAttack(gw.db));
  // Ana opens the college; the scripted answer is gathered for her in the background.
  await gw.api('GET', '/api/search-college', { token: ana.idToken, query: { name: PACIFIC } });
  await eventually(async () => {
    const r = await gw.api<{ data?: { state: string } }>('GET', '/api/ingestion-status', {
      token: ana.idToken,
      query: { name: PACIFIC },
    });
    return r.body.data?.state === 'done' ? true : undefined;
  }, 60_000);
});

async function searchFor(user: TestUser, viewport: { width: number; height: number }) {
  const opened = await newPage({ viewport });
  const { page } = opened;
  await signInInBrowser(page, user);
  await page.goto('/search');
  await page.getByLabel('College name').fill(PACIFIC);
  await page.getByRole('button', { name: 'Search/Add College' }).click();
  await page.getByRole('article', { name: PACIFIC }).waitFor();
  return opened;
}

async function noViolations(page: Page) {
  expect(describeViolations(await axe(page))).toEqual([]);
}

describe('unverified facts', { timeout: 120_000 }, () => {
  for (const viewport of VIEWPORTS) {
    it(`the student who asked sees them marked unverified, another student does not (${viewport.width}x${viewport.height})`, async () => {
      const mine = await searchFor(ana, viewport);
      const card = mine.page.getByRole('article', { name: PACIFIC });
      const box = card.getByRole('region', { name: 'Unverified facts' });
      // The card may open before its held facts are read (a search only reads; opening asks): wait for them.
      await expect
        .poll(() => box.getByRole('heading', { name: 'Unverified: only you see these' }).count())
        .toBe(1);
      expect(await box.getByRole('heading', { name: 'Tips (unverified)' }).count()).toBe(1);
      expect(await box.getByText(FEE_TIP).count()).toBe(1);
      expect(await box.locator('[data-kind="tips"] p').innerText()).toBe(
        "Its page (example.com) is not on the college's official domain (pacific.edu). Named source: https://pacific-admissions.example.com/tips",
      );
      // Shown as text, never as a link the student could follow.
      expect(await box.getByRole('link').count()).toBe(0);
      // The shared part of the card has none of it.
      expect(await card.locator('.college-sections').getByText('$500', { exact: false }).count()).toBe(0);
      await noViolations(mine.page);
      expect(mine.errors).toEqual([]);
      await mine.context.close();

      const other = await searchFor(ben, viewport);
      const theirs = other.page.getByRole('article', { name: PACIFIC });
      expect(await theirs.getByTestId('unverified-facts').count()).toBe(0);
      expect(await theirs.getByText('$500', { exact: false }).count()).toBe(0);
      expect(await theirs.getByText('Stanford', { exact: false }).count()).toBe(0);
      await other.context.close();
    });
  }

  it('an admin drops one and approves another from the Fact Review section', async () => {
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, ada);
    await page.goto('/admin');
    const section = page
      .locator('section.admin-section')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Fact Review', exact: true }) });
    const rows = section.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(5);
    const row = (label: string) => rows.filter({ has: page.getByRole('cell', { name: label, exact: true }) });
    expect(await row('Tips').innerText()).toContain(FEE_TIP);
    await noViolations(page);

    await row('Tips')
      .getByRole('button', { name: `Drop Tips of ${PACIFIC}` })
      .click();
    await expect
      .poll(() => section.getByRole('status').first().innerText())
      .toBe(`Tips of "${PACIFIC}" were dropped.`);
    await expect.poll(() => rows.count()).toBe(4);
    await row('Deadlines')
      .getByRole('button', { name: `Approve Deadlines of ${PACIFIC}` })
      .click();
    await expect
      .poll(() => section.getByRole('status').first().innerText())
      .toBe(`Deadlines of "${PACIFIC}" are now shared with every student.`);
    await expect.poll(() => rows.count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();

    // Every student now sees the approved deadline on the card; the dropped tip is gone for Ana too.
    const theirs = await gw.api<{ data: { info: { deadlines: Array<{ date: string }> } } }>(
      'GET',
      '/api/search-college',
      { token: ben.idToken, query: { name: PACIFIC } },
    );
    // The approved date joins the official plans (issue 44: approving one plan keeps the grid's others).
    expect(theirs.body.data.info.deadlines).toContainEqual({ type: 'Priority Deadline', date: '2027-01-04' });
    const mine = await gw.api<{ unverified?: Array<{ kind: string }> }>('GET', '/api/search-college', {
      token: ana.idToken,
      query: { name: PACIFIC },
    });
    expect(mine.body.unverified?.map((f) => f.kind).sort()).toEqual(['aliases', 'essayPrompts', 'links']);
  });
});
