import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import { COMPARE_METRICS } from '@ct/contracts/constants';
import { countdownText, daysBetween, localToday } from '@ct/contracts/planning';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

let user: TestUser;

const GATHERED = '2026-01-05T15:30:00.000Z';

// Two colleges with known, different figures, so every display rule and comparison has one right answer.
const northfield = buildCollege({
  name: 'Northfield Institute of Technology',
  aliases: ['NIT', 'Northfield Tech'],
  links: ['https://www.northfield.edu/admissions', 'javascript:alert(1)'],
  demographics: {
    schoolCity: 'Northfield',
    schoolState: 'MN',
    schoolSize: 4500,
    schoolGradSize: 7000,
    admissionRate: 0.0412,
    studentFacRatio: 3,
    priceCalcUrl: 'npc.northfield.edu/calculator',
    graduationRate: 0.953,
    demographics: { white: 0.31, black: 0.06, asian: 0.4, hispanic: 0.15, unknown: 0.08, firstGen: 0.17 },
    finance: {
      medianFamilyIncome: null,
      avgFamilyIncome: 150000,
      costAttendance: 82000,
      inStateTuition: 60000,
      outOfStateTuition: 60000,
      medianEarnings: 120000,
      netPrice0to30000: -273,
      studentsGrantsOrLoans: 0.25,
    },
  },
  info: {
    deadlines: [
      { type: 'Early Action', date: '2026-11-01' },
      { type: 'Regular Decision', date: '2027-01-04' },
    ],
    essayPrompts: ['Describe the world you come from.'],
    tips: ['Show what you built, not what you joined.'],
    admissionStatistics: { overallAcceptanceRate: 0.0412, year: '2025' },
    admittedStudentProfile: { GPA: null, SAT: '1540', Major: 'Engineering' },
  },
  sources: {
    demographics: {
      url: 'https://collegescorecard.ed.gov/school/?166683',
      title: 'College Scorecard',
      gatheredAt: GATHERED,
    },
    'info.deadlines': { url: 'https://www.northfield.edu/apply/deadlines', gatheredAt: GATHERED },
  },
});

const southgate = buildCollege({
  name: 'Southgate State University',
  demographics: {
    schoolSize: 31000,
    schoolGradSize: 5200,
    admissionRate: 0.6789,
    studentFacRatio: 21,
    graduationRate: 0.6,
    finance: {
      costAttendance: 28000,
      medianEarnings: 48000,
      netPrice0to30000: 8100,
      studentsGrantsOrLoans: 0.55,
    },
  },
});

const { gw, newPage } = browserSuite({ colleges: [northfield, southgate] });
beforeAll(async () => {
  user = await createVerifiedUser({ name: 'Search Student' });
});

/** A signed-in page on /search, reached through the navigation bar like a student would. */
async function openSearch(
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const { page, context, errors } = await newPage(opts);
  await signInInBrowser(page, user);
  // On a phone the header links sit behind the menu toggle.
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Search', exact: true })
    .click();
  await page.getByRole('heading', { name: 'Search and Compare Colleges' }).waitFor();
  return { page, errors, close: () => context.close() };
}

/** True when the page itself does not scroll sideways (wide tables scroll inside their own box). */
const fitsWidth = (page: Page) =>
  page.evaluate(() => {
    const el = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return el.scrollWidth <= el.clientWidth;
  });

/** The countdown the page shows for a day (the browser and this process share the clock and zone). */
function countdownOf(iso: string): string {
  const today = localToday();
  return daysBetween(today, iso) < 0 ? `Passed · ${countdownText(iso, today)}` : countdownText(iso, today);
}

