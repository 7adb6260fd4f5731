// The repeat-visit paint of a returning student (issue 32, target 1.0 s): `npm run pagespeed` calls it for
// the signed-in pages. On a phone (390x844, CPU slowed 4x as Lighthouse's mobile preset does), signed in,
// each page is visited once with the network, so the service worker holds the shell and the device holds
// the student's data; then it is opened again with every answer from /api held back, and the time from
// the navigation to the first frame that shows the student's own data (a college, a checklist item, a
// note) is the figure. Painted before the network answers means painted from the device.
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
  /** ms from the navigation to the first frame with the data; null: not within the wait */
  paintedAt: number | null;
  /** ms from the navigation to the first answer from /api */
  networkAt: number | null;
  /** ms from the navigation until the device's copy of the student's data was in the app's cache */
  restoredAt: number | null;
}

declare global {
  interface Window {
    __contentPaint?: number;
  }
}

/** Notes, in every page of the context, when the probe first matches: the frame after it appeared. */
async function recordContentPaint(context: BrowserContext, probe: ContentProbe): Promise<void> {
  // As text, not a function: tsx wraps named functions in a helper the page does not have.
  await context.addInitScript({
    content: `(() => {
      const p = ${JSON.stringify(probe)};
      const seen = () =>
        [...document.querySelectorAll(p.selector)].some((e) => !p.text || e.textContent.includes(p.text));
      const observer = new MutationObserver(() => {
        if (!seen()) return;
        observer.disconnect();
        // Drawn at the end of the next frame.
        requestAnimationFrame(() => setTimeout(() => (window.__contentPaint ??= performance.now())));
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
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
  pages: ReadonlyArray<{ path: string; probe: ContentProbe }>,
  signIn: (page: import('playwright-core').Page) => Promise<void>,
): Promise<RepeatVisit[]> {
  const results: RepeatVisit[] = [];
  for (const { path, probe } of pages) {
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
      await first.close();

      await recordContentPaint(context, probe);
      await context.route('**/api/**', async (route) => {
        await new Promise((r) => setTimeout(r, API_HELD_MS));
        await route.continue().catch(() => {});
      });
      const again = await context.newPage();
      const cdp = await context.newCDPSession(again);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await again.goto(path, { waitUntil: 'commit' });
      await again
        .waitForFunction(() => window.__contentPaint !== undefined, null, { timeout: API_HELD_MS * 3 })
        .catch(() => {});
      // Then the network's first answer, for the comparison.
      await again
        .waitForFunction(
          () =>
            performance
              .getEntriesByType('resource')
              .some((e) => new URL(e.name).pathname.startsWith('/api/')),
          null,
          { timeout: API_HELD_MS * 3 },
        )
        .catch(() => {});
      const paintedAt = await again.evaluate(() => window.__contentPaint ?? null);
      const networkAt = await again.evaluate(() => {
        const api = performance
          .getEntriesByType('resource')
          .filter((e) => new URL(e.name).pathname.startsWith('/api/')) as PerformanceResourceTiming[];
        return api.length ? Math.min(...api.map((e) => e.responseEnd)) : null;
      });
      const restoredAt = await again.evaluate(
        () => performance.getEntriesByName('device-restored')[0]?.startTime ?? null,
      );
      results.push({ path, paintedAt, networkAt, restoredAt });
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
    `${'page'.padEnd(16)}${'device data in'.padStart(16)}${'content painted'.padStart(16)}${'network answered'.padStart(18)}`,
  );
  let ok = true;
  for (const v of visits) {
    const fromDevice = v.paintedAt !== null && (v.networkAt === null || v.paintedAt < v.networkAt);
    const met = fromDevice && v.paintedAt! <= REPEAT_PAINT_TARGET_MS;
    ok &&= met;
    const ms = (n: number | null) => (n === null ? 'never' : `${n.toFixed(0)} ms`);
    console.log(
      `${shortPath(v.path).padEnd(16)}${ms(v.restoredAt).padStart(16)}${ms(v.paintedAt).padStart(16)}${ms(v.networkAt).padStart(18)}  target <= ${REPEAT_PAINT_TARGET_MS} ms from the device ${met ? '[met]' : '[NOT met]'}`,
    );
  }
  return ok;
}

/** A page's path as a table shows it: the college view by its name, not its long query. */
export const shortPath = (p: string) => (p.startsWith('/usercolleges?college=') ? 'college view' : p);
