import { timingSafeEqual } from 'node:crypto';
import type { QueueBackend } from '@ct/queue';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { KIT_MSG } from './messages.ts';
import { addRequestStep } from './request-steps.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's Prometheus registry, for plugins and workers that add their own metrics. */
    metricsRegistry: client.Registry;
  }
}

let defaultsCollected = false;

/** A route's counts since the metrics were last read. */
interface RouteTally {
  labels: { method: string; route: string; service: string };
  statuses: Map<number, number>;
  errors: number;
  /** Requests by latency bucket (the last: over the last bound); cumulative only when read. */
  buckets: number[];
  /** Seconds, all requests. */
  sum: number;
}

/** Upper bounds (s) of `college_ready_http_request_duration_seconds`. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DURATION = 'college_ready_http_request_duration_seconds';
/** Request decoration: counted in `college_ready_http_requests_in_flight` and not yet counted out. */
const IN_FLIGHT = Symbol('metrics.inFlight');

/**
 * `college_ready_http_request_duration_seconds` read from the routes' tallies: what prom-client's Histogram exposes
 * (cumulative `_bucket` by `le`, `_sum`, `_count`), without a label set hashed per request.
 */
function routeHistogram(tallies: Map<string, RouteTally>) {
  return {
    name: DURATION,
    help: 'HTTP request latency',
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> =
        [];
      for (const t of tallies.values()) {
        let count = 0;
        BUCKETS.forEach((le, i) => {
          count += t.buckets[i]!;
          values.push({ labels: { ...t.labels, le }, value: count, metricName: `${DURATION}_bucket` });
        });
        count += t.buckets[BUCKETS.length]!;
        values.push({ labels: { ...t.labels, le: '+Inf' }, value: count, metricName: `${DURATION}_bucket` });
        values.push({ labels: t.labels, value: t.sum, metricName: `${DURATION}_sum` });
        values.push({ labels: t.labels, value: count, metricName: `${DURATION}_count` });
      }
      return { name: DURATION, help: 'HTTP request latency', type: 'histogram', values, aggregator: 'sum' };
    },
    reset() {
      for (const t of tallies.values()) {
        t.buckets.fill(0);
        t.sum = 0;
      }
    },
  };
}

export interface MetricsOptions {
  /** Label for routes that belong to no service of the route table (health, docs): the process name. */
  process?: string;
  /** Reported by `college_ready_app_info`, so dashboards can tell which build is running. */
  version?: string;
  /** Bearer token a scraper must send; without one, `/metrics` is off. */
  token?: string | undefined;
}

/** True when the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasBearer(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Prometheus metrics for one Fastify app: request rate, latency histogram, errors and requests in flight,
 * per route and service, plus `college_ready_app_info`. The registry is exposed as `app.metricsRegistry`.
 */
