import type { Page } from 'playwright-core';

/** The web app marks `<html data-session>` with `loading`, `signed-in` or `signed-out`. */
async function waitForSession(page: Page, state: 'signed-in' | 'signed-out', timeout: number): Promise<void> {
  await page.waitForSelector(`html[data-session="${state}"]`, { state: 'attached', timeout });
}

/**
 * Signs in through the real /login form (e-mail and password, verified account) and waits until the app
 * has left /login (for Your Colleges, or the page in `?next=`) with the session established.
 */
export async function signInInBrowser(
  page: Page,
  user: { email: string; password: string },
  opts: { timeout?: number; path?: string } = {},
): Promise<void> {
  const timeout = opts.timeout ?? 20_000;
  await page.goto(opts.path ?? '/login');
  const form = page.getByRole('form', { name: 'Login' });
  await form.waitFor({ timeout });
  await form.getByLabel('Email', { exact: true }).fill(user.email);
  await form.getByLabel('Password', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Login', exact: true }).click();
  const failure = page.getByRole('alert');
  const landed = page
    .waitForURL((u) => u.pathname !== '/login', { timeout })
    .then(() => waitForSession(page, 'signed-in', timeout));
  // Fail fast with the page's own message instead of a bare timeout when the login is refused.
  const refused = failure
    .first()
    .waitFor({ timeout })
    .then(async () => {
      throw new Error(`login refused: ${await failure.first().innerText()}`);
    });
  refused.catch(() => {}); // once signed in, the pending wait must not surface as an unhandled rejection
  await Promise.race([landed, refused]);
}

/** Signs out from the profile's account section and waits until the app reports no session. */
export async function signOutInBrowser(page: Page, opts: { timeout?: number } = {}): Promise<void> {
  const timeout = opts.timeout ?? 20_000;
  if (new URL(page.url()).pathname !== '/profile') await page.goto('/profile');
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click({ timeout });
  await waitForSession(page, 'signed-out', timeout);
}

/**
 * Sets the expiry of the ID token the Firebase SDK stored on this device to `inMs` from now (negative:
 * already expired), as a student coming back after more than an hour finds it.
 */
export function ageStoredToken(page: Page, inMs: number): Promise<void> {
  return page.evaluate(
    (ms) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('firebaseLocalStorage', 'readwrite');
          tx.objectStore('firebaseLocalStorage').openCursor().onsuccess = (e) => {
            const cursor = (e.target as IDBRequest<IDBCursorWithValue | null>).result;
            if (!cursor) return;
            const row = cursor.value as {
              fbase_key: string;
              value: { stsTokenManager: { expirationTime: number } };
            };
            if (row.fbase_key.startsWith('firebase:authUser:')) {
              row.value.stsTokenManager.expirationTime = Date.now() + ms;
              cursor.update(row);
            }
            cursor.continue();
          };
          tx.oncomplete = () => resolve();
        };
      }),
    inMs,
  );
}
