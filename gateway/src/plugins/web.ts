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
  app.get(
    '/api/public-config',
    { schema: { tags: ['config'], summary: 'Configuration the browser may see' } },
    async () => publicConfig(config),
  );
  await serveWeb(app, config.WEB_DIST);
}

/** Serves the built web app at `/`; unknown non-API GETs get index.html so client routes work on reload. */
export async function serveWeb(app: FastifyInstance, dist: string): Promise<boolean> {
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
  const html = fs.readFileSync(index);
  const htmlBr = zlib.brotliCompressSync(html);
  const htmlGz = zlib.gzipSync(html);
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
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(htmlBr);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(htmlGz);
    return reply.send(html);
  });
  return true;
}
