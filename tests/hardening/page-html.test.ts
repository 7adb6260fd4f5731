// The HTML the gateway serves for each client route: the public configuration inside it (so the app starts
// without a second request), the route's own page files named for download beside the entry, and nothing in
// the configuration able to break out of its data block. `npm test` builds web/dist first.
import fs from 'node:fs';
import path from 'node:path';
import type { PublicConfig } from '@ct/contracts';
import { gatewaySuite, WEB_DIST } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { pagesHtml } from '../../gateway/src/plugins/web.ts';
import { routePages } from '../../web/preload.ts';

const page = (url: string) => fetch(url).then(async (r) => ({ status: r.status, html: await r.text() }));
const configIn = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="public-config">(.*?)<\/script>/.exec(html)![1]!,
  ) as PublicConfig;
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1]!,
  );

describe('the HTML of each route', () => {
  const { gw } = gatewaySuite({ listen: true, queue: 'memory', env: { RUN_WORKER: 'false' } });

  it('carries the same public configuration /api/public-config answers', async () => {
    const fromApi = (await (await fetch(`${gw.url}/api/public-config`)).json()) as PublicConfig;
    for (const url of ['/', '/usercolleges', '/no-such-page']) {
      const { status, html } = await page(`${gw.url}${url}`);
      expect(status).toBe(200);
      expect(configIn(html)).toEqual(fromApi);
    }
  });

  it("names the route's own page chunk, and only that page's", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(WEB_DIST, 'preload.json'), 'utf8')) as Record<
      string,
      { js: string[]; css: string[] }
    >;
    // What index.html itself preloads (the entry's own imports) is on every page; the rest is the route's.
    const entry = preloads((await page(`${gw.url}/no-such-page`)).html);
    const own = (html: string) => preloads(html).filter((f) => !entry.includes(f));
    const dashboard = own((await page(`${gw.url}/usercolleges`)).html);
    expect(dashboard.some((f) => /\/assets\/Dashboard-[\w-]+\.js$/.test(f))).toBe(true);
    expect(dashboard.some((f) => /\/assets\/Login-/.test(f))).toBe(false);
    // A returning student's page draws before the Firebase SDK is loaded (it starts after the page has
    // loaded), and the home page never needs it first: neither names it. The login page uses it at once.
    expect(dashboard.some((f) => /\/assets\/firebase-/.test(f))).toBe(false);
    expect(own((await page(`${gw.url}/`)).html).some((f) => /\/assets\/firebase-/.test(f))).toBe(false);
    expect(dashboard).toEqual(manifest['/usercolleges']!.js);
    const login = (await page(`${gw.url}/login?next=%2Fprofile`)).html;
    expect(own(login).some((f) => /\/assets\/Login-[\w-]+\.js$/.test(f))).toBe(true);
    // One stylesheet for the whole app (cssCodeSplit off, under 10 KB compressed): a page never waits for a
    // page's own stylesheet, and a slow phone's few connections go to the scripts.
    expect(Object.values(manifest).every((r) => r.css.length === 0)).toBe(true);
    for (const html of [login, (await page(`${gw.url}/usercolleges`)).html])
      expect(html.match(/<link rel="(?:stylesheet|preload" as="style)"/g)).toHaveLength(1);
    // A path the app does not know gets the page without any page's files: the app shows Not Found.
    expect(entry).toEqual(preloads(fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8')));
    // Every file named is served.
    for (const file of new Set([...dashboard, ...own(login)]))
      expect((await fetch(`${gw.url}${file}`)).status).toBe(200);
  });

  it('asks for its scripts after the HTML and stylesheets, so a slow phone draws the page first', async () => {
    for (const url of ['/', '/login', '/usercolleges', '/profile', '/no-such-page']) {
      const { html } = await page(`${gw.url}${url}`);
      const scripts = [...html.matchAll(/<script type="module"[^>]*>|<link rel="modulepreload"[^>]*>/g)];
      expect(scripts.length, url).toBeGreaterThan(1);
      for (const [tag] of scripts) expect(tag, url).toContain('fetchpriority="low"');
      // Stylesheets keep their place: a page is never drawn unstyled.
      expect(html, url).not.toMatch(/<link rel="stylesheet"[^>]*fetchpriority/);
    }
  });

  it('reads every route of App.tsx, so a new page is preloaded too', () => {
    const app = fs.readFileSync(path.join(WEB_DIST, '../src/App.tsx'), 'utf8');
    const routes = routePages(app);
    const declared = [...app.matchAll(/path: '(\/[^']*)'/g)].map((m) => m[1]);
    expect([...routes.keys()].sort()).toEqual([...declared].sort());
    expect(routes.get('/usercolleges')).toEqual({ page: 'Dashboard', signedIn: true });
    expect(routes.get('/')).toEqual({ page: 'Home', signedIn: false });
  });
});

describe('the configuration block', () => {
  const index = '<!doctype html><html><head><title>t</title></head><body><div id="root"></div></body></html>';
  const config = {
    productName: 'Ready</script><script>alert(1)</script> & <!-- \u2028',
    supportEmail: 'help@example.org',
  } as unknown as PublicConfig;

  it('cannot be closed or turned into markup by what the configuration holds', () => {
    const { base } = pagesHtml(index, {}, config);
    const block = /<script type="application\/json" id="public-config">(.*?)<\/script>/s.exec(base)![1]!;
    expect(block).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(block)).toEqual(config);
    expect(base.match(/<script/g)).toHaveLength(1);
  });

  it('is left out when the gateway has none to give, and the app asks for it instead', () => {
    const { base, routes } = pagesHtml(index, { '/x': { js: ['/assets/X.js'], css: [] } }, null);
    expect(base).toBe(index);
    expect(routes.get('/x')).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/X.js">',
    );
  });
});
