import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { PublicConfig } from '@ct/contracts';
import { noRouteMessage } from '@ct/service-kit';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.ts';

function publicConfig(c: GatewayConfig): PublicConfig {
  return {
    productName: c.PRODUCT_NAME,
    firebase: {
      apiKey: c.FIREBASE_API_KEY,
      authDomain: c.FIREBASE_AUTH_DOMAIN ?? `${c.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      projectId: c.FIREBASE_PROJECT_ID,
      emulatorUrl:
        c.FIREBASE_AUTH_EMULATOR_URL ??
        (c.FIREBASE_AUTH_EMULATOR_HOST ? `http://${c.FIREBASE_AUTH_EMULATOR_HOST}` : null),
    },
    supportEmail: c.SUPPORT_EMAIL,
    faqEmail: c.FAQ_EMAIL,
    donateUrl: c.DONATE_URL,
    builderUrl: c.BUILDER_URL,
  };
}

/** What the browser needs from the server: its configuration, and the built web app. */
export default async function web(
  app: FastifyInstance,
  { config }: { config: GatewayConfig },
): Promise<void> {
  // Built once: the same object answers /api/public-config and is written into every page's HTML.
  const browserConfig = publicConfig(config);
  app.get(
    '/api/public-config',
    { schema: { tags: ['config'], summary: 'Configuration the browser may see', security: [] } },
    async () => browserConfig,
  );
  await serveWeb(app, config.WEB_DIST, browserConfig);
}

interface RoutePreload {
  js: string[];
  css: string[];
}

/** JSON that is safe inside a `<script>` element: nothing in it can close the element or start markup. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The HTML for each client route, built once at start: index.html with the public configuration inside
 * it (a JSON data block, never run as script), so the app starts without asking for it, and with the
 * route's own page files named for download beside the entry (`preload.json`, written by the web build).
 * Scripts are low priority, as the web build marks the entry: the HTML and stylesheets are drawn first.
 */
export function pagesHtml(
  indexHtml: string,
  preload: Record<string, RoutePreload>,
  config: PublicConfig | null,
): { base: string; routes: Map<string, string> } {
  const withConfig = config
    ? indexHtml.replace(
        '</head>',
        `<script type="application/json" id="public-config">${scriptJson(config)}</script></head>`,
      )
    : indexHtml;
  const routes = new Map<string, string>();
  for (const [route, files] of Object.entries(preload)) {
    const links = [
      ...files.js.map((f) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${attr(f)}">`),
      ...files.css.map((f) => `<link rel="preload" as="style" href="${attr(f)}">`),
    ].join('');
    routes.set(route, withConfig.replace('</head>', `${links}</head>`));
  }
  return { base: withConfig, routes };
}

/** One HTML body in the three encodings a browser may accept, compressed once. */
function encoded(html: string) {
  const raw = Buffer.from(html);
  return { raw, br: zlib.brotliCompressSync(raw), gz: zlib.gzipSync(raw) };
}

/** Serves the built web app at `/`; unknown non-API GETs get index.html so client routes work on reload. */
export async function serveWeb(
  app: FastifyInstance,
  dist: string,
  config: PublicConfig | null = null,
): Promise<boolean> {
  const root = path.resolve(dist);
  const index = path.join(root, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ root }, 'web build not found: run `npm run build -w web`; serving the API only');
    return false;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The web build writes .br and .gz beside each asset (web/precompress.ts).
    preCompressed: true,
    setHeaders(res, filePath) {
      // Hashed assets never change; index.html must always be revalidated.
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  const preloadFile = path.join(root, 'preload.json');
  const preload = fs.existsSync(preloadFile)
    ? (JSON.parse(fs.readFileSync(preloadFile, 'utf8')) as Record<string, RoutePreload>)
    : {};
  const pages = pagesHtml(fs.readFileSync(index, 'utf8'), preload, config);
  const base = encoded(pages.base);
  const byRoute = new Map([...pages.routes].map(([route, html]) => [route, encoded(html)]));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url === '/api') {
      return reply
        .status(404)
        .send({ success: false, message: noRouteMessage(request.method, url), code: 'NOT_FOUND' });
    }
    const file = path.join(root, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    if (url !== '/' && file.startsWith(root) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(root, file));
    }
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8');
    // A student's share link (issue 33) and the weekly e-mail's stop link: never kept by a cache, never
    // indexed, and their token never sent on to another site as a referrer.
    if (url.startsWith('/shared/') || url.startsWith('/email-digest/'))
      reply
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .header('referrer-policy', 'no-referrer');
    const html = byRoute.get(url) ?? base;
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(html.br);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(html.gz);
    return reply.send(html.raw);
  });
  return true;
}
