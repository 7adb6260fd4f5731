import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import {
  ESSAY_EXAMPLES_QUEUE,
  EVENT_SUBSCRIBERS,
  eventQueueName,
  INGESTION_QUEUE,
  type ServiceName,
} from '@ct/contracts';
import { BullQueue, openQueue, type JobState, type QueueBackend, type QueueCounts } from '@ct/queue';
import { AppError, requireAdmin, requireUser, type ServiceClients } from '@ct/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config.ts';
import { GATEWAY_MSG } from '../../messages.ts';
import { renderQueuesPage, signInPage } from './pages.ts';
import { cookieValue, createOpsSession, OPS_COOKIE, OPS_PATH, readOpsSession } from './session.ts';

export { OPS_COOKIE, OPS_PATH } from './session.ts';

export interface OpsOptions {
  config: GatewayConfig;
  /** Role lookups with the auth service (in-process in the embedded run, HTTP otherwise). */
  clients: ServiceClients;
  /** Signs the dashboard cookie (OPS_SESSION_SECRET): never the internal token. */
  opsSessionSecret: string;
  /** The embedded run's queue; absent in the distributed run (the dashboard reads Redis itself). */
  queue?: QueueBackend | undefined;
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
export default async function ops(app: FastifyInstance, opts: OpsOptions): Promise<void> {
  const { config, clients, opsSessionSecret } = opts;
  /** The admin's uid, from the bearer token (API clients) or the dashboard cookie (browsers). */
  const requireOpsAdmin = (request: FastifyRequest) =>
    requireAdmin(
      request,
      clients,
      (request.auth
        ? null
        : readOpsSession(opsSessionSecret, cookieValue(request.headers.cookie, OPS_COOKIE))) ??
        requireUser(request),
    );

  // ---- the queue source: BullMQ on REDIS_URL (the queues of every process), else the embedded queue -----
  let source: QueueBackend | undefined = opts.queue;
  if (config.REDIS_URL) {
    source = openQueue({ url: config.REDIS_URL, prefix: config.QUEUE_PREFIX });
    const own = source;
    app.addHook('onClose', () => own.close());
  }
  const bull = source instanceof BullQueue ? source : null;
  /** Known queues plus any other BullMQ queue under the prefix. */
  async function queueNames(): Promise<string[]> {
    const found = bull ? await bull.queueNames() : [];
    return [...new Set([...knownQueues(), ...found])].sort();
  }
  async function views(): Promise<QueueView[]> {
    return Promise.all(
      (await queueNames()).map(async (name) => ({ name, counts: await source!.counts(name) })),
    );
  }
  const kind: 'bullmq' | 'memory' | 'none' = source?.kind ?? 'none';

  // ---- API ------------------------------------------------------------------------------------------------
  app.post(
    '/api/ops/session',
    { schema: { tags: ['ops'], summary: 'Start a queue dashboard session in this browser (admins)' } },
    async (request, reply) => {
      // Only a bearer token starts a session: a cookie cannot renew itself.
      const uid = await requireAdmin(request, clients);
      const secure = config.NODE_ENV === 'production' || request.protocol === 'https';
      reply.header(
        'set-cookie',
        `${OPS_COOKIE}=${createOpsSession(opsSessionSecret, uid, SESSION_TTL_S)}; Path=${OPS_PATH}; Max-Age=${SESSION_TTL_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
      );
      request.log.info({ uid }, 'queue dashboard session started');
      return { success: true, message: GATEWAY_MSG.opsSessionStarted, url: OPS_PATH };
    },
  );
  app.delete(
    '/api/ops/session',
    { schema: { tags: ['ops'], summary: 'End the queue dashboard session in this browser' } },
    async (_request, reply) => {
      reply.header('set-cookie', `${OPS_COOKIE}=; Path=${OPS_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`);
      return { success: true, message: GATEWAY_MSG.opsSessionEnded };
    },
  );
  app.get(
    '/api/ops/queues',
    { schema: { tags: ['ops'], summary: 'Jobs per state of every queue (admins)' } },
    async (request) => {
      await requireOpsAdmin(request);
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
        await requireOpsAdmin(request);
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
        board.replaceQueues(names.map((n) => new BullMQAdapter(bull!.bullmq(n), { readOnlyMode: true })));
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
          kind === 'memory'
            ? await Promise.all(
                list.map(async (v) => ({ name: v.name, jobs: await source!.list(v.name, STATES, 20) })),
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
