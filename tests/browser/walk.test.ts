// Issue 34, the defects of a full walk through the season, in Chromium, one describe per item of the issue.
// 1: the season overview with six colleges keeps every word and figure whole on one line from 1024 px up
// (checked with a DOM Range per word), and below 1024 px becomes one card per college. 2: a typo is offered
// the close official names before anything is gathered, and a picked suggestion opens at once. 3-4, 7-9:
// Profile's checkboxes, Compare, one progress colour, advice that follows the student's data, and the
// smaller things (note counter, In your list, focus, skip links, About tabs, the landing's headline).
// Items 5-8 on real Scorecard rows: walk-figures.test.ts; axe on every page at both widths:
// ../a11y/axe-widths.test.ts.
import { randomUUID } from 'node:crypto';
import { MSG } from '@ct/contracts/messages';
import { addDays, localToday } from '@ct/contracts/planning';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  scorecardSource,
  signInInBrowser,
  VIEWPORTS,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EssaysRepository } from '@ct/essays/repositories/essays';
import { axe, describeViolations } from '../a11y/lib.ts';

vi.setConfig({ testTimeout: 120_000 });

const today = localToday();
const SCORECARD = scorecardSource(1);
// Six colleges with long names, five-figure prices, prompts and every kind of status, as a real list has.
const SIX = [
  'Massachusetts Walkthrough Institute of Technology',
  'University of California, Walkthrough Los Angeles',
  'Williams Walkthrough College',
  'Santa Monica Walkthrough College',
  'Rensselaer Polytechnic Walkthrough Institute',
  'Ole Miss Walkthrough University',
];

const STANFORD = 'Stanford Walkthrough University';
const NO_COUNSELOR = 'Counselor Optional Walkthrough College';

const { gw, browser } = browserSuite({
  colleges: [
    buildCollege({ name: STANFORD, demographics: { schoolCity: 'Stanford', schoolState: 'CA' } }),
    buildCollege({
      name: NO_COUNSELOR,
      info: {
        requirements: { teacherRecommendations: '1 required', counselorRecommendation: 'Not required' },
      },
    }),
    ...SIX.map((name, i) =>
      buildCollege({
        name,
        demographics: {
          schoolSize: 4000 + i * 1000,
          admissionRate: 0.1 + i * 0.1,
          graduationRate: 0.9,
          finance: { avgNetPrice: 17492 + i * 570, medianEarnings: 61000 },
          dataYears: { netPrice: '2021-22', earnings: '2020-21', completion: '2021-22' },
        },
        sources: { demographics: SCORECARD },
        info: {
          deadlines: [
            { type: 'Early Decision II', date: addDays(today, 20 + i) },
            { type: 'Regular Decision', date: addDays(today, 60 + i) },
          ],
          essayPrompts: ['Why us? (250 words)', 'Tell us about a community you belong to. (650 words)'],
        },
      }),
    ),
  ],
});

const post = (user: TestUser, path: string, body: Record<string, unknown>) =>
  gw.api('POST', `/api${path}`, { token: user.idToken, body });

async function sixCollegeStudent(): Promise<TestUser> {
  const user = await createVerifiedUser({ name: 'Walker' });
  for (const collegeName of SIX)
    expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
  const statuses = [
    'admitted-with-aid',
    'admitted-with-aid',
    'researching',
    'waitlisted',
    'submitted',
    'applying',
  ];
  for (const [i, collegeName] of SIX.entries()) {
    const status = statuses[i]!;
    const decided = status.startsWith('admitted') || status === 'waitlisted';
    expect(
      (
        await post(user, '/update-application', {
          collegeName,
          plan: i % 2 ? 'RD' : 'EA',
          ...(status === 'researching' ? {} : { status, submittedOn: addDays(today, -30) }),
          ...(decided ? { decisionOn: addDays(today, -2) } : {}),
        })
      ).status,
    ).toBe(200);
  }
  for (const collegeName of SIX.slice(0, 3))
    expect(
      (
        await post(user, '/save-recommender', {
          collegeName,
          recommenderId: randomUUID(),
          who: 'Ms. Counselor',
          askedOn: addDays(today, -40),
        })
      ).status,
    ).toBe(200);
  return user;
}

const overview = (page: Page) => page.getByRole('region', { name: 'Your season at a glance' });

