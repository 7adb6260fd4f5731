// Their money: a student sets home state and household income once on /profile, and every college card,
// the dashboard and Compare then lead with their own net price and the tuition that applies to them, with
// median debt and earnings, each with its data year. Compare takes up to four colleges, keeps the set in
// the URL, colours only where the direction is clear, and stacks cards on a phone.
import type { StudentProfile } from '@ct/contracts';
import { browserSuite, buildCollege, createVerifiedUser, signInInBrowser, type TestUser } from '@ct/testkit';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const PINE = 'Pine Ridge College';
const LAKE = 'Lake State University';
const HILL = 'Hill Valley College';
const RIVER = 'River Bend University';

const years = { netPrice: '2021-22', cost: '2022-23', debt: '2020-21', earnings: '2019-20' };
const money = (over: Record<string, number | null>) => ({
  avgNetPrice: 20000,
  netPrice48001to75000: 15000,
  inStateTuition: 40000,
  outOfStateTuition: 40000,
  medianDebt: 19000,
  medianEarnings: 60000,
  ...over,
});

const { gw, newPage } = browserSuite({
  colleges: [
    buildCollege({
      name: PINE,
      demographics: {
        schoolState: 'ME',
        graduationRate: 0.8,
        dataYears: years,
        finance: money({
          avgNetPrice: 21000,
          netPrice48001to75000: 14500,
          inStateTuition: 41000,
          outOfStateTuition: 41000,
          medianDebt: 19000,
          medianEarnings: 61000,
        }),
      },
    }),
    buildCollege({
      name: LAKE,
      demographics: {
        schoolState: 'TX',
        graduationRate: 0.8,
        dataYears: years,
        finance: money({
          avgNetPrice: 12000,
          netPrice48001to75000: 9800,
          inStateTuition: 9000,
          outOfStateTuition: 27000,
          medianDebt: 17000,
          medianEarnings: 52000,
        }),
      },
    }),
    buildCollege({
      name: HILL,
      // Years only in the sources, as the shipped Scorecard snapshot writes them.
      sources: {
        'demographics.finance': {
          url: 'https://collegescorecard.ed.gov/school/?1',
          title: 'College Scorecard, U.S. Department of Education, 2021-22',
          gatheredAt: '2025-01-16T00:00:00.000Z',
        },
        'demographics.finance.medianEarnings': {
          url: 'https://collegescorecard.ed.gov/school/?1',
          title: 'College Scorecard, U.S. Department of Education, 2020-21',
          gatheredAt: '2025-01-16T00:00:00.000Z',
        },
      },
      demographics: {
        schoolState: 'ME',
        graduationRate: 0.8,
        finance: money({
          netPrice48001to75000: 14500,
          inStateTuition: 11000,
          outOfStateTuition: 30000,
          medianDebt: 25000,
        }),
      },
    }),
    buildCollege({
      name: RIVER,
      demographics: {
        schoolState: null,
        graduationRate: 0.8,
        finance: money({ netPrice48001to75000: 12000, medianDebt: 12000 }),
      },
    }),
  ],
});

/** The label and value text of each money figure in a "Cost for you" block. */
async function figures(block: Locator): Promise<Array<[string, string]>> {
  const rows = block.locator('.money-fact');
  const out: Array<[string, string]> = [];
  for (let i = 0; i < (await rows.count()); i++)
    out.push([
      (await rows.nth(i).locator('dt').innerText()).trim(),
      (await rows.nth(i).locator('dd').innerText()).replace(/\s+/g, ' ').trim(),
    ]);
  return out;
}

async function searchFor(page: Page, name: string): Promise<Locator> {
  await page.getByLabel('College name').fill(name);
  await page.getByRole('button', { name: 'Search/Add College' }).click();
  const card = page.getByRole('article', { name });
  await card.waitFor();
  return card;
}

const profileOf = async (user: TestUser) =>
  (await gw.api<{ data: StudentProfile }>('GET', '/api/get-student-profile', { token: user.idToken })).body
    .data;

