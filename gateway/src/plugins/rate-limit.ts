import type { FastifyReply, FastifyRequest } from 'fastify';
import { addRequestStep } from '@ct/service-kit';
import { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.ts';
import { GATEWAY_MSG } from '../messages.ts';

/** The window RATE_LIMIT_MAX counts over. */
const WINDOW_MS = 60_000;
/**
 * Most buckets held at once; past it the least recently used is dropped (its count starts again). Ten
 * times what @fastify/rate-limit's local store held, so that evicting someone's bucket takes as many
 * distinct signed-in users or addresses within a minute.
 */
const MAX_BUCKETS = 50_000;

interface Bucket {
  count: number;
  /** When the bucket's window started (ms). */
  start: number;
}

/**
 * Fixed-window counters by key, least recently used dropped past `max` buckets: what @fastify/rate-limit's
 * local store does, without its promises (five per request).
 */
export class RateBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly windowMs: number,
    private readonly max = MAX_BUCKETS,
  ) {}

  /** Counts one request of `key`; its count in the window and the ms until the window ends. */
  hit(key: string, now = Date.now()): { count: number; resetMs: number } {
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key); // re-inserted below: the Map's order is the recency order
      if (b.start + this.windowMs <= now) {
        b.count = 1;
        b.start = now;
      } else b.count++;
    } else {
      b = { count: 1, start: now };
      if (this.buckets.size >= this.max) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    this.buckets.set(key, b);
    return { count: b.count, resetMs: b.start + this.windowMs - now };
  }
}

/**
 * Counts of `key` reserved in Redis, shared by every gateway replica (issue 45: with the production HPA's
 * 3–12 replicas, counts in each replica's memory gave a student 3,000 × N requests a minute). The same
 * fixed window as `RateBuckets`: it starts at the key's first request and its key expires with it. One
 * round trip reserves `ARGV[2]` counts (a script: the new total and the time left together).
 */
