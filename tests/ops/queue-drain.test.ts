// Graceful shutdown of job consumers: running jobs get the drain time to finish; what is still running
// then goes back to the queue (no try used) and the next worker finishes it. Nothing is lost.
import { BullQueue, MemoryQueue, type JobContext, type QueueBackend } from '@ct/queue';
import { clearRedisPrefix, TEST_REDIS_URL, uniquePrefix } from '@ct/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './lib/wait.ts';

interface Setup {
  /** Two backends on the same queue store, as two worker processes would have. */
  a: QueueBackend;
  b: QueueBackend;
  cleanup(): Promise<void>;
}

const backends: Array<{ name: string; make: (drainMs: number) => Setup }> = [
  {
    name: 'BullMQ on Redis',
    make: (drainMs) => {
      const prefix = uniquePrefix('drain');
      // Locks far longer than the test: a takeover here can only come from the hand-back.
      const opts = { url: TEST_REDIS_URL, prefix, lockDurationMs: 120_000, drainMs };
      return { a: new BullQueue(opts), b: new BullQueue(opts), cleanup: () => clearRedisPrefix(prefix) };
    },
  },
  {
    name: 'in-process',
    make: (drainMs) => {
      const q = new MemoryQueue(1000, drainMs);
      return { a: q, b: q, cleanup: async () => {} };
    },
  },
];

describe.each(backends)('consumer shutdown: $name', ({ make }) => {
  let setup: Setup | undefined;
  afterEach(async () => {
    if (!setup) return;
    await setup.a.close();
    if (setup.b !== setup.a) await setup.b.close();
    await setup.cleanup();
    setup = undefined;
  });

  it('lets a short job finish before the consumer closes', async () => {
    setup = make(5_000);
    const { a } = setup;
    const finished: string[] = [];
    const consumer = a.process('drain', async (job) => {
      await new Promise((r) => setTimeout(r, 300));
      finished.push(job.id);
    });
    await a.add('drain', 'x', {}, { jobId: 'short' });
    await until(async () => ((await a.counts('drain')).active === 1 ? true : undefined));
    await consumer.close();
    expect(finished).toEqual(['short']);
    expect((await a.getJob('drain', 'short'))?.state).toBe('completed');
  });

  it('hands a job that outlives the drain time back to the queue, and the next worker finishes it', async () => {
    setup = make(300);
    const { a, b } = setup;
    let signal: AbortSignal | undefined;
    const slow = a.process<{ n: number }>('drain', async (job: JobContext<{ n: number }>) => {
      signal = job.signal;
      // Runs until told to stop, like a call to a slow provider that honours the abort signal.
      await new Promise<void>((_, reject) =>
        job.signal?.addEventListener('abort', () => reject(new Error('handed back'))),
      );
    });
    await a.add('drain', 'x', { n: 7 }, { jobId: 'long', attempts: 2 });
    await until(async () => ((await a.counts('drain')).active === 1 ? true : undefined));
    await slow.close();
    expect(signal?.aborted).toBe(true);
    const back = await b.getJob('drain', 'long');
    expect(back?.state).toBe('waiting');
    // Handing back is not a failed try: the job keeps both of its tries.
    expect(back?.attemptsMade).toBe(0);

    const seen: Array<{ n: number; attemptsMade: number }> = [];
    const next = b.process<{ n: number }>('drain', async (job) => {
      seen.push({ n: job.data.n, attemptsMade: job.attemptsMade });
      return 'stored';
    });
    await until(async () => ((await b.getJob('drain', 'long'))?.state === 'completed' ? true : undefined));
    await next.close();
    expect(seen).toEqual([{ n: 7, attemptsMade: 0 }]);
    expect((await b.getJob('drain', 'long'))?.returnValue).toBe('stored');
  });
});
