import type { FastifyReply, FastifyRequest } from 'fastify';
import { addRequestStep } from '@ct/service-kit';
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

/** Below this share of the window's requests left, answers say how many remain (ADR 0100). */
const TELL_BELOW = 0.2;

/**
 * RATE_LIMIT_MAX requests a minute per user (per address when signed out); internal calls are exempt. It
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
  // A step of the app's one onRequest hook (service-kit's request steps), after the identity.
  addRequestStep(app, (request: FastifyRequest, reply: FastifyReply) => {
    if (request.internal) return undefined;
    const { count, resetMs } = buckets.hit(request.auth?.uid ?? request.ip);
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
  });
});
