// `npm run screenshots`: every page of the embedded app (PGlite, in-process queue, the Auth emulator) with
// seeded data, signed out, as a student and as an admin, at 1280x800 and 390x844, in headless Chromium.
// PNGs go to .screenshots/ (git-ignored), named <who>-<page>-<width>.png. Not part of `npm test`: it is for
// people to look at. SKIP_WEB_BUILD=1 skips building web/dist; SCREENSHOTS_DIR moves the output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RoleRepository } from '@ct/auth/repositories/roles';
import type { College } from '@ct/contracts';
import {
  buildCollege,
  createVerifiedUser,
  launchBrowser,
  newPage,
  seedColleges,
  signInInBrowser,
  startAuthEmulator,
  startTestGateway,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import type { Browser, Page } from 'playwright-core';

const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? '.screenshots');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

const COLLEGES: College[] = [
  buildCollege({
    name: 'Colby College',
    aliases: ['Colby'],
    links: ['https://www.colby.edu/admission', 'https://www.colby.edu/financialaid'],
    demographics: { schoolCity: 'Waterville', schoolState: 'ME', schoolSize: 2260, admissionRate: 0.08 },
    info: {
      deadlines: [
        { type: 'Early Decision I', date: '2026-11-15' },
        { type: 'Early Decision II', date: '2027-01-02' },
        { type: 'Regular Decision', date: '2027-01-02' },
      ],
      essayPrompts: ['Why Colby?', 'Tell us about a community you belong to.'],
      // As the Common App requirements grid gives them (the shipped data).
      requirements: {
        transcripts: 'Required',
        SAT_ACT: 'Optional',
        teacherRecommendations: '2 required',
        personalEssay: 'Required',
        writingSupplement: 'Required',
      },
      tips: ['Colby is test-optional.', 'Interviews are offered on campus and online.'],
      admissionStatistics: { overallAcceptanceRate: 0.08, year: '2024' },
    },
  }),
  buildCollege({
    name: 'Colby-Sawyer College',
    demographics: { schoolCity: 'New London', schoolState: 'NH', schoolSize: 800, admissionRate: 0.93 },
  }),
  buildCollege({
    name: 'Bowdoin College',
    demographics: { schoolCity: 'Brunswick', schoolState: 'ME', schoolSize: 1900, admissionRate: 0.07 },
    info: {
      deadlines: [
        { type: 'Early Decision I', date: '2026-11-15' },
        { type: 'Regular Decision', date: '2027-01-05' },
      ],
    },
  }),
  // Real troublemakers: Stanford's price calculator address is long enough to widen a page; UMass's name
  // is long for a calendar day; Berea's grants exceed its cost for the lowest incomes.
  buildCollege({
    name: 'Stanford University',
    links: ['https://admission.stanford.edu/apply/first-year/index.html'],
    demographics: {
      schoolCity: 'Stanford',
      schoolState: 'CA',
      schoolSize: 7841,
      admissionRate: 0.0395,
      priceCalcUrl: 'financialaid.stanford.edu/undergrad/how/calculator/index.html?tab=net-price-calculator',
      finance: { netPrice0to30000: 4415, netPrice110001plus: 31240 },
    },
    info: {
      deadlines: [
        { type: 'Restrictive Early Action', date: '2026-11-01' },
        { type: 'Regular Decision', date: '2027-01-05' },
      ],
      tips: [],
      admittedStudentProfile: { GPA: null, SAT: null, Major: null },
    },
  }),
  buildCollege({
    name: 'University of Massachusetts-Amherst',
    aliases: ['UMass Amherst'],
    demographics: { schoolCity: 'Amherst', schoolState: 'MA', schoolSize: 24000, admissionRate: 0.58 },
    info: {
      deadlines: [
        { type: 'Early Action', date: '2026-11-05' },
        { type: 'Regular Decision', date: '2027-01-15' },
      ],
    },
  }),
  buildCollege({
    name: 'Berea College',
    aliases: [],
    links: [],
    demographics: {
      schoolCity: 'Berea',
      schoolState: 'KY',
      schoolSize: 1500,
      admissionRate: 0.32,
      finance: { netPrice0to30000: -4196, netPrice30001to48000: -1200, netPrice48001to75000: 1800 },
    },
    info: {
      deadlines: [],
      essayPrompts: [],
      tips: [],
      requirements: { transcripts: null, SAT_ACT: null, teacherRecommendations: null },
      admissionStatistics: { overallAcceptanceRate: null, year: null },
      admittedStudentProfile: { GPA: null, SAT: null, Major: null },
    },
  }),
  buildCollege({
    name: 'University of Michigan-Ann Arbor',
    demographics: { schoolCity: 'Ann Arbor', schoolState: 'MI', schoolSize: 33000, admissionRate: 0.18 },
    info: {
      deadlines: [
        { type: 'Early Action', date: '2026-11-01' },
        { type: 'Regular Decision', date: '2027-02-01' },
      ],
    },
  }),
];

