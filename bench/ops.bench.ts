// Component benchmark (not in the default run: `npm run bench -- ops`).
// Operations figures: how fast a job a stopping worker could not finish runs again elsewhere (hand-back
// vs. the crash path, which waits for the lock to expire), what a Prometheus scrape of the worker costs
// (the queue gauge reads Redis at scrape time), and what the per-request hooks (metrics, in-flight
// gauge, request-id context) leave of a bare health route's throughput.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { INGESTION_QUEUE } from '../packages/contracts/src/index.ts';
import { BullQueue } from '../packages/queue/src/index.ts';
import { createBaseApp, installQueueMetrics } from '../packages/service-kit/src/index.ts';
import { clearRedisPrefix, TEST_REDIS_URL, uniquePrefix } from '../tests/kit/src/index.ts';
import { fmt, load, report } from './lib.ts';

export const inDefaultRun = false;

async function handBackMs(): Promise<number> {
  const prefix = uniquePrefix('bench-ops');
  // A lock far longer than the measurement: only the hand-back can move the job.
  const opts = { url: TEST_REDIS_URL, prefix, lockDurationMs: 60_000, drainMs: 0 };
  const a = new BullQueue(opts);
  const b = new BullQueue(opts);
  try {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const stuck = a.process('handback', async (job) => {
      started();
      await new Promise<void>((_, reject) =>
        job.signal?.addEventListener('abort', () => reject(new Error('stop'))),
      );
    });
    await a.add('handback', 'x', {}, { jobId: 'j1' });
    await running;
    let picked!: () => void;
    const pickedUp = new Promise<void>((r) => (picked = r));
    const next = b.process('handback', async () => picked());
    const t0 = performance.now();
    await stuck.close();
    await pickedUp;
    const ms = performance.now() - t0;
    await next.close();
    return ms;
  } finally {
    await a.close();
    await b.close();
    await clearRedisPrefix(prefix);
  }
}

export async function run(): Promise<void> {
  const runs = [await handBackMs(), await handBackMs(), await handBackMs()].sort((x, y) => x - y);
  report('hand-back: job running on the next worker', `${fmt(runs[1]!)} ms`, '<= 1,000 ms', runs[1]! <= 1000);
  // For comparison, a crashed worker's job waits for its lock to expire: about QUEUE_LOCK_MS (30 s).

  // A worker-like app: base metrics plus the queue gauge over Redis.
  const prefix = uniquePrefix('bench-ops');
  const queue = new BullQueue({ url: TEST_REDIS_URL, prefix });
  const metricsToken = randomBytes(32).toString('hex');
  const app = createBaseApp({
    name: 'bench',
    logLevel: 'silent',
    internalToken: randomBytes(32).toString('hex'),
    metricsToken,
  });
  installQueueMetrics(app.metricsRegistry, queue, [INGESTION_QUEUE, 'events.essays', 'events.user-data']);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/healthz', async () => ({ success: true, status: 'ok' }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const scrape = await load({
      url: `${url}/metrics`,
      connections: 4,
      duration: 5,
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    report(
      'GET /metrics with the queue gauge (4 conn.)',
      `p50 ${fmt(scrape.p50, 1)} ms`,
      'p99 <= 50 ms',
      scrape.p99 <= 50,
    );
    report('  p99 / errors', `${fmt(scrape.p99, 1)} ms / ${scrape.errors + scrape.non2xx}`);
    const duration = Number(process.env.BENCH_SECONDS ?? 8);
    await load({ url: `${bareUrl}/healthz`, duration: 2 });
    const b = await load({ url: `${bareUrl}/healthz`, duration });
    await load({ url: `${url}/healthz`, duration: 2 });
    const s = await load({ url: `${url}/healthz`, duration });
    report('bare Fastify /healthz (50 conn.)', `${fmt(b.rps)} req/s`);
    report('service /healthz, all hooks, logs off', `${fmt(s.rps)} req/s`);
    report('  ratio service / bare', `${fmt((s.rps / b.rps) * 100, 1)} %`, '>= 50 %', s.rps / b.rps >= 0.5);
  } finally {
    await app.close();
    await bare.close();
    await queue.close();
    await clearRedisPrefix(prefix);
  }
}
