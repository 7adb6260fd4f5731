import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What a first visit to one client route should fetch beside the entry: its page chunk, its imports, its CSS. */
export interface RoutePreload {
  js: string[];
  css: string[];
}

/** `{ path: '/x', chunk: () => import('./pages/Page'), signedIn: true }` in App.tsx's `PAGES`. */
const ROUTE =
  /\{\s*path:\s*'(\/[^']*)',\s*chunk:\s*\(\)\s*=>\s*import\('\.\/pages\/(\w+)'\)(,\s*signedIn:\s*true)?\s*\}/g;

/** The client routes of App.tsx (its `PAGES` table) and the page each one renders (not the catch-all). */
export function routePages(appSource: string): Map<string, { page: string; signedIn: boolean }> {
  return new Map(
    [...appSource.matchAll(ROUTE)].map((m) => [m[1]!, { page: m[2]!, signedIn: Boolean(m[3]) }]),
  );
}

/** The module the session loads after the first screen (the Firebase SDK): see src/auth/session.tsx. */
const SESSION_MODULE = '/src/firebase.ts';

/**
 * Writes `preload.json`: for each route of App.tsx, the files of its lazily loaded page (the chunk, what it
 * imports statically, its stylesheets) that the entry does not already load. The gateway names them in
 * the HTML it serves for that route, so the page downloads beside the entry instead of after it has run.
 * The session's Firebase chunk is named only where the page itself imports it (/login): a returning
 * student's page draws from the session stored on the device and loads the SDK after the page has loaded
 * (src/auth/session.tsx), so preloading it would only take a slow phone's bandwidth from the page.
 */
export function routePreload(appFile: string): Plugin {
  return {
    name: 'college-ready:route-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      const routes = routePages(fs.readFileSync(appFile, 'utf8'));
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const queue = [...start];
        while (queue.length) {
          const file = queue.shift()!;
          if (seen.has(file)) continue;
          seen.add(file);
          queue.push(...(byFile.get(file)?.imports ?? []));
        }
        return seen;
      };
      const initial = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const out: Record<string, RoutePreload> = {};
      const session = chunks.find((c) => c.moduleIds.some((m) => m.endsWith(SESSION_MODULE)));
      if (!session || initial.has(session.fileName))
        throw new Error(`${SESSION_MODULE} should be loaded lazily, not with the entry`);
      for (const [route, { page }] of routes) {
        const chunk = chunks.find(
          (c) => c.isDynamicEntry && c.facadeModuleId?.endsWith(`/src/pages/${page}.tsx`),
        );
        if (!chunk) throw new Error(`route ${route}: no lazy chunk for page ${page} (see App.tsx)`);
        const js = [...closure([chunk.fileName])].filter((f) => !initial.has(f));
        const css = js.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
        out[route] = { js: js.map((f) => `/${f}`), css: [...new Set(css)].map((f) => `/${f}`) };
      }
      if (Object.keys(out).length < 5) throw new Error(`App.tsx: only ${routes.size} routes were read`);
      this.emitFile({ type: 'asset', fileName: 'preload.json', source: JSON.stringify(out, null, 1) });
    },
  };
}

export const APP_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), 'src/App.tsx');