describe('their money in Chromium', () => {
  it('leads the card with the average net price and an invitation, then with their own figures once set', async () => {
    const user = await createVerifiedUser({ name: 'Mona' });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/search');

    let card = await searchFor(page, PINE);
    const cost = card.getByRole('region', { name: 'Cost for you' });
    await cost.locator('.money-fact').first().waitFor();
    expect(await figures(cost)).toEqual([
      ['Average net price (all aided students)', '$21,000 2021-22 data'],
      ['In-state tuition', '$41,000 2022-23 data'],
      ['Out-of-state tuition', '$41,000 2022-23 data'],
      ['Median debt (of graduates who borrowed)', '$19,000 2020-21 data'],
      ['Median earnings (10 years after entry)', '$61,000 2019-20 data'],
    ]);
    // The card leads with it: the money block comes before every other section.
    const [moneyBox, firstSection] = [
      await cost.boundingBox(),
      await card.locator('.college-section').first().boundingBox(),
    ];
    expect(moneyBox!.y).toBeLessThan(firstSection!.y);

    // One line invites the student to set the profile, and takes them to it.
    await cost
      .getByRole('link', { name: 'Add your home state and household income on your Profile' })
      .click();
    await page.waitForURL((u) => u.pathname === '/profile' && u.hash === '#money-profile');
    const panel = page.getByRole('region', { name: 'Your costs' });
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document
              .activeElement.textContent,
        ),
      )
      .toBe('Your costs');
    await panel.getByLabel('Home state').selectOption({ label: 'Maine' });
    await panel.getByLabel('Household income (per year)').selectOption({ label: '$48,001–$75,000' });
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('status').getByText('Saved. Costs on your colleges now use it.').waitFor();
    expect(await profileOf(user)).toMatchObject({ homeState: 'ME', incomeBand: '48001-75000' });

    // The same card now shows what this student would pay.
    await page.goto('/search');
    card = await searchFor(page, PINE);
    await expect
      .poll(async () => figures(card.getByRole('region', { name: 'Cost for you' })))
      .toEqual([
        ['Your net price (family income $48,001–$75,000)', '$14,500 2021-22 data'],
        ['Your tuition (home state Maine)', '$41,000 In-state 2022-23 data'],
        ['Median debt (of graduates who borrowed)', '$19,000 2020-21 data'],
        ['Median earnings (10 years after entry)', '$61,000 2019-20 data'],
      ]);
    // The money invitation is gone (the fit band's own "Add your scores" link is another matter).
    expect(await card.locator('a[href="/profile#money-profile"]').count()).toBe(0);
    // Out of state at a Texas college; both tuitions when the college's state is unknown.
    card = await searchFor(page, LAKE);
    expect((await figures(card.getByRole('region', { name: 'Cost for you' })))[1]).toEqual([
      'Your tuition (home state Maine)',
      '$27,000 Out-of-state 2022-23 data',
    ]);
    // Years the document does not state come from its sources (the shipped snapshot's titles).
    card = await searchFor(page, HILL);
    expect(await figures(card.getByRole('region', { name: 'Cost for you' }))).toEqual([
      ['Your net price (family income $48,001–$75,000)', '$14,500 2021-22 data'],
      ['Your tuition (home state Maine)', '$11,000 In-state 2021-22 data'],
      ['Median debt (of graduates who borrowed)', '$25,000 2021-22 data'],
      ['Median earnings (10 years after entry)', '$60,000 2020-21 data'],
    ]);
    card = await searchFor(page, RIVER);
    expect((await figures(card.getByRole('region', { name: 'Cost for you' })))[1]).toEqual([
      'Your tuition (home state Maine)',
      "In-state $40,000 · out-of-state $40,000 The college's state is not known year not stated",
    ]);

    // The dashboard leads with the same figures for the selected college.
    await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: PINE } });
    await page.goto('/usercolleges');
    await page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: PINE, exact: true })
      .click();
    const dash = page.getByRole('region', { name: `Cost for you — ${PINE}` });
    await expect
      .poll(async () => (await figures(dash)).map(([label]) => label))
      .toEqual([
        'Your net price (family income $48,001–$75,000)',
        'Your tuition (home state Maine)',
        'Median debt (of graduates who borrowed)',
        'Median earnings (10 years after entry)',
      ]);
    expect((await figures(dash))[0]![1]).toBe('$14,500 2021-22 data');

    // Clearing the profile brings back the average and the invitation.
    await page.goto('/profile');
    await panel.getByLabel('Home state').selectOption({ label: 'Not set' });
    await panel.getByLabel('Household income (per year)').selectOption({ label: 'Not set' });
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('status').waitFor();
    expect(await profileOf(user)).toMatchObject({ homeState: null, incomeBand: null, updatedAt: null });
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The value text and verdict of every college's cell on a compare row. */
async function compareRow(table: Locator, label: string) {
  const row = table.locator('tbody tr').filter({ has: table.page().locator('th', { hasText: label }) });
  const cells = row.locator('td');
  const out: Array<[string, string]> = [];
  for (let i = 0; i < (await cells.count()); i++)
    out.push([
      (await cells.nth(i).locator('.metric-value').innerText()).split('\n')[0]!.trim(),
      (await cells.nth(i).getAttribute('data-verdict'))!,
    ]);
  return out;
}

