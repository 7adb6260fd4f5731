// axe-core (WCAG 2.2 A and AA rules) in real Chromium on every page, signed out and signed in, and in the
// states a student reaches by using the page (a result card, the compare table, a checklist in edit mode,
// an open dialog, an open menu, the account menu, the Undo message, the phone drawer). Target: no
// violation at all, whatever its impact (critical, serious, moderate or minor). Pages are scanned with
// prefers-reduced-motion, so that fades and typing animations are at their end state (the state a student
// reads) when axe measures contrast.
import { EssaysRepository } from '@ct/essays/repositories/essays';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grantRole } from '../hardening/lib/users.ts';
import { axe, describeViolations, settled } from './lib.ts';

// A real browser on a machine shared by many test files: give each page state time.
vi.setConfig({ testTimeout: 120_000 });

let student: TestUser;
let admin: TestUser;
const report: Array<[string, string[]]> = [];

const FIRST = 'Northwood State University';
const SECOND = 'Lakeside College of Arts';
const THIRD = 'Granite Peak College';
const FOURTH = 'Harbor Point University';
/** Removed and brought back with Undo while axe scans the message. */
const UNDONE = 'Brookfield Technical Institute';
/** Little known: most card sections fold to one line; grants exceed the cost for the lowest incomes. */
const SPARSE = 'Quiet Meadow College';

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: FIRST,
      info: { essayPrompts: ['Why Northwood?', 'Describe a challenge you met.'] },
    }),
    buildCollege({ name: SECOND, demographics: { schoolSize: 2400, admissionRate: 0.62 } }),
    buildCollege({
      name: THIRD,
      demographics: { schoolState: 'ME', dataYears: { netPrice: '2021-22', cost: '2022-23' } },
    }),
    buildCollege({ name: FOURTH, demographics: { schoolState: null, admissionRate: 0.62 } }),
    buildCollege({ name: UNDONE }),
    buildCollege({
      name: SPARSE,
      aliases: [],
      links: [],
      demographics: { priceCalcUrl: null, finance: { netPrice0to30000: -4196 } },
      info: {
        deadlines: [],
        essayPrompts: [],
        tips: [],
        requirements: { transcripts: null, SAT_ACT: null, teacherRecommendations: null },
        admissionStatistics: { overallAcceptanceRate: null, year: null },
        admittedStudentProfile: { GPA: null, SAT: null, Major: null },
      },
    }),
  ],
});
beforeAll(async () => {
  // Prompts of the student's colleges, for the essay workspace (one reads the same at both).
  const essays = new EssaysRepository(gw.db);
  await essays.saveCollegePrompts({ name: FIRST }, [
    { text: 'Why Northwood? (250 words)' },
    { text: 'Describe a community you belong to.', wordLimit: 300 },
  ]);
  await essays.saveCollegePrompts({ name: SECOND }, [{ text: 'Describe a community you belong to.' }]);
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Ada Student' }),
    createVerifiedUser({ name: 'Ann Admin' }),
  ]);
  await grantRole(gw.db, admin.uid, 'admin');
  for (const collegeName of [FIRST, SECOND])
    await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName } });
  await gw.api('POST', '/api/add-note', {
    token: student.idToken,
    body: { note: { title: 'Essay draft', content: 'Finish the Northwood essay', deadline: '2027-01-10' } },
  });
  await gw.api('POST', '/api/add-note', {
    token: student.idToken,
    body: {
      note: { title: 'Long plan', content: 'A long plan for the essays.\n'.repeat(30), deadline: null },
    },
  });
});
afterAll(async () => {
  console.log('\naxe-core, WCAG 2.2 A/AA, per page state:');
  for (const [state, bad] of report)
    console.log(`  ${state}: ${bad.length} violation(s)${bad.length ? ` [${bad.join(' | ')}]` : ''}`);
});

/** Scans the page as it is and records the result under `state`: every violation, of any impact. */
async function scan(page: Page, state: string): Promise<string[]> {
  const bad = describeViolations(await axe(page));
  report.push([state, bad]);
  return bad;
}

async function open(path: string, ctx: { page: Page }): Promise<Page> {
  await ctx.page.goto(path);
  await settled(ctx.page);
  return ctx.page;
}

