// Issue 45.2: the worker's autoscaler follows the real backlog. Real BullMQ on Redis: jobs added with a
// priority wait in BullMQ's prioritized set, which a Redis list trigger never read; the worker's gauge
// counts them, and the KEDA query of the manifest, computed from the worker's own metrics, counts every
// job waiting or running in the queues the worker serves, and nothing of other queues.
import { ESSAY_EXAMPLES_QUEUE, INGESTION_QUEUE, eventQueueName } from '@ct/contracts';
import { openQueue, type QueueBackend } from '@ct/queue';
import { prom } from '@ct/service-kit';
import { clearRedisPrefix, TEST_REDIS_URL } from '@ct/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORTED_QUEUES, installWorkerMetrics } from '../../services/ingestion-worker/src/metrics.ts';
import { kedaQuery, scalerInput } from './lib/scaler.ts';

const prefix = `scaler-${process.pid}`;
let queue: QueueBackend;
let redis: Redis;

beforeAll(() => {
  queue = openQueue({ url: TEST_REDIS_URL, prefix });
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  await queue?.close();
  redis?.disconnect();
  await clearRedisPrefix(prefix);
});

describe("the worker's autoscaler input", () => {
  it('counts prioritized jobs, in every queue the worker serves, and only those', async () => {
    const add = (q: string, id: string, priority?: number) =>
      queue.add(q, 'job', {}, { jobId: id, ...(priority ? { priority } : {}) });
    // A student's first request: the plain wait list. Their later ones and background enrichment: priorities.
    await add(INGESTION_QUEUE, 'first', undefined);
    for (let i = 0; i < 4; i++) await add(INGESTION_QUEUE, `later-${i}`, 10 + i);
    await add(ESSAY_EXAMPLES_QUEUE, 'essay', 5);
    await add(eventQueueName('user-data'), 'event', undefined);

    // What the old trigger read: the plain wait list alone.
    expect(await redis.llen(`${prefix}:${INGESTION_QUEUE}:wait`)).toBe(1);

    const registry = new prom.Registry();
    installWorkerMetrics(registry, queue);
    const text = await registry.metrics();
    expect(text).toMatch(
      new RegExp(`^college_ready_queue_jobs\\{queue="${INGESTION_QUEUE}",state="waiting"\\} 5$`, 'm'),
    );
    expect(scalerInput(text, kedaQuery())).toBe(6);
    // Every queue's depth is exported, the event queues included.
    for (const q of EXPORTED_QUEUES) expect(text, q).toContain(`queue="${q}"`);
    expect(text).toMatch(/^college_ready_queue_jobs\{queue="events.user-data",state="waiting"\} 1$/m);
  });
});
