// The finished look, as a student meets it at 1280x800 and 390x844: no page wider than the screen (long
// addresses included), calendar markers that fit their day with whole words, About tabs in one row that
// follow the arrow keys, the product's own typeface served by the app, calm cards ("No Info Found" said
// quietly, empty sections folded, grants above the cost said in words), Compare that highlights only the
// best value where it is clear, and charts where a student would rather look than read.
import { RoleRepository } from '@ct/auth/repositories/roles';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });

let student: TestUser;
let admin: TestUser;

const STANFORD = 'Stanford University';
const UMASS = 'University of Massachusetts-Amherst';
const BEREA = 'Berea College';
const NOWHERE = 'Nowhere State College';
/** Stanford's real price calculator address (College Scorecard NPCURL): 1,369 px wide as plain text. */
const STANFORD_NPC = 'financialaid.stanford.edu/undergrad/how/calculator/index.html?tab=net-price-calculator';

// Deadlines in the month the calendar opens on (the browser and this process share the clock and zone).
const now = new Date();
const ym = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: STANFORD,
      links: [
        'https://admission.stanford.edu/apply/first-year/index.html?utm_source=a-very-long-campaign-name',
      ],
      demographics: { schoolState: 'CA', priceCalcUrl: STANFORD_NPC },
      info: { deadlines: [{ type: 'Restrictive Early Action', date: `${ym}-03` }] },
    }),
    buildCollege({
      name: UMASS,
      demographics: { schoolState: 'MA' },
      info: { deadlines: [{ type: 'Early Action', date: `${ym}-06` }] },
    }),
    // Grants above the cost for the lowest incomes, and nothing gathered for most sections.
    buildCollege({
      name: BEREA,
      aliases: [],
      links: [],
      demographics: {
        schoolState: 'KY',
        schoolSize: 1500,
        priceCalcUrl: null,
        finance: { netPrice0to30000: -4196, netPrice30001to48000: -1200 },
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
    // A college whose state is unknown and whose tuition is missing.
    buildCollege({
      name: NOWHERE,
      demographics: {
        schoolState: null,
        finance: { inStateTuition: null, outOfStateTuition: null, medianDebt: null },
      },
    }),
  ],
});
beforeAll(async () => {
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Lou Student' }),
    createVerifiedUser({ name: 'Ann Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'look-test');
  const post = (path: string, body: unknown) =>
    gw.api('POST', `/api${path}`, { token: student.idToken, body });
  for (const collegeName of [STANFORD, UMASS, BEREA]) await post('/add-user-college', { collegeName });
  await post('/update-checklist', {
    collegeName: STANFORD,
    section: 'application',
    itemIndex: 0,
    completed: true,
  });
  await post('/update-student-profile', { homeState: 'ME', incomeBand: '0-30000' });
  await post('/add-note', {
    note: {
      title: 'Scholarship interview preparation',
      content: `Prepare: https://www.example.org/${'very-long-path-segment/'.repeat(6)}questions`,
      deadline: `${ym}-12`,
    },
  });
});

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** How many pixels the page is wider than the window (0: nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Waits until the session is decided, the first heading shows and the network is quiet. */
async function settled(page: Page): Promise<void> {
  await page.waitForSelector('html[data-session="signed-in"], html[data-session="signed-out"]', {
    state: 'attached',
  });
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
}

async function session(viewport: (typeof VIEWPORTS)[number], user: TestUser | null) {
  const s = await newPage({ viewport, reducedMotion: 'reduce' });
  if (user) await signInInBrowser(s.page, user, { timeout: 60_000 });
  return s;
}

describe.each(VIEWPORTS)('no page wider than the screen at $width x $height', (viewport) => {
  let context: BrowserContext;
  let page: Page;
  afterAll(() => context?.close());

  it('signed out: home, login, every About tab, a missing page', async () => {
    ({ context, page } = await session(viewport, null));
    const wide: string[] = [];
    for (const path of [
      '/',
      '/login',
      '/about',
      '/about?tab=features',
      '/about?tab=how',
      '/about?tab=faq',
      '/about?tab=contact',
      '/about?tab=donate',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await settled(page);
      const px = await overflow(page);
      if (px > 0) wide.push(`${path}: ${px} px`);
    }
    expect(wide).toEqual([]);
    await context.close();
  });

  it('a student: every page, the long-address card, Compare, the checklist in edit mode', async () => {
    ({ context, page } = await session(viewport, student));
    const wide: string[] = [];
    const check = async (what: string) => {
      const px = await overflow(page);
      if (px > 0) wide.push(`${what}: ${px} px`);
    };
    const compare = new URLSearchParams([
      ['mode', 'compare'],
      ['c', STANFORD],
      ['c', UMASS],
      ['c', BEREA],
      ['c', NOWHERE],
    ]);
    for (const [path, ready] of [
      ['/usercolleges', null],
      ['/search', null],
      [
        `/search?q=${encodeURIComponent(STANFORD)}`,
        () => page.getByRole('article', { name: STANFORD }).waitFor(),
      ],
      [`/search?q=${encodeURIComponent(BEREA)}`, () => page.getByRole('article', { name: BEREA }).waitFor()],
      [`/search?${compare}`, () => page.getByRole('heading', { name: 'Comparison' }).waitFor()],
      ['/essays', null],
      ['/profile', null],
      ['/', null],
    ] as const) {
      await page.goto(path);
      await settled(page);
      await ready?.();
      await check(path);
    }
    // The dashboard with every panel open, then the checklist in edit mode (its long item included).
    await page.goto(`/usercolleges?college=${encodeURIComponent(STANFORD)}`);
    await page.getByRole('heading', { name: `Checklist — ${STANFORD}` }).waitFor();
    for (const name of ['Show Resources', 'Show Demographics'])
      await page.getByRole('button', { name }).click();
    await page.waitForLoadState('networkidle');
    await check('dashboard, panels open');
    const item = page.getByRole('link', { name: /^Calculator at stanford\.edu/ });
    expect(await item.count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Edit Checklist' }).click();
    await check('checklist in edit mode');
    expect(wide).toEqual([]);
    await context.close();
  });

  it('an admin: the dashboard with every section open', async () => {
    ({ context, page } = await session(viewport, admin));
    await page.goto('/admin');
    await page.getByText('Welcome, Admin!').waitFor();
    const closed = page.locator('section.admin-section button[aria-expanded="false"]');
    for (let n = await closed.count(); n > 0; n = await closed.count()) await closed.first().click();
    await page.waitForLoadState('networkidle');
    expect(await overflow(page)).toBe(0);
    await context.close();
  });
});

describe.each(VIEWPORTS)('links read as words at $width x $height', (viewport) => {
  it('the price calculator and helpful links, never the address', async () => {
    const { page, context } = await session(viewport, student);
    await page.goto(`/search?q=${encodeURIComponent(STANFORD)}`);
    const card = page.getByRole('article', { name: STANFORD });
    await card.waitFor();
    const calc = card.getByRole('region', { name: 'Price Calculator' }).getByRole('link');
    // The words, an arrow, and "(opens in a new tab)" for screen readers.
    expect(await calc.innerText()).toMatch(/^Net price calculator ↗\s*\(opens in a new tab\)$/);
    expect(await calc.getAttribute('href')).toBe(`https://${STANFORD_NPC}`);
    expect(await card.innerText()).not.toContain('financialaid.stanford.edu');
    const link = card.getByRole('region', { name: 'Helpful Links' }).getByRole('link');
    expect(await link.innerText()).toMatch(/^First year at stanford\.edu ↗/);
    await context.close();
  });
});

describe.each(VIEWPORTS)('the calendar at $width x $height', (viewport) => {
  it('marks each day with a label that fits whole, and lists what is coming up readably', async () => {
    const { page, context } = await session(viewport, student);
    await page.goto('/profile');
    const calendar = page.getByRole('region', { name: 'Deadlines Calendar' });
    const markers = calendar.locator('.cal-marker');
    await expect.poll(() => markers.count()).toBeGreaterThanOrEqual(3);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    const shown = await markers.evaluateAll((els) =>
      els.map((el) => ({
        title: el.getAttribute('title') ?? '',
        text: (el.querySelector('[aria-hidden="true"]') ?? el).textContent ?? '',
        overflowX: el.scrollWidth - el.clientWidth,
        overflowY: el.scrollHeight - el.clientHeight,
      })),
    );
    for (const m of shown) {
      // Nothing cut off, at most two lines: the label was chosen to fit.
      expect(m.overflowX, `${m.title}: "${m.text}"`).toBeLessThanOrEqual(1);
      expect(m.overflowY, `${m.title}: "${m.text}"`).toBeLessThanOrEqual(1);
    }
    const umass = shown.find((m) => m.title === UMASS)!;
    expect(umass, JSON.stringify(shown)).toBeDefined();
    // Whole words of the name, or the short name students use: never "Massach usetts".
    for (const word of umass.text.split(' '))
      expect(UMASS.split(/[\s-]/).includes(word) || ['UMass', 'UM'].includes(word), umass.text).toBe(true);
    const note = shown.find((m) => m.title === 'Scholarship interview preparation')!;
    for (const word of note.text.split(' '))
      expect(['Scholarship', 'interview', 'preparation', '•'].includes(word), note.text).toBe(true);

    // Coming up: on a phone each link sits under its deadline instead of squeezing it.
    const first = calendar.locator('.coming-up li').first();
    await first.waitFor();
    const [text, link] = await Promise.all([
      first.locator('div').first().boundingBox(),
      first.getByRole('link', { name: /^Add to Google Calendar/ }).boundingBox(),
    ]);
    if (viewport.width < 600) expect(link!.y).toBeGreaterThanOrEqual(text!.y + text!.height - 1);
    else expect(link!.x).toBeGreaterThan(text!.x);
    expect(await overflow(page)).toBe(0);
    await context.close();
  });
});

describe('About tabs on a phone', () => {
  it('wrap so every tab shows whole, follow the arrow keys, and keep the chosen tab in view', async () => {
    const { page, context } = await session({ width: 390, height: 844 }, null);
    await page.goto('/about');
    const tabs = page.getByRole('tab');
    await tabs.first().waitFor();
    // A strip that scrolled sideways cut "Contact" to "Co..." with no sign of more (issue 34): it wraps.
    const boxes = await tabs.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top), inView: r.left >= 0 && r.right <= innerWidth };
      }),
    );
    expect(boxes.every((b) => b.inView)).toBe(true);
    expect(new Set(boxes.map((b) => b.top)).size).toBeGreaterThan(1);
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Features' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Features');
    await page.keyboard.press('End');
    const donate = page.getByRole('tab', { name: 'Donate' });
    await expect.poll(() => donate.getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(async () => {
        const b = (await donate.boundingBox())!;
        return b.x >= 0 && b.x + b.width <= 390;
      })
      .toBe(true);
    await page.keyboard.press('Home');
    await expect
      .poll(() => page.getByRole('tab', { name: 'About Us' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await overflow(page)).toBe(0);
    await context.close();
  });
});

describe('the typeface', () => {
  it('is the product own, served by the app itself, with no third-party font host', async () => {
    const { page, context } = await session({ width: 1280, height: 800 }, null);
    const fonts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'font') fonts.push(r.url());
    });
    await page.goto('/');
    await settled(page);
    await page.evaluate(() => document.fonts.ready);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
    );
    expect(loaded).toContain('Figtree');
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"?Figtree/);
    expect(fonts.length).toBeGreaterThan(0);
    for (const url of fonts) expect(url.startsWith(`${gw.url}/assets/`), url).toBe(true);
    // Its licence notice is served with it.
    const licence = await fetch(`${gw.url}/licenses/figtree-OFL.txt`);
    expect(await licence.text()).toContain('SIL OPEN FONT LICENSE Version 1.1');
    await context.close();
  });
});

