import { Redis } from 'ioredis';

/**
 * A provider's calls-per-minute limit, counted over every worker process (issue 45). The queue's limiter
 * counted job starts, as if every job made the most calls a job can; a college the shipped snapshot
 * already holds makes no Scorecard call, and 20 replicas did what 1–2 did. Here each call takes a place
 * in the current minute (a Redis counter shared by the workers, or this process's own without Redis); a
 * call past the limit waits for the next minute.
 */
export interface CallLimiter {
  /** Resolves when the call may go. */
  take(): Promise<void>;
  close(): void;
}

const MINUTE_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function callLimiter(opts: {
  provider: string;
  perMinute: number;
  redisUrl?: string | undefined;
  prefix: string;
  now?: () => number;
}): CallLimiter {
  const now = opts.now ?? Date.now;
  const redis = opts.redisUrl ? new Redis(opts.redisUrl, { maxRetriesPerRequest: 2 }) : null;
  redis?.on('error', () => {});
  let local = { minute: -1, count: 0 };
  const count = async (minute: number): Promise<number> => {
    if (redis) {
      const key = `${opts.prefix}:provider-calls:${opts.provider}:${minute}`;
      const [[, n]] = (await redis
        .multi()
        .incr(key)
        .pexpire(key, 2 * MINUTE_MS)
        .exec()) as [[null, number]];
      return n;
    }
    if (local.minute !== minute) local = { minute, count: 0 };
    return ++local.count;
  };
  return {
    async take() {
      for (;;) {
        const t = now();
        const minute = Math.floor(t / MINUTE_MS);
        if ((await count(minute)) <= opts.perMinute) return;
        // Looks again at the next minute's start (at least once a second; a little spread, so the
        // waiting calls of every worker do not all ask Redis at the same instant).
        await sleep(Math.min((minute + 1) * MINUTE_MS - t, 1_000) + Math.floor(Math.random() * 50));
      }
    },
    close() {
      redis?.disconnect();
    },
  };
}
