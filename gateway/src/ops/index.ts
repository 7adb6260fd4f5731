import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import {
  ESSAY_EXAMPLES_QUEUE,
  EVENT_SUBSCRIBERS,
  eventQueueName,
  INGESTION_QUEUE,
  internalGetRole,
  type ServiceName,
} from '@ct/contracts';
import type { JobState, QueueBackend, QueueCounts } from '@ct/queue';
import {
  AppError,
  createClients,
  httpTransport,
  requireUser,
  serviceUrls,
  type ServiceClients,
  type Transport,
} from '@ct/service-kit';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.ts';
import { renderQueuesPage, signInPage } from './pages.ts';
import { cookieValue, createOpsSession, OPS_COOKIE, OPS_PATH, readOpsSession } from './session.ts';

export { OPS_COOKIE, OPS_PATH } from './session.ts';

export interface OpsOptions {
  config: GatewayConfig;
  internalToken: string;
  /** Signs the dashboard cookie (OPS_SESSION_SECRET): never the internal token. */
  opsSessionSecret: string;
  /** The embedded run's queue; absent in the distributed run (the dashboard reads Redis itself). */
  queue?: QueueBackend | undefined;
  embedded: boolean;
}

/** Queues every deployment has, named by the contracts; more are found in Redis as they appear. */
export function knownQueues(): string[] {
  const events = new Set(Object.values(EVENT_SUBSCRIBERS).flat() as ServiceName[]);
  return [INGESTION_QUEUE, ESSAY_EXAMPLES_QUEUE, ...[...events].map(eventQueueName)];
}

const SESSION_TTL_S = 60 * 60;
const STATES: JobState[] = ['waiting', 'active', 'delayed', 'failed', 'completed'];

/** Counts and recent jobs of one queue, the same shape whichever queue backs it. */
interface QueueView {
  name: string;
  counts: QueueCounts;
}

/**
 * The operators' queue dashboard, behind the admin role: bull-board (read-only) at /ops/queues when the
 * queue is BullMQ, a plain read-only page for the embedded run's in-process queue, and JSON counts at
 * GET /api/ops/queues. Browsers get in with POST /api/ops/session (admin bearer token), which sets a
 * short-lived signed cookie scoped to /ops; every request checks the admin role with the auth service again.
 */
