import { clearRedisPrefix, TEST_REDIS_URL, uniquePrefix } from '@ct/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { BullQueue, MemoryQueue, PermanentJobError, type QueueBackend, type QueueEvent } from './index.ts';

const backends: Array<{ name: string; make: () => { q: QueueBackend; cleanup: () => Promise<void> } }> = [
  { name: 'in-process', make: () => ({ q: new MemoryQueue(), cleanup: async () => {} }) },
  {
    name: 'BullMQ on Redis',
    make: () => {
      const prefix = uniquePrefix('qc');
      return {
        q: new BullQueue({ url: TEST_REDIS_URL, prefix, lockDurationMs: 2000, stalledIntervalMs: 1000 }),
        cleanup: () => clearRedisPrefix(prefix),
      };
    },
  },
];

function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      const v = await fn();
      if (v !== undefined && v !== false) return resolve(v);
      if (Date.now() - start > ms) return reject(new Error('timed out waiting'));
      setTimeout(tick, 25);
    };
    void tick();
  });
}

describe.each(backends)('queue contract: $name', ({ make }) => {
  let q: QueueBackend;
  let cleanup: () => Promise<void>;
  const open = () => {
    ({ q, cleanup } = make());
    return q;
  };
  afterEach(async () => {
    await q.close();
    await cleanup();
  });

  it('dedupes adds with the same job id while the job is unfinished', async () => {
    open();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        q.add('ingestion', 'ingest-college', { name: 'Yale' }, { jobId: 'yale' }),
      ),
    );
    expect(results.every((r) => r.jobId === 'yale')).toBe(true);
    const counts = await q.counts('ingestion');
    expect(counts.waiting).toBe(1);
    const job = await q.getJob<{ name: string }>('ingestion', 'yale');
    expect(job).toMatchObject({
      id: 'yale',
      name: 'ingest-college',
      state: 'waiting',
      data: { name: 'Yale' },
    });
  });

  it('runs a job, reports completion with its return value, and a finished id can be added again', async () => {
    open();
    const events: QueueEvent[] = [];
    await q.on('work', (e) => events.push(e));
    const consumer = q.process<{ n: number }>('work', async (job) => ({ doubled: job.data.n * 2 }), {
      concurrency: 2,
    });
    await q.add('work', 'double', { n: 21 }, { jobId: 'j1' });
    const done = await until(() => events.find((e) => e.jobId === 'j1' && e.type === 'completed'));
    expect(done.returnValue).toEqual({ doubled: 42 });
    expect((await q.getJob('work', 'j1'))?.state).toBe('completed');
    const again = await q.add('work', 'double', { n: 1 }, { jobId: 'j1' });
    expect(again.added).toBe(true);
    await until(
      () => events.filter((e) => e.jobId === 'j1' && e.type === 'completed').length === 2 || undefined,
    );
    await consumer.close();
  });

  it('retries with exponential backoff, then fails for good with the last reason', async () => {
    open();
    const tries: number[] = [];
    const events: QueueEvent[] = [];
    await q.on('flaky', (e) => events.push(e));
    const consumer = q.process('flaky', async (job) => {
      tries.push(Date.now());
      throw new Error(`provider down (try ${job.attemptsMade + 1})`);
    });
    await q.add('flaky', 'x', {}, { jobId: 'f1', attempts: 3, backoffMs: 200 });
    const final = await until(() => events.find((e) => e.type === 'failed' && e.final));
    expect(final.failedReason).toBe('provider down (try 3)');
    expect(tries).toHaveLength(3);
    // second gap is about twice the first (200 ms, then 400 ms)
    const [g1, g2] = [tries[1]! - tries[0]!, tries[2]! - tries[1]!];
    expect(g1).toBeGreaterThanOrEqual(180);
    expect(g2).toBeGreaterThanOrEqual(380);
    const job = await q.getJob('flaky', 'f1');
    expect(job).toMatchObject({ state: 'failed', attemptsMade: 3, failedReason: 'provider down (try 3)' });
    await consumer.close();
  });

  it('fails at once on a permanent error', async () => {
    open();
    let tries = 0;
    const consumer = q.process('perm', async () => {
      tries++;
      throw new PermanentJobError('no such college');
    });
    await q.add('perm', 'x', {}, { jobId: 'p1', attempts: 5, backoffMs: 50 });
    const job = await until(async () => {
      const j = await q.getJob('perm', 'p1');
      return j?.state === 'failed' ? j : undefined;
    });
    expect(job.failedReason).toBe('no such college');
    expect(tries).toBe(1);
    await consumer.close();
  });

  it('respects concurrency and lists jobs by state', async () => {
    open();
    let running = 0;
    let peak = 0;
    const consumer = q.process(
      'conc',
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 50));
        running--;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 9; i++) await q.add('conc', 'x', { i }, { jobId: `c${i}` });
    await until(async () => ((await q.counts('conc')).completed === 9 ? true : undefined));
    expect(peak).toBe(3);
    const listed = await q.list('conc', ['completed'], 5);
    expect(listed).toHaveLength(5);
    await consumer.close();
  });

  it('a limiter holds for the whole queue, across two consumers', async () => {
    open();
    const starts: number[] = [];
    const limiter = { max: 2, durationMs: 1000 };
    const handler = async () => {
      starts.push(Date.now());
    };
    const consumers = [
      q.process('limited', handler, { concurrency: 4, limiter }),
      q.process('limited', handler, { concurrency: 4, limiter }),
    ];
    for (let i = 0; i < 6; i++) await q.add('limited', 'x', { i }, { jobId: `l${i}` });
    await until(() => (starts.length === 6 ? true : undefined));
    // Eight free slots, but two starts a second: three windows, whichever consumer took the jobs.
    const [t0, , t2, , t4] = starts.sort((a, b) => a - b);
    expect(t2! - t0!).toBeGreaterThanOrEqual(900);
    expect(t4! - t2!).toBeGreaterThanOrEqual(900);
    await Promise.all(consumers.map((c) => c.close()));
  });

  it('runs waiting jobs by priority, first come first served within one', async () => {
    open();
    const order: string[] = [];
    await q.add('prio', 'x', {}, { jobId: 'bg1', priority: 1000 });
    await q.add('prio', 'x', {}, { jobId: 'a2', priority: 2 });
    await q.add('prio', 'x', {}, { jobId: 'bg2', priority: 1000 });
    await q.add('prio', 'x', {}, { jobId: 'b1', priority: 1 });
    await q.add('prio', 'x', {}, { jobId: 'plain' });
    const consumer = q.process('prio', async (job) => {
      order.push(job.id);
    });
    await until(() => (order.length === 5 ? true : undefined));
    expect(order).toEqual(['b1', 'plain', 'a2', 'bg1', 'bg2']);
    await consumer.close();
  });

  it('graceful close lets the running job finish', async () => {
    open();
    let finished = false;
    const consumer = q.process('slow', async () => {
      await new Promise((r) => setTimeout(r, 300));
      finished = true;
    });
    await q.add('slow', 'x', {}, { jobId: 's1' });
    await until(async () => ((await q.counts('slow')).active === 1 ? true : undefined));
    await consumer.close();
    expect(finished).toBe(true);
    expect((await q.getJob('slow', 's1'))?.state).toBe('completed');
  });
});

describe('BullMQ specifics', () => {
  it('a job held by a crashed worker is taken over by the next one', async () => {
    const prefix = uniquePrefix('qs');
    const opts = { url: TEST_REDIS_URL, prefix, lockDurationMs: 1000, stalledIntervalMs: 500 };
    const a = new BullQueue(opts);
    const b = new BullQueue(opts);
    try {
      let started = false;
      // worker A takes the job and never finishes it (as if killed); force-close hands nothing back
      const hang = a.process('crash', async () => {
        started = true;
        await new Promise(() => {});
      });
      await a.add('crash', 'x', { v: 1 }, { jobId: 'k1', attempts: 3 });
      await until(() => started || undefined);
      await hang.close(true);
      const done: string[] = [];
      const consumer = b.process('crash', async (job) => {
        done.push(job.id);
      });
      await until(() => (done.includes('k1') ? true : undefined), 20_000);
      expect((await b.getJob('crash', 'k1'))?.state).toBe('completed');
      await consumer.close();
    } finally {
      await a.close();
      await b.close();
      await clearRedisPrefix(prefix);
    }
  });
});