describe('compare up to four in Chromium', () => {
  it('compares four colleges side by side, with the set in the URL, colouring only where the direction is clear', async () => {
    const user = await createVerifiedUser({ name: 'Quinn' });
    await gw.api('POST', '/api/update-student-profile', {
      token: user.idToken,
      body: { homeState: 'ME', incomeBand: '48001-75000' },
    });
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user);
    await page.goto('/search?mode=compare');
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    expect(await page.getByRole('tab', { name: 'Compare Colleges' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await panel.getByLabel('College 1', { exact: true }).fill(PINE);
    await panel.getByLabel('College 2', { exact: true }).fill(LAKE);
    await panel.getByRole('button', { name: 'Add a college' }).click();
    await panel.getByLabel('College 3', { exact: true }).fill(HILL);
    await panel.getByRole('button', { name: 'Add a college' }).click();
    await panel.getByLabel('College 4', { exact: true }).fill(RIVER);
    expect(await panel.getByRole('button', { name: 'Add a college' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Compare' }).click();
    const table = panel.getByRole('table');
    await table.waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('mode')).toBe('compare');
    expect(url.searchParams.getAll('c')).toEqual([PINE, LAKE, HILL, RIVER]);

    const check = async () => {
      expect(await table.locator('thead th').allInnerTexts()).toEqual(['Metric', PINE, LAKE, HILL, RIVER]);
      // Their net price: the lowest is marked best; no other value is marked (never "worse").
      expect(await compareRow(table, 'Your net price')).toEqual([
        ['$14,500', 'none'],
        ['$9,800', 'best'],
        ['$14,500', 'none'],
        ['$12,000', 'none'],
      ]);
      // Their tuition: in-state in Maine, out-of-state in Texas; unknown state, no verdict.
      expect(await compareRow(table, 'Your tuition')).toEqual([
        ['$41,000 In-state', 'none'],
        ['$27,000 Out-of-state', 'none'],
        ['$11,000 In-state', 'best'],
        ["In-state $40,000 · out-of-state $40,000 The college's state is not known", 'none'],
      ]);
      // Debt is not in the spec's list of directions: shown, never coloured. A tie: no colour.
      expect((await compareRow(table, 'Median debt')).map(([, v]) => v)).toEqual([
        'none',
        'none',
        'none',
        'none',
      ]);
      // Every college graduates the same share: nothing to mark.
      expect((await compareRow(table, 'Graduation Rate')).map(([, v]) => v)).toEqual([
        'none',
        'none',
        'none',
        'none',
      ]);
      expect(await table.locator('td.verdict-best').filter({ hasText: '80.00%' }).count()).toBe(0);
    };
    await check();
    // Four detail cards follow.
    for (const name of [PINE, LAKE, HILL, RIVER])
      expect(await panel.getByRole('article', { name }).isVisible(), name).toBe(true);

    // The URL alone brings the same comparison back.
    await page.reload();
    await table.waitFor();
    await check();

    // Removing a college takes it out of the URL too.
    await panel.getByRole('button', { name: `Remove ${RIVER} from the comparison` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('c')).toEqual([PINE, LAKE, HILL]);
    await expect.poll(() => table.locator('thead th').count()).toBe(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stacks one card per college on a phone (390x844), opened from a shared link', async () => {
    const user = await createVerifiedUser({ name: 'Rae' });
    const { page, context, errors } = await newPage({
      viewport: { width: 390, height: 844 },
    });
    await signInInBrowser(page, user);
    const q = new URLSearchParams([
      ['mode', 'compare'],
      ['c', LAKE],
      ['c', PINE],
      ['c', HILL],
    ]);
    await page.goto(`/search?${q}`);
    const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
    const cards = [LAKE, PINE, HILL].map((n) => panel.getByRole('region', { name: `${n} at a glance` }));
    await cards[0]!.waitFor();
    expect(await panel.getByRole('table').isVisible()).toBe(false);
    expect(await panel.getByLabel('College 3', { exact: true }).inputValue()).toBe(HILL);
    const boxes = await Promise.all(cards.map((c) => c.boundingBox()));
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height);
    for (const b of boxes) expect(b!.x + b!.width).toBeLessThanOrEqual(390);
    // The same labels and verdicts, said in words: without a profile, the average net price.
    const lakeNet = cards[0]!.locator('.compare-stack-row').filter({ hasText: 'Average net price' });
    expect(await lakeNet.locator('dd').getAttribute('data-verdict')).toBe('best');
    expect(await lakeNet.innerText()).toContain('Best');
    // One invitation for the whole comparison, right under its heading.
    expect(
      await panel
        .locator('.compare-panel > .money-invite')
        .getByRole('link', { name: 'Add your home state and household income on your Profile' })
        .isVisible(),
    ).toBe(true);
    const sideways = await page.evaluate(() => {
      const el = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document.documentElement;
      return el.scrollWidth > el.clientWidth;
    });
    expect(sideways).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
