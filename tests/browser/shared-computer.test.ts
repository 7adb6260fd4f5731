// Issue 50, items 4 and 8: a shared computer keeps nothing of a student who signed out. In one browser at
// 390x844: student A works, ticks an item offline (queued), signs out (told the change is waiting, and it
// is dropped on their word), and student B signs in. B never sees A's data, A's change is never sent under
// B's account, and nothing of A stays on the device: not the kept screens, the saved queries, the queued
// writes, Cache Storage or the HTTP cache. With two tabs, a sign-out in one ends the other at once, and
// nothing the other held is saved under the next student.
import type { Checklist } from '@ct/contracts';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  noteWhetherShown,
  signInInBrowser,
  signOutInBrowser,
  wasShown,
  type TestUser,
} from '@ct/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unsentAtSignOut } from '../../web/src/auth/session-channel.ts';

const PHONE = { width: 390, height: 844 };
const SAVED = "Saved on this device — will sync when you're online";
const collegeA = buildCollege({ name: 'Quillmoor College' });
const collegeB = buildCollege({ name: 'Bramblecote University' });

const { gw, browser } = browserSuite({ colleges: [collegeA, collegeB] });

async function studentWith(name: string, college: string): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: college } });
  return user;
}

const checklistOf = async (user: TestUser, college: string) =>
  (
    await gw.api<{ checklist: Checklist }>('GET', '/api/get-college-checklist', {
      token: user.idToken,
      query: { collegeName: college },
    })
  ).body.checklist;

/** Everything this origin keeps on the device, as text: localStorage, IndexedDB, Cache Storage. */
function deviceContents(
  page: Page,
): Promise<{ local: string; idbKeys: string[]; idb: string; caches: string[] }> {
  return page.evaluate(async () => {
    const local = JSON.stringify({ ...localStorage });
    const idbKeys: string[] = [];
    const values: string[] = [];
    const dbs = (await indexedDB.databases())
      .map((d) => d.name!)
      .filter((n) => n !== 'firebaseLocalStorageDb');
    for (const name of dbs) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of [...db.objectStoreNames]) {
        const tx = db.transaction(store, 'readonly');
        const [keys, all] = await Promise.all([
          new Promise<IDBValidKey[]>((res) => {
            const r = tx.objectStore(store).getAllKeys();
            r.onsuccess = () => res(r.result);
          }),
          new Promise<unknown[]>((res) => {
            const r = tx.objectStore(store).getAll();
            r.onsuccess = () => res(r.result);
          }),
        ]);
        idbKeys.push(...keys.map(String));
        values.push(JSON.stringify(all));
      }
      db.close();
    }
    const cached: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) cached.push(new URL(req.url).pathname);
    }
    return { local, idbKeys, idb: values.join('\n'), caches: cached };
  });
}

describe('a shared computer keeps nothing of a student who signed out', () => {
  it("A's queued change is told and dropped at sign-out; B never sees A's data; nothing of A stays", async () => {
    const [alice, bob] = await Promise.all([
      studentWith('Alice Shared', collegeA.name),
      studentWith('Bob Shared', collegeB.name),
    ]);
    const { page, context } = await newPage(browser, gw.url, { viewport: PHONE });
    await signInInBrowser(page, alice);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.goto(`/usercolleges?college=${encodeURIComponent(collegeA.name)}`);
    const box = page
      .getByRole('region', { name: /^Checklist/ })
      .getByRole('checkbox')
      .first();
    await box.waitFor();
    await page.waitForTimeout(1_500); // the device saves what the page shows, and keeps its screen
    expect((await deviceContents(page)).local).toContain(collegeA.name);

    // Offline, a tick is kept on the device to send later.
    await context.setOffline(true);
    await box.check();
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor();

    // Signing out with it waiting: the student is asked first; staying keeps it.
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect.poll(() => asked).toEqual([unsentAtSignOut(1)]);
    expect(await page.evaluate(() => document.documentElement.dataset.session)).toBe('signed-in');
    page.once('dialog', (d) => void d.accept());
    await signOutInBrowser(page);

    // Nothing of A on the device: kept screens, saved queries, the queued write, Cache Storage.
    const after = await deviceContents(page);
    expect(after.local).not.toContain(collegeA.name);
    expect(after.idbKeys.filter((k) => k.includes(alice.uid))).toEqual([]);
    expect(after.idb).not.toContain(collegeA.name);
    expect(after.caches.filter((p) => p.startsWith('/api/'))).toEqual([]);

    // B signs in on the same browser, back online.
    await context.setOffline(false);
    await noteWhetherShown(context, collegeA.name);
    await signInInBrowser(page, bob);
    await page.goto('/usercolleges');
    await page.getByText(collegeB.name).first().waitFor({ state: 'attached' });
    await page.waitForTimeout(1_500);
    expect(await wasShown(page)).toBe(false);
    // The browser's HTTP cache has none of A's answers, even asked for by address without a token.
    const cachedForA = await page.evaluate(async (uid) => {
      const urls = [`/api/get-user-colleges?userId=${uid}`, `/api/get-notes?userId=${uid}`];
      const found: string[] = [];
      for (const url of urls) {
        const r = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
        if (r && r.ok) found.push(url);
      }
      return found;
    }, alice.uid);
    expect(cachedForA).toEqual([]);
    // A's tick never reached the server, under A's account or B's.
    expect(Object.values(await checklistOf(alice, collegeA.name))[0]![0]!.completed).toBe(false);
    expect((await deviceContents(page)).idb).not.toContain(collegeA.name);
    await context.close();
  }, 90_000);

  it('a sign-out in one tab ends the other at once, and nothing it held is saved under the next student', async () => {
    const [alice, bob] = await Promise.all([
      studentWith('Alice Tabs', collegeA.name),
      studentWith('Bob Tabs', collegeB.name),
    ]);
    const { page: tab1, context } = await newPage(browser, gw.url, { viewport: PHONE });
    await signInInBrowser(tab1, alice);
    await tab1.goto('/usercolleges');
    await tab1.getByText(collegeA.name).first().waitFor({ state: 'attached' });
    const tab2 = await context.newPage();
    await tab2.goto('/profile');
    await tab2.getByRole('button', { name: 'Sign Out', exact: true }).waitFor();

    await signOutInBrowser(tab2);
    // Tab 1 hears it at once (no reload, no focus): A's list is gone from it.
    await expect
      .poll(() => tab1.evaluate(() => document.documentElement.dataset.session), { timeout: 1_500 })
      .toBe('signed-out');
    await expect.poll(() => tab1.getByText(collegeA.name).count()).toBe(0);

    await signInInBrowser(tab2, bob);
    await tab2.goto('/usercolleges');
    await tab2.getByText(collegeB.name).first().waitFor({ state: 'attached' });
    await tab1.waitForTimeout(1_500);
    // What the device saved for B holds nothing of A, from either tab.
    const device = await deviceContents(tab1);
    expect(device.idbKeys.filter((k) => k.includes(alice.uid))).toEqual([]);
    expect(device.idb).not.toContain(collegeA.name);
    expect(device.idb).toContain(collegeB.name);
    await context.close();
  }, 90_000);
});
