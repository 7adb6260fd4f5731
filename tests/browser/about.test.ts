import { browserSuite, buildCollege, createVerifiedUser, seedColleges, signInInBrowser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

// A product name and addresses of this test's own: the page must take them from configuration.
const CONFIG = {
  PRODUCT_NAME: 'Campus Compass',
  SUPPORT_EMAIL: 'support@compass.test',
  FAQ_EMAIL: 'questions@compass.test',
  DONATE_URL: 'https://donate.compass.test/give',
  BUILDER_URL: 'https://builder.compass.test/',
};

const { gw, newPage } = browserSuite({ env: CONFIG });
beforeAll(async () => {
  // The counters show the colleges a student can find: this store holds three.
  await seedColleges(
    gw.db,
    ['Alder College', 'Birch University', 'Cedar Institute'].map((name) => buildCollege({ name })),
  );
});

const TABS = ['About Us', 'Features', 'How It Works', 'FAQ', 'Contact', 'Donate'];
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const panel = (page: Page) => page.getByRole('tabpanel');
/** Waits until `name` is the selected tab (the URL update behind it renders asynchronously). */
const selected = (page: Page, name: string) =>
  expect.poll(() => tab(page, name).getAttribute('aria-selected')).toBe('true');

// Browsers on a busy 2-core machine: generous per-test time, no timed assertions.
describe('about page in Chromium', { timeout: 60_000 }, () => {
  it('has six tabs with About Us selected, and switches with the mouse and the keyboard', async () => {
    const { page, context, errors } = await newPage();
    await page.goto('/about');
    const tablist = page.getByRole('tablist', { name: 'About sections' });
    await tablist.waitFor();
    expect(await tablist.getByRole('tab').allTextContents()).toEqual(TABS);
    expect(await tab(page, 'About Us').getAttribute('aria-selected')).toBe('true');
    expect(await panel(page).getAttribute('aria-labelledby')).toBe(
      await tab(page, 'About Us').getAttribute('id'),
    );
    const values = panel(page).getByRole('heading', { level: 3 });
    expect(await values.allTextContents()).toEqual([
      'Accessibility',
      'Transparency',
      'Empowerment',
      'Community',
    ]);
    expect(
      await panel(page)
        .getByText(/Campus Compass exists so that/)
        .count(),
    ).toBe(1);
    const builder = panel(page).getByRole('link', { name: /Meet the builder/ });
    expect(await builder.getAttribute('href')).toBe(CONFIG.BUILDER_URL);

    await tab(page, 'Features').click();
    await selected(page, 'Features');
    expect(await tab(page, 'About Us').getAttribute('aria-selected')).toBe('false');
    expect(await panel(page).getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Interactive College Search',
      'Dynamic Checklists',
      'Deadline Management',
      'Compare Colleges',
      'Example Essays',
      'Major Info',
    ]);
    // The content fades in over half a second.
    expect(await panel(page).evaluate((el) => getComputedStyle(el).animationDuration)).toBe('0.5s');

    // Keyboard: the arrow keys move to the next tab and select it.
    await tab(page, 'Features').focus();
    await page.keyboard.press('ArrowRight');
    await selected(page, 'How It Works');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('How It Works');
    const steps = panel(page).locator('ol > li');
    expect(await steps.count()).toBe(6);
    expect(await panel(page).getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Sign up',
      'Search and compare colleges',
      'Generate checklists',
      'Find ideas',
      'Track deadlines',
      'Stay on top',
    ]);
    await page.keyboard.press('End');
    await selected(page, 'Donate');
    const donate = panel(page).getByRole('link', { name: /Donate to Campus Compass/ });
    expect(await donate.getAttribute('href')).toBe(CONFIG.DONATE_URL);
    expect(await donate.getAttribute('target')).toBe('_blank');
    expect(await donate.getAttribute('rel')).toContain('noopener');

    await page.keyboard.press('ArrowLeft');
    await selected(page, 'Contact');
    const mail = panel(page).getByRole('link', { name: /support@compass\.test/ });
    expect(await mail.getAttribute('href')).toBe(`mailto:${CONFIG.SUPPORT_EMAIL}`);

    // The chosen tab is in the address, so it can be shared and survives a reload.
    expect(new URL(page.url()).searchParams.get('tab')).toBe('contact');
    await page.reload();
    await tab(page, 'Contact').waitFor();
    await selected(page, 'Contact');

    expect(await page.title()).toBe('About | Campus Compass');
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(
      'About | Campus Compass',
    );
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has nine FAQ items, closed at first, each opening and closing on its own', async () => {
    const { page, context } = await newPage();
    await page.goto('/about?tab=faq');
    await panel(page).waitFor();
    const questions = panel(page).getByRole('button');
    expect(await questions.count()).toBe(9);
    for (let i = 0; i < 9; i++) expect(await questions.nth(i).getAttribute('aria-expanded')).toBe('false');
    expect(
      await panel(page)
        .getByText(/Write to us at/)
        .isVisible(),
    ).toBe(false);

    const answerOf = async (i: number) =>
      page.locator(`#${await questions.nth(i).getAttribute('aria-controls')}`);
    await questions.nth(0).click();
    await questions.nth(7).click();
    expect(await questions.nth(0).getAttribute('aria-expanded')).toBe('true');
    expect(await questions.nth(7).getAttribute('aria-expanded')).toBe('true');
    expect(await (await answerOf(0)).isVisible()).toBe(true);
    // "Where can I ask questions?" gives the FAQ address from configuration.
    expect(await (await answerOf(7)).textContent()).toContain(CONFIG.FAQ_EMAIL);
    expect(await (await answerOf(1)).isVisible()).toBe(false);

    await questions.nth(0).click();
    expect(await questions.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await (await answerOf(0)).isVisible()).toBe(false);
    expect(await questions.nth(7).getAttribute('aria-expanded')).toBe('true');
    expect(await (await answerOf(7)).isVisible()).toBe(true);

    // Keyboard works too.
    await questions.nth(3).focus();
    await page.keyboard.press('Enter');
    expect(await questions.nth(3).getAttribute('aria-expanded')).toBe('true');

    const all = (await questions.allTextContents()).join('\n');
    expect(all).toMatch(/What is Campus Compass for/);
    expect(all).toMatch(/How much does Campus Compass cost/);
    await context.close();
  });

  it('counts the counters up to their values once they are scrolled into view', async () => {
    // A short window keeps the counters below the fold until scrolled to.
    const { page, context } = await newPage({ viewport: { width: 1000, height: 420 } });
    await page.goto('/about');
    const counters = page.getByTestId('counter-value');
    await counters.first().waitFor({ state: 'attached' });
    expect(await counters.count()).toBe(3);
    expect(await counters.first().isVisible()).toBe(true);
    expect(await counters.first().evaluate((el) => el.getBoundingClientRect().top > window.innerHeight)).toBe(
      true,
    );
    // Give an eager implementation time to start: they must still be at zero.
    await page.waitForTimeout(300);
    expect(await counters.allTextContents()).toEqual(['0', '0', '0']);

    await counters.nth(1).scrollIntoViewIfNeeded();
    // The real size of the collection (the server's count), never the round "10,000".
    await expect.poll(() => counters.allTextContents(), { timeout: 10_000 }).toEqual(['165', '3', '33']);
    const stats = await gw.api<{ colleges: number; majors: number }>('GET', '/api/collection-stats');
    expect([stats.status, stats.body.colleges, stats.body.majors]).toEqual([200, 3, 165]);
    const labels = await page.locator('.about-counter-label').allTextContents();
    expect(labels).toEqual(['Majors', 'Colleges', 'Deadlines, stats and tips per college']);
    await context.close();
  });

  it('counts through intermediate values (not a jump) unless reduced motion is asked for', async () => {
    const { page, context } = await newPage({ viewport: { width: 1000, height: 420 } });
    await page.goto('/about');
    const majors = page.getByTestId('counter-value').first();
    await majors.waitFor({ state: 'attached' });
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="counter-value"]')!;
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await majors.scrollIntoViewIfNeeded();
    await expect.poll(() => majors.textContent(), { timeout: 10_000 }).toBe('165');
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen.map(Number));
    expect(seen.length).toBeGreaterThan(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    await context.close();

    const reduced = await newPage({
      reducedMotion: 'reduce',
      viewport: { width: 1000, height: 420 },
    });
    await reduced.page.goto('/about');
    const r = reduced.page.getByTestId('counter-value');
    await r.first().waitFor({ state: 'attached' });
    await r.nth(2).scrollIntoViewIfNeeded();
    await expect.poll(() => r.allTextContents()).toEqual(['165', '3', '33']);
    expect(
      await reduced.page.getByRole('tabpanel').evaluate((el) => getComputedStyle(el).animationName),
    ).toBe('none');
    await reduced.context.close();
  });

  it('greets a signed-in student by name', async () => {
    const user = await createVerifiedUser({ name: 'Grace Greeting' });
    const { page, context } = await newPage();
    await page.goto('/about');
    await page.getByRole('tablist').waitFor();
    expect(await page.getByText('Grace Greeting', { exact: false }).count()).toBe(0);
    await signInInBrowser(page, user);
    await page.goto('/about');
    await expect
      .poll(() => page.locator('.about-greeting').textContent())
      .toBe('Hi, Grace Greeting! Thanks for using Campus Compass.');
    await context.close();
  });
});