describe('signed out', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newPage({ reducedMotion: 'reduce' }));
  });
  afterAll(() => context?.close());

  it.each(['/', '/login', '/about', '/no-such-page'])('%s has no violation', async (path) => {
    await open(path, { page });
    expect(await scan(page, `signed out ${path}`)).toEqual([]);
  });

  it('/login in sign-up mode and after a refused login has no violation', async () => {
    await open('/login', { page });
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('form', { name: 'Sign Up' }).waitFor();
    expect(await scan(page, 'signed out /login sign-up')).toEqual([]);
    await page.getByRole('button', { name: 'Back to log in' }).click();
    const form = page.getByRole('form', { name: 'Login' });
    await form.getByLabel('Email', { exact: true }).fill(student.email);
    await form.getByLabel('Password', { exact: true }).fill('wrong-password-123');
    await form.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    expect(await scan(page, 'signed out /login refused')).toEqual([]);
  });

  it('/about, every tab and an open FAQ item, has no violation', async () => {
    await open('/about', { page });
    const bad: string[] = [];
    for (const name of ['About Us', 'Features', 'How It Works', 'FAQ', 'Contact', 'Donate']) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.getByRole('tabpanel').waitFor();
      if (name === 'FAQ') await page.getByRole('tabpanel').getByRole('button').first().click();
      bad.push(...(await scan(page, `signed out /about ${name}`)).map((v) => `${name}: ${v}`));
    }
    expect(bad).toEqual([]);
  });

  it('the phone layout with the menu open has no violation', async () => {
    const phone = await newPage({
      viewport: { width: 390, height: 800 },
      reducedMotion: 'reduce',
    });
    try {
      await open('/', phone);
      await phone.page.getByRole('button', { name: 'Open menu' }).click();
      await phone.page.getByRole('button', { name: 'Close menu' }).waitFor();
      expect(await scan(phone.page, 'signed out / phone menu open')).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});

describe('signed in as a student', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newPage({ reducedMotion: 'reduce' }));
    await signInInBrowser(page, student, { timeout: 60_000 });
  });
  afterAll(() => context?.close());

  it.each(['/', '/about', '/search', '/usercolleges', '/essays', '/profile', '/no-such-page'])(
    '%s has no violation',
    async (path) => {
      await open(path, { page });
      expect(await scan(page, `student ${path}`)).toEqual([]);
    },
  );

  it('/search with a college card, then the compare table, has no violation', async () => {
    await open('/search', { page });
    await page.getByLabel('College name').fill(FIRST);
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    await page.getByRole('article', { name: FIRST }).waitFor();
    const bad = await scan(page, 'student /search result card');
    await page.getByRole('tab', { name: 'Compare Colleges' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByLabel('College 1').fill(FIRST);
    await panel.getByLabel('College 2').fill(SECOND);
    await panel.getByRole('button', { name: 'Compare' }).click();
    await panel.getByRole('table').first().waitFor();
    bad.push(...(await scan(page, 'student /search compare table')));
    expect(bad).toEqual([]);
  });

  it('/usercolleges with a college open, both info panels shown and the checklist in edit mode', async () => {
    await open('/usercolleges', { page });
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: FIRST, exact: true })
      .click();
    await page.getByRole('heading', { name: `Checklist — ${FIRST}` }).waitFor();
    await page.getByRole('button', { name: 'Show Resources' }).click();
    await page.getByRole('button', { name: 'Show Demographics' }).click();
    const bad = await scan(page, 'student /usercolleges college open');
    await page.getByRole('button', { name: 'Edit Checklist' }).click();
    await page.getByRole('button', { name: 'Cancel Changes' }).waitFor();
    bad.push(...(await scan(page, 'student /usercolleges edit mode')));
    await page.getByRole('button', { name: 'Cancel Changes' }).click();
    expect(bad).toEqual([]);
  });

  it('/essays with a college and a prompt chosen has no violation', async () => {
    await open('/essays', { page });
    // The UC Personal Insight Questions come from the essays service's own file: always there.
    const college = 'University of California';
    await page
      .getByRole('list', { name: 'Colleges with essay prompts' })
      .getByRole('button', { name: college })
      .click();
    await page.getByRole('heading', { name: `Prompts for ${college}` }).waitFor();
    await page.locator('.essay-prompt-button').first().click();
    await page.locator('.essay-prompt-button[aria-expanded="true"]').waitFor();
    expect(await scan(page, 'student /essays prompt open')).toEqual([]);
  });

  it('/profile with the Account Settings dialog open has no violation', async () => {
    await open('/profile', { page });
    await page.getByRole('button', { name: 'Account Settings' }).click();
    await page.getByRole('dialog', { name: 'Account Settings' }).waitFor();
    expect(await scan(page, 'student /profile account dialog')).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('the account menu open, a note deletion to confirm, and long notes clamped have no violation', async () => {
    await open('/profile', { page });
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByText('Signed in as').waitFor();
    const bad = await scan(page, 'student /profile account menu open');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Delete Essay draft' }).click();
    await page.getByRole('dialog', { name: 'Delete this note?' }).waitFor();
    bad.push(...(await scan(page, 'student /profile delete note dialog')));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(bad).toEqual([]);
  });

  it.each([
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])('the season overview, its editors and the admissions side by side at $width', async (viewport) => {
    for (const collegeName of [FIRST, SECOND])
      await gw.api('POST', '/api/update-application', {
        token: student.idToken,
        body: { collegeName, plan: 'RD', status: 'admitted-with-aid' },
      });
    await gw.api('POST', '/api/save-aid-offer', {
      token: student.idToken,
      body: {
        collegeName: FIRST,
        offer: {
          costOfAttendance: null,
          grants: [{ name: 'Northwood Grant', amount: 12000 }],
          workStudy: 1500,
          loans: [{ kind: 'parent-plus', amount: 9000 }],
          totalAidStated: 22500,
        },
      },
    });
    const s = await newPage({ viewport, reducedMotion: 'reduce' });
    try {
      await signInInBrowser(s.page, student, { timeout: 60_000 });
      await open('/usercolleges', s);
      await s.page
        .getByTestId('admitted-comparison')
        .getByRole('row', { name: /^Graduation rate/ })
        .waitFor();
      await settled(s.page);
      const bad = await scan(s.page, `student season overview ${viewport.width}`);
      await s.page.getByRole('button', { name: `Update application to ${FIRST}` }).click();
      await s.page.getByRole('form', { name: `Application to ${FIRST}` }).waitFor();
      bad.push(...(await scan(s.page, `student season application editor ${viewport.width}`)));
      await s.page.getByRole('button', { name: `Edit aid offer from ${FIRST}` }).click();
      await s.page.getByRole('form', { name: `Aid offer from ${FIRST}` }).waitFor();
      bad.push(...(await scan(s.page, `student season aid offer ${viewport.width}`)));
      expect(bad).toEqual([]);
    } finally {
      await s.context.close();
    }
  });

  it('/usercolleges with the Undo message, and the phone drawer open, have no violation', async () => {
    await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName: UNDONE } });
    await open('/usercolleges', { page });
    const sidebar = page.getByRole('complementary', { name: 'Your Colleges' });
    await sidebar.getByRole('button', { name: `Remove ${UNDONE}` }).click();
    await page.getByRole('button', { name: `Undo removing ${UNDONE}` }).waitFor();
    const bad = await scan(page, 'student /usercolleges undo message');
    const phone = await newPage({
      viewport: { width: 390, height: 844 },
      reducedMotion: 'reduce',
    });
    try {
      await signInInBrowser(phone.page, student, { timeout: 60_000 });
      await open('/usercolleges', phone);
      await phone.page.getByRole('button', { name: 'Open Your Colleges' }).click();
      await phone.page.getByRole('button', { name: 'Close Your Colleges' }).waitFor();
      bad.push(...(await scan(phone.page, 'student /usercolleges phone drawer open')));
      await phone.page.keyboard.press('Escape');
      await phone.page.getByRole('button', { name: 'Open menu' }).click();
      await phone.page.getByRole('button', { name: 'Close menu' }).waitFor();
      bad.push(...(await scan(phone.page, 'student phone menu open')));
    } finally {
      await phone.context.close();
    }
    expect(bad).toEqual([]);
  });
});

