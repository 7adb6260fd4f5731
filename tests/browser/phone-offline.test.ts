// On the phone (390x844, Chromium): the app installs (a valid manifest, a service worker controlling the
// page), a reload offline shows the list from the device, a tick made offline is saved on the device,
// reaches the server once when the network is back and is not applied twice, so does a change of an
// application's status (and one overtaken by a change elsewhere is told, not applied), and a note made
// offline survives closing the tab (issue 32).
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  newPage,
  signInInBrowser,
  type TestUser,
} from '@ct/testkit';
import type { Checklist, Note } from '@ct/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const PHONE = { width: 390, height: 844 };
const SAVED = "Saved on this device — will sync when you're online";
const college = buildCollege({ name: 'Harbor Light College' });

const { gw, browser } = browserSuite({ colleges: [college] });

/** A student with the college on their list, signed in on a phone whose service worker controls the page. */
async function studentOnPhone(
  name: string,
): Promise<{ user: TestUser; page: Page; context: BrowserContext }> {
  const user = await createVerifiedUser({ name });
  await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: college.name } });
  const { page, context } = await newPage(browser, gw.url, { viewport: PHONE });
  await signInInBrowser(page, user);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return { user, page, context };
}

const checklistOf = async (user: TestUser) =>
  (
    await gw.api<{ checklist: Checklist }>('GET', '/api/get-college-checklist', {
      token: user.idToken,
      query: { collegeName: college.name },
    })
  ).body.checklist;

const statusOf = async (user: TestUser) =>
  (
    await gw.api<{ colleges: Array<{ application: { status: string } }> }>('GET', '/api/get-season', {
      token: user.idToken,
    })
  ).body.colleges[0]!.application.status;

/** Changes the application's status through the season overview's editor. */
async function setStatus(page: Page, status: string): Promise<void> {
  const card = page.locator(`tbody.season-college[data-college="${college.name}"]`);
  await card.getByRole('button', { name: `Update application to ${college.name}` }).click();
  const form = page.getByRole('form', { name: `Application to ${college.name}` });
  await form.getByLabel('Status').selectOption(status);
  await form.getByRole('button', { name: `Save application to ${college.name}` }).click();
  await form.waitFor({ state: 'detached' });
}

/** Waits until the device has saved what the page last showed (the cache is written within a second). */
const deviceSaved = (page: Page) => page.waitForTimeout(1_200);