const RESERVE_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`;

/** Most counts one round trip reserves. */
const MAX_BLOCK = 64;
/**
 * Replicas assumed to share a key's remaining counts: a block is at most the remaining counts over twice
 * this, so the counts a replica reserved but did not use (its student moved to another replica) refuse at
 * most half of what remained early, and none once few remain (blocks of one: every count exact).
 */
const SHARING = 8;

interface Reserved {
  /** The next count to hand out, and the last one reserved. */
  next: number;
  last: number;
  /** When the window ends (ms), as Redis said at the reservation. */
  resetAt: number;
  /** A reservation on its way: requests that find the block used up wait for it. */
  pending: Promise<void> | null;
}

/**
 * Fixed-window counters in Redis under `<prefix>:ratelimit:`; the same answer as `RateBuckets.hit`, but
 * counts are reserved in blocks: far from the limit one round trip serves up to 64 requests of a key, and
 * the block shrinks to one as the limit nears, so no replica ever hands out a count Redis has not counted
 * (the limit holds exactly across replicas) while most requests make no round trip (issue 46: a Redis
 * round trip a request was a tenth of the distributed gateway's CPU).
 */
export class RedisRateBuckets {
  private readonly redis: Redis;
  private readonly reserved = new Map<string, Reserved>();
  /** Round trips made to reserve counts (what blocks save). */
  roundTrips = 0;
  constructor(
    url: string,
    private readonly prefix: string,
    private readonly windowMs: number,
    private readonly max: number,
  ) {
    // A request never waits on a Redis that is away: commands fail at once and the caller counts locally.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => {});
    this.redis.defineCommand('rateReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
  }

  /** Counts one request of `key`: from this replica's block when it has one (no promise), else after a round trip. */
  hit(
    key: string,
    now = Date.now(),
  ): { count: number; resetMs: number } | Promise<{ count: number; resetMs: number }> {
    const r = this.reserved.get(key);
    if (r && r.next <= r.last && now < r.resetAt) return { count: r.next++, resetMs: r.resetAt - now };
    if (r?.pending) return r.pending.then(() => this.hit(key));
    return this.reserve(key, r, now).then(() => this.hit(key));
  }

  private reserve(key: string, r: Reserved | undefined, now: number): Promise<void> {
    const known = r && now < r.resetAt ? r.last : 0;
    const block = Math.max(1, Math.min(MAX_BLOCK, Math.floor((this.max - known) / (2 * SHARING))));
    const entry: Reserved = r ?? { next: 1, last: 0, resetAt: 0, pending: null };
    if (!r) {
      if (this.reserved.size >= MAX_BUCKETS)
        this.reserved.delete(this.reserved.keys().next().value as string);
      this.reserved.set(key, entry);
    }
    this.roundTrips++;
    entry.pending = (
      this.redis as unknown as { rateReserve(k: string, ms: number, n: number): Promise<[number, number]> }
    )
      .rateReserve(`${this.prefix}:ratelimit:${key}`, this.windowMs, block)
      .then(
        ([total, ttl]) => {
          entry.last = total;
          entry.next = total - block + 1;
          entry.resetAt = Date.now() + ttl;
          entry.pending = null;
        },
        (err: unknown) => {
          entry.pending = null;
          throw err;
        },
      );
    return entry.pending;
  }

  /** Resolves once the connection to Redis is up (until then a hit fails at once, and is counted locally). */
  ready(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.redis.once('ready', () => resolve()));
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** Below this share of the window's requests left, answers say how many remain (ADR 0100). */
const TELL_BELOW = 0.2;

/**
 * RATE_LIMIT_MAX requests a minute per user (per address when signed out), counted in Redis across every
 * gateway replica when REDIS_URL is set, in memory otherwise; internal calls are exempt. It
 * counts every request as it arrives, right after the token is read (onRequest, after the identity hook):
 * answers refused for bad input, a bad token or someone else's data (400, 401, 403) cost a request too,
 * so probing is as limited as using.
 *
 * The limit is told in the IETF form (draft-ietf-httpapi-ratelimit-headers: one combined `RateLimit`
 * field and its `RateLimit-Policy`) only when it tells the client something: with under a fifth of the
 * window left, and on a refusal, which also says when to retry (`retry-after`). Three headers on every
 * answer cost every request for nothing (issue 46).
 *
 * Its own hook rather than @fastify/rate-limit (same counting): the plugin's hook makes five promises a
 * request, a measurable share of the gateway's cost per request (docs/performance.md).
 */
export default fp<{ config: GatewayConfig }>(async (app, { config }) => {
  const max = config.RATE_LIMIT_MAX;
  const policy = `${max};w=${WINDOW_MS / 1000}`;
  const tellFrom = Math.floor(max * (1 - TELL_BELOW));
  const buckets = new RateBuckets(WINDOW_MS);
  // With Redis (the distributed run, or an embedded run given REDIS_URL) the count is every replica's;
  // while Redis cannot answer, each replica counts alone rather than refuse or wait.
  const shared = config.REDIS_URL
    ? new RedisRateBuckets(config.REDIS_URL, config.QUEUE_PREFIX, WINDOW_MS, max)
    : null;
  if (shared) app.addHook('onClose', async () => shared.close());
  let warned = false;

  const decide = (reply: FastifyReply, count: number, resetMs: number): Error | undefined => {
    if (count <= tellFrom) return undefined;
    const resetS = Math.ceil(resetMs / 1000);
    const remaining = Math.max(0, max - count);
    reply.headers({
      ratelimit: `limit=${max}, remaining=${remaining}, reset=${resetS}`,
      'ratelimit-policy': policy,
    });
    if (count <= max) return undefined;
    reply.header('retry-after', String(resetS));
    return Object.assign(new Error(GATEWAY_MSG.tooManyRequests(resetS)), {
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
  };

  // A step of the app's one onRequest hook (service-kit's request steps), after the identity.
  addRequestStep(app, (request: FastifyRequest, reply: FastifyReply) => {
    if (request.internal) return undefined;
    const key = request.auth?.uid ?? request.ip;
    if (!shared) {
      const { count, resetMs } = buckets.hit(key);
      return decide(reply, count, resetMs);
    }
    const counted = shared.hit(key);
    if (!(counted instanceof Promise)) return decide(reply, counted.count, counted.resetMs);
    return counted.then(
      ({ count, resetMs }) => decide(reply, count, resetMs),
      (err: unknown) => {
        if (!warned) app.log.warn({ err }, 'rate limit: Redis did not answer; counting in this replica');
        warned = true;
        const { count, resetMs } = buckets.hit(key);
        return decide(reply, count, resetMs);
      },
    );
  });
});
