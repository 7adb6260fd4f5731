// A returning student's page, in Chromium against the Auth emulator: it asks for the student's data with
// the session the Firebase SDK stored on the device, before the SDK itself has loaded (the SDK follows
// after the page has loaded), and the server still decides: a disabled account's stored session ends with
// the reason on the login page, a token near its expiry waits for the SDK, and signing out before the SDK
// has loaded signs out. Fails too if a new SDK stores its user elsewhere (web/src/auth/stored.ts).
import { browserSuite, buildCollege, createVerifiedUser, disableUser, signInInBrowser } from '@ct/testkit';
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

describe('a returning student', () => {
  it('sees the list before the sign-in SDK has loaded, and stays signed in once it has', async () => {
    const { page, context, errors } = await returningStudent('Early Bird');
    const seen = watch(page);
    await page.goto('/usercolleges');
    await page.getByRole('heading', { name: 'Your Colleges', level: 1 }).waitFor();
    await page.getByText(college.name).first().waitFor();
    // Asked for with the stored session: before the SDK's chunk and its account lookup.
    expect(seen[0]).toBe('list');
    // The SDK arrives after the page has loaded, confirms the account, and the session goes on.
    await expect.poll(() => seen.includes('provider')).toBe(true);
    expect(seen.indexOf('sdk')).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    expect(new URL(page.url()).pathname).toBe('/usercolleges');
    expect(errors).toEqual([]);
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

  it('whose stored token is near its expiry waits for the SDK before asking for data', async () => {
    const { page, context } = await returningStudent('Nearly Expired');
    // Ages the token the SDK stored to one minute of life left (under the five the app needs).
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('firebaseLocalStorageDb');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('firebaseLocalStorage', 'readwrite');
            const store = tx.objectStore('firebaseLocalStorage');
            store.openCursor().onsuccess = (e) => {
              const cursor = (e.target as IDBRequest<IDBCursorWithValue | null>).result;
              if (!cursor) return;
              const row = cursor.value as {
                fbase_key: string;
                value: { stsTokenManager: { expirationTime: number } };
              };
              if (row.fbase_key.startsWith('firebase:authUser:')) {
                row.value.stsTokenManager.expirationTime = Date.now() + 60_000;
                cursor.update(row);
              }
              cursor.continue();
            };
            tx.oncomplete = () => resolve();
          };
        }),
    );
    const seen = watch(page);
    await page.goto('/usercolleges');
    await page.getByText(college.name).first().waitFor();
    expect(seen.indexOf('provider')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('list')).toBeGreaterThan(seen.indexOf('provider'));
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