/** Every word of the overview table whose Range covers more than one line, as "word (column)". */
const brokenWords = (page: Page) =>
  page.locator('table.season-table').evaluate((table) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const el = node.parentElement!;
      // Text kept for screen readers only (the card layout's clipped heading row) is not on screen.
      const hidden = el.closest('.visually-hidden, thead');
      if ((hidden && hidden.getBoundingClientRect().height <= 1) || !el.getClientRects().length) continue;
      // A word, or each part of a hyphenated one ("2021-22" may break after its hyphen, never inside a part).
      for (const m of text.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        if (tops.size > 1)
          broken.push(`${m[0]} (${el.closest('[data-label], th')?.textContent?.slice(0, 30)})`);
      }
    }
    return broken;
  });

describe('the season overview with six colleges (issue 34, item 1)', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await sixCollegeStudent();
  });

  it.each([1024, 1280, 1440])(
    'keeps every word and figure on one line at %i px, as a table',
    async (width) => {
      const { page, context, errors } = await newPage(browser, gw.url, { viewport: { width, height: 800 } });
      try {
        await signInInBrowser(page, user);
        await page.goto('/usercolleges');
        await overview(page).waitFor();
        const table = page.locator('table.season-table');
        // Everything the table shows has arrived: the costs, the fit and the essays.
        await expect.poll(() => table.innerText()).toContain('$17,492');
        await expect.poll(() => table.locator('text=…').count()).toBe(0);
        expect(await table.innerText()).toContain('Admitted with an aid offer');
        // A table: its heading row shows, one row per college.
        await expect.poll(() => table.locator('thead').isVisible()).toBe(true);
        expect(await table.evaluate((t) => getComputedStyle(t).display)).toBe('table');
        expect(await brokenWords(page)).toEqual([]);
        // The page never scrolls sideways (item 9: at 1024 px the table's hidden words widened it); from
        // 1280 px the whole table fits its card (at 1024 px, were the columns together wider than the card,
        // the card scrolls sideways rather than break a word).
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
        if (width >= 1280) {
          expect(
            await table.evaluate(
              (t) => t.closest('section')!.scrollWidth <= t.closest('section')!.clientWidth,
            ),
          ).toBe(true);
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it.each([
    { width: 1000, height: 800 },
    { width: 390, height: 844 },
  ])('becomes one card per college at $width px', async (viewport) => {
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      await overview(page).waitFor();
      const table = page.locator('table.season-table');
      await expect.poll(() => table.innerText()).toContain('$17,492');
      // The heading row is kept for screen readers only (1 px, clipped).
      expect(await table.locator('thead').evaluate((t) => t.getBoundingClientRect().height <= 1)).toBe(true);
      const cards = page.locator('tbody.season-college');
      expect(await cards.count()).toBe(6);
      const card = await cards.first().evaluate((el) => {
        const s = getComputedStyle(el);
        return {
          display: s.display,
          border: s.borderTopWidth,
          label: getComputedStyle(el.querySelector('td[data-label="Cost for you"]')!, '::before').content,
        };
      });
      expect(card).toEqual({ display: 'block', border: '1px', label: '"Cost for you"' });
      expect(await brokenWords(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('search at $width (issue 34, item 2)', (viewport) => {
  async function openSearch() {
    const user = await createVerifiedUser({ name: 'Typo' });
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    await signInInBrowser(page, user);
    await page.goto('/search');
    await page.getByRole('heading', { name: 'Search and Compare Colleges' }).waitFor();
    return { page, context, errors };
  }
  const card = (page: Page) => page.getByRole('article', { name: STANFORD });

  it('offers the close official name for a typo, and gathers nothing until the student says none fits', async () => {
    const { page, context, errors } = await openSearch();
    try {
      await page.getByLabel('College name').fill('Standford Walkthrough');
      await page.getByRole('button', { name: 'Search/Add College' }).click();
      const ask = page.getByRole('region', { name: `Did you mean ${STANFORD}?` });
      await ask.waitFor();
      // The question has focus, nothing is being gathered, and no card of a made-up college shows.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        `Did you mean ${STANFORD}?`,
      );
      expect(await page.getByTestId('loading-overlay').count()).toBe(0);
      expect(await page.getByRole('article').count()).toBe(0);
      expect(await page.getByText('Only you can see this college').count()).toBe(0);
      await ask.getByRole('button', { name: STANFORD, exact: true }).click();
      await card(page).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).toBe(STANFORD);
      expect(await page.getByLabel('College name').inputValue()).toBe(STANFORD);

      // Back to the typo: "None of these" is the only way on to gathering it as a new college.
      await page.goBack();
      await ask.waitFor();
      await ask.getByRole('button', { name: 'None of these: add “Standford Walkthrough”' }).click();
      await expect
        .poll(
          async () =>
            (await page.getByTestId('loading-overlay').count()) + (await page.getByRole('alert').count()),
        )
        .toBeGreaterThan(0);
      expect(await ask.count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says "In your list", with a link, once the college is added (item 9)', async () => {
    const { page, context, errors } = await openSearch();
    try {
      await page.goto(`/search?q=${encodeURIComponent(STANFORD)}`);
      await card(page).getByRole('button', { name: 'Add to Profile' }).click();
      await card(page).getByText(MSG.collegeAdded).waitFor();
      await card(page).getByText('In your list').waitFor();
      expect(await card(page).getByRole('button', { name: 'Add to Profile' }).count()).toBe(0);
      // A later visit says the same at once.
      await page.reload();
      await card(page).getByText('In your list').waitFor();
      await card(page).getByRole('link', { name: 'see it on your dashboard' }).click();
      await page.getByRole('heading', { name: `Checklist — ${STANFORD}` }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens a suggestion picked by click, or by arrow keys and Enter, at once', async () => {
    const { page, context, errors } = await openSearch();
    try {
      const input = page.getByLabel('College name');
      await input.fill('Stanford Walk');
      await page.getByRole('option', { name: STANFORD }).click();
      await card(page).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).toBe(STANFORD);

      await page.goto('/search');
      await input.fill('Stanford Walkth');
      await page.getByRole('option', { name: STANFORD }).waitFor();
      await input.press('ArrowDown');
      await input.press('Enter');
      await card(page).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).toBe(STANFORD);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The checkboxes of a page that do not sit beside the first line of their own statement. */
const floatingBoxes = (page: Page) =>
  page.locator('label.checkbox').evaluateAll((labels) =>
    labels.flatMap((label) => {
      const box = label.querySelector('input[type="checkbox"]')!.getBoundingClientRect();
      const text = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!text) return [`${label.textContent}: no statement`];
      const range = document.createRange();
      range.selectNodeContents(text);
      const line = range.getClientRects()[0]!;
      const beside = box.right <= line.left + 1 && box.top < line.bottom && box.bottom > line.top;
      return beside ? [] : [label.textContent!.trim().slice(0, 40)];
    }),
  );

describe.each(VIEWPORTS)('Profile at $width (issue 34, item 3)', (viewport) => {
  it('puts each checkbox beside its statement, and ticking it by its statement works', async () => {
    const user = await createVerifiedUser({ name: 'Boxes' });
    for (const collegeName of SIX.slice(0, 2))
      expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/profile');
      const optional = page.getByRole('group', { name: 'Apply test-optional to' });
      await optional.getByRole('checkbox', { name: SIX[0] }).waitFor();
      const free = page.getByRole('group', { name: 'Could you apply for free?' });
      expect(await free.getByRole('checkbox').count()).toBeGreaterThan(0);
      expect(await floatingBoxes(page)).toEqual([]);
      // The statement is the box's label: a click on the words ticks it.
      await optional.getByText(SIX[1]!, { exact: true }).click();
      expect(await optional.getByRole('checkbox', { name: SIX[1] }).isChecked()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('Compare at $width (issue 34, item 4)', (viewport) => {
  // Two colleges with figures and one with none: a "best" among two of three says so.
  const [A, B] = [SIX[0]!, SIX[1]!];
  const url = `/search?${new URLSearchParams([
    ['mode', 'compare'],
    ['c', A],
    ['c', B],
    ['c', STANFORD],
  ])}`;
  const violations = async (page: Page) => describeViolations(await axe(page, { bestPractice: true }));

  it('says "best of 2 with data", names the bands in money, folds its groups, and axe finds nothing', async () => {
    const user = await createVerifiedUser({ name: 'Comparer' });
    const { page, context, errors } = await newPage(browser, gw.url, { viewport, reducedMotion: 'reduce' });
    try {
      await signInInBrowser(page, user);
      await page.goto(url);
      const panel = page.getByRole('tabpanel', { name: 'Compare Colleges' });
      await panel.getByRole('heading', { name: 'Comparison' }).waitFor();
      const phone = viewport.width < 640;
      // The average net price: A is lowest of the two colleges that have one; the third has none.
      const best = phone
        ? panel
            .getByRole('region', { name: `${A} at a glance` })
            .locator('.compare-stack-row', { hasText: 'Average net price' })
            .locator('.verdict-tag')
        : panel
            .getByRole('table')
            .getByRole('row')
            .filter({ has: page.getByRole('rowheader', { name: /^Average net price/ }) })
            .locator('td')
            .first()
            .locator('.verdict-tag');
      expect(await best.innerText()).toBe('★ Best of 2 with data');
      // No college has a net price by income band here: the folded line names the bands in money.
      expect(await panel.getByText('Net Price (income $0-$30,000)').count()).toBeGreaterThan(0);
      expect(await panel.getByText(/Net Price 0-30000/).count()).toBe(0);
      expect(await violations(page)).toEqual([]);

      // A group folds away with its button, and opens again.
      const toggle = panel.getByRole('button', { name: /^Size and admission/ }).first();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const admission = phone
        ? panel.locator('.compare-stack-row', { hasText: 'Undergrad Size' })
        : panel.getByRole('rowheader', { name: /^Undergrad Size/ });
      expect(await admission.count()).toBeGreaterThan(0);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await admission.count()).toBe(0);
      // The detail cards fold away too.
      const cards = panel.locator('details.compare-details');
      await cards.locator('summary').click();
      expect(await panel.getByRole('article', { name: A }).isVisible()).toBe(false);
      expect(await violations(page)).toEqual([]);
      await toggle.click();
      await cards.locator('summary').click();
      expect(await admission.count()).toBeGreaterThan(0);
      await panel.getByRole('article', { name: A }).waitFor();
      expect(await violations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('the note counter at $width (issue 34, item 9)', (viewport) => {
  it('says the note is too long the moment it runs over, keeps the text, and saves nothing', async () => {
    const user = await createVerifiedUser({ name: 'Counter' });
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/profile');
      const notes = page.getByRole('region', { name: 'Notes' });
      await notes.getByText(MSG.noNotesYet).waitFor();
      const content = notes.getByLabel('Content');
      await notes.getByLabel('Title').fill('Long thoughts');
      await content.fill('x'.repeat(2000));
      expect(await notes.locator('#note-count').innerText()).toBe('Character Count 2000/2000');
      expect(await notes.locator('#note-too-long').innerText()).toBe('');
      expect(await content.getAttribute('aria-invalid')).toBe('false');
      // Typing on past the limit: told at once, before any Add Note, and nothing typed is lost.
      await content.press('End');
      await content.pressSequentially('y'.repeat(12));
      expect(await notes.locator('#note-count').innerText()).toBe('Character Count 2012/2000 (12 over)');
      expect(await notes.locator('#note-too-long').innerText()).toBe(
        `${MSG.noteTooLong}. Shorten it to save it.`,
      );
      expect(await content.getAttribute('aria-invalid')).toBe('true');
      expect((await content.inputValue()).length).toBe(2012);
      expect(await notes.getByRole('alert').count()).toBe(0);
      // Shortened back to the limit, the warning goes.
      for (let i = 0; i < 12; i++) await content.press('Backspace');
      expect(await notes.locator('#note-too-long').innerText()).toBe('');
      expect(
        (await gw.api<{ notes: unknown[] }>('GET', '/api/get-notes', { token: user.idToken })).body.notes,
      ).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('advice that follows the student’s own data (issue 34, item 8)', () => {
  it('does not ask for a likely college once the student is admitted', async () => {
    const user = await createVerifiedUser({ name: 'Admitted' });
    for (const collegeName of SIX.slice(0, 2))
      expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      await page.goto('/usercolleges');
      const balance = page.getByTestId('list-balance');
      // No scores yet, nothing admitted: the list is told it lacks a likely college.
      await expect.poll(() => balance.innerText()).toContain('Your list has no likely college');
      expect(
        (
          await post(user, '/update-application', {
            collegeName: SIX[0],
            status: 'admitted-with-aid',
            decisionOn: today,
          })
        ).status,
      ).toBe(200);
      await page.reload();
      await overview(page).waitFor();
      await balance.waitFor();
      await expect.poll(() => balance.innerText()).not.toContain('no likely college');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists no task for a recommendation the college does not require', async () => {
    const user = await createVerifiedUser({ name: 'Checker' });
    expect((await post(user, '/add-user-college', { collegeName: NO_COUNSELOR })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url);
    try {
      await signInInBrowser(page, user);
      await page.goto(`/usercolleges?college=${encodeURIComponent(NO_COUNSELOR)}`);
      const checklist = page.getByRole('region', { name: `Checklist — ${NO_COUNSELOR}` });
      await checklist.getByText('Ask your teachers for recommendations (1 required)').waitFor();
      expect(await checklist.innerText()).not.toMatch(/counselor recommendation/i);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('signing in at $width (issue 34, item 9)', (viewport) => {
  it('puts focus on the page’s heading after login, not on the page body', async () => {
    const user = await createVerifiedUser({ name: 'Focus' });
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await page.goto('/login');
      const form = page.getByRole('form', { name: 'Login' });
      await form.getByLabel('Email', { exact: true }).fill(user.email);
      await form.getByLabel('Password', { exact: true }).fill(user.password);
      await form.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Your Colleges' }).waitFor();
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName),
        )
        .toBe('Your Colleges');
      // The next Tab goes on from the top of the page's content, not from the top of the document.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('the checklist by keyboard at $width (issue 34, item 9)', (viewport) => {
  it('offers "Skip to checklist" before the list of colleges, and it lands on the first box', async () => {
    const user = await createVerifiedUser({ name: 'Keys' });
    expect((await post(user, '/add-user-college', { collegeName: SIX[0] })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto(`/usercolleges?college=${encodeURIComponent(SIX[0]!)}`);
      const checklist = page.locator('#checklist');
      await checklist.locator('input[type="checkbox"]').first().waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const where = () =>
        page.evaluate(() => {
          const el = document.activeElement;
          return {
            text: el?.textContent?.trim() ?? '',
            inSidebar: !!el?.closest('aside'),
            inChecklist: !!el?.closest('#checklist') && el?.getAttribute('type') === 'checkbox',
          };
        });
      let reached = false;
      for (let tabs = 0; tabs < 30 && !reached; tabs++) {
        await page.keyboard.press('Tab');
        const at = await where();
        // The skip link comes before anything in the list of colleges.
        expect(at.inSidebar).toBe(false);
        reached = at.text === 'Skip to checklist';
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      expect((await where()).inChecklist).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('one checklist progress, one colour, at $width (issue 34, item 7)', (viewport) => {
  it('draws the same percent in the same colour on the checklist, in the sidebar and in the overview', async () => {
    const user = await createVerifiedUser({ name: 'Colours' });
    const [college] = SIX;
    expect((await post(user, '/add-user-college', { collegeName: college })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto(`/usercolleges?college=${encodeURIComponent(college!)}`);
      const checklist = page.locator('#checklist');
      const boxes = checklist.locator('input[type="checkbox"]');
      await boxes.first().waitFor();
      const total = await boxes.count();
      const colours = async () => {
        const bar = await checklist
          .locator('.progress-fill')
          .evaluate((el) => getComputedStyle(el).backgroundColor);
        // The sidebar is a drawer on a phone: its bars are drawn all the same.
        const side = await page
          .locator('.sidebar-progress .bar-fill')
          .first()
          .evaluate((el) => getComputedStyle(el).fill);
        return { bar, side };
      };
      const level = async (name: 'low' | 'half' | 'done') =>
        page.evaluate((n) => {
          const probe = document.createElement('div');
          probe.style.color = `var(--progress-${n})`;
          document.body.append(probe);
          const c = getComputedStyle(probe).color;
          probe.remove();
          return c;
        }, name);
      // Tick boxes up to half: the colour of each level is the same in both places.
      await boxes.first().check();
      await expect.poll(colours).toEqual({ bar: await level('low'), side: await level('low') });
      for (let i = 1; i < Math.ceil(total / 2); i++) await boxes.nth(i).check();
      await expect.poll(colours).toEqual({ bar: await level('half'), side: await level('half') });
      const percent = await checklist.getByRole('progressbar').getAttribute('aria-valuenow');

      // The season overview draws the same percent, in the same colour.
      await page.goto('/usercolleges');
      const progress = overview(page).locator('.season-progress progress').first();
      await progress.waitFor();
      await expect
        .poll(() => overview(page).locator('.season-progress').first().innerText())
        .toContain(`${percent}%`);
      expect(await progress.evaluate((el) => getComputedStyle(el).accentColor)).toBe(await level('half'));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('Essays at $width (issue 34, item 8)', (viewport) => {
  it('says one draft serves a prompt several colleges ask, in the plan and in the drafts alike', async () => {
    const essays = new EssaysRepository(gw.db);
    const colleges = SIX.slice(0, 5);
    for (const name of colleges)
      await essays.saveCollegePrompts({ name }, [
        { text: 'Why us? (250 words)' },
        { text: 'Tell us about a community you belong to. (650 words)' },
      ]);
    const user = await createVerifiedUser({ name: 'Drafts' });
    for (const collegeName of colleges)
      expect((await post(user, '/add-user-college', { collegeName })).status).toBe(200);
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/essays');
      const drafts = page.getByRole('region', { name: 'Your essay drafts' });
      const why = drafts.getByRole('group', { name: 'Why us? (250 words)' });
      await why.getByText('One draft for 5 colleges').waitFor();
      const plan = page.getByRole('region', { name: 'Plan your drafts' });
      await plan.getByText('Why this college').waitFor();
      // The plan lists the prompt once, for all five colleges, with the drafts' own words.
      const line = plan.locator('li', { hasText: 'Why us? (250 words)' });
      expect(await line.count()).toBe(1);
      expect(await line.innerText()).toContain(`${colleges.join(', ')}:`);
      expect(await line.innerText()).toContain('One draft for 5 colleges');
      expect(await plan.innerText()).not.toMatch(/\b10 prompts\b|need their own drafts/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('the About tabs at $width (issue 34, item 9)', (viewport) => {
  it('shows every tab whole, with nothing hidden past the edge of the strip', async () => {
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await page.goto('/about');
      const tabs = page.getByRole('tab');
      await tabs.first().waitFor();
      expect(await tabs.count()).toBe(6);
      const strip = await page.getByRole('tablist').evaluate((list) => ({
        scrolls: list.scrollWidth > list.clientWidth,
        cut: [...list.querySelectorAll('[role="tab"]')]
          .filter((t) => {
            const r = t.getBoundingClientRect();
            const l = list.getBoundingClientRect();
            return r.left < l.left - 0.5 || r.right > l.right + 0.5;
          })
          .map((t) => t.textContent),
      }));
      expect(strip).toEqual({ scrolls: false, cut: [] });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await page.getByRole('tab', { name: 'Contact' }).click();
      // The router applies the new ?tab= in a transition: the tab is selected a frame or two after the click.
      await expect
        .poll(() => page.getByRole('tab', { name: 'Contact' }).getAttribute('aria-selected'))
        .toBe('true');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('the landing headline at $width (issue 34, item 9)', (viewport) => {
  it('is in full view from the first paint, while the rest fades in', async () => {
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      // Every opacity the headline and its ancestors ever have, from the first paint.
      await page.addInitScript(() => {
        const w = window as unknown as { __opacities: string[] };
        w.__opacities = [];
        const look = () => {
          const h1 = document.querySelector('#landing-title');
          if (!h1) return requestAnimationFrame(look);
          for (let el: Element | null = h1; el; el = el.parentElement)
            w.__opacities.push(getComputedStyle(el).opacity);
          if (w.__opacities.length < 400) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
      await page.goto('/');
      const tagline = page.locator('.landing-tagline');
      await expect.poll(() => tagline.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      const seen = await page.evaluate(() => (window as unknown as { __opacities: string[] }).__opacities);
      expect(seen.length).toBeGreaterThan(0);
      expect([...new Set(seen)]).toEqual(['1']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORTS)('Profile by keyboard at $width (issue 34, item 9)', (viewport) => {
  it('reaches a new note’s first field from the heading with one Tab and Enter', async () => {
    const user = await createVerifiedUser({ name: 'Noter' });
    const { page, context, errors } = await newPage(browser, gw.url, { viewport });
    try {
      await signInInBrowser(page, user);
      await page.goto('/profile');
      const notes = page.getByRole('region', { name: 'Notes' });
      await notes.getByText(MSG.noNotesYet).waitFor();
      // From the top of the page: past the navigation, the skip link is the first stop in the page.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      let tabs = 0;
      for (; tabs < 20; tabs++) {
        await page.keyboard.press('Tab');
        const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
        if (text === 'Skip to notes') break;
      }
      expect(tabs).toBeLessThan(20);
      expect(await page.getByRole('link', { name: 'Skip to notes' }).isVisible()).toBe(true);
      await page.keyboard.press('Enter');
      expect(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLInputElement | null;
          return { inNotes: !!el?.closest('#notes'), label: el?.labels?.[0]?.textContent?.trim() };
        }),
      ).toEqual({ inNotes: true, label: 'Title' });
      // And straight after the heading (where focus lands on arriving at the page).
      await page.getByRole('heading', { level: 1, name: 'Profile' }).evaluate((h) => {
        h.tabIndex = -1;
        h.focus();
      });
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Skip to notes');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
