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
import { BullQueue, openQueue, type JobState, type QueueBackend, type QueueCounts } from '@ct/queue';
import { AppError, KIT_MSG, requireAdmin, requireUser, type ServiceClients } from '@ct/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config.ts';
import { GATEWAY_MSG } from '../../messages.ts';
import { renderQueuesPage, signInPage } from './pages.ts';
import {
  cookieValue,
  createOpsSession,
  OPS_COOKIE,
  OPS_PATH,
  readOpsSession,
  type OpsSession,
} from './session.ts';

export { OPS_COOKIE, OPS_PATH } from './session.ts';

export interface OpsOptions {
  config: GatewayConfig;
  /** Role lookups with the auth service (in-process in the embedded run, HTTP otherwise). */
  clients: ServiceClients;
  /** Signs the dashboard cookie (OPS_SESSION_SECRET): never the internal token. */
  opsSessionSecret: string;
  /**
   * Why a session started by this sign-in must end (account disabled, tokens revoked, deleted), or null:
   * the bearer path's checks, asked on every cookie request.
   */
  accountRefusal: (uid: string, authTime: number) => Promise<string | null>;
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
  const { config, clients, opsSessionSecret, accountRefusal } = opts;
  const endSession = (reply: FastifyReply) =>
    reply.header('set-cookie', `${OPS_COOKIE}=; Path=${OPS_PATH}; Max-Age=0; HttpOnly; SameSite=Strict`);

  /**
   * A cookie's session holds while its account does and its admin role has not been taken away since it
   * started: the account's state as the bearer path checks it (disabled, tokens revoked, deleted), then the
   * role and when it was granted (a role revoked and granted again does not bring an old session back).
   * A refused session is ended: the browser is told to drop the cookie.
   */
  async function requireSessionAdmin(request: FastifyRequest, reply: FastifyReply, s: OpsSession) {
    try {
      const refused = await accountRefusal(s.uid, s.authTime);
      if (refused) throw new AppError('UNAUTHENTICATED', refused);
      let grant: { role: string | null; grantedAtMs?: number | null | undefined } = { role: null };
      try {
        grant = await clients.call(internalGetRole, { params: { uid: s.uid }, requestId: request.id });
      } catch (err) {
        request.log.warn({ err }, 'role lookup failed; treating as not admin');
      }
      if (grant.role !== 'admin' || (grant.grantedAtMs ?? 0) > s.startedAtMs)
        throw new AppError('FORBIDDEN', KIT_MSG.adminsOnly);
      return s.uid;
    } catch (err) {
      endSession(reply);
      throw err;
    }
  }

  /** The admin's uid, from the bearer token (API clients) or the dashboard cookie (browsers). */
  const requireOpsAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    const s = request.auth
      ? null
      : readOpsSession(opsSessionSecret, cookieValue(request.headers.cookie, OPS_COOKIE));
    if (s) return requireSessionAdmin(request, reply, s);
    return requireAdmin(request, clients, requireUser(request));
  };

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
      const authTime = request.auth?.authTime ?? Math.floor(Date.now() / 1000);
      const secure = config.NODE_ENV === 'production' || request.protocol === 'https';
      reply.header(
        'set-cookie',
        `${OPS_COOKIE}=${createOpsSession(opsSessionSecret, uid, SESSION_TTL_S, Date.now(), authTime)}; Path=${OPS_PATH}; Max-Age=${SESSION_TTL_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
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
    async (request, reply) => {
      await requireOpsAdmin(request, reply);
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
        await requireOpsAdmin(request, reply);
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
