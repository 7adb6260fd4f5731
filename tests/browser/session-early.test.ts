// A returning student's page, in Chromium against the Auth emulator: it asks for the student's data with
// the session the Firebase SDK stored on the device, without loading the SDK (it follows when needed: a
// token near its expiry, an action, a sign-out in another tab), and the server still decides: a disabled account's stored session ends with
// the reason on the login page, an expired token is never sent (the page is drawn from the device while
// the SDK refreshes it), and signing out before the SDK has loaded signs out. Fails too if a new SDK stores its user elsewhere (web/src/auth/stored.ts).
import {
  ageStoredToken,
  browserSuite,
  buildCollege,
  createVerifiedUser,
  disableUser,
  signInInBrowser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const college = buildCollege({ name: 'Stored Session College' });

const { gw, newPage } = browserSuite({ colleges: [college] });

/** A signed-in student with one college on the list, in a page of their own. */
async function returningStudent(name: string) {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: college.name } });
  const { page, context, errors } = await newPage();
  await signInInBrowser(page, user);
  return { user, page, context, errors };
}

/** The requests of the page's next load, in order: the list, the SDK's chunk, the SDK's account calls. */
function watch(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (url.includes('/api/get-user-colleges')) seen.push('list');
    else if (/\/assets\/firebase-[\w-]+\.js$/.test(url)) seen.push('sdk');
    else if (/identitytoolkit|securetoken/.test(url) && r.method() !== 'OPTIONS') seen.push('provider');
  });
  return seen;
}

describe('a visitor nobody is signed in for', () => {
  it('gets the landing page without the sign-in SDK, and the login form signs in with it', async () => {
    const user = await createVerifiedUser({ name: 'First Timer' });
    const { page, context, errors } = await newPage();
    const seen = watch(page);
    await page.goto('/');
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await page.waitForLoadState('load');
    await page.waitForTimeout(3_000);
    expect(seen).not.toContain('sdk');
    // The login form brings the SDK, and the session follows the sign-in made there.
    await signInInBrowser(page, user);
    expect(seen).toContain('sdk');
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a returning student', () => {
  it('sees the list without the sign-in SDK, which loads only when needed, and stays signed in', async () => {
    const { page, context, errors } = await returningStudent('Early Bird');
    const seen = watch(page);
    await page.goto('/usercolleges');
    await page.getByRole('heading', { name: 'Your Colleges', level: 1 }).waitFor();
    await page.getByText(college.name).first().waitFor();
    // Asked for with the stored session; the token is good for most of an hour, so the visit needs no SDK
    // (its download and start-up were the largest task of a phone's first screen).
    expect(seen[0]).toBe('list');
    await page.waitForLoadState('load');
    await page.waitForTimeout(3_000);
    expect(seen).not.toContain('sdk');
    expect(seen).not.toContain('provider');
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    expect(new URL(page.url()).pathname).toBe('/usercolleges');
    // The token nearing its expiry (5 minutes and 3 seconds left here, the list already asked with it)
    // starts the SDK, which confirms the account and refreshes the token; the session goes on.
    await ageStoredToken(page, 5 * 60_000 + 3_000);
    await page.goto('/usercolleges');
    await page.getByText(college.name).first().waitFor();
    // The page's last screen may show the college before the app asks for the list: wait for the ask.
    await expect.poll(() => seen.filter((s) => s === 'list')).toHaveLength(2);
    expect(seen).not.toContain('sdk');
    await expect.poll(() => seen.includes('provider'), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signed out in another tab is signed out here on coming back to this tab', async () => {
    const { page, context } = await returningStudent('Two Tabs');
    await page.goto('/usercolleges');
    await page.getByText(college.name).first().waitFor();
    const other = await context.newPage();
    await other.goto('/profile');
    await other.getByRole('heading', { name: 'Two Tabs' }).waitFor();
    await other.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await other.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    // Back to the first tab: it reads the device's session again, finds none, and ends its own.
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.getByText(college.name).count()).toBe(0);
    await context.close();
  });

  it('whose account was disabled meanwhile lands on the login page, told why, without the list', async () => {
    const { user, page: signedIn, context } = await returningStudent('Disabled Meanwhile');
    // The tab is closed (an open one could notice the change itself), the account disabled, and the
    // student comes back in a new tab: only the session stored on the device knows them.
    await signedIn.close();
    await disableUser(user.uid);
    const page = await context.newPage();
    await page.goto('/usercolleges');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === '/usercolleges');
    await page
      .getByRole('status')
      .getByText('This account has been disabled. Contact support if you think this is a mistake.')
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-out');
    expect(await page.getByText(college.name).count()).toBe(0);
    await context.close();
  });

  it('whose stored token has expired sees the list from the device at once, and asks with a fresh token', async () => {
    const { page, context, errors } = await returningStudent('Back After An Hour');
    // The list is seen once, so this device keeps it (saved within a second of the answer).
    await page.goto('/usercolleges');
    await page.getByText(college.name).first().waitFor();
    await page.waitForTimeout(1_500);
    await ageStoredToken(page, -10 * 60_000);
    // The provider's token refresh is held back: until it answers there is no token to send.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/securetoken/, async (route) => {
      await held;
      await route.continue();
    });
    const seen = watch(page);
    await page.goto('/usercolleges');
    // Drawn from the device while the refresh is held, and nothing asked with the expired token.
    await page.getByText(college.name).first().waitFor();
    expect(seen).not.toContain('list');
    release();
    await expect.poll(() => seen.includes('list')).toBe(true);
    expect(seen.indexOf('list')).toBeGreaterThan(seen.indexOf('provider'));
    expect(seen.indexOf('provider')).toBeGreaterThanOrEqual(0);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('whose account was disabled while away is signed out, and the device forgets the list', async () => {
    const { user, page: signedIn, context } = await returningStudent('Disabled While Away');
    await signedIn.goto('/usercolleges');
    await signedIn.getByText(college.name).first().waitFor();
    await signedIn.waitForTimeout(1_500);
    await ageStoredToken(signedIn, -10 * 60_000);
    await signedIn.close();
    await disableUser(user.uid);
    const page = await context.newPage();
    await page.goto('/usercolleges');
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('status').getByText('You were signed out. Please log in again.').waitFor();
    // Nothing of the student is left on the device: the next visit has no list to draw.
    await page.goto('/usercolleges');
    await page.waitForURL((u) => u.pathname === '/login');
    const kept = await page.evaluate(
      (uid) =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('college-ready-device');
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('kv')) return resolve(false);
            const get = db.transaction('kv').objectStore('kv').get(`queries:${uid}`);
            get.onsuccess = () => resolve(get.result !== undefined);
            get.onerror = () => resolve(false);
          };
          open.onerror = () => resolve(false);
        }),
      user.uid,
    );
    expect(kept).toBe(false);
    await context.close();
  });

  it('who signs out before the SDK has loaded is signed out, here and after a reload', async () => {
    const { page, context } = await returningStudent('Quick Leaver');
    // The SDK's chunk is held back until the click, so the click surely comes first.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/firebase-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Quick Leaver' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    release();
    await page.waitForSelector('html[data-session="signed-out"]', { state: 'attached' });
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/usercolleges');
    await page.waitForURL((u) => u.pathname === '/login');
    await context.close();
  });
});
