// Issue 34: axe-core finds nothing on any page, Compare included, at 1280x800 and at 390x844, as a student
// sees it: motion on (no prefers-reduced-motion), scanned once the landing's fade and every other
// transition has ended. WCAG 2.2 A and AA rules and axe's best practices (landmark-unique and the like),
// every impact.
import { EssaysRepository } from '@ct/essays/repositories/essays';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { grantRole } from '../hardening/lib/users.ts';
import { axe, describeViolations, settled } from './lib.ts';

vi.setConfig({ testTimeout: 240_000 });

let student: TestUser;
let admin: TestUser;

const PUBLIC = 'Axe Width State University';
const PRIVATE = 'Axe Width College of Arts';
const SPARSE = 'Axe Width Quiet College';

const { gw, browser } = browserSuite({
  colleges: [
    buildCollege({
      name: PUBLIC,
      demographics: { schoolState: 'ME', ownership: 'Public', admissionRate: 0.42 },
      // The college's own page says something else than the official figure: both show.
      info: { admissionStatistics: { overallAcceptanceRate: 0.3, year: 'Class of 2029' } },
    }),
    buildCollege({ name: PRIVATE, demographics: { ownership: 'Private nonprofit', admissionRate: 0.12 } }),
    buildCollege({
      name: SPARSE,
      aliases: [],
      links: [],
      demographics: { priceCalcUrl: null, admissionRate: null },
      info: { deadlines: [], essayPrompts: [], tips: [] },
    }),
  ],
});
beforeAll(async () => {
  await new EssaysRepository(gw.db).saveCollegePrompts({ name: PUBLIC }, [{ text: 'Why us? (250 words)' }]);
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Ada Widths' }),
    createVerifiedUser({ name: 'Ann Widths' }),
  ]);
  await grantRole(gw.db, admin.uid, 'admin');
  const post = (path: string, body: unknown) =>
    gw.api('POST', `/api${path}`, { token: student.idToken, body });
  for (const collegeName of [PUBLIC, PRIVATE]) await post('/add-user-college', { collegeName });
  await post('/update-application', { collegeName: PRIVATE, plan: 'RD', status: 'admitted-with-aid' });
  await post('/update-student-profile', { homeState: 'ME', incomeBand: '0-30000' });
  await post('/add-note', {
    note: { title: 'Essay plan', content: 'Draft the Why us essay.', deadline: null },
  });
});

/** Until no transition or finite animation runs (the landing's fade, the About tab's, a panel's). */
async function still(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running')
        .every((a) => a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
}

const compare = `/search?${new URLSearchParams([
  ['mode', 'compare'],
  ['c', PUBLIC],
  ['c', PRIVATE],
  ['c', SPARSE],
])}`;

interface Visit {
  path: string;
  /** What to wait for (or do) before the scan. */
  then?: (page: Page) => Promise<void>;
}

const SIGNED_OUT: Visit[] = [
  {
    path: '/',
    then: async (p) => {
      await p.locator('.landing.visible').waitFor();
      await p.waitForFunction(() =>
        [...document.querySelectorAll('.landing-fade')].every((el) => getComputedStyle(el).opacity === '1'),
      );
    },
  },
  { path: '/login' },
  { path: '/about' },
  { path: '/about?tab=faq' },
  { path: '/no-such-page' },
];

const STUDENT: Visit[] = [
  ...SIGNED_OUT.filter((v) => v.path !== '/login'),
  { path: '/search' },
  {
    path: `/search?q=${encodeURIComponent(PUBLIC)}`,
    then: async (p) => p.getByRole('article', { name: PUBLIC }).getByTestId('fit-band').waitFor(),
  },
  {
    path: compare,
    then: async (p) => p.getByRole('heading', { name: 'Comparison' }).waitFor(),
  },
  {
    path: '/usercolleges',
    then: async (p) => p.getByRole('region', { name: 'Your season at a glance' }).waitFor(),
  },
  {
    path: `/usercolleges?college=${encodeURIComponent(PUBLIC)}`,
    then: async (p) => {
      await p.getByRole('heading', { name: `Checklist — ${PUBLIC}` }).waitFor();
      for (const name of ['Show Resources', 'Show Demographics'])
        await p.getByRole('button', { name }).click();
      await p.getByRole('region', { name: 'Admission Statistics', exact: true }).waitFor();
    },
  },
  { path: '/essays' },
  {
    path: '/profile',
    then: async (p) => p.getByRole('region', { name: 'Notes' }).getByText('Essay plan').waitFor(),
  },
];

async function scanAll(visits: Visit[], user: TestUser | null, width: number, height: number) {
  const { page, context, errors } = await newPage(browser, gw.url, { viewport: { width, height } });
  const bad: string[] = [];
  try {
    if (user) await signInInBrowser(page, user, { timeout: 60_000 });
    for (const v of visits) {
      await page.goto(v.path);
      await settled(page);
      await v.then?.(page);
      await page.waitForLoadState('networkidle');
      await still(page);
      bad.push(...describeViolations(await axe(page, { bestPractice: true })).map((x) => `${v.path}: ${x}`));
    }
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
  return bad;
}

describe.each([
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
])('every page at $width x $height, motion on', ({ width, height }) => {
  it('signed out: no violation', async () => {
    expect(await scanAll(SIGNED_OUT, null, width, height)).toEqual([]);
  });

  it('as a student: no violation, Compare included', async () => {
    expect(await scanAll(STUDENT, student, width, height)).toEqual([]);
  });

  it('as an admin: no violation', async () => {
    expect(
      await scanAll(
        [{ path: '/admin', then: async (p) => p.getByText('Welcome, Admin!').waitFor() }],
        admin,
        width,
        height,
      ),
    ).toEqual([]);
  });
});
