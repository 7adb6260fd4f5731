import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; never a downloaded browser. Override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The screens every page is checked on: a laptop and a phone. */
export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** A date (YYYY-MM-DD) written out as the pages write it: "November 3, 2026". */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });
}

/** Launches headless Chromium with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser context (its own storage) on a base URL, with console errors collected. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  opts: {
    viewport?: { width: number; height: number };
    reducedMotion?: 'reduce' | 'no-preference';
    /** 'block': no service worker (a browser without one, or before it is installed). */
    serviceWorkers?: 'allow' | 'block';
    /** The browser's time zone (IANA id); the host's by default. */
    timezoneId?: string;
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    serviceWorkers: opts.serviceWorkers ?? 'allow',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    reducedMotion: opts.reducedMotion ?? 'no-preference',
    acceptDownloads: true,
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * Notes, for every page of the context from now on, whether `text` was on screen at any moment since the
 * page opened (even for a frame); `wasShown` reads it. For "the next person never sees X" checks.
 */
export async function noteWhetherShown(context: BrowserContext, text: string): Promise<void> {
  await context.addInitScript({
    content: `(() => {
      window.__shown = false;
      new MutationObserver(() => {
        if (document.body && document.body.textContent.includes(${JSON.stringify(text)})) window.__shown = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    })();`,
  });
}

/** Whether the text `noteWhetherShown` watches for was on screen in this page. */
export const wasShown = (page: Page): Promise<boolean> =>
  page.evaluate(() => (window as unknown as { __shown: boolean }).__shown);