describe('compare and essays have no violation of any impact', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newPage({ reducedMotion: 'reduce' }));
    await signInInBrowser(page, student, { timeout: 60_000 });
  });
  afterAll(() => context?.close());

  const compareUrl = (names: string[]) =>
    `/search?${new URLSearchParams([['mode', 'compare'], ...names.map((n) => ['c', n] as [string, string])])}`;

  it('/search compare with two, then four colleges, before and after a money profile', async () => {
    await open(compareUrl([FIRST, SECOND]), { page });
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByRole('table').waitFor();
    const bad = await scan(page, 'student compare two');
    await open(compareUrl([FIRST, SECOND, THIRD, FOURTH]), { page });
    await panel.getByRole('columnheader', { name: FOURTH }).waitFor();
    bad.push(...(await scan(page, 'student compare four')));
    await gw.api('POST', '/api/update-student-profile', {
      token: student.idToken,
      body: { homeState: 'ME', incomeBand: '0-30000' },
    });
    await open(compareUrl([FIRST, SECOND, THIRD, FOURTH]), { page });
    await panel.getByRole('rowheader', { name: /^Your net price/ }).waitFor();
    bad.push(...(await scan(page, 'student compare four with a profile')));
    await gw.api('POST', '/api/update-student-profile', {
      token: student.idToken,
      body: { homeState: null, incomeBand: null },
    });
    expect(bad).toEqual([]);
  });

  it('/search compare on a phone (stacked cards)', async () => {
    const phone = await newPage({
      viewport: { width: 390, height: 844 },
      reducedMotion: 'reduce',
    });
    try {
      await signInInBrowser(phone.page, student, { timeout: 60_000 });
      await open(compareUrl([FIRST, SECOND, THIRD]), phone);
      await phone.page.getByRole('region', { name: `${THIRD} at a glance` }).waitFor();
      expect(await scan(phone.page, 'student compare phone')).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('/essays with the workspace open: a draft, its warning, its versions, and the filter', async () => {
    await open('/essays', { page });
    const ws = page.getByRole('region', { name: 'Your essay drafts' });
    const card = ws.getByRole('group', { name: 'Why Northwood? (250 words)' });
    await card.getByRole('button', { name: 'Start draft' }).click();
    await card.getByLabel('Your draft').fill(`I visited ${SECOND} and loved its lake.`);
    await card.getByText(`This draft names ${SECOND}`, { exact: false }).waitFor();
    await card.locator('.save-status').getByText('Saved', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Save a version' }).click();
    await card.getByText('Version saved.').waitFor();
    await card.getByRole('button', { name: 'Show versions' }).click();
    await card.getByRole('list', { name: 'Earlier versions' }).waitFor();
    await ws
      .getByRole('group', { name: 'Describe a community you belong to.' })
      .getByRole('button', { name: 'Start draft' })
      .click();
    const bad = await scan(page, 'student /essays workspace open');
    await page.getByLabel('Filter colleges').fill('north');
    await page
      .getByRole('list', { name: 'Colleges with essay prompts' })
      .getByRole('button', { name: new RegExp(FIRST) })
      .click();
    await page.getByRole('heading', { name: `Prompts for ${FIRST}` }).waitFor();
    bad.push(...(await scan(page, 'student /essays filtered, prompts shown')));
    expect(bad).toEqual([]);
  });
});

describe('signed in as an admin', () => {
  it('/admin with every section open has no violation', async () => {
    const { context, page } = await newPage({ reducedMotion: 'reduce' });
    try {
      await signInInBrowser(page, admin, { timeout: 60_000 });
      await open('/admin', { page });
      await page.getByText('Welcome, Admin!').waitFor();
      const closed = page.locator('section.admin-section button[aria-expanded="false"]');
      for (let n = await closed.count(); n > 0; n = await closed.count()) await closed.first().click();
      await page.waitForLoadState('networkidle');
      const bad = await scan(page, 'admin /admin all sections open');
      await page.getByRole('button', { name: 'Show Full Data' }).click();
      await page.locator('.admin-json').waitFor();
      bad.push(...(await scan(page, 'admin /admin full data shown')));
      // Phone width: the tables become one card per row.
      await page.setViewportSize({ width: 390, height: 844 });
      bad.push(...(await scan(page, 'admin /admin phone')));
      expect(bad).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the finished look has no violation of any impact', () => {
  it.each([
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])('folded sections, charts, the pasted-prompt form and the error page at $width', async (viewport) => {
    const { page, context } = await newPage({ viewport, reducedMotion: 'reduce' });
    try {
      await signInInBrowser(page, student, { timeout: 60_000 });
      await gw.api('POST', '/api/update-student-profile', {
        token: student.idToken,
        body: { homeState: 'ME', incomeBand: '0-30000' },
      });
      await open(`/search?q=${encodeURIComponent(SPARSE)}`, { page });
      await page.getByRole('article', { name: SPARSE }).waitFor();
      await page.getByRole('list', { name: 'Net price by family income' }).waitFor();
      const bad = await scan(page, `student card with folded sections and charts ${viewport.width}`);
      await open('/essays', { page });
      const form = page.getByRole('form', { name: 'Write for another prompt' });
      await form.getByRole('button', { name: 'Start draft' }).click();
      await form.getByRole('alert').waitFor();
      bad.push(...(await scan(page, `student /essays pasted-prompt form ${viewport.width}`)));
      // The server goes away and a page not loaded yet is asked for: the product's own error page.
      await open('/profile', { page });
      // The service worker's precache would still open the page: it is emptied, and its own requests
      // (which only the context's routes see) fail too.
      await page.evaluate(async () => {
        for (const k of await caches.keys()) await caches.delete(k);
      });
      await page.context().route(`${gw.url}/**`, (route) => route.abort('connectionrefused'));
      await page.evaluate(() => {
        history.pushState({}, '', '/admin');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.getByRole('heading', { name: 'We could not reach the server' }).waitFor();
      bad.push(...(await scan(page, `student error page ${viewport.width}`)));
      await gw.api('POST', '/api/update-student-profile', {
        token: student.idToken,
        body: { homeState: null, incomeBand: null },
      });
      expect(bad).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
