// The reference of every throughput figure: Fastify with one hello route, no logging, no plugins, in a
// process of its own (bench/servers.ts starts it). A second route, `/answer`, answers with whatever body
// and headers the benchmark stored with `PUT /answer` (a copy of one of our answers, headers included):
// bare Fastify sending the same bytes, to tell the cost of the answer's size from the gateway's own work.
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.get('/hello', async () => ({ hello: 'world' }));

let answer: { headers: Record<string, string>; body: unknown } = { headers: {}, body: {} };
app.put('/answer', async (request) => {
  answer = request.body as typeof answer;
  return { ok: true };
});
app.get('/answer', async (_request, reply) => {
  reply.headers(answer.headers);
  return answer.body;
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
