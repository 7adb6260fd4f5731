import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { noRouteMessage } from '@ct/service-kit';
import type { FastifyInstance } from 'fastify';

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
