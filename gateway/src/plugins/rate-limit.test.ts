// The rate limit's counting (the hook itself is tested end to end in tests/hardening/edge.test.ts).
import { randomUUID } from 'node:crypto';
import { TEST_REDIS_URL } from '@ct/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { RateBuckets, RedisRateBuckets } from './rate-limit.ts';

describe('rate limit buckets', () => {
  it('counts per key within a fixed window, then starts again', () => {
    const b = new RateBuckets(60_000);
    expect(b.hit('ana', 1_000)).toEqual({ count: 1, resetMs: 60_000 });
    expect(b.hit('ana', 31_000)).toEqual({ count: 2, resetMs: 30_000 });
    expect(b.hit('ben', 31_000)).toEqual({ count: 1, resetMs: 60_000 });
    // The window is fixed from the first request: not extended by later ones.
    expect(b.hit('ana', 60_999)).toEqual({ count: 3, resetMs: 1 });
    expect(b.hit('ana', 61_000)).toEqual({ count: 1, resetMs: 60_000 });
  });

  it('past its size drops the least recently used bucket, never the one in use', () => {
    const b = new RateBuckets(60_000, 2);
    b.hit('ana', 0);
    b.hit('ana', 0);
    b.hit('ben', 0);
    b.hit('ana', 1); // ana is now the most recent
    b.hit('cy', 2); // drops ben
    expect(b.hit('ana', 3).count).toBe(4);
    expect(b.hit('ben', 3).count).toBe(1);
  });
});

describe('rate limit counts shared in Redis', () => {
  const opened: RedisRateBuckets[] = [];
  afterAll(() => opened.forEach((b) => b.close()));
  const replica = async (prefix: string, max: number) => {
    const b = new RedisRateBuckets(TEST_REDIS_URL, prefix, 60_000, max);
    opened.push(b);
    await b.ready();
    return b;
  };
  const counts = async (b: RedisRateBuckets, key: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await b.hit(key)).count);
    return out;
  };

  it('far from the limit, one round trip serves many requests; near it, every count is exact', async () => {
    const prefix = `rl-${randomUUID().slice(0, 8)}`;
    const [one, two] = await Promise.all([replica(prefix, 3000), replica(prefix, 3000)]);
    const a = await counts(one, 'ana', 200);
    expect(a).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(one.roundTrips).toBeLessThanOrEqual(4); // blocks of 64
    // The other replica's counts follow the reserved ones: never one Redis has not counted.
    const b = await counts(two, 'ana', 10);
    expect(b[0]).toBeGreaterThan(200);
    expect(new Set([...a, ...b]).size).toBe(210);
  });

  it('holds the limit exactly across replicas, however the requests are spread', async () => {
    const prefix = `rl-${randomUUID().slice(0, 8)}`;
    const replicas = await Promise.all([replica(prefix, 100), replica(prefix, 100), replica(prefix, 100)]);
    const seen: number[] = [];
    for (let i = 0; i < 150; i++) seen.push((await replicas[i % 3]!.hit('ben')).count);
    const allowed = seen.filter((c) => c <= 100);
    expect(new Set(allowed).size).toBe(allowed.length); // each count handed out once
    // Counts a replica reserved and did not use refuse early at most a few requests, never let one more in.
    expect(allowed.length).toBeLessThanOrEqual(100);
    expect(allowed.length).toBeGreaterThanOrEqual(90);
    expect(seen.slice(-10).every((c) => c > 100)).toBe(true);
  });
});