const LONG_NOTE = Array.from(
  { length: 12 },
  (_, i) =>
    `Paragraph ${i + 1}: draft ideas for the Colby essay, people to ask for a recommendation, and questions for the admissions office.`,
).join('\n');

async function seed(gw: TestGateway): Promise<{ student: TestUser; admin: TestUser }> {
  await seedColleges(gw.db, COLLEGES);
  const [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Ada Student' }),
    createVerifiedUser({ name: 'Ann Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'screenshots');
  const post = (p: string, body: unknown) => gw.api('POST', `/api${p}`, { token: student.idToken, body });
  for (const collegeName of [
    'Colby College',
    'Bowdoin College',
    'University of Michigan-Ann Arbor',
    'Stanford University',
    'University of Massachusetts-Amherst',
  ])
    await post('/add-user-college', { collegeName });
  await post('/update-student-profile', { homeState: 'ME', incomeBand: '0-30000' });
  for (const itemIndex of [0, 1, 2])
    await post('/update-checklist', {
      collegeName: 'Colby College',
      section: 'application',
      itemIndex,
      completed: true,
    });
  // The season: two admissions with aid offers (one letter leaves out the cost and counts loans as aid),
  // a waitlist and an application in flight, for the overview and the side-by-side.
  await post('/update-application', { collegeName: 'Colby College', plan: 'ED', status: 'submitted' });
  for (const collegeName of ['Bowdoin College', 'University of Michigan-Ann Arbor'])
    await post('/update-application', { collegeName, plan: 'RD', status: 'admitted-with-aid' });
  await post('/update-application', {
    collegeName: 'Stanford University',
    plan: 'REA',
    status: 'waitlisted',
  });
  await post('/save-aid-offer', {
    collegeName: 'Bowdoin College',
    offer: {
      costOfAttendance: 86000,
      grants: [{ name: 'Bowdoin Grant', amount: 71000 }],
      workStudy: 2500,
      loans: [{ kind: 'federal-subsidized', amount: 3500 }],
      totalAidStated: null,
    },
  });
  await post('/save-aid-offer', {
    collegeName: 'University of Michigan-Ann Arbor',
    offer: {
      costOfAttendance: null,
      grants: [{ name: 'Go Blue Guarantee', amount: 18000 }],
      workStudy: 0,
      loans: [{ kind: 'parent-plus', amount: 20000 }],
      totalAidStated: 38000,
    },
  });
  await post('/add-note', { note: { title: 'Essay plan', content: LONG_NOTE, deadline: '2026-11-10' } });
  await post('/add-note', {
    note: { title: 'Visit', content: 'Book a campus tour in October.', deadline: '2026-11-15' },
  });
  return { student, admin };
}

/** Waits until the session is decided, the first heading shows and the network is quiet. */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('html[data-session="signed-in"], html[data-session="signed-out"]', {
    state: 'attached',
  });
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
}

type Step = (page: Page) => Promise<void>;
interface Shot {
  name: string;
  path: string;
  /** What to do on the page before the picture (full page; a step may take its own viewport picture). */
  then?: Step;
  /** Viewport widths this one is for (default: both). */
  only?: number;
}

const menuOpen: Shot = {
  name: 'menu-open',
  path: '/about',
  only: 390,
  then: async (p) => p.getByRole('button', { name: 'Open menu' }).click(),
};

const SIGNED_OUT: Shot[] = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'login-deep-link', path: '/profile' },
  { name: 'about', path: '/about' },
  { name: 'not-found', path: '/no-such-page' },
  menuOpen,
];

