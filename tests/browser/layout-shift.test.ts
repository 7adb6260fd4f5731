// Layout shift on a phone (390x844, Chromium): every page, signed out and signed in, the college view and
// Essays included, moves its layout by at most 0.1 while it loads (issue 32), on a first visit and on a
// return (the app from the service worker, the data from the device). Answers from /api are held back a
// little and the CPU is slowed 4x, as on a phone, so whatever a page draws late must have had its place kept.
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  cumulativeLayoutShift,
  layoutShifts,
  newPage,
  recordLayoutShifts,
  signInInBrowser,
} from '@ct/testkit';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });

const PHONE = { width: 390, height: 844 };
const TARGET = 0.1;
/** How long each answer from /api is held back. */
const API_DELAY_MS = 400;
const college = buildCollege({ name: 'Steady Layout College' });
const collegeView = `/usercolleges?college=${encodeURIComponent(college.name)}`;

const { gw, browser } = browserSuite({ colleges: [college] });

/** A phone whose answers from /api come late, recording its layout shifts. */
async function phone(serviceWorkers: 'allow' | 'block'): Promise<BrowserContext> {
  const { context } = await newPage(browser, gw.url, { viewport: PHONE, serviceWorkers });
  await recordLayoutShifts(context);
  await context.route('**/api/**', async (route) => {
    await new Promise((r) => setTimeout(r, API_DELAY_MS));
    await route.continue().catch(() => {});
  });
  return context;
}

/**
 * Opens a page in a new tab, lets it load and settle, and gives its layout shift with what moved, and
 * whether the page drew what it is for (`shows`: a heading) rather than an error page.
 */
async function shiftOf(context: BrowserContext, path: string, shows?: string) {
  const page = await context.newPage();
  // A phone's CPU (Lighthouse's mobile preset slows it 4x): what renders before the data comes shows.
  await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // Late answers and lazy panels: the page has settled when nothing has been asked for a while.
  await page.waitForTimeout(1_500);
  const r = await layoutShifts(page);
  const drawn = {
    failed: await page.getByRole('heading', { name: 'Something went wrong on this page' }).isVisible(),
    shows: shows ? await page.getByRole('heading', { name: shows }).isVisible() : true,
  };
  await page.close();
  return { ...r, drawn };
}

/**
 * Forgets what this device kept of the student's data (the app's IndexedDB store, and the pages' last
 * screens in localStorage; the sign-in is kept in the SDK's own), so the next page opened has none of it,
 * as on a first visit. No tab of the app may be open: one would hold the store open and the deletion would
 * wait for it.
 */
async function forgetDeviceData(context: BrowserContext) {
  const page = await context.newPage();
  // Same origin, outside the app (the service worker leaves /api alone): no app code opens the store.
  await page.goto('/api/healthz');
  const outcome = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        localStorage.removeItem('college-ready:last-screen');
        const req = indexedDB.deleteDatabase('college-ready-device');
        req.onsuccess = () => resolve('deleted');
        req.onerror = () => resolve(`failed: ${req.error?.message}`);
        req.onblocked = () => resolve('blocked by an open tab');
      }),
  );
  await page.close();
  expect(outcome).toBe('deleted');
}

const report = (path: string, r: Awaited<ReturnType<typeof shiftOf>>) =>
  `${path}: CLS ${r.cls.toFixed(3)}\n${r.shifts
    .map((s) => `  ${s.value.toFixed(3)} at ${s.at.toFixed(0)} ms: ${s.sources.join('; ')}`)
    .join('\n')}`;

describe('layout shift on a phone (390x844)', () => {
  it('is at most 0.1 on every page signed out', async () => {
    const context = await phone('block');
    try {
      for (const path of ['/', '/login', '/about']) {
        const r = await shiftOf(context, path);
        expect.soft(r.drawn, `${path} drawn`).toEqual({ failed: false, shows: true });
        expect.soft(r.cls, report(path, r)).toBeLessThanOrEqual(TARGET);
      }
    } finally {
      await context.close();
    }
  });

  it('is at most 0.1 on every page signed in, the college view and Essays included', async () => {
    const student = await createVerifiedUser({ name: 'Steady Student' });
    const post = (path: string, body: Record<string, unknown>) =>
      gw.api('POST', `/api${path}`, { token: student.idToken, body });
    await post('/add-user-college', { collegeName: college.name });
    await post('/add-note', { note: { title: 'Essay draft', content: 'Finish the draft', deadline: null } });
    const context = await phone('allow');
    try {
      const page = await context.newPage();
      await signInInBrowser(page, student);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      // The sign-in tab leaves the app, so that nothing holds the device's store open.
      await page.goto('about:blank');
      // Each page twice: first with nothing of its data on the device, then as a returning student sees
      // it: the app from the service worker, the data from the device's copy while the network answers.
      for (const visit of ['first visit', 'return']) {
        if (visit === 'return') {
          await page.goto('/usercolleges');
          expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
          await page.waitForLoadState('networkidle');
          await page.goto('about:blank');
        }
        for (const path of ['/usercolleges', collegeView, '/essays', '/search', '/profile', '/admin']) {
          if (visit === 'first visit') await forgetDeviceData(context);
          const r = await shiftOf(
            context,
            path,
            path === collegeView ? `Checklist — ${college.name}` : undefined,
          );
          expect.soft(r.drawn, `${visit}: ${path} drawn`).toEqual({ failed: false, shows: true });
          expect.soft(r.cls, `${visit}: ${report(path, r)}`).toBeLessThanOrEqual(TARGET);
        }
      }
    } finally {
      await context.close();
    }
  });
});

describe('cumulative layout shift, as counted', () => {
  it('is the largest window of shifts under 1 s apart and within 5 s', () => {
    const at = (value: number, t: number) => ({ value, at: t, sources: [] });
    expect(cumulativeLayoutShift([])).toBe(0);
    // Two bursts over a second apart: the larger one counts, not the sum.
    expect(cumulativeLayoutShift([at(0.05, 100), at(0.04, 600), at(0.08, 2_000)])).toBeCloseTo(0.09);
    // Shifts 900 ms apart for 6 s: the window closes at 5 s.
    const steady = Array.from({ length: 7 }, (_, i) => at(0.02, i * 900));
    expect(cumulativeLayoutShift(steady)).toBeCloseTo(0.12);
  });
});
