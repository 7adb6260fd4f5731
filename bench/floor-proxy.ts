// The distributed floor's front: bare Fastify (no logging, no plugins) forwarding each request to
// bench/floor-service.ts over an undici keep-alive pool, and answering with the service's status,
// content type and body. The same topology as the distributed gateway in front of user-data, from bare
// parts: what this architecture costs at best.
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 50, keepAliveTimeout: 60_000 });

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/api/*', async (request, reply) => {
  const res = await upstream.request({
    method: 'GET',
    path: request.url,
    headers: request.headers.authorization ? { authorization: request.headers.authorization } : {},
  });
  const body = await res.body.text();
  reply.status(res.statusCode);
  const type = res.headers['content-type'];
  if (typeof type === 'string') reply.type(type);
  return reply.send(body);
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const stop = () => void app.close().then(() => upstream.close().finally(() => process.exit(0)));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