export function installMetrics(
  app: FastifyInstance,
  registry: client.Registry,
  path = '/metrics',
  opts: MetricsOptions = {},
): void {
  if (!defaultsCollected) {
    client.collectDefaultMetrics({ register: registry });
    defaultsCollected = true;
  }
  const processName = opts.process ?? 'gateway';
  app.decorate('metricsRegistry', registry);
  new client.Gauge({
    name: 'college_ready_app_info',
    help: 'Always 1; labels say which service (process) and build this is',
    labelNames: ['service', 'version', 'node'] as const,
    registers: [registry],
  }).set(
    {
      service: processName,
      version: opts.version ?? process.env.APP_VERSION ?? 'dev',
      node: process.version,
    },
    1,
  );
  // Per request, only plain counts on a tally of the route (its label values made once); the Prometheus
  // metrics take them when they are read. prom-client's inc / observe build and hash a label set on every
  // call, and three of them were a measurable share of a cheap request (docs/performance.md).
  const tallies = new Map<string, RouteTally>();
  const takeCounts = (each: (t: RouteTally) => void) => {
    for (const t of tallies.values()) each(t);
  };
  new client.Counter({
    name: 'college_ready_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status', 'service'] as const,
    registers: [registry],
    collect() {
      takeCounts((t) => {
        for (const [status, n] of t.statuses) {
          if (n) this.inc({ ...t.labels, status: String(status) }, n);
          t.statuses.set(status, 0);
        }
      });
    },
  });
  new client.Counter({
    name: 'college_ready_http_request_errors_total',
    help: 'HTTP requests answered with a 5xx',
    labelNames: ['method', 'route', 'service'] as const,
    registers: [registry],
    collect() {
      takeCounts((t) => {
        if (t.errors) this.inc(t.labels, t.errors);
        t.errors = 0;
      });
    },
  });
  registry.registerMetric(routeHistogram(tallies) as unknown as client.Metric);
  // A plain count read at scrape time, and callback-style hooks: async hooks and a gauge update per
  // request cost a measurable share of a cheap route's throughput.
  let inFlight = 0;
  new client.Gauge({
    name: 'college_ready_http_requests_in_flight',
    help: 'HTTP requests being handled now (saturation; drains to 0 on graceful shutdown)',
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  // Counted out once, by whichever of onResponse / onRequestAbort comes first: a flag on the request (a
  // WeakSet of requests in flight cost an insertion and a deletion in a weak table per request).
  app.decorateRequest(IN_FLIGHT, false);
  const done = (request: object) => {
    const r = request as { [IN_FLIGHT]: boolean };
    if (!r[IN_FLIGHT]) return;
    r[IN_FLIGHT] = false;
    inFlight--;
  };
  /** A route's tallies by method, found by its config object (one per route): no key built per request. */
  const byRoute = new WeakMap<object, Record<string, RouteTally>>();
  const tallyOf = (method: string, config: { url?: string; service?: string } | undefined) => {
    const own = config ? byRoute.get(config) : undefined;
    const hit = own?.[method];
    if (hit) return hit;
    const route = config?.url ?? 'unmatched';
    const service = config?.service ?? processName;
    const key = `${method} ${route} ${service}`;
    let t = tallies.get(key);
    if (!t) {
      t = {
        labels: { method, route, service },
        statuses: new Map(),
        errors: 0,
        buckets: new Array<number>(BUCKETS.length + 1).fill(0),
        sum: 0,
      };
      tallies.set(key, t);
    }
    if (config) {
      if (own) own[method] = t;
      else byRoute.set(config, { [method]: t });
    }
    return t;
  };
  addRequestStep(app, (request) => {
    (request as unknown as { [IN_FLIGHT]: boolean })[IN_FLIGHT] = true;
    inFlight++;
  });
  app.addHook('onRequestAbort', (request, next) => {
    done(request);
    next();
  });
  app.addHook('onResponse', (request, reply, next) => {
    try {
      done(request);
      const config = request.routeOptions.config as { url?: string; service?: string } | undefined;
      if (config?.url === path) return;
      const t = tallyOf(request.method, config);
      const status = reply.statusCode;
      t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
      if (status >= 500) t.errors++;
      const seconds = reply.elapsedTime / 1000;
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
      t.buckets[i]!++;
      t.sum += seconds;
    } finally {
      next();
    }
  });
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    // Whoever reaches the port (the ingress relays the whole world to the gateway's) must show the
    // scraper's token: nothing a client can put in a header opens it otherwise.
    if (!opts.token) {
      return reply.status(404).send({
        success: false,
        message: KIT_MSG.metricsOff(path),
        code: 'NOT_FOUND',
      });
    }
    if (!hasBearer(request.headers.authorization, opts.token)) {
      return reply.status(401).send({
        success: false,
        message: `${path} needs the METRICS_TOKEN as a bearer token`,
        code: 'UNAUTHENTICATED',
      });
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

/**
 * `college_ready_queue_jobs{queue,state}`: jobs per state of each named queue, read from the queue when scraped (so
 * every replica reports the shared truth; aggregate with `max`, not `sum`). Safe to call once per
 * registry; later calls add queues.
 */
export function installQueueMetrics(
  registry: client.Registry,
  queue: QueueBackend,
  queues: readonly string[],
): void {
  const existing = registry.getSingleMetric('college_ready_queue_jobs') as
    (client.Gauge<'queue' | 'state'> & { queues?: Set<string> }) | undefined;
  if (existing?.queues) {
    for (const q of queues) existing.queues.add(q);
    return;
  }
  const names = new Set(queues);
  const gauge = new client.Gauge({
    name: 'college_ready_queue_jobs',
    help: 'Jobs per queue and state, read from the queue at scrape; waiting includes BullMQ prioritized jobs. The worker autoscaler follows waiting+active of the queues the worker serves',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      await Promise.all(
        [...names].map(async (q) => {
          try {
            const c = await queue.counts(q);
            for (const [state, n] of Object.entries(c)) this.set({ queue: q, state }, n);
          } catch {
            // The queue is unreachable: report nothing rather than a stale or made-up depth.
            for (const state of ['waiting', 'delayed', 'active', 'completed', 'failed'])
              this.remove({ queue: q, state });
          }
        }),
      );
    },
  });
  Object.assign(gauge, { queues: names });
}

export { client as prom };
