import { browserSuite, createVerifiedUser, signInInBrowser } from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TAGLINES } from '../../web/src/features/landing/taglines.ts';

const { newPage } = browserSuite();

const FEATURES = [
  'Search for Colleges',
  'Track Your Deadlines',
  'Discover Your Major',
  'Essay Examples',
  'Stay on Top',
  'Compare Stats',
];

/** Records, from the first paint, whether the landing was visible and every text the tagline showed. */
async function recordLanding(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __landing: { classes: string[]; texts: string[] } };
    w.__landing = { classes: [], texts: [] };
    const seen = () => {
      const el = document.querySelector('[data-testid="landing"]');
      if (el && w.__landing.classes.at(-1) !== el.className) w.__landing.classes.push(el.className);
      const t = document.querySelector('[data-testid="tagline"]')?.textContent ?? null;
      if (t !== null && w.__landing.texts.at(-1) !== t) w.__landing.texts.push(t);
    };
    new MutationObserver(seen).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { __landing: { classes: string[]; texts: string[] } }).__landing,
    );
}

// Browsers on a busy 2-core machine: generous per-test time, no timed assertions.
describe('landing page in Chromium', { timeout: 60_000 }, () => {
  it('fades in, asks the headline question, types the tagline and shows the six features', async () => {
    const { page, context, errors } = await newPage();
    const recorded = await recordLanding(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Are you College Ready?' }).waitFor();

    // Hidden at first, then faded in.
    await expect.poll(async () => (await recorded()).classes.at(-1)).toBe('landing visible');
    expect((await recorded()).classes[0]).toBe('landing');

    // The first message is typed one character at a time, held, then the next one starts.
    const tagline = page.getByTestId('tagline');
    await expect.poll(() => tagline.textContent(), { timeout: 10_000 }).toBe(TAGLINES[0]);
    await expect
      .poll(async () => (await tagline.textContent())?.length ?? 0, { timeout: 10_000 })
      .toBeLessThan(TAGLINES[0].length);
    await expect.poll(() => tagline.textContent(), { timeout: 10_000 }).toBe(TAGLINES[1]);
    const texts = (await recorded()).texts;
    const first = texts.slice(0, texts.indexOf(TAGLINES[0]) + 1);
    // Every intermediate state is a growing prefix of the message.
    expect(first.length).toBeGreaterThan(10);
    first.forEach((t, i) => {
      expect(TAGLINES[0].startsWith(t)).toBe(true);
      if (i > 0) expect(t.length).toBeGreaterThan(first[i - 1]!.length);
    });
    expect(TAGLINES).toHaveLength(10);
    expect(new Set(TAGLINES).size).toBe(10);

    for (const name of FEATURES) {
      expect(await page.getByRole('heading', { level: 2, name, exact: true }).count(), name).toBe(1);
    }
    expect(await page.title()).toBe('College Ready');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/college/i);
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe('College Ready');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stops typing when paused', async () => {
    const { page, context } = await newPage();
    await page.goto('/');
    const tagline = page.getByTestId('tagline');
    await expect.poll(async () => (await tagline.textContent())?.length ?? 0).toBeGreaterThan(3);
    await page.getByRole('button', { name: 'Pause tagline' }).click();
    const frozen = await tagline.textContent();
    // Longer than a character plus the hold: a running tagline would have changed by now.
    await page.waitForTimeout(1500);
    expect(await tagline.textContent()).toBe(frozen);
    expect(await page.getByRole('button', { name: 'Play tagline' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await context.close();
  });

  it('with reduced motion shows everything at once', async () => {
    const { page, context } = await newPage({ reducedMotion: 'reduce' });
    const recorded = await recordLanding(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Are you College Ready?' }).waitFor();
    const r = await recorded();
    expect(r.classes[0]).toBe('landing visible');
    expect(r.texts[0]).toBe(TAGLINES[0]);
    await context.close();
  });

  it('offers Sign In when signed out, and Your Colleges and Sign Out when signed in', async () => {
    const user = await createVerifiedUser({ name: 'Lena Landing' });
    const { page, context } = await newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/login');

    await signInInBrowser(page, user);
    await page.goto('/');
    const signOut = page.getByRole('button', { name: 'Sign Out', exact: true });
    await signOut.waitFor();
    // The way on for a signed-in student.
    expect(await page.getByRole('link', { name: 'Go to Your Colleges' }).getAttribute('href')).toBe(
      '/usercolleges',
    );
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(0);
    await signOut.click();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await context.close();
  });
});