const STUDENT: Shot[] = [
  { name: 'your-colleges', path: '/usercolleges' },
  {
    name: 'season-sorted',
    path: '/usercolleges',
    // The overview's own "Sort by" (the sidebar carries one too when a college is open).
    then: async (p) => {
      await p.locator('#season-list-sort').selectOption('deadline');
    },
  },
  {
    name: 'season-application-editor',
    path: '/usercolleges',
    then: async (p) => {
      await p.getByRole('button', { name: 'Update application to Colby College' }).click();
      await p.getByRole('form', { name: 'Application to Colby College' }).waitFor();
    },
  },
  {
    name: 'season-aid-offer',
    path: '/usercolleges',
    then: async (p) => {
      await p.getByRole('button', { name: 'Edit aid offer from Bowdoin College' }).click();
      await p.getByRole('form', { name: 'Aid offer from Bowdoin College' }).waitFor();
    },
  },
  {
    name: 'season-admissions-compared',
    path: '/usercolleges',
    then: async (p) => {
      await p.getByTestId('admitted-comparison').scrollIntoViewIfNeeded();
      await p.waitForLoadState('networkidle');
    },
  },
  {
    name: 'your-colleges-selected',
    path: '/usercolleges?college=Colby%20College',
    then: async (p) => {
      await p.getByRole('heading', { name: 'Checklist — Colby College' }).waitFor();
      for (const name of ['Show Resources', 'Show Demographics'])
        await p.getByRole('button', { name }).click();
      await p.waitForLoadState('networkidle');
    },
  },
  {
    name: 'your-colleges-collapsed',
    path: '/usercolleges',
    only: 1280,
    then: async (p) => p.getByRole('button', { name: 'Collapse Your Colleges' }).click(),
  },
  {
    name: 'your-colleges-drawer',
    path: '/usercolleges',
    only: 390,
    then: async (p) => p.getByRole('button', { name: 'Open Your Colleges' }).click(),
  },
  { name: 'search', path: '/search' },
  {
    name: 'search-result',
    path: '/search?q=Colby%20College',
    then: async (p) => p.getByRole('article', { name: 'Colby College' }).waitFor(),
  },
  {
    name: 'search-suggestions',
    path: '/search',
    then: async (p) => {
      await p.getByLabel('College name').fill('Colby');
      await p.getByRole('option').first().waitFor();
    },
  },
  {
    name: 'search-result-long-links',
    path: '/search?q=Stanford%20University',
    then: async (p) => p.getByRole('article', { name: 'Stanford University' }).waitFor(),
  },
  {
    name: 'search-result-sparse',
    path: '/search?q=Berea%20College',
    then: async (p) => p.getByRole('article', { name: 'Berea College' }).waitFor(),
  },
  {
    name: 'compare-four',
    path: '/search?mode=compare&c=Colby%20College&c=Bowdoin%20College&c=Stanford%20University&c=Berea%20College',
    then: async (p) => p.getByRole('heading', { name: 'Comparison' }).waitFor(),
  },
  {
    name: 'your-colleges-stanford',
    path: '/usercolleges?college=Stanford%20University',
    then: async (p) => {
      await p.getByRole('heading', { name: 'Checklist — Stanford University' }).waitFor();
      for (const name of ['Show Resources', 'Show Demographics'])
        await p.getByRole('button', { name }).click();
      await p.waitForLoadState('networkidle');
    },
  },
  { name: 'essays', path: '/essays' },
  {
    name: 'about-tabs-faq',
    path: '/about?tab=faq',
  },
  { name: 'profile', path: '/profile' },
  { name: 'home', path: '/' },
  { name: 'about', path: '/about' },
  menuOpen,
  {
    name: 'account-menu',
    path: '/profile',
    then: async (p) => p.getByRole('button', { name: /^Account menu for/ }).click(),
  },
  {
    name: 'note-delete-confirm',
    path: '/profile',
    only: 1280,
    then: async (p) => p.getByRole('button', { name: 'Delete Visit' }).click(),
  },
  {
    name: 'checklist-leave-confirm',
    path: '/usercolleges?college=Colby%20College',
    then: async (p) => {
      await p.getByRole('button', { name: 'Edit Checklist' }).click();
      await p
        .getByRole('textbox', { name: 'Item 1 of Application' })
        .fill('Finish the Colby application early');
      await p.locator('a.brand').click();
      await p.getByRole('dialog', { name: 'Leave without saving?' }).waitFor();
    },
  },
  // Last: it changes the data (the college comes back with Undo right after).
  {
    name: 'undo-remove',
    path: '/usercolleges',
    then: async (p) => {
      const sidebar = p.getByRole('complementary', { name: 'Your Colleges' });
      if (await p.getByRole('button', { name: 'Open Your Colleges' }).isVisible())
        await p.getByRole('button', { name: 'Open Your Colleges' }).click();
      await sidebar.getByRole('button', { name: 'Remove Bowdoin College' }).click();
      await p.getByRole('button', { name: 'Undo removing Bowdoin College' }).waitFor();
      await p.screenshot({ path: path.join(OUT, `student-undo-offered-${p.viewportSize()?.width}.png`) });
      await p.getByRole('button', { name: 'Undo removing Bowdoin College' }).click();
      await p.getByText('is back on your list').waitFor();
    },
  },
];