describe.each(VIEWPORTS)('calm, honest cards at $width x $height', (viewport) => {
  it('says "No Info Found" quietly, folds empty sections, and says grants above the cost in words', async () => {
    const { page, context } = await session(viewport, student);
    await page.goto(`/search?q=${encodeURIComponent(BEREA)}`);
    const card = page.getByRole('article', { name: BEREA });
    await card.waitFor();
    await page.waitForLoadState('networkidle');

    // Every "No Info Found": small and regular, never the size or weight of a figure.
    const styles = await card.locator('.no-info').evaluateAll((els) =>
      els.map((el) => {
        const s = getComputedStyle(el);
        return { size: parseFloat(s.fontSize), weight: Number(s.fontWeight), text: el.textContent };
      }),
    );
    expect(styles.length).toBeGreaterThan(3);
    for (const s of styles) {
      expect(s.text).toBe('No Info Found');
      expect(s.size).toBeLessThanOrEqual(14.5);
      expect(s.weight).toBeLessThanOrEqual(400);
    }
    // Sections with nothing to show are one line: the title and "No Info Found".
    for (const name of [
      'Aliases',
      'Helpful Links',
      'Price Calculator',
      'Deadlines',
      'Tips',
      'Requirements',
    ]) {
      const section = card.getByRole('region', { name, exact: true });
      expect(await section.getAttribute('data-folded'), name).toBe('true');
      expect((await section.innerText()).replace(/\s+/g, ' '), name).toBe(`${name} No Info Found`);
      expect((await section.boundingBox())!.height, name).toBeLessThan(60);
    }
    // Grants above the cost, for this student's income band: "$0: grants exceed the cost by $4,196".
    const money = card.getByTestId('money-summary');
    const net = money.locator('[data-key="netPrice"] dd');
    expect(await net.innerText()).toContain('$0: grants exceed the cost by $4,196');
    // No negative amount anywhere ("-$4,196"); a band's range ("$0-$30,000") is not one.
    expect(await card.innerText()).not.toMatch(/(^|[^\d])-\$\d/m);

    // A tuition whose state is unknown and whose figures are missing: one quiet "No Info Found".
    await page.goto(`/search?q=${encodeURIComponent(NOWHERE)}`);
    const other = page.getByRole('article', { name: NOWHERE });
    await other.waitFor();
    const tuition = other.getByTestId('money-summary').locator('[data-key="tuition"] dd');
    // The costs show once the student's money profile is in ("Loading your costs..." until then).
    await tuition.waitFor();
    expect(await tuition.locator('.no-info').count()).toBe(1);
    expect(await tuition.locator('.money-value').count()).toBe(0);
    await context.close();
  });

  it('draws net price by income (the student band highlighted) and the demographic breakdown', async () => {
    const { page, context } = await session(viewport, student);
    await page.goto(`/search?q=${encodeURIComponent(STANFORD)}`);
    const card = page.getByRole('article', { name: STANFORD });
    await card.waitFor();
    const net = card.getByRole('list', { name: 'Net price by family income' });
    await net.waitFor();
    const rows = net.getByRole('listitem');
    expect(await rows.count()).toBe(5);
    const mine = net.locator('.bar-row.highlight');
    expect(await mine.count()).toBe(1);
    expect(await mine.innerText()).toMatch(/\$0–\$30,000\s*You\s*\$9,000/);
    const breakdown = card.getByRole('list', { name: 'Undergraduates by group' });
    expect(await breakdown.innerText()).toMatch(/Asian\s+15%/);
    await context.close();
  });

  it('shows checklist progress across the list in the sidebar, moving with a tick', async () => {
    const { page, context } = await session(viewport, student);
    await page.goto(`/usercolleges?college=${encodeURIComponent(UMASS)}`);
    await page.getByRole('heading', { name: `Checklist — ${UMASS}` }).waitFor();
    if (viewport.width < 820) await page.getByRole('button', { name: 'Open Your Colleges' }).click();
    const chart = page.getByRole('list', { name: 'Checklist progress' });
    await chart.waitFor();
    const bar = (name: string) => chart.getByRole('listitem').filter({ hasText: name });
    await expect.poll(() => bar(STANFORD).locator('.bar-value').innerText()).toMatch(/^[1-9]\d?%$/);
    const before = Number((await bar(UMASS).locator('.bar-value').innerText()).replace('%', ''));
    if (viewport.width < 820) await page.getByRole('button', { name: 'Close Your Colleges' }).click();
    await page
      .getByRole('region', { name: `Checklist — ${UMASS}` })
      .getByRole('group', { name: 'Application' })
      .getByRole('checkbox')
      .first()
      .click();
    if (viewport.width < 820) await page.getByRole('button', { name: 'Open Your Colleges' }).click();
    // The first item flips (ticked, or unticked when an earlier run ticked it): the bar follows.
    await expect
      .poll(async () => Number((await bar(UMASS).locator('.bar-value').innerText()).replace('%', '')))
      .not.toBe(before);
    await context.close();
  });
});

