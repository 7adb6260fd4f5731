// The rate limit's counting (the hook itself is tested end to end in tests/hardening/edge.test.ts).
import { describe, expect, it } from 'vitest';
import { RateBuckets } from './rate-limit.ts';

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
