import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules the product promises. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; html: string; failureSummary?: string }>;
}

/**
 * Runs axe-core in the page as it is now (the WCAG A and AA rules; with `bestPractice`, axe's best
 * practices too, such as landmark-unique). The source goes in through the DevTools protocol, so the
 * app's Content-Security-Policy (no inline scripts) stays on.
 */
export async function axe(page: Page, opts: { bestPractice?: boolean } = {}): Promise<Violation[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (tags) => {
      // This runs in the page; the test project has no DOM typings, so the little it needs is typed here.
      const w = globalThis as unknown as {
        document: unknown;
        axe: { run: (ctx: unknown, opts: object) => Promise<{ violations: Violation[] }> };
      };
      const r = await w.axe.run(w.document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target,
          html: n.html.slice(0, 160),
          failureSummary: n.failureSummary,
        })),
      }));
    },
    opts.bestPractice ? [...WCAG_TAGS, 'best-practice'] : WCAG_TAGS,
  );
}

/** Violations as one line each: rule (impact): help — selectors; why, for the first. */
export function describeViolations(violations: Violation[]): string[] {
  return violations.map((v) => {
    const where = v.nodes
      .map((n) => n.target.join(' '))
      .slice(0, 5)
      .join(', ');
    const why = (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200);
    return `${v.id} (${v.impact}): ${v.help} — ${where}${why ? ` — ${why}` : ''}`;
  });
}

/** Waits until the app has decided who is signed in and the page's first heading is on screen. */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('html[data-session="signed-in"], html[data-session="signed-out"]', {
    state: 'attached',
  });
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/**
 * Whether the focused element shows a focus indicator a sighted keyboard user can see: an outline or a
 * box-shadow, or else a change of background, border or text colour against its unfocused look (checked
 * by blurring and refocusing it). `null` when focus is outside the page (Tab wrapping round).
 */
export async function focusVisible(page: Page): Promise<{ ok: boolean; what: string } | null> {
  return page.evaluate(() => {
    interface Style {
      outlineStyle: string;
      outlineWidth: string;
      boxShadow: string;
      backgroundColor: string;
      borderColor: string;
      color: string;
      textDecorationLine: string;
    }
    interface El {
      tagName: string;
      textContent: string | null;
      getAttribute(n: string): string | null;
      blur(): void;
      focus(): void;
    }
    const g = globalThis as unknown as {
      document: { activeElement: El | null; body: El };
      getComputedStyle(el: El): Style;
    };
    const el = g.document.activeElement;
    if (!el || el === g.document.body) return null;
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
    const id = el.getAttribute('id') ?? el.getAttribute('type') ?? '';
    const what = `${el.tagName.toLowerCase()}${id ? `#${id}` : ''} "${name}"`;
    const s = g.getComputedStyle(el);
    if ((s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none')
      return { ok: true, what };
    // Blurring a text field would reset where the caret (or a date field's segment) was: judge those by
    // the outline alone.
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) return { ok: false, what };
    const look = (x: Style) => [x.backgroundColor, x.borderColor, x.color, x.textDecorationLine].join('|');
    const focusedLook = look(s);
    el.blur();
    const plain = look(g.getComputedStyle(el));
    el.focus();
    return { ok: plain !== focusedLook, what };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `isTarget` holds for the focused element, as a keyboard-only user
 * would; fails after `max` presses. Checks a visible focus indicator at every stop.
 */
export async function tabTo(
  page: Page,
  isTarget: () => Promise<boolean>,
  opts: { max?: number; back?: boolean; noFocusRing?: string[] } = {},
): Promise<void> {
  const max = opts.max ?? 80;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const ring = await focusVisible(page);
    if (ring && !ring.ok) opts.noFocusRing?.push(`${new URL(page.url()).pathname}: ${ring.what}`);
    if (await isTarget()) return;
  }
  throw new Error(`not reached with ${max} presses of Tab on ${page.url()}`);
}