describe.each(VIEWPORTS)('Compare at $width x $height', (viewport) => {
  it('highlights only the best where it is clear, never "worse", and folds rows empty for all', async () => {
    const { page, context } = await session(viewport, student);
    const q = new URLSearchParams([
      ['mode', 'compare'],
      ['c', STANFORD],
      ['c', BEREA],
      ['c', NOWHERE],
    ]);
    await page.goto(`/search?${q}`);
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByRole('heading', { name: 'Comparison' }).waitFor();
    expect(await panel.getByText('Worse').count()).toBe(0);
    expect(await panel.locator('[data-verdict="worse"]').count()).toBe(0);
    // Size is a fact to weigh: 12,000 against 1,500 gets no verdict either way; the lowest net price (grants
    // above the cost at Berea) is the one best value of its row.
    const row = (label: string) => panel.locator('tr, .compare-stack-row').filter({ hasText: label });
    expect(await row('Undergrad Size').locator('[data-verdict="best"]').count()).toBe(0);
    const best = row('Your net price').locator('[data-verdict="best"]');
    expect(await best.count()).toBeGreaterThanOrEqual(1);
    expect(await best.first().innerText()).toContain('$0: grants exceed the cost by $4,196');
    const folded = panel.getByTestId('compare-empty');
    expect(await folded.innerText()).toMatch(/^No Info Found at any of these colleges for .*Median debt/);
    expect(await overflow(page)).toBe(0);
    await context.close();
  });
});
