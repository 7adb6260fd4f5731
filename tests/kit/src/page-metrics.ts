import type { BrowserContext, Page } from 'playwright-core';

/** One layout shift the browser reported, with the elements that moved ("section.essay-chooser"). */
export interface Shift {
  value: number;
  /** ms since the navigation started */
  at: number;
  sources: string[];
}

declare global {
  interface Window {
    __layoutShifts?: Shift[];
  }
}

/**
 * Records every layout shift of every page the context opens, from before the page's own scripts run
 * (a PerformanceObserver, buffered). Shifts that follow an input (a click, typing) do not count, as in
 * Lighthouse and the Core Web Vitals.
 */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Entry = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
    };
    const name = (n: Node | null | undefined) => {
      if (!n) return '(gone)';
      if (!(n instanceof Element)) return `#text "${(n.textContent ?? '').trim().slice(0, 40)}"`;
      const cls =
        typeof n.className === 'string' && n.className ? `.${n.className.trim().split(/\s+/).join('.')}` : '';
      return `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${cls}`;
    };
    const rect = (r: DOMRectReadOnly) =>
      `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    const shifts: Shift[] = (window.__layoutShifts = []);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Entry[]) {
        if (e.hadRecentInput) continue;
        shifts.push({
          value: e.value,
          at: e.startTime,
          sources: (e.sources ?? []).map(
            (s) => `${name(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`,
          ),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * Cumulative layout shift as Lighthouse and the Core Web Vitals count it: shifts are grouped in session
 * windows (a gap of under 1 s between shifts, 5 s at most), and the largest window is the figure.
 */
export function cumulativeLayoutShift(shifts: readonly Shift[]): number {
  let best = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of [...shifts].sort((a, b) => a.at - b.at)) {
    if (s.at - last >= 1_000 || s.at - first >= 5_000) {
      sum = 0;
      first = s.at;
    }
    sum += s.value;
    last = s.at;
    best = Math.max(best, sum);
  }
  return best;
}

/** The layout shifts of the page so far (recordLayoutShifts must have been called on its context). */
export async function layoutShifts(page: Page): Promise<{ cls: number; shifts: Shift[] }> {
  const shifts = await page.evaluate(() => window.__layoutShifts ?? []);
  return { cls: cumulativeLayoutShift(shifts), shifts };
}