const ADMIN: Shot[] = [
  {
    name: 'admin',
    path: '/admin',
    then: async (p) => {
      await p.getByText('Welcome, Admin!').waitFor();
      const closed = p.locator('section.admin-section button[aria-expanded="false"]');
      for (let n = await closed.count(); n > 0; n = await closed.count()) await closed.first().click();
      await p.waitForLoadState('networkidle');
    },
  },
];

async function shoot(
  browser: Browser,
  gw: TestGateway,
  who: string,
  shots: Shot[],
  user: TestUser | null,
): Promise<string[]> {
  const written: string[] = [];
  for (const viewport of VIEWPORTS) {
    const { context, page } = await newPage(browser, gw.url, { viewport, reducedMotion: 'reduce' });
    try {
      if (user) await signInInBrowser(page, user, { timeout: 60_000 });
      for (const shot of shots) {
        if (shot.only && shot.only !== viewport.width) continue;
        const file = path.join(OUT, `${who}-${shot.name}-${viewport.width}.png`);
        try {
          await page.goto(shot.path);
          await settled(page);
          await shot.then?.(page);
          // From the top: a scrolled page would draw its sticky header half-way down the picture.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: file, fullPage: true });
          written.push(file);
        } catch (err) {
          console.error(`${who} ${shot.name} at ${viewport.width}: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    } finally {
      await context.close();
    }
  }
  return written;
}

async function main(): Promise<void> {
  if (process.env.SKIP_WEB_BUILD !== '1') {
    const r = spawnSync('flock', ['/tmp/ct-web-build.lock', 'npm', 'run', 'build', '-w', 'web', '--silent'], {
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  fs.mkdirSync(OUT, { recursive: true });
  const emulator = await startAuthEmulator({
    port: Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9199),
  });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  // The embedded app as `npm start` runs it: PGlite in memory and the in-process queue.
  const gw = await startTestGateway({ listen: true, store: 'pglite', queue: 'memory' });
  const browser = await launchBrowser();
  try {
    const { student, admin } = await seed(gw);
    const files = [
      ...(await shoot(browser, gw, 'signed-out', SIGNED_OUT, null)),
      ...(await shoot(browser, gw, 'student', STUDENT, student)),
      ...(await shoot(browser, gw, 'admin', ADMIN, admin)),
    ];
    console.log(`${files.length} screenshots in ${path.relative(process.cwd(), OUT) || OUT}/`);
  } finally {
    await browser.close();
    await gw.close();
    await emulator.stop();
  }
}

await main();
