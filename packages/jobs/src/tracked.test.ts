import { IngestMajorJob, INGESTION_QUEUE } from '@ct/contracts';
import { BullQueue, MemoryQueue, PermanentJobError } from '@ct/queue';
import { clearRedisPrefix, TEST_REDIS_URL, uniquePrefix } from '@ct/testkit';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { TrackedJobs, type TrackedRow } from './tracked.ts';

const log = { info: () => {}, warn: () => {} };

/** Request rows kept in a map, as a repository keeps them in a table. */
function rowsOf(...rows: TrackedRow[]) {
  const table = new Map(rows.map((r) => [r.key, { ...r }]));
  const given: string[] = [];
  return {
    table,
    given,
    kind: {
      job: IngestMajorJob,
      queue: INGESTION_QUEUE,
      attempts: 3,
      backoffMs: 10,
      pending: async () => [...table.values()].filter((r) => ['queued', 'running'].includes(r.state)),
      find: async (key: string) => table.get(key) ?? null,
      giveUp: async (key: string) => {
        const r = table.get(key);
        if (r && ['queued', 'running'].includes(r.state)) r.state = 'failed';
        given.push(key);
      },
      data: (r: TrackedRow) => ({ key: r.key, collegeName: 'X', major: 'Y' }),
    },
  };
}

describe('tracked jobs', () => {
  it('the sweep gives a job to each pending row without one, and ends rows whose tries are spent', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table } = rowsOf(
      { key: 'a', state: 'queued', attempts: 0 },
      { key: 'b', state: 'running', attempts: 1 },
      { key: 'c', state: 'running', attempts: 3 },
      { key: 'd', state: 'done', attempts: 1 },
    );
    jobs.track(kind);
    expect(await jobs.sweep()).toBe(2);
    const waiting = await queue.list(INGESTION_QUEUE, ['waiting']);
    expect(waiting.map((j) => j.id).sort()).toEqual(['ingest-major.a', 'ingest-major.b']);
    expect(table.get('c')!.state).toBe('failed');
    // a second sweep joins the live jobs: nothing new
    expect(await jobs.sweep()).toBe(0);
    expect(await queue.counts(INGESTION_QUEUE)).toMatchObject({ waiting: 2 });
    await queue.close();
  });

  it('a job gets only the tries its row has left', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table } = rowsOf({ key: 'a', state: 'queued', attempts: 2 });
    let tries = 0;
    const consumer = queue.process(INGESTION_QUEUE, async () => {
      tries++;
      throw new Error('provider down');
    });
    jobs.track(kind);
    const stop = await jobs.start(0);
    await until(async () => table.get('a')!.state === 'failed');
    expect(tries).toBe(1);
    await stop();
    await consumer.close();
    await queue.close();
  });

  it('a job the queue gave up on ends its row', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table, given } = rowsOf({ key: 'a', state: 'queued', attempts: 0 });
    jobs.track(kind);
    const stop = await jobs.start(0);
    const consumer = queue.process(INGESTION_QUEUE, async () => {
      throw new PermanentJobError('gone');
    });
    await until(async () => given.includes('a'));
    expect(table.get('a')!.state).toBe('failed');
    await stop();
    await consumer.close();
    await queue.close();
  });
});

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('tracked jobs after a partial Redis loss', () => {
  it('a job whose queue state reads unknown counts as lost: the sweep enqueues it again', async () => {
    const prefix = uniquePrefix('lost');
    const queue = new BullQueue({ url: TEST_REDIS_URL, prefix });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const jobs = new TrackedJobs(queue, log);
      const { kind } = rowsOf({ key: 'a', state: 'queued', attempts: 0 });
      jobs.track(kind);
      expect(await jobs.sweep()).toBe(1);
      expect((await queue.getJob(INGESTION_QUEUE, 'ingest-major.a'))?.state).toBe('waiting');
      // The wait lists are lost; the job's own hash survives.
      const keys = await redis.keys(`${prefix}:${INGESTION_QUEUE}:*`);
      const lists = keys.filter((k) => /:(wait|prioritized|paused|marker|pc)$/.test(k));
      expect(lists.length).toBeGreaterThan(0);
      await redis.del(...lists);
      expect((await queue.getJob(INGESTION_QUEUE, 'ingest-major.a'))?.state).toBe('lost');
      // The sweep gives the request its job back, and a worker then runs it.
      expect(await jobs.sweep()).toBe(1);
      expect((await queue.getJob(INGESTION_QUEUE, 'ingest-major.a'))?.state).toBe('waiting');
      const ran: string[] = [];
      const consumer = queue.process(INGESTION_QUEUE, async (job) => {
        ran.push(job.id);
      });
      await until(async () => ran.length > 0, 10_000);
      expect(ran).toEqual(['ingest-major.a']);
      await consumer.close();
    } finally {
      await queue.close();
      redis.disconnect();
      await clearRedisPrefix(prefix);
    }
  });
});