/** The value cell of a label in a card section (a `<dt>`/`<dd>` row). */
function fact(section: Locator, label: string): Locator {
  return section
    .locator('.fact')
    .filter({ has: section.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

describe('search screen in Chromium', () => {
  it('finds a cached college by any capitalisation and shows every section, with No Info Found and sources', async () => {
    const { page, errors, close } = await openSearch();
    expect(await page.title()).toContain('Search and Compare Colleges');
    await expect
      .poll(() => page.getByText('Autocomplete lists only colleges already cached').isVisible())
      .toBe(true);

    // The examples of official names start collapsed and open on request.
    const examples = page.getByText('Examples of correct full official names');
    expect(await page.getByText('Massachusetts Institute of Technology', { exact: true }).isVisible()).toBe(
      false,
    );
    await examples.click();
    expect(await page.getByText('Massachusetts Institute of Technology', { exact: true }).isVisible()).toBe(
      true,
    );

    await page.getByLabel('College name').fill('northfield INSTITUTE of technology');
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    const card = page.getByRole('article', { name: 'Northfield Institute of Technology' });
    await card.waitFor();

    for (const title of [
      'Aliases',
      'Helpful Links',
      'Price Calculator',
      'Deadlines',
      'Essay Prompts',
      'Requirements',
      'Tips',
      'Admission Statistics',
      'Admitted Student Profile',
      'Demographics',
      'Demographic Breakdown',
      'Financial Breakdown',
    ]) {
      expect(await card.getByRole('heading', { name: title, exact: true }).count(), title).toBe(1);
    }
    const section = (name: string) => card.getByRole('region', { name, exact: true });

    expect(await section('Aliases').innerText()).toContain('Northfield Tech');
    // Gathered links are shown only when safe to follow; a bare host gets https.
    const links = section('Helpful Links');
    expect(await links.getByRole('link').count()).toBe(1);
    expect(await links.getByRole('link').getAttribute('href')).toBe('https://www.northfield.edu/admissions');
    expect(
      await section('Price Calculator')
        .getByRole('link', { name: 'Net price calculator' })
        .getAttribute('href'),
    ).toBe('https://npc.northfield.edu/calculator');

    const deadlines = section('Deadlines');
    // Each date with how far it is from today; a past one is marked.
    expect(await fact(deadlines, 'Early Action').innerText()).toBe(
      `November 1, 2026 ${countdownOf('2026-11-01')}`,
    );
    expect(await fact(deadlines, 'Regular Decision').innerText()).toBe(
      `January 4, 2027 ${countdownOf('2027-01-04')}`,
    );
    // Next to the gathered deadlines: where they came from and when.
    const deadlineSource = deadlines.getByRole('link', { name: 'northfield.edu/apply/deadlines' });
    expect(await deadlineSource.getAttribute('href')).toBe('https://www.northfield.edu/apply/deadlines');
    expect(await deadlines.innerText()).toContain('gathered Jan 5, 2026');

    expect(await section('Essay Prompts').innerText()).toContain('Describe the world you come from.');
    expect(await fact(section('Requirements'), 'Transcripts').innerText()).toBe('Required');
    expect(await fact(section('Requirements'), 'SAT/ACT').innerText()).toBe('Optional');
    expect(await fact(section('Requirements'), 'Teacher Recommendations').innerText()).toBe('2 required');
    expect(await section('Tips').innerText()).toContain('Show what you built, not what you joined.');
    // The official rate leads; the college's page gives the same figure, for its own cycle (issue 34).
    expect(await fact(section('Admission Statistics'), 'Acceptance Rate').innerText()).toMatch(
      /^4\.12%\nOfficial figure: College Scorecard, year not stated; the college’s own page gives the same \(2025\)/,
    );
    expect(await fact(section('Admission Statistics'), 'Year').innerText()).toBe('No Info Found');
    expect(await fact(section('Admitted Student Profile'), 'GPA').innerText()).toBe('No Info Found');
    expect(await fact(section('Admitted Student Profile'), 'SAT').innerText()).toBe('1540');

    const demo = section('Demographics');
    expect(await demo.getByRole('link', { name: 'College Scorecard' }).getAttribute('href')).toBe(
      'https://collegescorecard.ed.gov/school/?166683',
    );
    expect(await fact(demo, 'City').innerText()).toBe('Northfield');
    expect(await fact(demo, 'State').innerText()).toBe('MN');
    expect(await fact(demo, 'Undergraduate Size').innerText()).toBe('4,500');
    expect(await fact(demo, 'Graduate Size').innerText()).toBe('7,000');
    expect(await fact(demo, 'Admission Rate').innerText()).toBe('4.12%');
    expect(await fact(demo, 'Student-Faculty Ratio').innerText()).toBe('3:1');
    expect(await fact(demo, 'Graduation Rate').innerText()).toBe('95.3%');

    const breakdown = section('Demographic Breakdown');
    expect(await fact(breakdown, 'White').innerText()).toBe('31%');
    expect(await fact(breakdown, 'Asian').innerText()).toBe('40%');
    expect(await fact(breakdown, 'Others').innerText()).toBe('8%');
    expect(await fact(breakdown, 'First-Generation').innerText()).toBe('17%');

    const finance = section('Financial Breakdown');
    expect(await fact(finance, 'Median Family Income').innerText()).toBe('No Info Found');
    expect(await fact(finance, 'Average Family Income').innerText()).toBe('$150,000');
    expect(await fact(finance, 'Cost of Attendance').innerText()).toBe('$82,000');
    expect(await fact(finance, 'Students With Grants or Loans').innerText()).toBe('25%');
    expect(await fact(finance, 'Median Earnings \\(10 years after entry\\)').innerText()).toBe('$120,000');
    // Grants above the cost: said in words, never "-$273".
    expect(await fact(finance, 'Net Price \\(income \\$0-\\$30,000\\)').innerText()).toBe(
      '$0: grants exceed the cost by $273',
    );
    expect(await fact(finance, 'Net Price \\(income \\$110,001\\+\\)').innerText()).toBe('$24,000');
    // Finance falls under the Scorecard source of "demographics".
    expect(await finance.getByRole('link', { name: 'College Scorecard' }).count()).toBe(1);

    expect(await card.getByRole('button', { name: 'Add to Profile' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('compares two colleges: the best value highlighted only where a student is clearly better off', async () => {
    const { page, errors, close } = await openSearch();
    await page.getByRole('tab', { name: 'Compare Colleges' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByLabel('College 1').fill('Northfield Institute of Technology');
    await panel.getByLabel('College 2').fill('southgate state university');
    await panel.getByRole('button', { name: 'Compare' }).click();
    const table = panel.getByRole('table');
    await table.waitFor();

    const row = (label: string) =>
      table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${label}`) }) });
    const cells = async (label: string) => {
      const tds = row(label).getByRole('cell');
      expect(await tds.count()).toBe(2);
      return [tds.nth(0), tds.nth(1)] as const;
    };
    // The root tsconfig has no DOM types; this runs in the page, where getComputedStyle exists.
    type Win = { getComputedStyle(el: unknown): { color: string } };
    const colour = (l: Locator) =>
      l.evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el).color);
    /** The value and the verdict said in words (never by colour alone). */
    const shown = async (cell: Locator) => ({
      value: await cell.locator('.metric-value').innerText(),
      verdict: (await cell.locator('.verdict-tag').count())
        ? (await cell.locator('.verdict-tag').innerText()).replace(/^\W+/, '')
        : null,
    });
    const GREEN = 'rgb(23, 107, 50)';
    const TEXT = 'rgb(27, 31, 36)';
    const none = async (cell: Locator) => [await cell.getAttribute('data-verdict'), await colour(cell)];

    // Admission rate and size are facts to weigh, not scores: shown (two decimals), never marked, and a
    // smaller or less selective school is never "worse".
    const [nAdm, sAdm] = await cells('Admission Rate');
    expect(await shown(nAdm)).toEqual({ value: '4.12%', verdict: null });
    expect(await shown(sAdm)).toEqual({ value: '67.89%', verdict: null });
    const [nSize, sSize] = await cells('Undergrad Size');
    expect(await shown(nSize)).toEqual({ value: '4,500', verdict: null });
    expect(await shown(sSize)).toEqual({ value: '31,000', verdict: null });
    for (const cell of [nAdm, sAdm, nSize, sSize]) expect(await none(cell)).toEqual(['none', TEXT]);
    expect(await table.getByText('Worse').count()).toBe(0);

    // Lower cost is best; higher earnings are best; a lower ratio is best. The other value is plain.
    const [nCost, sCost] = await cells('Cost of Attendance');
    expect([await colour(nCost), await colour(sCost)]).toEqual([TEXT, GREEN]);
    expect(await shown(sCost)).toEqual({ value: '$28,000', verdict: 'Best' });
    // Median earnings lead with the other money figures, under the card's label.
    const [nEarn, sEarn] = await cells('Median earnings');
    expect([await colour(nEarn), await colour(sEarn)]).toEqual([GREEN, TEXT]);
    const [nRatio, sRatio] = await cells('Student-Faculty Ratio');
    expect(await shown(nRatio)).toEqual({ value: '3:1', verdict: 'Best' });
    expect(await shown(sRatio)).toEqual({ value: '21:1', verdict: null });
    const [nGrad, sGrad] = await cells('Graduation Rate');
    expect(await shown(nGrad)).toEqual({ value: '95.30%', verdict: 'Best' });
    expect(await shown(sGrad)).toEqual({ value: '60.00%', verdict: null });
    // Grants above the cost read as words, never as a negative price.
    // The band in money, as the college card says it (issue 34).
    const [nNet, sNet] = await cells('Net Price \\(income \\$0-\\$30,000\\)');
    expect(await shown(nNet)).toEqual({ value: '$0: grants exceed the cost by $273', verdict: 'Best' });
    expect(await shown(sNet)).toEqual({ value: '$8,100', verdict: null });

    // A missing value gets no colour and no verdict.
    const [nMed, sMed] = await cells('Median Family Income');
    expect(await shown(nMed)).toEqual({ value: 'No Info Found', verdict: null });
    expect(await shown(sMed)).toEqual({ value: '$65,000', verdict: null });
    expect(await sMed.getAttribute('data-verdict')).toBe('none');

    // Rows neither college has a value for fold into one line that names them.
    const folded = panel.getByTestId('compare-empty');
    expect(await folded.innerText()).toBe(
      'No Info Found at any of these colleges for Average net price, Median debt.',
    );
    expect(await row('Median debt').count()).toBe(0);

    // Every metric of the spec with a value is there: the student's fit and cost of applying first, then
    // the money rows (both tuitions, earnings; net price and debt are folded above), then the other metrics.
    const heads = await table.locator('tbody th').allInnerTexts();
    expect(heads.slice(0, 4).map((h) => h.split('\n')[0]!.replace(/ \(.*$/, ''))).toEqual([
      'Fit for you and cost of applying',
      'In-state tuition',
      'Out-of-state tuition',
      'Median earnings',
    ]);
    // The net-price bands in money, as on the card: "Net Price 0-30000" reads "Net Price (income $0-$30,000)".
    const asShown = (l: string) =>
      l.replace(
        /^Net Price (.+)$/,
        (_, band: string) =>
          `Net Price (income ${band.replace(/\d+/g, (n) => `$${Number(n).toLocaleString('en-US')}`)})`,
      );
    for (const label of COMPARE_METRICS.map((m) => asShown(m.label)).filter(
      (l) => !['In-State Tuition', 'Out-of-State Tuition', 'Median Earnings'].includes(l),
    ))
      expect(
        heads.some((h) => h.startsWith(label)),
        label,
      ).toBe(true);
    expect(heads).toHaveLength(19); // the fit row, then the 18 metric rows

    // Then the two detail cards.
    expect(await panel.getByRole('article', { name: 'Northfield Institute of Technology' }).isVisible()).toBe(
      true,
    );
    expect(await panel.getByRole('article', { name: 'Southgate State University' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('says "No data for College 2" when the second college is not cached', async () => {
    const { page, close } = await openSearch();
    await page.getByRole('tab', { name: 'Compare Colleges' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByLabel('College 1').fill('Southgate State University');
    await panel.getByLabel('College 2').fill('Nowhere Valley College');
    await panel.getByLabel('College 2').press('Enter');
    await panel.getByText('No data for College 2', { exact: true }).waitFor();
    expect(await panel.getByText('No data for College 1', { exact: true }).count()).toBe(0);
    expect(await panel.getByRole('article', { name: 'Southgate State University' }).isVisible()).toBe(true);
    await close();
  });

  it('fits a phone screen: the card and the comparison never make the page scroll sideways', async () => {
    const { page, errors, close } = await openSearch({ viewport: { width: 390, height: 800 } });
    await page.getByLabel('College name').fill('NIT');
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    const card = page.getByRole('article', { name: 'Northfield Institute of Technology' });
    await card.waitFor();
    expect(await fitsWidth(page)).toBe(true);

    await page.getByRole('tab', { name: 'Compare Colleges' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    await panel.getByLabel('College 1').fill('Northfield Institute of Technology');
    await panel.getByLabel('College 2').fill('Southgate State University');
    await panel.getByRole('button', { name: 'Compare' }).click();
    // On a phone the comparison is one stacked card per college, not a table.
    const first = panel.getByRole('region', { name: 'Northfield Institute of Technology at a glance' });
    const second = panel.getByRole('region', { name: 'Southgate State University at a glance' });
    await first.waitFor();
    expect(await panel.getByRole('table').isVisible()).toBe(false);
    const [f, g] = [await first.boundingBox(), await second.boundingBox()];
    expect(g!.y).toBeGreaterThanOrEqual(f!.y + f!.height);
    expect(await first.getByText('Admission Rate').isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    // The detail cards stack: the second starts below the first.
    const a = await panel.getByRole('article', { name: 'Northfield Institute of Technology' }).boundingBox();
    const b = await panel.getByRole('article', { name: 'Southgate State University' }).boundingBox();
    expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height);
    // Search kept its result while Compare was shown.
    await page.getByRole('tab', { name: 'Search Colleges' }).click();
    expect(await card.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('suggests cached colleges once 3 characters are typed and a pick fills the input (keyboard too)', async () => {
    const { page, errors, close } = await openSearch();
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/get-college-suggestions') asked.push(u.searchParams.get('query') ?? '');
    });
    const input = page.getByRole('combobox', { name: 'College name' });
    const list = page.getByRole('listbox', { name: 'Suggestions' });

    // Two characters, then a pause longer than the debounce: nothing is asked for, no list.
    await input.pressSequentially('So');
    await page.waitForTimeout(1500);
    expect(asked).toEqual([]);
    expect(await list.isVisible()).toBe(false);

    await input.pressSequentially('u');
    await list.getByRole('option', { name: 'Southgate State University' }).waitFor();
    expect(asked).toEqual(['Sou']);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    // The list is capped at 10rem (160px at the default font size) and scrolls beyond that.
    type Styled = { getComputedStyle(el: unknown): { maxHeight: string } };
    expect(
      await list.evaluate((el) => (globalThis as unknown as Styled).getComputedStyle(el).maxHeight),
    ).toBe('160px');

    // Arrow down highlights the suggestion, Enter picks it and closes the list.
    await input.press('ArrowDown');
    expect(
      await list.getByRole('option', { name: 'Southgate State University' }).getAttribute('aria-selected'),
    ).toBe('true');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('Southgate State University');
    expect(await list.isVisible()).toBe(false);
    expect(await input.getAttribute('aria-expanded')).toBe('false');

    // Back to fewer than 3 characters: the list is emptied at once.
    await input.fill('Nor');
    await list.getByRole('option', { name: 'Northfield Institute of Technology' }).waitFor();
    await input.press('Backspace');
    expect(await list.isVisible()).toBe(false);
    expect(await list.getByRole('option').count()).toBe(0);

    // A click on a suggestion fills the input too; then Search shows the college.
    await input.fill('Northf');
    await list.getByRole('option', { name: 'Northfield Institute of Technology' }).click();
    expect(await input.inputValue()).toBe('Northfield Institute of Technology');
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    await page.getByRole('article', { name: 'Northfield Institute of Technology' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('adds the college to the profile with a banner that goes away, then says it is in the list', async () => {
    const { page, errors, close } = await openSearch();
    await page.getByLabel('College name').fill('Southgate State University');
    await page.getByRole('button', { name: 'Search/Add College' }).click();
    const card = page.getByRole('article', { name: 'Southgate State University' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Add to Profile' }).click();
    const banner = card.getByText('College successfully added to your profile!', { exact: true });
    await banner.waitFor();
    await banner.waitFor({ state: 'detached' });

    // The student's list now has it (what the dashboard reads).
    const mine = await gw.api<{ colleges: Array<{ collegeName: string }> }>('GET', '/api/get-user-colleges', {
      token: user.idToken,
    });
    expect(mine.body.colleges.map((c) => c.collegeName)).toContain('Southgate State University');

    // On the list, the card says so, with a link to it, instead of offering to add it again (issue 34).
    await card.getByText('In your list').waitFor();
    expect(await card.getByRole('button', { name: 'Add to Profile' }).count()).toBe(0);
    await card.getByRole('link', { name: 'see it on your dashboard' }).click();
    await page.getByRole('heading', { name: 'Checklist — Southgate State University' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
