// Issue 45.3: the Scorecard's calls per minute are counted as calls, over every worker process: two
// limiters on one Redis (two worker replicas) share the minute's places, and a call past them waits for
// the next minute.
import { clearRedisPrefix, TEST_REDIS_URL } from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { callLimiter } from './call-limiter.ts';

const prefix = `calls-${process.pid}`;
afterAll(() => clearRedisPrefix(prefix));

describe('the provider call limiter', () => {
  it('shares one minute of calls between two workers on one Redis, then waits for the next minute', async () => {
    // A clock 600 ms before a minute ends, moving as real time does.
    const start = Date.now();
    const base = (Math.floor(start / 60_000) + 1) * 60_000 - 600;
    const now = () => base + (Date.now() - start);
    const opts = { provider: 'scorecard', perMinute: 3, redisUrl: TEST_REDIS_URL, prefix, now };
    const [one, two] = [callLimiter(opts), callLimiter(opts)];
    try {
      const took: number[] = [];
      const take = async (l: typeof one) => {
        await l.take();
        took.push(now());
      };
      await Promise.all([take(one), take(two), take(one)]);
      expect(took.every((t) => Math.floor(t / 60_000) === Math.floor(base / 60_000))).toBe(true);
      // The fourth call, on either worker, goes in the next minute.
      await take(two);
      expect(Math.floor(took[3]! / 60_000)).toBe(Math.floor(base / 60_000) + 1);
    } finally {
      one.close();
      two.close();
    }
  });

  it('counts in the process without Redis', async () => {
    let t = 1_000 * 60_000;
    const l = callLimiter({ provider: 'x', perMinute: 2, prefix, now: () => t });
    await l.take();
    await l.take();
    let third = false;
    const waiting = l.take().then(() => (third = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(third).toBe(false);
    t += 60_000;
    await waiting;
    expect(third).toBe(true);
  });
});
