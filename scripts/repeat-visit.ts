// The repeat-visit paint of a returning student (issue 32, target 1.0 s): `npm run pagespeed` calls it for
// the signed-in pages. On a phone (390x844, CPU slowed 4x as Lighthouse's mobile preset does), signed in,
// each page is visited once with the network, so the service worker holds the shell and the device holds
// the student's data; then it is opened again with every answer from /api held back, and the time from
// the navigation to the first frame that shows the student's own data (a college, a checklist item, a
// note) is the figure. Painted before the network answers means painted from the device. That first frame
// may be the page's last screen kept on the device (web/src/offline/last-screen.ts), drawn before React
// starts; when the live app has replaced it (and can be used) is reported beside it, as "app live".
import { writeFile } from 'node:fs/promises';
import type { Browser, BrowserContext } from 'playwright-core';

export const REPEAT_PAINT_TARGET_MS = 1_000;
/** How long every answer from /api is held back on the second visit: longer than the target, by far. */
const API_HELD_MS = 4_000;
const CPU_SLOWDOWN = 4;

/** What shows a page's data: an element matching `selector` (that contains `text`, when given). */
export interface ContentProbe {
  selector: string;
  text?: string;
}

export interface RepeatVisit {
  path: string;
  /** The stored sign-in token had expired (a student back after more than an hour). */
  tokenExpired: boolean;
  /** ms from the navigation to the first frame with the data; null: not within the wait */
  paintedAt: number | null;
  /** ms from the navigation to the first frame with the data drawn by the app itself, not a kept screen */
  liveAt: number | null;
  /** ms from the navigation to the first answer from /api */
  networkAt: number | null;
  /** ms from the navigation until the device's copy of the student's data was in the app's cache */
  restoredAt: number | null;
  /** ms from the navigation until the app's script had loaded and run, and the app began to start */
  startedAt: number | null;
}

declare global {
  interface Window {
    /** ms from the navigation to the first frame with the data */
    __contentPaint?: Promise<number>;
    /** ms from the navigation to the first frame with the data drawn by the app, not a kept screen */
    __livePaint?: Promise<number>;
    /** ms from the navigation to the first answer from /api */
    __apiAnswer?: Promise<number>;
  }
}

/**
 * Notes, in every page of the context, when the probe first matches (the frame after it appeared) and
 * when the first answer from /api came. Promises the measuring side awaits once: no polling on every
 * frame, which on a CPU slowed 4x would itself cost the page hundreds of milliseconds.
 */
async function recordContentPaint(context: BrowserContext, probe: ContentProbe): Promise<void> {
  // As text, not a function: tsx wraps named functions in a helper the page does not have.
  await context.addInitScript({
    content: `(() => {
      const p = ${JSON.stringify(probe)};
      const seen = () =>
        [...document.querySelectorAll(p.selector)].some((e) => !p.text || e.textContent.includes(p.text));
      const live = () => seen() && !document.querySelector('[data-last-screen]');
      const when = (shown) => new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          observer.disconnect();
          // Drawn at the end of the next frame.
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
        });
        observer.observe(document, { childList: true, subtree: true, characterData: true });
      });
      window.__contentPaint = when(seen);
      window.__livePaint = when(live);
      window.__apiAnswer = new Promise((resolve) => {
        new PerformanceObserver((list, observer) => {
          const api = list.getEntries().filter((e) => new URL(e.name).pathname.startsWith('/api/'));
          if (!api.length) return;
          observer.disconnect();
          resolve(Math.min(...api.map((e) => e.responseEnd)));
        }).observe({ type: 'resource', buffered: true });
      });
    })();`,
  });
}

/**
 * Measures each page's repeat-visit paint in its own browser context, signed in with `signIn` (which
 * leaves the page signed in, e.g. testkit's signInInBrowser).
 */
