import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// By path, so that Vite bundles the TypeScript sources into the config (Node does not load .ts packages).
import * as contracts from '../packages/contracts/src/index.ts';
import { precompress } from './precompress.ts';
import { APP_FILE, routePreload } from './preload.ts';

/** The web client's routes (src/api/client.ts) from the route table: name → method, path, where input goes. */
const names = new Map<unknown, string>(Object.entries(contracts).map(([name, value]) => [value, name]));
const apiRoutes = Object.fromEntries(
  contracts.ROUTES.filter((r) => r.access !== 'internal').map((route) => {
    const { method, path, schema } = route;
    const name = names.get(route);
    if (!name) throw new Error(`${method} ${path}: export the route from @ct/contracts by name`);
    return [
      name,
      [method, path, schema.body ? 'body' : schema.querystring || schema.params ? 'query' : null],
    ];
  }),
);

/**
 * Preloads the typeface (the one latin woff2 the global stylesheet names), so text is drawn in it at
 * first paint on most visits instead of swapping a moment later.
 */
function preloadFont(): Plugin {
  return {
    name: 'college-ready:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /latin-wght-normal-.*\.woff2$/.test(f));
        if (!font) throw new Error('the typeface was not bundled: see web/src/styles/fonts.css');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * Marks the entry script and its module preloads low priority: the HTML (the header) and its stylesheet
 * come first, so a slow phone draws them while the JavaScript is still arriving.
 * The scripts still start at once; only their place in the queue changes. The gateway's per-route
 * preloads (gateway/src/plugins/web.ts) carry the same mark.
 */
function scriptsAfterFirstPaint(): Plugin {
  return {
    name: 'college-ready:scripts-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const out = html
          .replace(
            /<script type="module" crossorigin/g,
            '<script type="module" fetchpriority="low" crossorigin',
          )
          .replace(
            /<link rel="modulepreload" crossorigin/g,
            '<link rel="modulepreload" fetchpriority="low" crossorigin',
          );
        if (!out.includes('fetchpriority="low"'))
          throw new Error('index.html: the entry script was not found');
        return out;
      },
    },
  };
}

/**
 * The installable app: the web manifest, and the service worker (web/sw/sw.ts) with Workbox's precache of
 * the shell. A new version waits until the student accepts the update prompt (src/pwa/UpdatePrompt.tsx);
 * the page registers the worker itself, after the load, so a first visit does not pay for it.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    name: 'College Ready',
    short_name: 'College Ready',
    description: 'A free college-application organizer for high-school students.',
    id: '/usercolleges',
    start_url: '/usercolleges',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: '#1d3557',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    // The shell: scripts, styles, the page and the latin typeface (other scripts' subsets load on use).
    globPatterns: ['**/*.{js,css,html}', 'assets/*latin-wght-normal*.woff2', 'favicon.svg', 'icons/*.png'],
    globIgnores: ['licenses/**'],
  },
  devOptions: { enabled: false },
});

// In development Vite serves the app and forwards /api to the gateway (npm start on :8080).
export default defineConfig({
  plugins: [react(), pwa, precompress(), preloadFont(), scriptsAfterFirstPaint(), routePreload(APP_FILE)],
  define: { __API_ROUTES__: JSON.stringify(apiRoutes) },
  // `npm run dev` (scripts/dev.ts) names the gateway's port.
  server: { port: 5173, proxy: { '/api': `http://localhost:${process.env.GATEWAY_PORT ?? 8080}` } },
  build: {
    target: 'es2022',
    sourcemap: false,
    cssCodeSplit: false,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (id.includes('node_modules/firebase') || id.includes('node_modules/@firebase'))
            return 'firebase';
          return undefined;
        },
      },
    },
  },
});