export async function registerOps(app: FastifyInstance, opts: OpsOptions): Promise<void> {
  const { config, opsSessionSecret } = opts;
  const clients = opsClients(app, opts);
  // Looked up on every request, like every admin route: a revoked admin is out at once. The dashboard
  // polls every few seconds per open tab, which is one indexed read in the auth service.
  async function isAdmin(request: FastifyRequest, uid: string): Promise<boolean> {
    try {
      return (await clients.call(internalGetRole, { params: { uid } })).role === 'admin';
    } catch (err) {
      request.log.warn({ err }, 'role lookup failed; treating as not admin');
      return false;
    }
  }

  /** The admin's uid, from the bearer token (API clients) or the dashboard cookie (browsers). */
  async function requireAdmin(request: FastifyRequest): Promise<string> {
    const fromCookie = request.auth
      ? null
      : readOpsSession(opsSessionSecret, cookieValue(request.headers.cookie, OPS_COOKIE));
    const uid = fromCookie ?? requireUser(request);
    if (!(await isAdmin(request, uid))) throw new AppError('FORBIDDEN', 'Admins only');
    return uid;
  }

  // ---- the queue source ---------------------------------------------------------------------------------
  let redis: Redis | null = null;
  const bullQueues = new Map<string, Queue>();
  if (config.REDIS_URL) {
    redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
    // Reconnection is automatic; an unhandled 'error' would crash the gateway while Redis restarts.
    redis.on('error', () => {});
    app.addHook('onClose', async () => {
      await Promise.all([...bullQueues.values()].map((q) => q.close().catch(() => {})));
      redis?.disconnect();
    });
  }
  const bullQueue = (name: string) => {
    let q = bullQueues.get(name);
    if (!q) {
      q = new Queue(name, { connection: redis!, prefix: config.QUEUE_PREFIX });
      q.on('error', () => {});
      bullQueues.set(name, q);
    }
    return q;
  };
  /** Known queues plus any other BullMQ queue under the prefix (found by its events stream). */
  async function queueNames(): Promise<string[]> {
    const names = new Set(knownQueues());
    if (redis) {
      const pattern = `${config.QUEUE_PREFIX}:*:events`;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        for (const k of keys) names.add(k.slice(config.QUEUE_PREFIX.length + 1, -':events'.length));
      } while (cursor !== '0');
    }
    return [...names].sort();
  }
  async function views(): Promise<QueueView[]> {
    const names = await queueNames();
    return Promise.all(
      names.map(async (name) => {
        if (opts.queue && !redis) return { name, counts: await opts.queue.counts(name) };
        const c = await bullQueue(name).getJobCounts(
          'wait',
          'prioritized',
          'delayed',
          'active',
          'completed',
          'failed',
        );
        return {
          name,
          counts: {
            waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
            delayed: c.delayed ?? 0,
            active: c.active ?? 0,
            completed: c.completed ?? 0,
            failed: c.failed ?? 0,
          },
        };
      }),
    );
  }
  const kind: 'bullmq' | 'memory' | 'none' = redis ? 'bullmq' : opts.queue ? 'memory' : 'none';

  // ---- API ------------------------------------------------------------------------------------------------
  app.post(
    '/api/ops/session',
    { schema: { tags: ['ops'], summary: 'Start a queue dashboard session in this browser (admins)' } },
    async (request, reply) => {
      // Only a bearer token starts a session: a cookie cannot renew itself.
      const uid = requireUser(request);
      if (!(await isAdmin(request, uid))) throw new AppError('FORBIDDEN', 'Admins only');
      const secure = config.NODE_ENV === 'production' || request.protocol === 'https';
      reply.header(
        'set-cookie',
        `${OPS_COOKIE}=${createOpsSession(opsSessionSecret, uid, SESSION_TTL_S)}; Path=${OPS_PATH}; Max-Age=${SESSION_TTL_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
      );
      request.log.info({ uid }, 'queue dashboard session started');
      return { success: true, message: 'Queue dashboard session started', url: OPS_PATH };
    },
  );
  app.delete(
    '/api/ops/session',
    { schema: { tags: ['ops'], summary: 'End the queue dashboard session in this browser' } },
    async (_request, reply) => {
      reply.header('set-cookie', `${OPS_COOKIE}=; Path=${OPS_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`);
      return { success: true, message: 'Queue dashboard session ended' };
    },
  );
  app.get(
    '/api/ops/queues',
    { schema: { tags: ['ops'], summary: 'Jobs per state of every queue (admins)' } },
    async (request) => {
      await requireAdmin(request);
      return {
        success: true,
        kind,
        dashboard: kind === 'none' ? null : OPS_PATH,
        queues: await views(),
      };
    },
  );

  // ---- the dashboard pages --------------------------------------------------------------------------------
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      try {
        await requireAdmin(request);
      } catch (err) {
        if (!(err instanceof AppError) || !wantsHtml(request)) throw err;
        return reply
          .status(err.statusCode)
          .type('text/html; charset=utf-8')
          .send(signInPage(err.statusCode, config.PRODUCT_NAME));
      }
    });

    if (kind === 'bullmq') {
      const adapter = new FastifyAdapter();
      const board = createBullBoard({
        queues: [],
        serverAdapter: adapter,
        options: { uiConfig: { boardTitle: `${config.PRODUCT_NAME} queues` } },
      });
      // Read-only: retries go through the admin page, so the request rows (the source of truth) follow.
      const sync = async () => {
        const names = await queueNames();
        board.replaceQueues(names.map((n) => new BullMQAdapter(bullQueue(n), { readOnlyMode: true })));
      };
      await sync();
      // Queues that appear later (a new service) show up on the next page load.
      scope.addHook('onRequest', async (request) => {
        if (request.url === OPS_PATH || request.url === `${OPS_PATH}/`) await sync();
      });
      adapter.setBasePath(OPS_PATH);
      await scope.register(adapter.registerPlugin(), { prefix: OPS_PATH });
    } else {
      scope.get(OPS_PATH, { schema: { hide: true } }, async (_request, reply) => {
        const list = await views();
        const recent =
          kind === 'memory' && opts.queue
            ? await Promise.all(
                list.map(async (v) => ({ name: v.name, jobs: await opts.queue!.list(v.name, STATES, 20) })),
              )
            : [];
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderQueuesPage({ productName: config.PRODUCT_NAME, kind, queues: list, recent }));
      });
    }
  });
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** Role lookups from the gateway: in-process in the embedded run, HTTP to the auth service otherwise. */
function opsClients(app: FastifyInstance, opts: OpsOptions): ServiceClients {
  if (!opts.embedded) return createClients(httpTransport(serviceUrls(opts.config)), opts.internalToken);
  const transport: Transport = async (_svc, req) => {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      ...(req.body !== undefined ? { payload: req.body } : {}),
    });
    return { statusCode: res.statusCode, body: res.body };
  };
  return createClients(transport, opts.internalToken);
}