describe('the app on a phone', () => {
  it('installs: the manifest is valid and a service worker controls the page', async () => {
    const { page, context } = await studentOnPhone('Install Me');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = await page.evaluate(async (u) => {
      const res = await fetch(u);
      return { type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> };
    }, href!);
    expect(manifest.type).toMatch(/application\/manifest\+json|application\/json/);
    expect(manifest.body).toMatchObject({
      name: 'College Ready',
      short_name: 'College Ready',
      start_url: '/usercolleges',
      display: 'standalone',
      theme_color: '#1d3557',
    });
    const icons = manifest.body.icons as Array<{ src: string; sizes: string; purpose: string }>;
    for (const size of ['192x192', '512x512'])
      for (const purpose of ['any', 'maskable'])
        expect(
          icons.some((i) => i.sizes === size && i.purpose === purpose),
          `${size} ${purpose}`,
        ).toBe(true);
    for (const icon of icons) {
      const png = await page.evaluate(async (src) => {
        const res = await fetch(src);
        const b = new DataView(await res.arrayBuffer());
        return { type: res.headers.get('content-type'), w: b.getUint32(16), h: b.getUint32(20) };
      }, icon.src);
      expect(png.type).toBe('image/png');
      expect(`${png.w}x${png.h}`).toBe(icon.sizes);
    }
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${gw.url}/sw.js`);
    await context.close();
  });

  it('offline, a reload shows the list from the device', async () => {
    const { page, context } = await studentOnPhone('Offline Reader');
    await page.goto('/usercolleges');
    const inList = page
      .getByRole('complementary', { name: 'Your Colleges' })
      .getByRole('button', { name: college.name, exact: true });
    const open = page.getByRole('button', { name: 'Open Your Colleges' });
    await open.click();
    await inList.waitFor();
    await deviceSaved(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Your Colleges', level: 1 }).waitFor();
    await open.click();
    await inList.waitFor();
    expect(await page.getByText(/ERR_INTERNET_DISCONNECTED/).count()).toBe(0);
    await context.close();
  });

  it('keeps a tick made offline on the device and applies it once when back online', async () => {
    const { user, page, context } = await studentOnPhone('Offline Ticker');
    await page.goto(`/usercolleges?college=${encodeURIComponent(college.name)}`);
    const panel = page.getByRole('region', { name: /^Checklist/ });
    const box = panel.getByRole('checkbox').first();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/update-checklist')) sent.push(r.headers()['idempotency-key'] ?? '');
    });
    await context.setOffline(true);
    await box.check();
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor();
    expect(await box.isChecked()).toBe(true);
    const before = await checklistOf(user);
    const first = Object.values(before)[0]![0]!;
    expect(Object.values(before)[0]![0]!.completed).toBe(false);

    await context.setOffline(false);
    await expect.poll(async () => Object.values(await checklistOf(user))[0]![0]!.completed).toBe(true);
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor({ state: 'hidden' });
    // Sent once, with its id; the same id again is answered from the record and changes nothing.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    await gw.api('POST', '/api/update-checklist', {
      token: user.idToken,
      headers: { 'idempotency-key': sent[0]! },
      body: {
        collegeName: college.name,
        section: Object.keys(before)[0],
        itemIndex: 0,
        completed: false,
        itemText: 'text' in first ? first.text : '',
      },
    });
    expect(Object.values(await checklistOf(user))[0]![0]!.completed).toBe(true);
    await context.close();
  });

  it('keeps a status change made offline on the device and applies it once when back online', async () => {
    const { user, page, context } = await studentOnPhone('Offline Applicant');
    await page.goto('/usercolleges');
    const card = page.locator(`tbody.season-college[data-college="${college.name}"]`);
    const badge = card.locator('.season-badge');
    await badge.filter({ hasText: 'Researching' }).waitFor();
    await deviceSaved(page);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/update-application')) sent.push(r.headers()['idempotency-key'] ?? '');
    });
    await context.setOffline(true);
    await setStatus(page, 'applying');
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor();
    await badge.filter({ hasText: 'Applying' }).waitFor();
    expect(await statusOf(user)).toBe('researching');

    await context.setOffline(false);
    await expect.poll(() => statusOf(user)).toBe('applying');
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor({ state: 'hidden' });
    await badge.filter({ hasText: 'Applying' }).waitFor();
    // Sent once, with its id; the same id again is answered from the record and changes nothing.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    const again = await gw.api('POST', '/api/update-application', {
      token: user.idToken,
      headers: { 'idempotency-key': sent[0]! },
      body: { collegeName: college.name, status: 'withdrawn' },
    });
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(await statusOf(user)).toBe('applying');
    await context.close();
  });

  it('tells the student when the application changed elsewhere while a status change waited', async () => {
    const { user, page, context } = await studentOnPhone('Two Devices');
    await page.goto('/usercolleges');
    const badge = page.locator(`tbody.season-college[data-college="${college.name}"] .season-badge`);
    await badge.filter({ hasText: 'Researching' }).waitFor();
    await deviceSaved(page);
    await context.setOffline(true);
    await setStatus(page, 'withdrawn');
    await page.getByRole('status').filter({ hasText: SAVED }).waitFor();
    // Meanwhile, on the student's laptop:
    await gw.api('POST', '/api/update-application', {
      token: user.idToken,
      body: { collegeName: college.name, status: 'submitted', plan: 'RD' },
    });

    await context.setOffline(false);
    const notice = page.getByRole('alert');
    await notice
      .getByText(
        `Your change to the application to ${college.name} (status: Withdrawn) was not saved: This application was changed elsewhere meanwhile (now status: Submitted); nothing was overwritten.`,
        { exact: false },
      )
      .waitFor();
    expect(await statusOf(user)).toBe('submitted');
    await badge.filter({ hasText: 'Submitted' }).waitFor();
    await notice.getByRole('button', { name: 'OK' }).click();
    await notice.waitFor({ state: 'detached' });
    await context.close();
  });

  it('keeps a note made offline when the tab is closed, and sends it at the next open', async () => {
    const { user, page, context } = await studentOnPhone('Offline Writer');
    await page.goto('/profile');
    const form = page.getByRole('form', { name: 'New note' });
    await form.waitFor();
    await context.setOffline(true);
    await form.getByLabel('Title').fill('Written on the bus');
    await form.getByLabel('Content').fill('Ask about the marine biology lab');
    await form
      .getByRole('button', { name: /Add|Save|Create/ })
      .first()
      .click();
    await page.getByRole('status').filter({ hasText: SAVED }).first().waitFor();
    await page.close();

    const notes = async () =>
      (await gw.api<{ notes: Note[] }>('GET', '/api/get-notes', { token: user.idToken })).body.notes;
    expect(await notes()).toEqual([]);
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto('/usercolleges');
    await expect.poll(async () => (await notes()).map((n) => n.title)).toEqual(['Written on the bus']);
    await again.getByRole('status').filter({ hasText: SAVED }).waitFor({ state: 'hidden' });
    await context.close();
  });
});