export async function repeatVisitPaint(
  browser: Browser,
  baseURL: string,
  pages: ReadonlyArray<{ path: string; probe: ContentProbe; tokenExpired?: boolean }>,
  signIn: (page: import('playwright-core').Page) => Promise<void>,
  /** Makes the stored sign-in token an hour old (testkit's ageStoredToken), for the `tokenExpired` pages. */
  expireToken: (page: import('playwright-core').Page) => Promise<void>,
  /** When given, each second visit's Chrome trace is written there (`--save`), for where its time went. */
  traceDir?: string,
): Promise<RepeatVisit[]> {
  const results: RepeatVisit[] = [];
  for (const { path, probe, tokenExpired = false } of pages) {
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    try {
      const first = await context.newPage();
      await signIn(first);
      // The worker is installed a moment after the load; the next navigation is then its.
      await first.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await first.goto(path);
      if (!(await first.evaluate(() => navigator.serviceWorker.controller !== null)))
        throw new Error(`${path}: no service worker controls the page`);
      await first.waitForLoadState('networkidle');
      // The device keeps the cache within a second of the last answer (web/src/offline/device.ts).
      await first.waitForTimeout(1_500);
      if (tokenExpired) await expireToken(first);
      await first.close();

      await recordContentPaint(context, probe);
      // The network is slow for the sign-in provider too (an expired token's refresh goes there).
      await context.route(/\/api\/|securetoken|identitytoolkit/, async (route) => {
        await new Promise((r) => setTimeout(r, API_HELD_MS));
        await route.continue().catch(() => {});
      });
      const again = await context.newPage();
      const cdp = await context.newCDPSession(again);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      const tracePath = traceDir
        ? `${traceDir}/repeat-${shortPath(path).replace(/\W+/g, '-').replace(/^-|-$/g, '')}${tokenExpired ? '-1h' : ''}.trace.json`
        : undefined;
      if (tracePath) {
        // The main thread's CPU profile too (DevTools opens both), without the trace's own overhead.
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        await browser.startTracing(again, { path: tracePath, screenshots: false });
      }
      await again.goto(path, { waitUntil: 'commit' });
      // Each awaited once in the page (see recordContentPaint), the paint first, then the network's first
      // answer for the comparison; null when not within the wait.
      const awaited = (key: '__contentPaint' | '__livePaint' | '__apiAnswer') =>
        again
          .evaluate(
            ([k, ms]) => Promise.race([window[k] ?? null, new Promise<null>((r) => setTimeout(r, ms, null))]),
            [key, API_HELD_MS * 3] as const,
          )
          .catch(() => null);
      const paintedAt = await awaited('__contentPaint');
      const liveAt = await awaited('__livePaint');
      const networkAt = await awaited('__apiAnswer');
      if (tracePath) {
        await browser.stopTracing();
        const { profile } = await cdp.send('Profiler.stop');
        await writeFile(tracePath.replace(/\.trace\.json$/, '.cpuprofile'), JSON.stringify(profile));
      }
      const restoredAt = await again.evaluate(
        () => performance.getEntriesByName('device-restored')[0]?.startTime ?? null,
      );
      const startedAt = await again.evaluate(
        () => performance.getEntriesByName('app-start')[0]?.startTime ?? null,
      );
      results.push({ path, tokenExpired, paintedAt, liveAt, networkAt, restoredAt, startedAt });
    } finally {
      await context.close();
    }
  }
  return results;
}

/** Prints the figures; true when every page painted from the device within the target. */
export function printRepeatVisits(visits: readonly RepeatVisit[]): boolean {
  console.log(
    `\n=== repeat-visit paint: signed in, 390x844, CPU ${CPU_SLOWDOWN}x slower, /api held ${API_HELD_MS} ms ===`,
  );
  console.log(
    `${'page'.padEnd(28)}${'app started'.padStart(12)}${'device data in'.padStart(16)}${'content painted'.padStart(16)}${'app live'.padStart(10)}${'network answered'.padStart(18)}`,
  );
  let ok = true;
  for (const v of visits) {
    const fromDevice = v.paintedAt !== null && (v.networkAt === null || v.paintedAt < v.networkAt);
    const met = fromDevice && v.paintedAt! <= REPEAT_PAINT_TARGET_MS;
    ok &&= met;
    const ms = (n: number | null) => (n === null ? 'never' : `${n.toFixed(0)} ms`);
    console.log(
      `${(shortPath(v.path) + (v.tokenExpired ? ' (1 h away)' : '')).padEnd(28)}${ms(v.startedAt).padStart(12)}${ms(v.restoredAt).padStart(16)}${ms(v.paintedAt).padStart(16)}${ms(v.liveAt).padStart(10)}${ms(v.networkAt).padStart(18)}  target <= ${REPEAT_PAINT_TARGET_MS} ms from the device ${met ? '[met]' : '[NOT met]'}`,
    );
  }
  return ok;
}

/** A page's path as a table shows it: the college view by its name, not its long query. */
export const shortPath = (p: string) => (p.startsWith('/usercolleges?college=') ? 'college view' : p);
